/* tests/plugins/shaped-twin.c: the planted bugs of shaped reductions, each
 * a plugin built from this file with SHAPED_BUG set (tests/plugins/local.mk),
 * right in every other way: a plain cpu loop over every row (fixed or
 * ragged) or every column, sum, min, max and argmax of i32 and f32, the
 * answers handed in the host's buffers (redbench/plugin.h, "Shapes").
 *
 *   0 shaped-right      no bug: every answer right (the control)
 *   1 shaped-next-row   each row but the last also counts the next row's
 *                       first element (a row's end computed one too far)
 *   2 shaped-last-row   the last row (or column) is never reduced: its
 *                       answer is whatever the buffer held
 *   3 shaped-fixed-len  ragged rows taken as cols elements from r x cols
 *                       (the offsets ignored)
 *   4 shaped-empty      an empty row's answer is 0, not the identity
 *   5 shaped-swapped    the answers of rows (or columns) 0 and 1 swapped
 *   6 shaped-remembered the answers computed once, in init, and handed
 *                       again after every run
 *   7 shaped-near       every f32 sum handed one step (ulp) above the
 *                       right answer: inside its tolerance, so judged ok,
 *                       but never the exact answer
 *
 * Built with SHAPED_FRAGILE, the control runs on the `fragile` test backend
 * (tests/run/crashers/fragile-backend.c: a device of 1 GiB) as
 * shaped-fragile, for the memory checks of tests/run/test_limits.sh. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/plugin.h>

#ifndef SHAPED_BUG
#define SHAPED_BUG 0
#endif

#if SHAPED_BUG == 1
#define TWIN_NAME "shaped-next-row"
#elif SHAPED_BUG == 2
#define TWIN_NAME "shaped-last-row"
#elif SHAPED_BUG == 3
#define TWIN_NAME "shaped-fixed-len"
#elif SHAPED_BUG == 4
#define TWIN_NAME "shaped-empty"
#elif SHAPED_BUG == 5
#define TWIN_NAME "shaped-swapped"
#elif SHAPED_BUG == 6
#define TWIN_NAME "shaped-remembered"
#elif SHAPED_BUG == 7
#define TWIN_NAME "shaped-near"
#elif defined SHAPED_FRAGILE
#define TWIN_NAME "shaped-fragile"
#else
#define TWIN_NAME "shaped-right"
#endif

#ifdef SHAPED_FRAGILE
#define TWIN_BACKEND "fragile"
#else
#define TWIN_BACKEND "cpu"
#endif

typedef struct twin_state {
    const rb_config *cfg;
    double *f;           /* f32 answers */
    int64_t *i;          /* i32 answers */
    uint64_t *index;     /* argmax */
} twin_state;

static double element_f(const rb_config *cfg, uint64_t e)
{
    return ((const float *)cfg->input)[e];
}

static int64_t element_i(const rb_config *cfg, uint64_t e)
{
    return ((const int32_t *)cfg->input)[e];
}

/* Answer k over elements first, first + step, ... (len of them). */
static void reduce_one(twin_state *st, uint64_t k, uint64_t first, uint64_t step, uint64_t len)
{
    const rb_config *cfg = st->cfg;
    int fl = cfg->dtype == RB_DTYPE_F32, op = cfg->op;
    double best_f = op == RB_OP_SUM ? 0 : op == RB_OP_MIN ? INFINITY : -INFINITY;
    int64_t best_i = op == RB_OP_SUM ? 0 : op == RB_OP_MIN ? INT32_MAX : INT32_MIN;
    uint64_t at = 0;
    if (SHAPED_BUG == 4 && len == 0) {
        best_f = 0;
        best_i = 0;
    }
    for (uint64_t j = 0; j < len; j++) {
        uint64_t e = first + j * step;
        if (fl) {
            double x = element_f(cfg, e);
            if (op == RB_OP_SUM)
                best_f += x;
            else if (j == 0 || (op == RB_OP_MIN ? x < best_f : x > best_f)) {
                best_f = x;
                at = j;
            }
        } else {
            int64_t x = element_i(cfg, e);
            if (op == RB_OP_SUM)
                best_i = (int32_t)(uint32_t)((uint32_t)best_i + (uint32_t)x);
            else if (j == 0 || (op == RB_OP_MIN ? x < best_i : x > best_i)) {
                best_i = x;
                at = j;
            }
        }
    }
    st->f[k] = best_f;
    st->i[k] = best_i;
    st->index[k] = at;
}

