/* tests/run/judge/buggy.c: a cpu strategy with planted bugs, one per value of
 * its `bug` parameter (bugs.h lists them), each the kind a fast reduction
 * is most likely to have. The judge must report every one of them `wrong`
 * (and `bug = none` ok with every probe passed): tests/run/test_judge.sh.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/half.h>
#include <redbench/plugin.h>

#include "bugs.h"

typedef struct state {
    const rb_config *cfg;
    int bug;
    int calls;
    /* the running answer (kept across calls by accumulate and first-answer) */
    double f;
    uint64_t u;      /* integer sums, modulo 2^64 */
    int64_t i;       /* integer min, max */
    uint64_t index;
    uint64_t counts[256];
} state;

static double value_f(const state *s, uint64_t k)
{
    const void *x = s->cfg->input;
    switch (s->cfg->dtype) {
    case RB_DTYPE_F32: return ((const float *)x)[k];
    case RB_DTYPE_F64: return ((const double *)x)[k];
    case RB_DTYPE_F16: return rb_f16_to_f32(((const uint16_t *)x)[k]);
    case RB_DTYPE_BF16: {
        uint16_t bits = ((const uint16_t *)x)[k];
        return s->bug == BUG_BF16_AS_F16 ? rb_f16_to_f32(bits) : rb_bf16_to_f32(bits);
    }
    default: return 0;
    }
}

/* A sum's next partial: in f16 under half-acc (each addition rounded to
 * f16), else in double. */
static double add(const state *s, double sum, double v)
{
    if (s->bug == BUG_HALF_ACC)
        return rb_f16_to_f32(rb_f16_from_f32((float)(sum + v)));
    return sum + v;
}

static int64_t value_i(const rb_config *cfg, uint64_t k)
{
    const void *x = cfg->input;
    switch (cfg->dtype) {
    case RB_DTYPE_I32: return ((const int32_t *)x)[k];
    case RB_DTYPE_I64: return ((const int64_t *)x)[k];
    case RB_DTYPE_U8: return ((const uint8_t *)x)[k];
    default: return 0;
    }
}

static int is_float(int dtype)
{
    return dtype == RB_DTYPE_F32 || dtype == RB_DTYPE_F64 || dtype == RB_DTYPE_F16 ||
           dtype == RB_DTYPE_BF16;
}

/* Whether element k is read, and how many times, under the planted bug. */
static int times_read(const state *s, uint64_t k)
{
    uint64_t n = s->cfg->n;
    switch (s->bug) {
    case BUG_DROP_LAST: return !(k == n - 1 && n % 4 != 0);
    case BUG_DROP_BOUNDARY: {
        if (n < 3)
            return 1;
        uint64_t b = (uint64_t)1 << (63 - __builtin_clzll(n - 2));
        return k != b;
    }
    case BUG_LOSE_BLOCK: {
        uint64_t first = (n / 2) & ~(uint64_t)255;
        return !(n >= 512 && k >= first && k < first + 256);
    }
    case BUG_TAIL_TWICE: {
        uint64_t tail = n % 8 ? n % 8 : 1;
        return k >= n - tail ? 2 : 1;
    }
    case BUG_HALF: return k < (n + 1) / 2 || n == 1;
    case BUG_HIST_LAST: return s->cfg->op != RB_OP_HISTOGRAM || k != n - 1;
    case BUG_DROP_ODD: return !(k == n - 1 && n % 2 != 0);
    default: return 1;
    }
}

static void clear(state *s)
{
    s->f = 0;
    s->u = 0;
    s->index = 0;
    memset(s->counts, 0, sizeof s->counts);
    int want_min = s->cfg->op == RB_OP_MIN;
    if (s->cfg->op == RB_OP_SUM || s->cfg->op == RB_OP_HISTOGRAM)
        return;
    if (is_float(s->cfg->dtype))
        s->f = want_min ? 1e300 : -1e300;
    else
        s->i = want_min ? INT64_MAX : INT64_MIN;
}

static int buggy_run(void *p)
{
    state *s = p;
    const rb_config *cfg = s->cfg;
    s->calls++;
    if (s->bug == BUG_FIRST_ANSWER && s->calls > 1)
        return RB_OK;
    if (s->bug != BUG_ACCUMULATE || s->calls == 1)
        clear(s);
    if (s->bug == BUG_CONSTANT) {
        clear(s);
        if (cfg->op != RB_OP_SUM && cfg->op != RB_OP_HISTOGRAM) {
            s->f = 0;
            s->i = 0;
        }
        return RB_OK;
    }
    int floats = is_float(cfg->dtype);
    for (uint64_t k = 0; k < cfg->n; k++) {
        int times = times_read(s, k);
        for (int t = 0; t < times; t++) {
            switch (cfg->op) {
            case RB_OP_SUM:
                if (floats)
                    s->f = add(s, s->f, value_f(s, k));
                else
                    s->u += (uint64_t)value_i(cfg, k);
                break;
            case RB_OP_MIN:
                if (floats ? value_f(s, k) < s->f : value_i(cfg, k) < s->i) {
                    s->f = value_f(s, k);
                    s->i = value_i(cfg, k);
                }
                break;
            case RB_OP_MAX:
            case RB_OP_ARGMAX:
                if (floats ? value_f(s, k) > s->f : value_i(cfg, k) > s->i) {
                    s->f = value_f(s, k);
                    s->i = value_i(cfg, k);
                    s->index = k;
                }
                break;
            case RB_OP_HISTOGRAM:
                s->counts[value_i(cfg, k) & 0xff]++;
                break;
            default:
                break;
            }
        }
    }
    return RB_OK;
}

static int buggy_verify(void *p, rb_result *out)
{
    state *s = p;
    if (s->cfg->op == RB_OP_HISTOGRAM) {
        memset(out->bins, 0, out->n_bins * sizeof *out->bins);
        for (unsigned b = 0; b < 256; b++)
            out->bins[b * out->n_bins / 256] += s->counts[b];
        return RB_OK;
    }
    out->f = s->f;
    out->i = s->cfg->op == RB_OP_SUM ? (int64_t)s->u : s->i;
    out->index = s->index;
    return RB_OK;
}

static int buggy_init(const rb_config *cfg, void **out)
{
    state *s = calloc(1, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->bug = (int)rb_param_int(cfg, "bug", BUG_NONE);
    *out = s;
    return RB_OK;
}

static void buggy_teardown(void *s) { free(s); }

static const rb_plugin buggy = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "buggy",
    .summary = "test strategy with planted bugs for the judge",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |
           RB_OP_BIT(RB_OP_ARGMAX) | RB_OP_BIT(RB_OP_HISTOGRAM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |
              RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64) | RB_DTYPE_BIT(RB_DTYPE_U8) |
              RB_DTYPE_BIT(RB_DTYPE_F16) | RB_DTYPE_BIT(RB_DTYPE_BF16),
    RB_PLUGIN_PARAMS(params),
    .init = buggy_init,
    .run = buggy_run,
    .verify = buggy_verify,
    .teardown = buggy_teardown,
};

RB_PLUGIN_ENTRY(buggy)
