/* tests/procs/ranks/slow-setup.c: a cpu strategy across ranks whose
 * communicator's set-up is slow, for the tests of rank groups that stay up
 * (ABI 1.4). Its group_open sleeps a planted 0.5 s on every rank (as
 * NCCL's set-up takes about a second) and then the ranks tell each other
 * their processes through the host's exchange: that list is its
 * "communicator". Each configuration's init checks that it holds the
 * ranks' processes; run reduces the slice and gathers the partial results
 * through the exchange, as tests/procs/ranks/exchange-sum.c does. On a host
 * without rank groups (cfg->group NULL) init does the set-up itself.
 *
 * With SLOW_SETUP_LOG set, it appends to that file one line per event:
 * "open RANK PID", "init RANK PID BUG", "close RANK PID". Its `bug`
 * parameter: none; crash (rank 1 crashes in its third run). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <redbench/plugin.h>

static const char *const bug_words[] = {"none", "crash", NULL};

static const rb_param_spec params[] = {
    {.name = "bug", .type = RB_PARAM_CHOICE, .default_value = "none", .choices = bug_words,
     .help = "the fault to plant (none: correct; crash: rank 1 crashes in its third run)"},
};

/* The ranks' "communicator": each rank's process. */
typedef struct comm {
    uint32_t rank, n_ranks;
    int32_t *pids;
} comm;

typedef struct partial {
    int64_t i;
    double f;
} partial;

typedef struct state {
    const rb_config *cfg;
    comm *comm;
    int own_comm; /* made in init: no group */
    int bug, runs;
    partial result;
    partial *all;
} state;

/* Appends "EVENT RANK PID[ WORD]" to the log. */
static void note(const char *event, uint32_t rank, const char *word)
{
    const char *path = getenv("SLOW_SETUP_LOG");
    if (!path || !*path)
        return;
    char line[128];
    int len = snprintf(line, sizeof line, "%s %u %d%s%s\n", event, rank, (int)getpid(),
                       *word ? " " : "", word);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
        if (write(fd, line, (size_t)len) != len)
            len = -1;
        close(fd);
    }
}

/* The planted 0.5 s, then the ranks' processes gathered. */
static comm *comm_make(const rb_host *host, uint32_t rank, uint32_t n_ranks)
{
    struct timespec nap = {0, 500000000L};
    while (nanosleep(&nap, &nap) != 0)
        ;
    comm *c = calloc(1, sizeof *c);
    int32_t mine = (int32_t)getpid();
    if (!c || !(c->pids = calloc(n_ranks, sizeof *c->pids))) {
        free(c);
        host->error(host, "out of memory");
        return NULL;
    }
    if (host->exchange(host, &mine, sizeof mine, c->pids) != RB_OK) {
        free(c->pids);
        free(c);
        host->error(host, "the ranks could not set their communicator up");
        return NULL;
    }
    c->rank = rank;
    c->n_ranks = n_ranks;
    return c;
}

static void comm_free(comm *c)
{
    if (c) {
        free(c->pids);
        free(c);
    }
}

static int group_open(const rb_group *group, void **out)
{
    comm *c = comm_make(group->host, group->rank, group->n_ranks);
    if (!c)
        return RB_ERROR;
    note("open", group->rank, "");
    *out = c;
    return RB_OK;
}

static void group_close(void *st)
{
    comm *c = st;
    note("close", c->rank, "");
    comm_free(c);
}

static int init(const rb_config *cfg, void **out)
{
    state *s = calloc(1, sizeof *s);
    if (!s || !(s->all = calloc(cfg->n_ranks, sizeof *s->all))) {
        free(s);
        cfg->host->error(cfg->host, "out of memory");
        return RB_ERROR;
    }
    s->cfg = cfg;
    s->bug = (int)rb_param_int(cfg, "bug", 0);
    int grouped = cfg->size >= offsetof(rb_config, group) + sizeof cfg->group && cfg->group;
    s->comm = grouped ? cfg->group : comm_make(cfg->host, cfg->rank, cfg->n_ranks);
    s->own_comm = !grouped;
    if (s->comm && (s->comm->rank != cfg->rank || s->comm->n_ranks != cfg->n_ranks ||
                    s->comm->pids[cfg->rank] != (int32_t)getpid())) {
        cfg->host->error(cfg->host, "the group's communicator is not this rank's");
        if (s->own_comm)
            comm_free(s->comm);
        s->comm = NULL;
    }
    if (!s->comm) {
        free(s->all);
        free(s);
        return RB_ERROR;
    }
    note("init", cfg->rank, bug_words[s->bug]);
    *out = s;
    return RB_OK;
}

static partial reduce_slice(const rb_config *c)
{
    partial acc = {0, 0};
    for (uint64_t k = 0; k < c->n; k++) {
        int64_t i = 0;
        double f = 0;
        switch (c->dtype) {
        case RB_DTYPE_I32: i = ((const int32_t *)c->input)[k]; break;
        case RB_DTYPE_I64: i = ((const int64_t *)c->input)[k]; break;
        case RB_DTYPE_F32: f = ((const float *)c->input)[k]; break;
        default: f = ((const double *)c->input)[k]; break;
        }
        acc.i = (int64_t)((uint64_t)acc.i + (uint64_t)i);
        acc.f += f;
    }
    return acc;
}

static int run(void *st)
{
    state *s = st;
    const rb_config *c = s->cfg;
    if (++s->runs == 3 && s->bug == 1 && c->rank == 1)
        abort();
    partial mine = reduce_slice(c);
    if (c->host->exchange(c->host, &mine, sizeof mine, s->all) != RB_OK) {
        c->host->error(c->host, "the exchange failed: a rank is gone");
        return RB_ERROR;
    }
    partial acc = {0, 0};
    for (uint32_t k = 0; k < c->n_ranks; k++) {
        acc.i = (int64_t)((uint64_t)acc.i + (uint64_t)s->all[k].i);
        acc.f += s->all[k].f;
    }
    s->result = acc;
    return RB_OK;
}

static int verify(void *st, rb_result *out)
{
    state *s = st;
    out->i = s->cfg->dtype == RB_DTYPE_I32 ? (int32_t)(uint32_t)(uint64_t)s->result.i
                                           : s->result.i;
    out->f = s->result.f;
    return RB_OK;
}

static void teardown(void *st)
{
    state *s = st;
    if (s->own_comm)
        comm_free(s->comm);
    free(s->all);
    free(s);
}

static const rb_plugin descriptor = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "slow-setup",
    .summary = "a sum across ranks whose communicator takes 0.5 s to set up, once per group",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |
              RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64),
    RB_PLUGIN_PARAMS(params),
    .init = init,
    .run = run,
    .verify = verify,
    .teardown = teardown,
    .collective = RB_COLLECTIVE_ALLREDUCE,
    .rank_launch = RB_RANK_LAUNCH_FORK,
    .group_open = group_open,
    .group_close = group_close,
};

RB_PLUGIN_ENTRY(descriptor)
