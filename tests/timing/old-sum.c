/* tests/timing/old-sum.c: the sum of i32 or f32 data on the `oldclock`
 * backend (old-clock.c, ABI 1.0), for the tests of how a 1.1 host times a
 * 1.0 backend. */
#include <stdlib.h>

#include <redbench/plugin.h>

typedef struct old_sum {
    const rb_config *cfg;
    int64_t i;
    double f;
} old_sum;

static int old_sum_init(const rb_config *cfg, void **state)
{
    old_sum *s = calloc(1, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

static int old_sum_run(void *state)
{
    old_sum *s = state;
    if (s->cfg->dtype == RB_DTYPE_I32) {
        const int32_t *x = s->cfg->input;
        uint32_t sum = 0; /* wraps modulo 2^32 */
        for (uint64_t k = 0; k < s->cfg->n; k++)
            sum += (uint32_t)x[k];
        s->i = sum > INT32_MAX ? (int64_t)sum - ((int64_t)1 << 32) : (int64_t)sum;
    } else {
        const float *x = s->cfg->input;
        double sum = 0;
        for (uint64_t k = 0; k < s->cfg->n; k++)
            sum += x[k];
        s->f = sum;
    }
    return RB_OK;
}

static int old_sum_verify(void *state, rb_result *result)
{
    old_sum *s = state;
    result->i = s->i;
    result->f = s->f;
    return RB_OK;
}

static void old_sum_teardown(void *state)
{
    free(state);
}

static const rb_plugin old_sum_plugin = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "old-sum",
    .summary = "test plugin: sum of i32 or f32 on the ABI 1.0 oldclock backend",
    .version = "1.0",
    .backend = "oldclock",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),
    .init = old_sum_init,
    .run = old_sum_run,
    .verify = old_sum_verify,
    .teardown = old_sum_teardown,
};

RB_PLUGIN_ENTRY(old_sum_plugin)
