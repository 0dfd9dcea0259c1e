/* src/run/ranks.c: the ranks' leader (run/ranks.h): it starts the rank
 * processes of a configuration (forked; through mpirun for an MPI plugin;
 * or from the launcher's other processes, run/rank_hub.h), relays their
 * exchanges, watches their steps, ends them all when one crashes or stops
 * answering, and merges their rows; and the entry points of a rank that
 * mpirun or a launcher's process started. What a rank does on its side of
 * the link is run/rank_link.c. A rank that ends without its row, or a group
 * that sends nothing for most of the timeout, fails the row: the leader
 * names the rank and its step. It forwards rank 0's steps to its own
 * parent, and tells it once a second that the ranks work, so that its own
 * limit comes first. */
#define _GNU_SOURCE
#include "run/ranks.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/names.h"
#include "base/util.h"
#include "run/isolate.h"
#include "run/rank_hub.h"
#include "run/rank_link.h"


/* The share of the timeout a group may go without a word from any rank.
 * The parent's own timeout runs from the last time the leader said that
 * the ranks work; the leader says so when it hears from a rank and has not
 * said it for RANKS_TELL_SHARE of the timeout (or a second, if shorter).
 * The group's verdict then comes at least (1 - 0.75 - 0.1) of the timeout
 * before the parent's. */
#define RANKS_SILENCE_SHARE 0.75
#define RANKS_TELL_SHARE 0.1
/* Seconds a group may be silent while a rank prepares. */
#define RANKS_PREPARE_MIN 120.0
/* The longest message a rank sends: a row and its samples. */
#define RANKS_MESSAGE_MAX ((uint64_t)1 << 31)

/* A row's static words, sent as text (a rank that mpirun started has its
 * own addresses). */
typedef struct row_words {
    char timing[16];
    char stopped_by[16];
} row_words;

static const char *const known_words[] = {"launch", "graph", "device", "backend", "noise",
                                          "max_reps", "timeout", "profile", "ranks", NULL};

static const char *static_word(const char *text)
{
    for (const char *const *w = known_words; *w; w++)
        if (strncmp(*w, text, 15) == 0 && strlen(*w) < 16 && text[strlen(*w)] == '\0')
            return *w;
    return NULL;
}

/* ---- both sides ---- */

/* Runs configuration `cfg` as rank `rank` of `ranks` over socket `fd`,
 * sends the row, and ends the process. */
static void rank_main(runner *r, const rb_configuration *cfg, uint32_t rank, uint32_t ranks,
                      int fd, int whole_program, rank_run_fn run)
{
    rank_link_open(fd, rank);
    r->rank = rank;
    r->n_ranks = ranks;
    rb_configuration mine = *cfg;
    mine.n = ranks_count(r->exp, cfg->n, rank, ranks, &r->rank_offset);
    r->n_total = 0;
    for (uint32_t k = 0; k < ranks; k++) {
        uint64_t offset;
        r->n_total += ranks_count(r->exp, cfg->n, k, ranks, &offset);
    }
    rb_row row;
    memset(&row, 0, sizeof row);
    size_t devices_before = r->res->info.n_devices;
    run(r, &mine, &row);
    rb_run_info *info = &r->res->info;
    for (size_t k = devices_before; k < info->n_devices; k++)
        rank_send(fd, RM_DEVICE, rank, &info->devices[k], sizeof info->devices[k], NULL, 0);
    row.config = NULL;
    size_t samples = row.samples_ns ? row.stats.count : 0;
    struct {
        row_words words;
        rb_row row;
    } sent;
    memset(&sent, 0, sizeof sent);
    snprintf(sent.words.timing, sizeof sent.words.timing, "%s", row.timing ? row.timing : "");
    snprintf(sent.words.stopped_by, sizeof sent.words.stopped_by, "%s",
             row.stopped_by ? row.stopped_by : "");
    sent.row = row;
    rank_send(fd, RM_ROW, rank, &sent, sizeof sent, row.samples_ns,
                 samples * sizeof *row.samples_ns);
    fflush(stdout);
    fflush(stderr);
    if (whole_program)
        exit(0); /* an MPI plugin finalizes MPI at exit */
    _exit(0);
}

/* ---- the leader's side ---- */

typedef struct rank_proc {
    pid_t pid;         /* the forked rank; 0 when mpirun started it */
    pid_t started_pid; /* a rank mpirun started: its process, from HELLO */
    int fd;            /* -1 until an mpirun-started rank said HELLO */
    char *buf;
    size_t len, cap;
    int step;          /* the step it said it began */
    int done;          /* its row arrived */
    int ended;         /* its process or socket ended */
    double ended_at;   /* when the leader saw that */
    int status;        /* wait status of a forked rank that ended */
    unsigned char *exchanged; /* bytes of a pending exchange */
    size_t exchanged_len;
    int exchanging;
    rb_row row;
    double *samples;
} rank_proc;

