/* tests/procs/ranks/exchange-sum.c: a cpu strategy across ranks for the rank
 * machinery's tests: each rank reduces its slice, then the ranks gather
 * their partial results through the host's exchange and each combines
 * them (an all-reduce). Its `bug` parameter plants the faults a collective
 * is most likely to have, each on one rank or all:
 *   none       correct
 *   local      each rank returns its own slice's reduction (the collective
 *              forgotten): wrong on every rank
 *   rank1-off  rank 1 adds 2^20 (1e9 for floats) to its answer: wrong on
 *              rank 1 only
 *   crash      rank 1 crashes in its third run
 *   hang       rank 1 stops answering in its third run
 *   decline    rank 1 declines in init
 *   remember   every rank returns the whole answer of its first call (right
 *              on the timed input; the probes must catch it)
 *   skip-rank  (result = vector) the last rank's slice left out of every
 *              element
 *   one-element (result = vector) rank 1's element n/2 off by 1e-4 of
 *              itself: within the tolerance of the one value, not of the
 *              element
 *   fds        each rank fails in init when its process holds a descriptor
 *              above 2 but its socket to the leader (with one rank: the
 *              worker's pipe), listing them: none of the host's reach it
 *   oversize   every rank exchanges RB_EXCHANGE_MAX + 1 bytes (over the
 *              host's limit) and, refused, says only "the exchange failed"
 * With `result = vector` (ABI 1.4) every rank gathers all ranks' slices
 * through the exchange, in chunks, and combines them element by element:
 * its answer is the n-element vector, which verify hands to the host. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <redbench/plugin.h>

#include "../../plugins/open_fds.h"

enum bug { BUG_NONE, BUG_LOCAL, BUG_RANK1_OFF, BUG_CRASH, BUG_HANG, BUG_DECLINE, BUG_REMEMBER,
           BUG_SKIP_RANK, BUG_ONE_ELEMENT, BUG_OVERSIZE,
           BUG_FDS };
static const char *const bug_words[] = {"none", "local", "rank1-off", "crash", "hang", "decline",
                                        "remember", "skip-rank", "one-element", "oversize",
                                        "fds", NULL};
static const char *const result_words[] = {"value", "vector", NULL};

static const rb_param_spec params[] = {
    {.name = "bug", .type = RB_PARAM_CHOICE, .default_value = "none", .choices = bug_words,
     .help = "the fault to plant (none: correct)"},
    {.name = "result", .type = RB_PARAM_CHOICE, .default_value = "value",
     .choices = result_words,
     .help = "value: the one value; vector: the n-element, element-wise all-reduce"},
};

typedef struct partial {
    int64_t i;
    double f;
} partial;

typedef struct state {
    const rb_config *cfg;
    int bug;
    int runs;
    int vector;         /* result = vector */
    partial result;
    partial *all;
    unsigned char *vec; /* result = vector: the n-element answer */
    unsigned char *chunks; /* the ranks' chunks of one exchange */
} state;

static int is_float(int dtype)
{
    return dtype == RB_DTYPE_F32 || dtype == RB_DTYPE_F64;
}

static double value_f(const rb_config *c, uint64_t k)
{
    return c->dtype == RB_DTYPE_F32 ? ((const float *)c->input)[k] : ((const double *)c->input)[k];
}

static int64_t value_i(const rb_config *c, uint64_t k)
{
    return c->dtype == RB_DTYPE_I32 ? ((const int32_t *)c->input)[k]
                                    : ((const int64_t *)c->input)[k];
}

static void combine(int op, int fl, partial *acc, const partial *x)
{
    if (op == RB_OP_SUM) {
        acc->i = (int64_t)((uint64_t)acc->i + (uint64_t)x->i);
        acc->f += x->f;
    } else if (op == RB_OP_MIN) {
        if (fl ? x->f < acc->f : x->i < acc->i)
            *acc = *x;
    } else if (fl ? x->f > acc->f : x->i > acc->i) {
        *acc = *x;
    }
}

