/* src/procs/isolate.c: workers, the child processes that run configurations.
 *
 * For a span of configurations (one plugin's) the parent makes a pipe
 * (close-on-exec) and a shared page, flushes its streams and forks. The
 * worker makes its own process group, reads standard input from /dev/null,
 * points its standard output at standard error (a plugin's printf must not
 * reach machine-readable output), ignores SIGINT and SIGTERM (the parent
 * decides when to stop) and loads the plugin's code (LOADFAIL with the
 * reason when it cannot). For each configuration it sends START, then the
 * devices it opened and the ROW (with its samples). Before each step it
 * writes the step to the shared page, and sends CLOCK when the step changes
 * between preparing (opening the device, measuring its peak, making the
 * input: no plugin code) and the plugin's callbacks. After a configuration
 * it ends every other process of its group (what the plugin forked), and
 * when the plugin left threads running it waits a moment for them (a crash
 * then is that configuration's) and ends itself after the row, so that
 * they cannot reach the next configuration.
 *
 * A worker keeps no descriptor of the parent's but its pipe and the
 * standard streams.
 *
 * The parent reads the pipe with poll(). Preparing gets `timeout` seconds
 * and never less than ISOLATE_PREPARE_MIN (a large input takes time to
 * make); the plugin's callbacks get `timeout` seconds from the moment they
 * begin (describe, then init to teardown once the input is ready); after a
 * ROW the worker has `timeout` seconds to announce the next.
 * Past a deadline the worker is killed. A worker that ends with a
 * configuration in progress turns it into a `failed` row whose reason names
 * the signal or exit status and the step; the parent then forks a fresh
 * worker for the rest of the span. The parent sees a worker end by waiting
 * for it, not by the end of the pipe (a process the plugin forked may hold
 * the pipe open), and then kills the worker's whole process group. */
#define _GNU_SOURCE /* pipe2 */
#include "procs/isolate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/descriptors.h"
#include "base/names.h"
#include "base/util.h"
#include "config/keys.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "procs/rank_hub.h"
#include "procs/row_wire.h"

/* Seconds that opening the device and preparing the input get at least. */
#define ISOLATE_PREPARE_MIN 120.0
/* Seconds a worker waits after a configuration for the threads its plugin
 * left running to end. */
#define ISOLATE_THREAD_GRACE 0.25
/* The longest reason a LOADFAIL message carries. */
#define ISOLATE_REASON_MAX 1024

enum message_type { MSG_START = 1, MSG_CLOCK, MSG_DEVICE, MSG_ROW, MSG_LOADFAIL };

typedef struct message_header {
    uint32_t type;   /* enum message_type */
    uint32_t pad;
    uint64_t index;  /* configuration; device record for MSG_DEVICE; for
                        MSG_CLOCK 1 when preparing, 0 in callbacks */
    uint64_t length; /* bytes of payload that follow */
} message_header;

/* The page a worker writes its step to; the parent reads it after the
 * worker ended. */
typedef struct shared_page {
    atomic_int step;
} shared_page;

/* The worker's side: where steps and messages go. */
static shared_page *worker_page;
static int worker_fd = -1;
/* The most hub sockets a worker keeps (a launcher of this many processes,
 * and its helper). */
#define ISOLATE_HUB_FDS_MAX (RB_DATA_LARGEST_RANKS + 1)
static int worker_preparing; /* the kind of step the parent's clock times */
static int worker_threads = -1; /* threads when the configuration's init began */

/* ---- names ---- */

const char *isolate_step_name(int step)
{
    static const char *const names[RB_STEP_COUNT_] = {
        "the worker, between configurations",
        "opening the device",
        "measuring the peak bandwidth",
        "preparing the input",
        "describe",
        "init",
        "run (warm-up)",
        "run",
        "verify",
        "teardown",
        "recover",
        "loading the plugin",
        "threads the plugin left running after teardown",
    };
    return step >= 0 && step < RB_STEP_COUNT_ ? names[step] : "an unknown step";
}

