/* tests/crashers/crasher.h: what every deliberately broken plugin of
 * tests/crashers/ shares: a correct sum of i32 or f32 data on the cpu
 * backend, and a parameter `fault` (yes, none) that says whether the plugin
 * misbehaves in this configuration. A run that sweeps `fault = none, yes,
 * none` shows that the configurations after a fault still run. Each plugin
 * replaces one callback with a broken one through CRASHER(). */
#ifndef RB_CRASHER_H
#define RB_CRASHER_H

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include <redbench/plugin.h>

static const char *const crasher_fault_words[] = {"none", "yes", NULL};

static const rb_param_spec crasher_params[] = {
    {.name = "fault", .type = RB_PARAM_CHOICE, .default_value = "yes",
     .choices = crasher_fault_words, .help = "misbehave in this configuration (yes) or not"},
};

typedef struct crasher_state {
    const rb_config *cfg;
    int64_t i;
    double f;
} crasher_state;

/* Whether this configuration asks for the fault. */
static inline int crasher_faulty(const rb_config *cfg)
{
    return rb_param_int(cfg, "fault", 1) == 1;
}

/* A real segmentation fault: a store to an address that is never mapped
 * (not NULL, which compilers and sanitizers treat specially). */
static inline void crasher_segfault(void)
{
    volatile int *volatile unmapped = (volatile int *)(uintptr_t)16;
    *unmapped = 1;
}

static inline int crasher_init(const rb_config *cfg, void **state)
{
    crasher_state *s;
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

static inline int crasher_run(void *state)
{
    crasher_state *s = state;
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

static inline int crasher_verify(void *state, rb_result *result)
{
    crasher_state *s = state;
    result->i = s->i;
    result->f = s->f;
    return RB_OK;
}

static inline void crasher_teardown(void *state)
{
    free(state);
}

#define CRASHER(NAME, DESCRIBE, INIT, RUN, VERIFY, TEARDOWN)                   \
    {                                                                          \
        .abi_major = REDBENCH_ABI_MAJOR,                                       \
        .abi_minor = REDBENCH_ABI_MINOR,                                       \
        .size = sizeof(rb_plugin),                                             \
        .name = (NAME),                                                        \
        .summary = "deliberately broken test plugin",                          \
        .version = "1.0",                                                      \
        .backend = "cpu",                                                      \
        .ops = RB_OP_BIT(RB_OP_SUM),                                           \
        .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),     \
        .params = crasher_params,                                              \
        .n_params = 1,                                                         \
        .describe = (DESCRIBE),                                                \
        .init = (INIT),                                                        \
        .run = (RUN),                                                          \
        .verify = (VERIFY),                                                    \
        .teardown = (TEARDOWN),                                                \
    }

#endif