static void reduce_all(twin_state *st)
{
    const rb_config *cfg = st->cfg;
    uint64_t answers = cfg->n_answers;
    if (SHAPED_BUG == 2 && answers > 1)
        answers--;
    for (uint64_t k = 0; k < answers; k++) {
        if (cfg->axis == RB_AXIS_COLUMN) {
            reduce_one(st, k, k, cfg->cols, cfg->rows);
            continue;
        }
        uint64_t start = k * cfg->cols, len = cfg->cols;
        if (cfg->ragged && SHAPED_BUG != 3) {
            start = cfg->host_offsets[k];
            len = cfg->host_offsets[k + 1] - start;
        }
        if (SHAPED_BUG == 1 && k + 1 < cfg->n_answers && start + len < cfg->n)
            len++;
        reduce_one(st, k, start, 1, len);
    }
}

static int twin_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    if (cfg->size < sizeof(rb_config) || cfg->rows < 1) {
        cfg->host->error(cfg->host, "a host of ABI 1.6 or newer is needed");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static void twin_teardown(void *state)
{
    twin_state *st = state;
    if (!st)
        return;
    free(st->f);
    free(st->i);
    free(st->index);
    free(st);
}

static int twin_init(const rb_config *cfg, void **state)
{
    if (twin_describe(cfg, NULL) != RB_OK)
        return RB_UNSUPPORTED;
    twin_state *st = rb_state_alloc(cfg, sizeof *st);
    if (!st)
        return RB_ERROR;
    st->cfg = cfg;
    st->f = calloc(cfg->n_answers, sizeof *st->f);
    st->i = calloc(cfg->n_answers, sizeof *st->i);
    st->index = calloc(cfg->n_answers, sizeof *st->index);
    if (!st->f || !st->i || !st->index) {
        cfg->host->error(cfg->host, "out of memory");
        twin_teardown(st);
        return RB_ERROR;
    }
    if (SHAPED_BUG == 6)
        reduce_all(st);
    *state = st;
    return RB_OK;
}

static int twin_run(void *state)
{
    if (SHAPED_BUG != 6)
        reduce_all(state);
    return RB_OK;
}

/* The next float above a finite x (one step of its bits). */
static float step_up(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    if (x == 0)
        bits = 1; /* the least subnormal */
    else if (x > 0)
        bits++;
    else
        bits--;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static int twin_verify(void *state, rb_result *result)
{
    twin_state *st = state;
    const rb_config *cfg = st->cfg;
    uint64_t n = cfg->n_answers;
    int shaped = cfg->rows > 1 || cfg->axis == RB_AXIS_COLUMN || cfg->ragged;
    if (!shaped) { /* the one array */
        result->f = st->f[0];
        result->i = st->i[0];
        result->index = st->index[0];
        return RB_OK;
    }
    if (!result->elements || (cfg->op == RB_OP_ARGMAX && !result->indices)) {
        cfg->host->error(cfg->host, "no buffer for the answers");
        return RB_ERROR;
    }
    for (uint64_t k = 0; k < n; k++) {
        uint64_t from = SHAPED_BUG == 5 && n > 1 && k < 2 ? 1 - k : k;
        if (cfg->dtype == RB_DTYPE_F32 && SHAPED_BUG == 7 && cfg->op == RB_OP_SUM)
            ((float *)result->elements)[k] = step_up((float)st->f[from]);
        else if (cfg->dtype == RB_DTYPE_F32)
            ((float *)result->elements)[k] = (float)st->f[from];
        else
            ((int32_t *)result->elements)[k] = (int32_t)st->i[from];
        if (result->indices)
            result->indices[k] = st->index[from];
    }
    result->n_elements = n;
    return RB_OK;
}

static const rb_plugin twin_plugin = {
    RB_PLUGIN_ABI_FIELDS,
    .name = TWIN_NAME,
    .summary = "a shaped reduction with one planted bug (tests/plugins/shaped-twin.c)",
    .version = "1.0",
    .backend = TWIN_BACKEND,
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |
           RB_OP_BIT(RB_OP_ARGMAX),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),
    .describe = twin_describe,
    .init = twin_init,
    .run = twin_run,
    .verify = twin_verify,
    .teardown = twin_teardown,
    .shapes = RB_SHAPE_ROWS | RB_SHAPE_COLUMNS | RB_SHAPE_RAGGED,
};

RB_PLUGIN_ENTRY(twin_plugin)
