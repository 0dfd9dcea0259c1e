/* src/procs/rank_supervise.c: the ranks' leader watching its group: it reads
 * each rank's messages (its step, which it forwards for rank 0 to its own
 * parent; its exchanges, answered once every rank has sent one; the
 * devices it opened; its row), takes the HELLOs of ranks it did not fork,
 * reaps the ranks that end, and fails the group, naming the rank and its
 * step, when one crashes, ends without its row or stops answering. It
 * tells its own parent once a second that the ranks work, so that its own
 * silence limit comes first. */
#define _GNU_SOURCE
#include "procs/rank_supervise.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/names.h"
#include "base/util.h"
#include "procs/isolate.h"
#include "procs/rank_hub.h"
#include "procs/rank_link.h"
#include "procs/row_wire.h"

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


/* The words a row's timing and stopped_by may hold besides the timing
 * modes' (base/names.h): a ROW message sends them as text (row_words), and
 * the leader's row points at these or at the names' table. */
static const char *const known_words[] = {"backend", "noise", "max_reps", "timeout",
                                          "profile", "ranks", NULL};

static const char *static_word(const char *text)
{
    int mode = timing_mode_from_name(text);
    if (mode >= 0)
        return timing_mode_name(mode);
    for (const char *const *w = known_words; *w; w++)
        if (strncmp(*w, text, 15) == 0 && strlen(*w) < 16 && text[strlen(*w)] == '\0')
            return *w;
    return NULL;
}

void group_fail(rank_group *g, const char *fmt, ...)
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
    rb_run_info *info = g->serve->devices(g->serve->user);
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
    rb_row got;
    if (length < sizeof(row_words) ||
        row_wire_unpack(payload + sizeof(row_words), length - sizeof(row_words), &got) != 0)
        return;
    row_words words;
    memcpy(&words, payload, sizeof words);
    words.timing[sizeof words.timing - 1] = words.stopped_by[sizeof words.stopped_by - 1] = '\0';
    row_release(&p->row);
    free(p->samples);
    p->row = got;
    p->row.config = NULL;
    p->row.backend = NULL; /* the rank's own addresses: not ours */
    p->row.timing = static_word(words.timing);
    p->row.stopped_by = static_word(words.stopped_by);
    p->samples = p->row.samples_ns; /* the samples apart, the row's reason and energies kept */
    p->row.samples_ns = NULL;
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
        p->ended_at = monotonic_seconds();
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

/* Takes the HELLOs of mpirun-started ranks. */
static void accept_rank(rank_group *g)
{
    int fd = accept4(g->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    hub_no_delay(fd);
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
void supervise_group(rank_group *g, double timeout)
{
    double heard = monotonic_seconds();
    double told = 0; /* when the parent last heard that the ranks work */
    double tell_every = RANKS_TELL_SHARE * timeout < 1.0 ? RANKS_TELL_SHARE * timeout : 1.0;
    struct pollfd *pfds = xcalloc(g->n + 1, sizeof *pfds);
    while (!g->failure[0] && !group_finished(g)) {
        if (*g->serve->stop_now) {
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
            heard = monotonic_seconds();
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
        if (!g->failure[0] && monotonic_seconds() - heard > silence) {
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
