/* tests/run/timing/flaky-bits.c: a test plugin whose results are right but not
 * bit-identical from one run to the next, as float atomics make them: the
 * sum of f32 or f64 data on the cpu backend, computed in long double and
 * rounded to double, one ulp higher on every other run unless it is a whole
 * number (the judge's probe inputs: their sums are exact in any order).
 * Every result is far inside the tolerance, so its rows are `ok` and not
 * deterministic. */
#include <math.h>
#include <stdlib.h>

#include <redbench/plugin.h>

#include "../../plugins/test_plugin.h" /* test_teardown */

typedef struct flaky_state {
    const rb_config *cfg;
    unsigned long runs;
    double sum;
} flaky_state;

static int flaky_init(const rb_config *cfg, void **state)
{
    flaky_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

static int flaky_run(void *state)
{
    flaky_state *s = state;
    long double sum = 0;
    if (s->cfg->dtype == RB_DTYPE_F32) {
        const float *x = s->cfg->input;
        for (uint64_t k = 0; k < s->cfg->n; k++)
            sum += x[k];
    } else {
        const double *x = s->cfg->input;
        for (uint64_t k = 0; k < s->cfg->n; k++)
            sum += x[k];
    }
    s->sum = (double)sum;
    /* probe inputs (whole numbers) have one exact answer in any order of
     * operations, as float atomics give it too: only inexact sums flicker */
    if (++s->runs % 2 && s->sum != floor(s->sum))
        s->sum = nextafter(s->sum, INFINITY);
    return RB_OK;
}

static int flaky_verify(void *state, rb_result *result)
{
    result->f = ((flaky_state *)state)->sum;
    return RB_OK;
}

static const rb_plugin flaky_bits = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "flaky-bits",
    .summary = "test plugin: a right sum whose last bit changes from run to run",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64),
    .init = flaky_init,
    .run = flaky_run,
    .verify = flaky_verify,
    .teardown = test_teardown,
};

RB_PLUGIN_ENTRY(flaky_bits)