typedef struct rank_group {
    runner *r;
    const rb_configuration *cfg;
    uint32_t n;
    rank_proc *procs;
    pid_t launcher;    /* mpirun, or 0 */
    int listen_fd;     /* for mpirun-started ranks, or -1 */
    char dir[64];      /* the private folder of the socket, "" when none */
    char failure[512]; /* why the group failed, "" while it has not */
    int forwarded_step;
    int hub;           /* ranks 1.. came from the launcher's processes */
    rank_run_fn run;   /* what each forked rank runs */
} rank_group;

static void group_fail(rank_group *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void group_fail(rank_group *g, const char *fmt, ...)
{
    if (g->failure[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->failure, sizeof g->failure, fmt, ap);
    va_end(ap);
}

/* The steps the ranks are in, as text: "rank 1 in run; ranks 0, 2, 3 in run". */
static void steps_text(const rank_group *g, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (uint32_t k = 0; k < g->n && at + 40 < len; k++) {
        const rank_proc *p = &g->procs[k];
        at += (size_t)snprintf(out + at, len - at, "%s%u %s%s", k ? ", " : "", k,
                               p->done ? "done" : p->ended ? "ended"
                               : p->fd < 0 ? "not started" : isolate_step_name(p->step),
                               p->exchanging ? " (waiting for the others)" : "");
    }
}

/* Sends every pending exchange its answer once all ranks have one. */
static void answer_exchange(rank_group *g)
{
    int any = 0, every = 1;
    size_t bytes = 0;
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        if (p->exchanging) {
            any = 1;
            bytes = p->exchanged_len;
        } else {
            every = 0;
        }
    }
    if (!any)
        return;
    int gone = 0;
    for (uint32_t k = 0; k < g->n; k++)
        if (!g->procs[k].exchanging && (g->procs[k].done || g->procs[k].ended))
            gone = 1;
    if (!every && !gone)
        return;
    for (uint32_t k = 0; k < g->n && every; k++)
        if (g->procs[k].exchanged_len != bytes) {
            group_fail(g, "the ranks exchanged different sizes (rank 0: %zu bytes, rank %u: "
                       "%zu)", g->procs[0].exchanged_len, k, g->procs[k].exchanged_len);
            every = 0;
            gone = 1;
        }
    unsigned char *all = NULL;
    if (every) {
        all = xmalloc(bytes * g->n + 1);
        for (uint32_t k = 0; k < g->n; k++)
            memcpy(all + k * bytes, g->procs[k].exchanged, bytes);
    }
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        if (!p->exchanging)
            continue;
        if (every)
            rank_send(p->fd, RM_GATHERED, k, all, bytes * g->n, NULL, 0);
        else
            rank_send(p->fd, RM_GONE, k, NULL, 0, NULL, 0);
        p->exchanging = 0;
        free(p->exchanged);
        p->exchanged = NULL;
    }
    free(all);
}

/* Keeps a device record a rank opened, once, in the leader's run info. */
static void keep_device(rank_group *g, const char *payload, size_t length)
{
    rb_run_info *info = &g->r->res->info;
    if (length != sizeof(rb_device_record))
        return;
    rb_device_record rec;
    memcpy(&rec, payload, sizeof rec);
    rec.backend[sizeof rec.backend - 1] = '\0';
    for (size_t k = 0; k < info->n_devices; k++)
        if (strcmp(info->devices[k].backend, rec.backend) == 0 &&
            info->devices[k].device == rec.device)
            return;
    if (info->n_devices < RB_ARRAY_LEN(info->devices))
        info->devices[info->n_devices++] = rec;
}

static void keep_row(rank_proc *p, const char *payload, size_t length)
{
    if (length < sizeof(row_words) + sizeof(rb_row))
        return;
    row_words words;
    memcpy(&words, payload, sizeof words);
    words.timing[sizeof words.timing - 1] = words.stopped_by[sizeof words.stopped_by - 1] = '\0';
    payload += sizeof words;
    length -= sizeof words;
    memcpy(&p->row, payload, sizeof p->row);
    p->row.reason[sizeof p->row.reason - 1] = '\0';
    p->row.label[sizeof p->row.label - 1] = '\0';
    p->row.result_text[sizeof p->row.result_text - 1] = '\0';
    p->row.expected_text[sizeof p->row.expected_text - 1] = '\0';
    p->row.config = NULL;
    p->row.backend = NULL;
    p->row.timing = static_word(words.timing);
    p->row.stopped_by = static_word(words.stopped_by);
    size_t samples = (length - sizeof(rb_row)) / sizeof(double);
    if (samples > p->row.stats.count)
        samples = p->row.stats.count;
    p->row.stats.count = samples;
    p->row.samples_ns = NULL;
    if (samples) {
        p->samples = xmalloc(samples * sizeof(double));
        memcpy(p->samples, payload + sizeof(rb_row), samples * sizeof(double));
    }
    p->done = 1;
}