/* ---- the worker ---- */

static int step_prepares(int step)
{
    return step == RB_STEP_OPEN || step == RB_STEP_PEAK || step == RB_STEP_INPUT;
}

/* Writes all of `len` bytes; a worker whose parent is gone just ends. */
static void send_bytes(const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t done = write(worker_fd, p, len);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            _exit(3);
        p += done;
        len -= (size_t)done;
    }
}

static void send_message(int type, uint64_t index, const void *payload, size_t length,
                         const void *more, size_t more_length)
{
    message_header h = {.type = (uint32_t)type, .index = index,
                        .length = (uint64_t)(length + more_length)};
    send_bytes(&h, sizeof h);
    if (length)
        send_bytes(payload, length);
    if (more_length)
        send_bytes(more, more_length);
}

/* The threads of this process, or -1 when unknown. */
static int thread_count(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    int count = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &count) == 1)
            break;
    fclose(f);
    return count;
}

static void (*forward_step)(int step);

void isolate_forward_steps(void (*forward)(int step))
{
    forward_step = forward;
    worker_page = NULL;
}

void isolate_still_working(void)
{
    if (worker_page && !forward_step)
        send_message(MSG_CLOCK, (uint64_t)worker_preparing, NULL, 0, NULL, 0);
}

void isolate_step(int step)
{
    if (forward_step) {
        forward_step(step);
        return;
    }
    if (!worker_page)
        return;
    if (step == RB_STEP_INIT && worker_threads < 0)
        worker_threads = thread_count();
    atomic_store_explicit(&worker_page->step, step, memory_order_relaxed);
    if (step == RB_STEP_STARTING || step_prepares(step) == worker_preparing)
        return;
    worker_preparing = step_prepares(step);
    send_message(MSG_CLOCK, (uint64_t)worker_preparing, NULL, 0, NULL, 0);
}

static void send_row(const rb_results *res, size_t index)
{
    size_t length;
    char *packed = row_wire_pack(&res->rows[index], &length);
    send_message(MSG_ROW, index, packed, length, NULL, 0);
    free(packed);
}

static void nap_ms(long ms)
{
    struct timespec nap = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&nap, NULL);
}

/* Reaps the worker's children that have ended. */
static void reap_children(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

/* Whether this worker has children: as a subreaper it also inherits every
 * orphan among its descendants, so none means no descendants at all. When
 * the kernel cannot say, 1. */
static int has_children(void)
{
#ifdef __linux__
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks)
        return 1;
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(tasks))) {
        if (e->d_name[0] == '.')
            continue;
        char path[96], c;
        snprintf(path, sizeof path, "/proc/self/task/%.32s/children", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || read(fd, &c, 1) != 0)
            found = 1;
        if (fd >= 0)
            close(fd);
    }
    closedir(tasks);
    return found;
#else
    return 1;
#endif
}

/* The processes a worker keeps between configurations (a rank group that
 * stays up, procs/ranks.c): end_group_others spares them. */
static pid_t kept_pids[RB_KEPT_MAX];
static size_t n_kept;

void isolate_keep_processes(const pid_t *pids, size_t count)
{
    n_kept = 0;
    for (size_t k = 0; k < count && n_kept < RB_KEPT_MAX; k++)
        if (pids[k] > 0)
            kept_pids[n_kept++] = pids[k];
}

static int kept_process(long pid)
{
    for (size_t k = 0; k < n_kept; k++)
        if (kept_pids[k] == (pid_t)pid)
            return 1;
    return 0;
}

/* Ends every other process of this worker's process group (what a plugin
 * forked, and what those forked) and its children (orphans it inherited),
 * and reaps them. Returns how many it ended. */
