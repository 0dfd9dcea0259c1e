/* tests/plugins/test_plugin.h: the strategy every test plugin wraps: the sum
 * of i32 or f32 data on the cpu backend, one accumulator (a double for f32);
 * and TEST_PLUGIN(), a descriptor whose version fields, size and run
 * callback a deliberately broken plugin can get wrong. A plugin that defines
 * TEST_PLUGIN_BIAS before including this adds it to every result. */
#ifndef RB_TEST_PLUGIN_H
#define RB_TEST_PLUGIN_H

#include <stdlib.h>

#include <redbench/plugin.h>

#ifndef TEST_PLUGIN_BIAS
#define TEST_PLUGIN_BIAS 0
#endif

typedef struct test_sum {
    const rb_config *cfg;
    int64_t i;
    double f;
} test_sum;

static inline int test_init(const rb_config *cfg, void **state)
{
    test_sum *s;
    if (cfg->op != RB_OP_SUM || (cfg->dtype != RB_DTYPE_I32 && cfg->dtype != RB_DTYPE_F32)) {
        cfg->host->error(cfg->host, "this test plugin only sums i32 or f32 data");
        return RB_UNSUPPORTED;
    }
    s = calloc(1, sizeof *s);
    if (!s) {
        cfg->host->error(cfg->host, "out of memory");
        return RB_ERROR;
    }
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

static inline int test_run(void *state)
{
    test_sum *s = state;
    uint64_t k, n = s->cfg->n;
    if (s->cfg->dtype == RB_DTYPE_I32) {
        const int32_t *x = s->cfg->input;
        uint32_t sum = 0; /* wraps modulo 2^32 */
        for (k = 0; k < n; k++)
            sum += (uint32_t)x[k];
        s->i = sum > INT32_MAX ? (int64_t)sum - ((int64_t)1 << 32) : (int64_t)sum;
    } else {
        const float *x = s->cfg->input;
        double sum = 0;
        for (k = 0; k < n; k++)
            sum += x[k];
        s->f = sum;
    }
    return RB_OK;
}

static inline int test_verify(void *state, rb_result *result)
{
    test_sum *s = state;
    result->i = s->i + TEST_PLUGIN_BIAS;
    result->f = s->f + TEST_PLUGIN_BIAS;
    return RB_OK;
}

static inline void test_teardown(void *state)
{
    free(state);
}

#define TEST_PLUGIN(NAME, MAJOR, MINOR, SIZE, RUN)                             \
    {                                                                          \
        .abi_major = (MAJOR),                                                  \
        .abi_minor = (MINOR),                                                  \
        .size = (SIZE),                                                        \
        .name = (NAME),                                                        \
        .summary = "test plugin: sum of i32 or f32",                           \
        .version = "1.0",                                                      \
        .backend = "cpu",                                                      \
        .ops = RB_OP_BIT(RB_OP_SUM),                                           \
        .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),     \
        .params = NULL,                                                        \
        .n_params = 0,                                                         \
        .describe = NULL,                                                      \
        .init = test_init,                                                     \
        .run = (RUN),                                                          \
        .verify = test_verify,                                                 \
        .teardown = test_teardown,                                             \
    }

#endif