/* Acts on the whole messages a rank sent. */
static void handle_rank(rank_group *g, uint32_t k)
{
    rank_proc *p = &g->procs[k];
    size_t at = 0;
    while (p->len - at >= sizeof(rank_header)) {
        rank_header h;
        memcpy(&h, p->buf + at, sizeof h);
        if (h.length > RANKS_MESSAGE_MAX) {
            group_fail(g, "rank %u sent a malformed message", k);
            p->ended = 1;
            return;
        }
        if (p->len - at - sizeof h < h.length)
            break;
        const char *payload = p->buf + at + sizeof h;
        switch (h.type) {
        case RM_STEP:
            if (h.length == sizeof(int))
                memcpy(&p->step, payload, sizeof(int));
            if (k == 0 && p->step != g->forwarded_step) {
                g->forwarded_step = p->step;
                isolate_step(p->step);
            }
            break;
        case RM_EXCHANGE:
            if (h.length > RB_EXCHANGE_MAX || p->exchanging) {
                group_fail(g, "rank %u exchanged more than %d bytes at once", k,
                           RB_EXCHANGE_MAX);
                break;
            }
            p->exchanged = xmalloc(h.length + 1);
            memcpy(p->exchanged, payload, h.length);
            p->exchanged_len = h.length;
            p->exchanging = 1;
            break;
        case RM_DEVICE:
            keep_device(g, payload, h.length);
            break;
        case RM_ROW:
            keep_row(p, payload, h.length);
            break;
        }
        at += sizeof h + h.length;
    }
    memmove(p->buf, p->buf + at, p->len - at);
    p->len -= at;
}

static void read_rank(rank_group *g, uint32_t k)
{
    rank_proc *p = &g->procs[k];
    if (p->cap - p->len < 65536) {
        p->cap = p->cap ? p->cap * 2 : 131072;
        p->buf = xrealloc(p->buf, p->cap);
    }
    ssize_t got = read(p->fd, p->buf + p->len, p->cap - p->len);
    if (got > 0) {
        p->len += (size_t)got;
        handle_rank(g, k);
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        p->ended = 1;
        p->ended_at = runner_now();
    }
}

static int group_finished(const rank_group *g);

/* Reaps forked ranks that ended, and notes a crash before the row. */
static void reap_ranks(rank_group *g)
{
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        if (!p->pid)
            continue;
        int status;
        pid_t got = waitpid(p->pid, &status, WNOHANG);
        if (got != p->pid)
            continue;
        p->pid = 0;
        p->status = status;
        if (p->fd >= 0)
            while (!p->ended && !p->done) {
                struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
                if (poll(&pfd, 1, 0) <= 0)
                    break;
                read_rank(g, k);
            }
        if (!p->done) {
            p->ended = 1;
            if (WIFSIGNALED(status))
                group_fail(g, "rank %u crashed with %s in %s", k, signal_name(WTERMSIG(status)),
                           isolate_step_name(p->step));
            else
                group_fail(g, "rank %u exited with status %d in %s", k,
                           WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                           isolate_step_name(p->step));
        }
    }
    if (g->launcher) {
        int status;
        if (waitpid(g->launcher, &status, WNOHANG) == g->launcher) {
            g->launcher = 0;
            /* the first rank whose socket ended without its row is the one
             * that went; mpirun ended the others */
            int first = -1;
            for (uint32_t k = 0; k < g->n; k++) {
                const rank_proc *p = &g->procs[k];
                if (!p->done && p->ended &&
                    (first < 0 || p->ended_at < g->procs[first].ended_at))
                    first = (int)k;
            }
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            char how[96];
            if (WIFSIGNALED(status))
                snprintf(how, sizeof how, "mpirun was killed by %s",
                         signal_name(WTERMSIG(status)));
            else if (code > 128)
                snprintf(how, sizeof how, "mpirun: exit status %d, a rank ended by %s", code,
                         signal_name(code - 128));
            else
                snprintf(how, sizeof how, "mpirun: exit status %d", code);
            if (first >= 0)
                group_fail(g, "rank %d ended in %s without its row (%s; what the ranks and "
                           "mpirun said is on standard error)", first,
                           isolate_step_name(g->procs[first].step), how);
            else if (!group_finished(g))
                group_fail(g, "mpirun ended before the ranks' rows (%s; what the ranks and "
                           "mpirun said is on standard error)", how);
        }
    }
}