static int end_group_others(void)
{
    int ended = 0;
#ifdef __linux__
    if (!has_children())
        return 0;
    pid_t self = getpid(), group = getpgrp();
    for (int round = 0; round < 8; round++) {
        DIR *proc = opendir("/proc");
        if (!proc)
            break;
        int found = 0;
        struct dirent *e;
        while ((e = readdir(proc))) {
            char *end;
            long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 0 || pid == self || kept_process(pid))
                continue;
            char path[64], stat[512];
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            ssize_t got = read(fd, stat, sizeof stat - 1);
            close(fd);
            if (got <= 0)
                continue;
            stat[got] = '\0';
            char *paren = strrchr(stat, ')'); /* the name may hold anything */
            char state;
            int ppid, pgrp;
            if (!paren || sscanf(paren + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
                continue;
            if ((pgrp == group || ppid == self) && state != 'Z' && state != 'X') {
                kill((pid_t)pid, SIGKILL);
                found++;
            }
        }
        closedir(proc);
        reap_children();
        if (!found)
            break;
        ended += found;
        nap_ms(1);
    }
    for (int k = 0; ended && k < 50; k++) { /* killed children become zombies: reap them */
        reap_children();
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            break;
        nap_ms(2);
    }
#endif
    return ended;
}

/* After a configuration: ends what its plugin left behind. Threads it left
 * running get ISOLATE_THREAD_GRACE to end (a crash meanwhile is this
 * configuration's); returns 1 when some still run, and this worker must
 * end after the row so that they cannot reach another configuration. */
static int end_leftovers(void)
{
    end_group_others();
    int before = worker_threads;
    worker_threads = -1;
    if (before <= 0)
        return 0;
    int now = thread_count();
    if (now <= before)
        return 0;
    isolate_step(RB_STEP_LEFTOVER);
    for (int waited = 0; waited < (int)(ISOLATE_THREAD_GRACE * 1000) && now > before;
         waited += 5) {
        nap_ms(5);
        now = thread_count();
    }
    return now > before;
}

static void worker_main(const rb_isolation *iso, size_t first, size_t last, pid_t parent,
                        const rb_loaded_plugin *plugin)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans of what a plugin forks come here */
#endif
    setpgid(0, 0); /* the parent does it too: whichever runs first */
    if (getppid() != parent)
        _exit(3);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_DFL);
    /* A worker is not in the terminal's foreground group: a plugin that
     * reads or writes the terminal must not stop it. */
    signal(SIGTTIN, SIG_IGN);
    signal(SIGTTOU, SIG_IGN);
    /* Nothing reads this process's standard input; anything a plugin
     * prints goes to standard error. */
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        _exit(3);
    close(null);
    /* The plugin gets the pipe to the parent and the standard streams,
     * nothing else the parent had open (results, the caller's descriptors,
     * other workers' pipes), but for the hub's sockets under a launcher,
     * through which this worker asks the launcher's processes to start
     * their ranks. */
    {
        int keep[1 + ISOLATE_HUB_FDS_MAX];
        keep[0] = worker_fd;
        size_t n_keep = 1 + hub_descriptors(keep + 1, ISOLATE_HUB_FDS_MAX);
        descriptors_close_all_but(keep, n_keep);
    }
    if (plugin) {
        char why[ISOLATE_REASON_MAX];
        isolate_step(RB_STEP_LOAD);
        if (registry_load_code(plugin, why, sizeof why) != 0) {
            char *shown = printable_text(why);
            send_message(MSG_LOADFAIL, first, shown, strlen(shown), NULL, 0);
            _exit(0);
        }
        isolate_step(RB_STEP_STARTING);
    }
    rb_run_info *info = &iso->res->info;
    size_t devices_sent = info->n_devices;
    for (size_t k = first; k < last; k++) {
        isolate_step(RB_STEP_STARTING);
        send_message(MSG_START, k, NULL, 0, NULL, 0);
        worker_preparing = 1; /* the parent's clock after START */
        worker_threads = -1;
        int must_end = iso->run(iso->user, k);
        if (end_leftovers())
            must_end = 1;
        isolate_step(RB_STEP_STARTING);
        for (; devices_sent < info->n_devices; devices_sent++)
            send_message(MSG_DEVICE, devices_sent, &info->devices[devices_sent],
                         sizeof info->devices[devices_sent], NULL, 0);
        send_row(iso->res, k);
        if (must_end)
            break;
    }
    if (iso->worker_end)
        iso->worker_end(iso->user);
    fflush(stdout);
    fflush(stderr);
    _exit(0);
}

