/* tests/plugins/test_plugin.h: the strategy every test plugin wraps: the sum
 * of i32 or f32 data on the cpu backend, one accumulator (a double for f32),
 * with the i32 sum's loop for the test plugins that time it; the fields of
 * its descriptors (TEST_SUM_FIELDS, TEST_SUM_CALLBACKS); and TEST_PLUGIN(),
 * a descriptor whose version fields, size and run callback a deliberately
 * broken plugin can get wrong. A plugin that defines TEST_PLUGIN_BIAS
 * before including this adds it to every result. */
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
    s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

/* The sum of x[0..n) modulo 2^32, as an i32 sum wraps. */
static inline uint32_t test_sum_u32(const int32_t *x, uint64_t n)
{
    uint32_t sum = 0;
    for (uint64_t k = 0; k < n; k++)
        sum += (uint32_t)x[k];
    return sum;
}

/* The i32 whose bits u holds. */
static inline int64_t test_i32_of(uint32_t u)
{
    return u > INT32_MAX ? (int64_t)u - ((int64_t)1 << 32) : (int64_t)u;
}

static inline int test_run(void *state)
{
    test_sum *s = state;
    uint64_t k, n = s->cfg->n;
    if (s->cfg->dtype == RB_DTYPE_I32) {
        s->i = test_i32_of(test_sum_u32(s->cfg->input, n));
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

/* The fields of a descriptor of this sum but its ABI stamp, name, summary,
 * backend, parameters and callbacks: its version, op and dtypes. */
#define TEST_SUM_FIELDS                                                        \
    .version = "1.0", .ops = RB_OP_BIT(RB_OP_SUM),                             \
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32)

/* Its callbacks, none of them broken. */
#define TEST_SUM_CALLBACKS                                                     \
    .init = test_init, .run = test_run, .verify = test_verify,                 \
    .teardown = test_teardown

#define TEST_PLUGIN(NAME, MAJOR, MINOR, SIZE, RUN)                             \
    {                                                                          \
        .abi_major = (MAJOR),                                                  \
        .abi_minor = (MINOR),                                                  \
        .size = (SIZE),                                                        \
        .name = (NAME),                                                        \
        .summary = "test plugin: sum of i32 or f32",                           \
        .backend = "cpu",                                                      \
        TEST_SUM_FIELDS,                                                       \
        .init = test_init,                                                     \
        .run = (RUN),                                                          \
        .verify = test_verify,                                                 \
        .teardown = test_teardown,                                             \
    }

#endif