static partial reduce_slice(const rb_config *c)
{
    int fl = is_float(c->dtype);
    partial acc = {fl ? 0 : value_i(c, 0), fl ? value_f(c, 0) : 0};
    if (c->op == RB_OP_SUM)
        acc = (partial){0, 0};
    for (uint64_t k = c->op == RB_OP_SUM ? 0 : 1; k < c->n; k++) {
        partial x = {fl ? 0 : value_i(c, k), fl ? value_f(c, k) : 0};
        combine(c->op, fl, &acc, &x);
    }
    return acc;
}

static int init(const rb_config *cfg, void **out)
{
    int bug = (int)rb_param_int(cfg, "bug", 0);
    if (bug == BUG_DECLINE && cfg->rank == 1) {
        cfg->host->error(cfg->host, "rank 1 declines (planted)");
        return RB_UNSUPPORTED;
    }
    char fds[1024];
    if (bug == BUG_FDS && test_open_fds(fds, sizeof fds) > 1) {
        cfg->host->error(cfg->host, "rank %u holds descriptors of the host: %s", cfg->rank, fds);
        return RB_ERROR;
    }
    state *s = calloc(1, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->all = calloc(cfg->n_ranks, sizeof *s->all);
    if (!s->all) {
        free(s);
        return RB_ERROR;
    }
    s->cfg = cfg;
    s->bug = bug;
    s->vector = (int)rb_param_int(cfg, "result", 0) == 1;
    if (s->vector) {
        s->vec = malloc(cfg->n * rb_dtype_size(cfg->dtype));
        s->chunks = malloc((size_t)cfg->n_ranks * RB_EXCHANGE_MAX);
        if (!s->vec || !s->chunks) {
            free(s->vec);
            free(s->chunks);
            free(s->all);
            free(s);
            return RB_ERROR;
        }
    }
    *out = s;
    return RB_OK;
}

/* a = a (op) b for one element of the dtype, in the dtype. */
#define COMBINE_AS(T, U)                                                                  \
    do {                                                                                  \
        T x, y;                                                                           \
        memcpy(&x, a, sizeof x);                                                          \
        memcpy(&y, b, sizeof y);                                                          \
        x = op == RB_OP_SUM ? (T)((U)x + (U)y) : op == RB_OP_MIN ? (y < x ? y : x)        \
                                                                 : (y > x ? y : x);       \
        memcpy(a, &x, sizeof x);                                                          \
    } while (0)

static void combine_element(int op, int dtype, unsigned char *a, const unsigned char *b)
{
    switch (dtype) {
    case RB_DTYPE_I32: COMBINE_AS(int32_t, uint32_t); break;
    case RB_DTYPE_I64: COMBINE_AS(int64_t, uint64_t); break;
    case RB_DTYPE_F32: COMBINE_AS(float, float); break;
    default: COMBINE_AS(double, double); break;
    }
}

/* result = vector: every rank's slice gathered in chunks through the
 * exchange and combined element by element into s->vec. */
static int run_vector(state *s)
{
    const rb_config *c = s->cfg;
    size_t size = rb_dtype_size(c->dtype), bytes = c->n * size;
    size_t step = RB_EXCHANGE_MAX / size * size;
    uint32_t ranks = c->n_ranks;
    if (s->bug == BUG_SKIP_RANK && ranks > 1)
        ranks--;
    for (size_t at = 0; at < bytes; at += step) {
        size_t len = bytes - at < step ? bytes - at : step;
        if (c->host->exchange(c->host, (const unsigned char *)c->input + at, len, s->chunks) !=
            RB_OK) {
            c->host->error(c->host, "the exchange failed: a rank is gone");
            return RB_ERROR;
        }
        memcpy(s->vec + at, s->chunks, len);
        for (uint32_t k = 1; k < ranks; k++)
            for (size_t e = 0; e < len; e += size)
                combine_element(c->op, c->dtype, s->vec + at + e, s->chunks + k * len + e);
    }
    if (s->bug == BUG_ONE_ELEMENT && c->rank == (c->n_ranks > 1 ? 1u : 0u)) {
        size_t k = c->n / 2;
        if (c->dtype == RB_DTYPE_F32)
            ((float *)s->vec)[k] *= 1.0001f;
        else if (c->dtype == RB_DTYPE_F64)
            ((double *)s->vec)[k] *= 1.0001;
        else
            s->vec[k * size] ^= 1;
    }
    return RB_OK;
}

static int run(void *st)
{
    state *s = st;
    const rb_config *c = s->cfg;
    s->runs++;
    if (c->rank == 1 && s->runs == 3 && s->bug == BUG_CRASH)
        abort(); /* SIGABRT: sanitizers leave it alone, unlike SIGSEGV */
    if (c->rank == 1 && s->runs == 3 && s->bug == BUG_HANG)
        for (;;)
            pause();
    if (s->bug == BUG_REMEMBER && s->runs > 1)
        return RB_OK; /* the first call's answer, whatever the input is now */
    if (s->bug == BUG_OVERSIZE) {
        size_t bytes = RB_EXCHANGE_MAX + 1;
        unsigned char *mine = calloc(1, bytes), *all = calloc(c->n_ranks, bytes);
        int got = mine && all ? c->host->exchange(c->host, mine, bytes, all) : RB_ERROR;
        free(mine);
        free(all);
        if (got != RB_OK) {
            c->host->error(c->host, "the exchange failed");
            return RB_ERROR;
        }
    }
    if (s->vector)
        return run_vector(s);
    partial mine = reduce_slice(c);
    if (s->bug == BUG_LOCAL) {
        s->result = mine;
        return RB_OK;
    }
    if (c->host->exchange(c->host, &mine, sizeof mine, s->all) != RB_OK) {
        c->host->error(c->host, "the exchange failed: a rank is gone");
        return RB_ERROR;
    }
    partial acc = s->all[0];
    for (uint32_t k = 1; k < c->n_ranks; k++)
        combine(c->op, is_float(c->dtype), &acc, &s->all[k]);
    if (s->bug == BUG_RANK1_OFF && c->rank == 1) {
        acc.i += 1 << 20;
        acc.f += 1e9;
    }
    s->result = acc;
    return RB_OK;
}

static int verify(void *st, rb_result *out)
{
    state *s = st;
    if (s->vector) {
        if (out->size < offsetof(rb_result, n_elements) + sizeof out->n_elements ||
            !out->elements) {
            s->cfg->host->error(s->cfg->host, "result = vector: this host takes no vector");
            return RB_ERROR;
        }
        memcpy(out->elements, s->vec, s->cfg->n * rb_dtype_size(s->cfg->dtype));
        out->n_elements = s->cfg->n;
        return RB_OK;
    }
    out->i = s->result.i;
    out->f = s->result.f;
    if (s->cfg->dtype == RB_DTYPE_I32)
        out->i = (int32_t)(uint32_t)(uint64_t)s->result.i;
    return RB_OK;
}

static void teardown(void *st)
{
    state *s = st;
    free(s->vec);
    free(s->chunks);
    free(s->all);
    free(s);
}

/* Built a second time as standin-exchange on the standin backend, for the
 * energy tests' ranks (tests/run/energy/). */
#ifndef EXCHANGE_SUM_NAME
#define EXCHANGE_SUM_NAME "exchange-sum"
#define EXCHANGE_SUM_BACKEND "cpu"
#endif

static const rb_plugin descriptor = {
    RB_PLUGIN_ABI_FIELDS,
    .name = EXCHANGE_SUM_NAME,
    .summary = "each rank reduces its slice; the partial results gathered through the host",
    .version = "1.0",
    .backend = EXCHANGE_SUM_BACKEND,
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |
              RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64),
    RB_PLUGIN_PARAMS(params),
    .init = init,
    .run = run,
    .verify = verify,
    .teardown = teardown,
    .collective = RB_COLLECTIVE_ALLREDUCE,
    .rank_launch = RB_RANK_LAUNCH_FORK,
};

RB_PLUGIN_ENTRY(descriptor)