/* ---- the parent ---- */

typedef struct worker {
    pid_t pid;
    int fd;                /* read end of the pipe */
    shared_page *page;
    char *buf;             /* bytes read and not yet parsed */
    size_t len, cap;
    int ended;             /* the worker ended, or the pipe reached its end */
} worker;

static int worker_start(const rb_isolation *iso, worker *w, size_t first, size_t last,
                        const rb_loaded_plugin *plugin, char *why, size_t why_len)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(why, why_len, "cannot make a pipe for a worker process: %s", strerror(errno));
        return -1;
    }
    w->page = mmap(NULL, sizeof *w->page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    if (w->page == MAP_FAILED) {
        snprintf(why, why_len, "cannot map a page for a worker process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        w->page = NULL;
        return -1;
    }
    atomic_init(&w->page->step, RB_STEP_STARTING);
    fflush(NULL); /* what is buffered must not be written twice */
    pid_t parent = getpid();
    w->pid = fork();
    if (w->pid < 0) {
        snprintf(why, why_len, "cannot start a worker process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        munmap(w->page, sizeof *w->page);
        w->page = NULL;
        return -1;
    }
    if (w->pid == 0) {
        close(fds[0]);
        worker_fd = fds[1];
        worker_page = w->page;
        worker_main(iso, first, last, parent, plugin);
    }
    setpgid(w->pid, w->pid);
    close(fds[1]);
    w->fd = fds[0];
    fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* Whether the worker has ended (it is left to be reaped, so that its
 * process group's number stays its own). */
static int worker_ended(const worker *w)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == w->pid;
}

/* Reads what the pipe has; sets w->ended at its end. */
static void worker_read(worker *w)
{
    if (w->cap - w->len < 65536) {
        w->cap = w->cap ? w->cap * 2 : 131072;
        w->buf = xrealloc(w->buf, w->cap);
    }
    ssize_t got = read(w->fd, w->buf + w->len, w->cap - w->len);
    if (got > 0)
        w->len += (size_t)got;
    else if (got == 0 || (errno != EINTR && errno != EAGAIN))
        w->ended = 1;
}

/* Waits for the worker to end, killing it if it does not within `grace`
 * seconds (it may have closed its pipe and gone on); then kills what is
 * left of its process group and reaps it. Returns its status. */
static int worker_reap(worker *w, double grace)
{
    int status = 0;
    double until = monotonic_seconds() + grace;
    while (!worker_ended(w) && monotonic_seconds() <= until)
        nap_ms(2);
    kill(w->pid, SIGKILL); /* a no-op on one that has ended and is not reaped */
    siginfo_t info;
    while (waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    killpg(w->pid, SIGKILL); /* before reaping it frees the group's number */
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

static void worker_kill(worker *w)
{
    kill(w->pid, SIGKILL);
    worker_reap(w, 5.0);
}

/* Reads what the pipe holds now (it is non-blocking), up to a bound: a
 * process the plugin forked may still be writing to it. */
static void worker_drain(worker *w)
{
    for (int k = 0; k < 1024 && !w->ended; k++) {
        size_t before = w->len;
        worker_read(w);
        if (w->len == before)
            break;
    }
}

static void worker_close(worker *w)
{
    if (w->fd >= 0)
        close(w->fd);
    if (w->page)
        munmap(w->page, sizeof *w->page);
    free(w->buf);
    memset(w, 0, sizeof *w);
    w->fd = -1;
}

/* Why a worker ended in the middle of a step. */
static void describe_end(int status, int step, char *out, size_t len)
{
    const char *where = isolate_step_name(step);
    if (WIFSIGNALED(status))
        snprintf(out, len, "crashed with %s in %s", signal_name(WTERMSIG(status)),
                 where);
    else if (WIFEXITED(status))
        snprintf(out, len, "exited with status %d in %s", WEXITSTATUS(status), where);
    else
        snprintf(out, len, "ended (wait status %#x) in %s", (unsigned)status, where);
}

/* Where the parent is with one worker. */
typedef struct supervision {
    const rb_isolation *iso;
    const rb_loaded_plugin *plugin; /* the span's */
    char *load_failed;  /* why a worker could not load it */
    worker w;
    size_t next;        /* first configuration without a final row */
    size_t last;
    long current;       /* configuration in progress, -1 between them */
    int preparing;      /* the worker is preparing, not in a callback */
    double deadline;
    int rows;           /* rows received from this worker */
} supervision;

static void store_row(supervision *s, size_t index, const char *payload, size_t length)
{
    rb_results *res = s->iso->res;
    rb_row got;
    if (index >= res->n_rows || row_wire_unpack(payload, length, &got) != 0)
        return;
    rb_row *row = &res->rows[index];
    const rb_configuration *config = row->config;
    row_release(row);
    *row = got; /* a forked worker's static words and backend name are ours too */
    if (config)
        row->config = config;
}

static void store_device(supervision *s, size_t index, const char *payload, size_t length)
{
    rb_run_info *info = &s->iso->res->info;
    if (index >= RB_ARRAY_LEN(info->devices) || length != sizeof(rb_device_record))
        return;
    memcpy(&info->devices[index], payload, sizeof(rb_device_record));
    if (info->n_devices < index + 1)
        info->n_devices = index + 1;
}

static double prepare_limit(const rb_isolation *iso)
{
    return iso->timeout > ISOLATE_PREPARE_MIN ? iso->timeout : ISOLATE_PREPARE_MIN;
}

/* Acts on every whole message in the buffer. */
static void handle_messages(supervision *s)
{
    const rb_isolation *iso = s->iso;
    size_t at = 0;
    while (s->w.len - at >= sizeof(message_header)) {
        message_header h;
        memcpy(&h, s->w.buf + at, sizeof h);
        if (s->w.len - at - sizeof h < h.length)
            break;
        const char *payload = s->w.buf + at + sizeof h;
        double now = monotonic_seconds();
        switch (h.type) {
        case MSG_START:
            s->current = (long)h.index;
            if (iso->running)
                iso->running(iso->user, h.index);
            s->preparing = 1;
            s->deadline = now + prepare_limit(iso);
            break;
        case MSG_CLOCK:
            s->preparing = h.index != 0;
            s->deadline = now + (s->preparing ? prepare_limit(iso) : iso->timeout);
            break;
        case MSG_DEVICE:
            store_device(s, h.index, payload, h.length);
            break;
        case MSG_LOADFAIL:
            if (!s->load_failed)
                s->load_failed = xstrndup(payload, h.length < ISOLATE_REASON_MAX
                                                       ? (size_t)h.length
                                                       : ISOLATE_REASON_MAX);
            break;
        case MSG_ROW:
            store_row(s, h.index, payload, h.length);
            if (h.index + 1 > s->next)
                s->next = h.index + 1;
            if (iso->finished)
                iso->finished(iso->user, h.index);
            s->current = -1;
            s->rows++;
            s->deadline = now + iso->timeout;
            if (*iso->stop) {
                /* what the worker started after this row is dropped */
                s->w.len = 0;
                return;
            }
            break;
        }
        at += sizeof h + h.length;
    }
    memmove(s->w.buf, s->w.buf + at, s->w.len - at);
    s->w.len -= at;
}

/* The configuration a worker was on when it ended or was stopped: the one it
 * announced, or else the next one when the worker ended having done nothing
 * (so that every worker makes progress). */
static long abandoned(const supervision *s)
{
    if (s->current >= 0)
        return s->current;
    return s->rows == 0 && s->next < s->last ? (long)s->next : -1;
}

static void end_abandoned(supervision *s, int status, const char *reason)
{
    long k = abandoned(s);
    if (k < 0)
        return;
    s->iso->unfinished(s->iso->user, (size_t)k, status, reason);
    if (s->iso->finished)
        s->iso->finished(s->iso->user, (size_t)k);
    s->next = (size_t)k + 1;
}

/* Runs one worker from s->next until it ends, is killed or the span is done.
 * Returns 0 to go on with a fresh worker, 1 when a stop was requested. */
static int supervise(supervision *s)
{
    const rb_isolation *iso = s->iso;
    char why[512];
    s->current = -1;
    s->rows = 0;
    if (worker_start(iso, &s->w, s->next, s->last, s->plugin, why, sizeof why) != 0) {
        end_abandoned(s, RB_ROW_FAILED, why);
        return 0;
    }
    s->deadline = monotonic_seconds() + iso->timeout;
    int stopping = 0;
    for (;;) {
        if (*iso->stop_now) {
            /* the configuration in progress is abandoned; one the worker
             * had not announced yet is left for "interrupted before it ran" */
            worker_kill(&s->w);
            if (s->current >= 0)
                end_abandoned(s, RB_ROW_SKIPPED, "interrupted while it ran");
            stopping = 1;
            break;
        }
        if (*iso->stop && s->current < 0) {
            worker_kill(&s->w);
            stopping = 1;
            break;
        }
        if (!s->w.ended && worker_ended(&s->w)) {
            /* what it sent before it ended is all there is */
            worker_drain(&s->w);
            handle_messages(s);
            s->w.ended = 1;
        }
        if (s->w.ended) {
            int step = atomic_load(&s->w.page->step);
            int status = worker_reap(&s->w, 2.0);
            if (s->load_failed) {
                snprintf(why, sizeof why, "cannot be loaded in its worker process: %s",
                         s->load_failed);
                while (s->next < s->last) {
                    iso->unfinished(iso->user, s->next, RB_ROW_FAILED, why);
                    if (iso->finished)
                        iso->finished(iso->user, s->next);
                    s->next++;
                }
            } else if (abandoned(s) >= 0) {
                describe_end(status, step, why, sizeof why);
                end_abandoned(s, RB_ROW_FAILED, why);
            }
            break;
        }
        double left = s->deadline - monotonic_seconds();
        if (left <= 0) {
            int step = atomic_load(&s->w.page->step);
            worker_kill(&s->w);
            snprintf(why, sizeof why, "timed out after %g s in %s; killed",
                     s->preparing ? prepare_limit(iso) : iso->timeout, isolate_step_name(step));
            end_abandoned(s, RB_ROW_FAILED, why);
            break;
        }
        /* A short poll, so that a signal that arrives just before it is
         * seen soon. */
        int wait_ms = left > 0.25 ? 250 : (int)(left * 1000) + 1;
        struct pollfd pfd = {.fd = s->w.fd, .events = POLLIN};
        int ready = poll(&pfd, 1, wait_ms);
        if (ready > 0) {
            worker_read(&s->w);
            handle_messages(s);
        }
        if (iso->tick)
            iso->tick(iso->user);
    }
    worker_close(&s->w);
    return stopping || *iso->stop || *iso->stop_now;
}

size_t isolate_run(const rb_isolation *iso, size_t first, size_t last)
{
    supervision s;
    memset(&s, 0, sizeof s);
    s.iso = iso;
    s.next = first;
    s.last = last;
    if (first < last && first < iso->res->n_rows && iso->res->rows[first].config)
        s.plugin = iso->res->rows[first].config->plugin;
    while (s.next < s.last) {
        if (*iso->stop || *iso->stop_now)
            break;
        if (supervise(&s) != 0)
            break;
    }
    free(s.load_failed);
    return s.next;
}