static void end_group(rank_group *g)
{
    for (uint32_t k = 0; k < g->n; k++) {
        rank_proc *p = &g->procs[k];
        if (p->pid > 0) {
            kill(p->pid, SIGKILL);
            while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
        if (p->fd >= 0)
            close(p->fd);
        free(p->buf);
        free(p->exchanged);
    }
    for (uint32_t k = 0; k < g->n && !g->hub; k++)
        if (g->procs[k].started_pid > 1 && !g->procs[k].done)
            kill(g->procs[k].started_pid, SIGKILL); /* mpirun may leave it behind */
    if (g->hub)
        hub_end_config(); /* the launcher's processes end the ranks they started */
    if (g->launcher > 0) {
        killpg(g->launcher, SIGKILL);
        while (waitpid(g->launcher, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (g->listen_fd >= 0)
        close(g->listen_fd);
    if (g->dir[0]) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/socket", g->dir);
        unlink(path);
        snprintf(path, sizeof path, "%s/rank.ini", g->dir);
        unlink(path);
        rmdir(g->dir);
    }
}

/* Forks one process per rank, each with its end of a socketpair. */
static int fork_ranks(rank_group *g, uint32_t count)
{
    for (uint32_t k = 0; k < count; k++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
            group_fail(g, "cannot make a socket for rank %u: %s", k, strerror(errno));
            return -1;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            close(sv[0]);
            close(sv[1]);
            group_fail(g, "cannot start rank %u: %s", k, strerror(errno));
            return -1;
        }
        if (pid == 0) {
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
            close(sv[0]);
            for (uint32_t j = 0; j < k; j++)
                close(g->procs[j].fd);
            rank_main(g->r, g->cfg, k, g->n, sv[1], 0, g->run);
        }
        close(sv[1]);
        g->procs[k].pid = pid;
        g->procs[k].fd = sv[0];
    }
    return 0;
}

/* A private folder for the ranks' socket (and experiment file). */
static int make_rank_folder(rank_group *g)
{
    snprintf(g->dir, sizeof g->dir, "/tmp/redbench-ranks-XXXXXX");
    if (!mkdtemp(g->dir)) {
        g->dir[0] = '\0';
        group_fail(g, "cannot make a folder for the ranks' socket: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Listens on the socket of the group's folder. */
static int listen_in_folder(rank_group *g)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%.50s/socket", g->dir);
    g->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (g->listen_fd < 0 || bind(g->listen_fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(g->listen_fd, (int)g->n) != 0) {
        group_fail(g, "cannot listen on %s: %s", addr.sun_path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Listens on a free TCP port of `host`; its address in `out`. */
static int listen_on_tcp(rank_group *g, const char *host, char *out, size_t len)
{
    struct sockaddr_in6 addr = {.sin6_family = AF_INET6, .sin6_addr = in6addr_any};
    g->listen_fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t size = sizeof addr;
    if (g->listen_fd < 0 || bind(g->listen_fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(g->listen_fd, (int)g->n) != 0 ||
        getsockname(g->listen_fd, (struct sockaddr *)&addr, &size) != 0) {
        group_fail(g, "cannot listen on a TCP port for the ranks of other nodes: %s",
                   strerror(errno));
        return -1;
    }
    snprintf(out, len, "tcp:%s:%u", host, (unsigned)ntohs(addr.sin6_port));
    return 0;
}

/* Under a launcher (run/rank_hub.h): rank 0 forked here, rank k started
 * by the launcher's process k, all reporting to this leader. */
static int launch_hub_ranks(rank_group *g)
{
    char address[320];
    const char *host = hub_leader_host();
    if (*host) {
        if (listen_on_tcp(g, host, address, sizeof address) != 0)
            return -1;
    } else {
        if (make_rank_folder(g) != 0 || listen_in_folder(g) != 0)
            return -1;
        snprintf(address, sizeof address, "unix:%s/socket", g->dir);
    }
    g->hub = 1;
    for (uint32_t k = 1; k < g->n; k++)
        if (hub_request(k, g->cfg->index, address) != 0) {
            group_fail(g, "the launcher's process %u cannot be asked to start rank %u", k, k);
            return -1;
        }
    return fork_ranks(g, 1);
}

/* Writes the configuration as an experiment file of one run, for the rank
 * processes mpirun starts. */
static int write_rank_experiment(rank_group *g, const char *path)
{
    const rb_experiment *exp = g->r->exp;
    const rb_configuration *cfg = g->cfg;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "[experiment]\nname = %s\nwarmup = %d\nmin_time = %.17g\nmin_reps = %ld\n"
            "max_reps = %ld\nnoise = %.17g\ncache = %s\nseed = %llu\ndevice = %d\n"
            "timeout = %.17g\ntiming = %s\ndeterminism_runs = %d\n"
            "probes = %s\nn_scope = %s\n",
            "rank", exp->warmup, exp->min_time, exp->min_reps, exp->max_reps, exp->noise,
            cache_mode_name(exp->cache), (unsigned long long)exp->seed, exp->device,
            exp->timeout, timing_mode_name(exp->timing), exp->determinism_runs, exp->probes ? "on" : "off", exp->n_total ? "total" : "rank");
    if (exp->timing == RB_TIMING_GRAPH && exp->graph_calls > 0)
        fprintf(f, "graph_calls = %ld\n", exp->graph_calls);
    if (exp->n_devices) {
        fprintf(f, "devices = ");
        for (size_t k = 0; k < exp->n_devices; k++)
            fprintf(f, "%s%d", k ? ", " : "", exp->devices[k]);
        fputc('\n', f);
    }
    fprintf(f, "[run rank]\nplugin = %s/%s\nop = %s\ndtype = %s\nn = %llu\ndistribution = %s\n"
            "bins = %u\nranks = %u\n", cfg->plugin->pack, cfg->plugin->desc->name,
            op_name(cfg->op), dtype_name(cfg->dtype), (unsigned long long)cfg->n,
            distribution_name(cfg->distribution), cfg->bins, cfg->ranks);
    for (uint32_t k = 0; k < cfg->n_params; k++)
        fprintf(f, "%s = %s\n", cfg->params[k].name, cfg->params[k].text);
    return fclose(f) == 0 ? 0 : -1;
}

/* Starts `mpirun -np N` on this program, each rank told the socket to
 * answer on through REDBENCH_RANK_OF. */
static int launch_mpi_ranks(rank_group *g)
{
    if (make_rank_folder(g) != 0)
        return -1;
    char sock_path[PATH_MAX], ini[PATH_MAX], exe[PATH_MAX], pack_dir[PATH_MAX], np[16];
    snprintf(sock_path, sizeof sock_path, "%s/socket", g->dir);
    snprintf(ini, sizeof ini, "%s/rank.ini", g->dir);
    if (write_rank_experiment(g, ini) != 0) {
        group_fail(g, "cannot write the ranks' experiment file in %s", g->dir);
        return -1;
    }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        group_fail(g, "cannot find this program's file to start the ranks");
        return -1;
    }
    exe[len] = '\0';
    snprintf(pack_dir, sizeof pack_dir, "%s", g->cfg->plugin->path);
    char *slash = strrchr(pack_dir, '/');
    if (slash)
        *slash = '\0'; /* the plugin's folder: searched, it gives the same pack name */
    else
        snprintf(pack_dir, sizeof pack_dir, ".");
    if (listen_in_folder(g) != 0)
        return -1;
    snprintf(np, sizeof np, "%u", g->n);
    const char *mpirun = getenv("REDBENCH_MPIRUN");
    if (!mpirun || !*mpirun)
        mpirun = "mpirun";
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        group_fail(g, "cannot start mpirun: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* mpirun ends its ranks when the leader dies */
#endif
        setpgid(0, 0);
        setenv("REDBENCH_RANK_OF", sock_path, 1);
        if (getuid() == 0) {
            setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
            setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        }
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execlp(mpirun, mpirun, "--oversubscribe", "-np", np, "-x", "REDBENCH_RANK_OF", exe,
               "-c", ini, "-p", pack_dir, (char *)NULL);
        fprintf(stderr, "redbench: error: cannot run %s: %s (set REDBENCH_MPIRUN to the "
                "launcher)\n", mpirun, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    g->launcher = pid;
    return 0;
}

/* Takes the HELLOs of mpirun-started ranks. */
static void accept_rank(rank_group *g)
{
    int fd = accept4(g->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    rank_header h;
    int32_t hello[2]; /* rank, process */
    uint32_t rank = 0;
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int bad = poll(&pfd, 1, 10000) <= 0 || read_full(fd, &h, sizeof h) != 0 ||
              h.type != RM_HELLO || h.length != sizeof hello ||
              read_full(fd, hello, sizeof hello) != 0;
    if (!bad) {
        rank = (uint32_t)hello[0];
        bad = hello[0] < 0 || rank >= g->n || g->procs[rank].fd >= 0 || hello[1] <= 1;
    }
    if (bad) {
        close(fd);
        group_fail(g, "a process that is not one of the ranks answered on the ranks' socket");
        return;
    }
    g->procs[rank].fd = fd;
    g->procs[rank].started_pid = (pid_t)hello[1];
}

static int group_finished(const rank_group *g)
{
    for (uint32_t k = 0; k < g->n; k++)
        if (!g->procs[k].done)
            return 0;
    return 1;
}

/* How long the group may go without a word: the share of the timeout, or
 * while a rank prepares (opens its device, makes its input) at least two
 * minutes, as a worker gets. */
static double silence_limit(const rank_group *g, double timeout)
{
    double limit = RANKS_SILENCE_SHARE * timeout;
    for (uint32_t k = 0; k < g->n; k++) {
        const rank_proc *p = &g->procs[k];
        int step = p->step;
        if (!p->done && (p->fd < 0 || step == RB_STEP_STARTING || step == RB_STEP_OPEN ||
                         step == RB_STEP_PEAK || step == RB_STEP_INPUT || step == RB_STEP_LOAD))
            return limit > RANKS_PREPARE_MIN ? limit : RANKS_PREPARE_MIN;
    }
    return limit;
}

/* Waits on the ranks until every row is in, or the group fails. */
static void supervise_group(rank_group *g, double timeout)
{
    double heard = runner_now();
    double told = 0; /* when the parent last heard that the ranks work */
    double tell_every = RANKS_TELL_SHARE * timeout < 1.0 ? RANKS_TELL_SHARE * timeout : 1.0;
    struct pollfd *pfds = xcalloc(g->n + 1, sizeof *pfds);
    while (!g->failure[0] && !group_finished(g)) {
        if (runner_stop_now) {
            group_fail(g, "interrupted while it ran");
            break;
        }
        size_t count = 0;
        uint32_t *which = xcalloc(g->n + 1, sizeof *which);
        for (uint32_t k = 0; k < g->n; k++)
            if (g->procs[k].fd >= 0 && !g->procs[k].ended && !g->procs[k].done) {
                pfds[count] = (struct pollfd){.fd = g->procs[k].fd, .events = POLLIN};
                which[count++] = k;
            }
        size_t listen_at = count;
        if (g->listen_fd >= 0)
            pfds[count++] = (struct pollfd){.fd = g->listen_fd, .events = POLLIN};
        int ready = poll(pfds, count, 100);
        if (ready > 0) {
            heard = runner_now();
            if (heard - told >= tell_every) { /* the leader's silence limit comes first */
                isolate_still_working();
                told = heard;
            }
            for (size_t j = 0; j < count; j++) {
                if (!(pfds[j].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                if (j == listen_at && g->listen_fd >= 0)
                    accept_rank(g);
                else
                    read_rank(g, which[j]);
            }
        }
        free(which);
        reap_ranks(g);
        answer_exchange(g);
        for (uint32_t k = 0; k < g->n && !g->failure[0]; k++)
            if (g->procs[k].ended && !g->procs[k].done && !g->procs[k].pid && !g->launcher)
                group_fail(g, "rank %u ended in %s without its row", k,
                           isolate_step_name(g->procs[k].step));
        double silence = silence_limit(g, timeout);
        if (!g->failure[0] && runner_now() - heard > silence) {
            char steps[320], silent[160] = "";
            steps_text(g, steps, sizeof steps);
            size_t at = 0;
            for (uint32_t k = 0; k < g->n && at + 16 < sizeof silent; k++)
                if (!g->procs[k].exchanging && !g->procs[k].done)
                    at += (size_t)snprintf(silent + at, sizeof silent - at, "%s%u",
                                           at ? ", " : "", k);
            group_fail(g, "rank%s %s stopped answering for %g s; killed (ranks: %s)",
                       strchr(silent, ',') ? "s" : "", at ? silent : "?", silence, steps);
        }
    }
    free(pfds);
}

/* Which rank's status the merged row takes: the worst, a rank that failed
 * before one that only stopped because another did (skipped). */
static int severity(int status)
{
    switch (status) {
    case RB_ROW_FAILED: return 4;
    case RB_ROW_WRONG: return 3;
    case RB_ROW_UNSUPPORTED: return 2;
    case RB_ROW_SKIPPED: return 1;
    default: return 0;
    }
}

/* The merged row: the slowest rank's time per call, and who was slowest. */
static void merge_rows(rank_group *g, rb_row *row)
{
    const rb_plugin *p = g->cfg->plugin->desc;
    size_t count = SIZE_MAX;
    uint32_t chosen = 0; /* whose result the row shows: the worst rank's */
    row->status = RB_ROW_OK;
    row->reason[0] = '\0';
    uint32_t wrong = 0;
    for (uint32_t k = 0; k < g->n; k++) {
        const rb_row *rk = &g->procs[k].row;
        if (rk->stats.count < count)
            count = rk->stats.count;
        if (rk->status == RB_ROW_WRONG)
            wrong++;
        if (severity(rk->status) > severity(row->status)) {
            chosen = k;
            row->status = rk->status;
            snprintf(row->reason, sizeof row->reason, "rank %u: %.480s", k, rk->reason);
        }
    }
    rank_proc *first = &g->procs[chosen];
    snprintf(row->label, sizeof row->label, "%s", first->row.label);
    snprintf(row->result_text, sizeof row->result_text, "%s", first->row.result_text);
    snprintf(row->expected_text, sizeof row->expected_text, "%s", first->row.expected_text);
    row->error = first->row.error;
    row->tolerance = first->row.tolerance;
    row->error_ratio = first->row.error_ratio;
    row->error_ratio_known = first->row.error_ratio_known;
    row->determinism = first->row.determinism;
    row->determinism_results = first->row.determinism_results;
    row->probes = first->row.probes;
    row->probes_passed = first->row.probes_passed;
    row->batch_calls = first->row.batch_calls;
    row->clocks_known = first->row.clocks_known;
    row->clocks_before = first->row.clocks_before;
    row->clocks_after = first->row.clocks_after;
    row->throttle_reasons = first->row.throttle_reasons;
    row->throttled = first->row.throttled;
    row->timing = first->row.timing;
    row->stopped_by = first->row.stopped_by;
    for (uint32_t k = 0; k < g->n; k++) {
        const rb_row *rk = &g->procs[k].row;
        if (rk->status == RB_ROW_WRONG && !(p->collective == RB_COLLECTIVE_REDUCE && k))
            continue;
        if (rk->determinism == RB_DETERMINISM_DIFFERS)
            row->determinism = RB_DETERMINISM_DIFFERS;
    }
    row->wrong_ranks = wrong;
    row->ranks = g->n;
    if (count == SIZE_MAX || count == 0 || row->status == RB_ROW_FAILED)
        return;
    double *merged = xmalloc(count * sizeof *merged);
    for (size_t s = 0; s < count; s++) {
        merged[s] = 0;
        for (uint32_t k = 0; k < g->n; k++)
            if (g->procs[k].samples[s] > merged[s])
                merged[s] = g->procs[k].samples[s];
    }
    row->samples_ns = merged;
    stats_compute(merged, count, &row->stats);
    row->slowest_rank = row->fastest_rank = 0;
    for (uint32_t k = 0; k < g->n; k++) {
        double m = g->procs[k].row.stats.median;
        if (m > g->procs[row->slowest_rank].row.stats.median)
            row->slowest_rank = (int)k;
        if (m < g->procs[row->fastest_rank].row.stats.median)
            row->fastest_rank = (int)k;
    }
    row->slowest_rank_ns = g->procs[row->slowest_rank].row.stats.median;
    row->fastest_rank_ns = g->procs[row->fastest_rank].row.stats.median;
}

int ranks_wanted(const rb_configuration *cfg)
{
    if (!cfg->plugin)
        return 0;
    return cfg->ranks > 1 || cfg->plugin->desc->rank_launch == RB_RANK_LAUNCH_MPI;
}

/* The bus bandwidth factor of a collective over `ranks` ranks, as
 * nccl-tests defines it: 2(r-1)/r for an all-reduce, 1 for a reduce. */
static double bus_factor(int collective, uint32_t ranks)
{
    if (collective == RB_COLLECTIVE_REDUCE)
        return 1.0;
    return ranks ? 2.0 * (double)(ranks - 1) / (double)ranks : 0.0;
}

void ranks_finish_row(const runner *r, const rb_configuration *cfg, rb_row *row)
{
    uint32_t ranks = cfg->ranks ? cfg->ranks : 1;
    row->ranks = ranks;
    uint64_t offset;
    row->n_total = 0;
    for (uint32_t k = 0; k < ranks; k++)
        row->n_total += ranks_count(r->exp, cfg->n, k, ranks, &offset);
    if (cfg->plugin && cfg->plugin->desc->collective != RB_COLLECTIVE_NONE && row->bandwidth_gbs > 0)
        row->busbw_gbs = row->bandwidth_gbs * bus_factor((int)cfg->plugin->desc->collective, ranks);
}

void ranks_run(runner *r, const rb_configuration *cfg, rb_row *row, rank_run_fn run)
{
    const rb_plugin *p = cfg->plugin->desc;
    if (p->collective == RB_COLLECTIVE_NONE) {
        runner_set_reason(row, RB_ROW_UNSUPPORTED, "%s runs on one device: it declares no "
                          "collective, so ranks = %u cannot run it", p->name, cfg->ranks);
        return;
    }
    if (cfg->op != RB_OP_SUM && cfg->op != RB_OP_MIN && cfg->op != RB_OP_MAX) {
        runner_set_reason(row, RB_ROW_UNSUPPORTED, "%s across ranks: only sum, min and max are "
                          "reduced across ranks", op_name(cfg->op));
        return;
    }
    if (r->n_backends > 0) {
        runner_set_reason(row, RB_ROW_SKIPPED, "rank processes cannot start from a process that "
                          "has opened a device (run without --no-isolation)");
        return;
    }
    rank_group g;
    memset(&g, 0, sizeof g);
    g.r = r;
    g.cfg = cfg;
    g.run = run;
    g.n = cfg->ranks ? cfg->ranks : 1;
    g.listen_fd = -1;
    g.forwarded_step = -1;
    g.procs = xcalloc(g.n, sizeof *g.procs);
    for (uint32_t k = 0; k < g.n; k++)
        g.procs[k].fd = -1;
    isolate_step(RB_STEP_INPUT);
    int started;
    if (p->rank_launch == RB_RANK_LAUNCH_MPI && hub_size()) {
        runner_set_reason(row, RB_ROW_SKIPPED, "%s's ranks are MPI processes that redbench "
                          "starts with mpirun itself; under a launcher it cannot (run redbench "
                          "without mpirun for them)", p->name);
        free(g.procs);
        return;
    }
    if (p->rank_launch == RB_RANK_LAUNCH_MPI)
        started = launch_mpi_ranks(&g);
    else if (hub_size() && hub_size() == g.n)
        started = launch_hub_ranks(&g);
    else
        started = fork_ranks(&g, g.n);
    if (started == 0)
        supervise_group(&g, r->exp->timeout);
    if (g.failure[0]) {
        runner_set_reason(row, RB_ROW_FAILED, "%s", g.failure);
        row->ranks = g.n;
    } else {
        merge_rows(&g, row);
    }
    for (size_t k = 0; k < r->res->info.n_devices; k++)
        if (strcmp(r->res->info.devices[k].backend, p->backend) == 0)
            row->device_index = (int)k;
    end_group(&g);
    for (uint32_t k = 0; k < g.n; k++)
        free(g.procs[k].samples);
    free(g.procs);
}

/* ---- a rank that mpirun started ---- */

/* Serves configuration `cfg` as rank `rank` to the leader at `leader`
 * ("unix:PATH" or "tcp:HOST:PORT"), in this process; ends it. */
static void serve_rank(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                       const rb_runner_options *opt, const rb_configuration *cfg, uint32_t rank,
                       const char *leader, int whole_program, rank_run_fn run)
{
    int fd = hub_connect(leader);
    if (fd < 0 || rank_send(fd, RM_HELLO, rank, (int32_t[2]){(int32_t)rank, (int32_t)getpid()},
                               2 * sizeof(int32_t), NULL, 0) != 0) {
        fprintf(stderr, "redbench: error: rank %u cannot reach its leader at %s\n", rank, leader);
        _exit(2);
    }
    static runner r;
    static rb_results res;
    memset(&r, 0, sizeof r);
    r.exp = exp;
    r.reg = reg;
    r.sweep = sweep;
    r.opt = opt;
    r.res = &res;
    res.info.experiment = exp;
    char why[512] = "";
    if (!cfg->plugin || registry_load_code(cfg->plugin, why, sizeof why) != 0) {
        fprintf(stderr, "redbench: error: rank %u cannot load its plugin: %s\n", rank,
                cfg->plugin ? why : "not found");
        _exit(2);
    }
    rank_main(&r, cfg, rank, cfg->ranks ? cfg->ranks : 1, fd, whole_program, run);
}

void ranks_serve_if_asked(const rb_experiment *exp, const rb_registry *reg,
                          const rb_sweep *sweep, const rb_runner_options *opt, rank_run_fn run)
{
    const char *sock_path = getenv("REDBENCH_RANK_OF");
    if (!sock_path || !*sock_path)
        return;
    uint32_t rank;
    if (!hub_launcher_rank(&rank) || sweep->n_configs != 1) {
        fprintf(stderr, "redbench: error: REDBENCH_RANK_OF is set, but this process is not a "
                "rank that mpirun started for one configuration\n");
        _exit(2);
    }
    char leader[PATH_MAX + 8];
    snprintf(leader, sizeof leader, "unix:%s", sock_path);
    serve_rank(exp, reg, sweep, opt, &sweep->configs[0], rank, leader, 1, run);
}

/* What the launcher's other processes serve with (run/rank_hub.h). */
typedef struct hub_context {
    const rb_experiment *exp;
    const rb_registry *reg;
    const rb_sweep *sweep;
    const rb_runner_options *opt;
    rank_run_fn run;
} hub_context;

static void hub_serve(void *user, size_t config, const char *leader, uint32_t rank)
{
    const hub_context *h = user;
    if (config >= h->sweep->n_configs)
        _exit(2);
    serve_rank(h->exp, h->reg, h->sweep, h->opt, &h->sweep->configs[config], rank, leader, 0,
               h->run);
}

void ranks_start_hub(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                     const rb_runner_options *opt, rank_run_fn run)
{
    static hub_context h;
    h = (hub_context){exp, reg, sweep, opt, run};
    hub_start(hub_serve, &h);
}

void ranks_stop_hub(void)
{
    hub_stop();
}

void ranks_scaling(rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++) {
        rb_row *row = &res->rows[k];
        const rb_configuration *a = row->config;
        if (!a || row->ranks <= 1 || row->status != RB_ROW_OK || row->stats.median <= 0)
            continue;
        for (size_t j = 0; j < res->n_rows; j++) {
            const rb_row *one = &res->rows[j];
            const rb_configuration *b = one->config;
            if (!b || one->ranks != 1 || one->status != RB_ROW_OK || one->stats.median <= 0 ||
                b->run != a->run || b->op != a->op || b->dtype != a->dtype || b->n != a->n ||
                b->distribution != a->distribution ||
                strcmp(b->params_text ? b->params_text : "", a->params_text ? a->params_text : ""))
                continue;
            /* n per rank: the same time is perfect; n in total: 1/r of it. */
            const rb_experiment *exp = res->info.experiment;
            double ideal = exp && exp->n_total ? one->stats.median / row->ranks
                                               : one->stats.median;
            row->scaling = ideal / row->stats.median;
            break;
        }
    }
}
