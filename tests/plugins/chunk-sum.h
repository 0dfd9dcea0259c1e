/* tests/plugins/chunk-sum.h: the cpu test plugins of the reproducibility
 * levels (tests/plugins/test_repro.sh): an f32 or i32 sum over chunks of
 * `chunk` elements, each chunk added in f32 in order, then the chunks'
 * sums in order. Built as chunk-fixed.c (CHUNK_SUM_FIXED: the chunks the
 * sum is added over are always 64 elements, whatever `chunk` says, so
 * every layout gives the same bits), as chunk-twin.c (the chunks follow
 * the parameter, so the bits do too, while it calls itself reproducible:
 * the planted twin) and as chunk-varies.c (CHUNK_SUM_VARIES: each run
 * takes the next of chunks of 16, 32, 64 and 128 elements, so that the
 * bits of a floating sum change from run to run, as floating-point
 * atomics make them). */
#ifndef RB_CHUNK_SUM_H
#define RB_CHUNK_SUM_H

#include <stdlib.h>

#include <redbench/plugin.h>

static const rb_param_spec chunk_params[] = {
    {"chunk", RB_PARAM_INT, "64", 1, 1 << 20, NULL, 0, "elements per chunk"},
};

typedef struct chunk_sum {
    const rb_config *cfg;
    uint64_t chunk;
    uint64_t runs;
    int64_t i;
    double f;
} chunk_sum;

static int chunk_init(const rb_config *cfg, void **state)
{
    chunk_sum *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
#ifdef CHUNK_SUM_FIXED
    s->chunk = 64;
#else
    s->chunk = (uint64_t)rb_param_int(cfg, "chunk", 64);
#endif
    *state = s;
    return RB_OK;
}

static int chunk_run(void *state)
{
    chunk_sum *s = state;
    uint64_t n = s->cfg->n;
    if (s->cfg->dtype == RB_DTYPE_I32) {
        const int32_t *x = s->cfg->input;
        uint32_t sum = 0;
        for (uint64_t k = 0; k < n; k++)
            sum += (uint32_t)x[k];
        s->i = sum > INT32_MAX ? (int64_t)sum - ((int64_t)1 << 32) : (int64_t)sum;
        return RB_OK;
    }
#ifdef CHUNK_SUM_VARIES
    s->chunk = (uint64_t)16 << (s->runs % 4);
#endif
    s->runs++;
    const float *x = s->cfg->input;
    float total = 0;
    for (uint64_t first = 0; first < n; first += s->chunk) {
        float part = 0;
        for (uint64_t k = first; k < n && k < first + s->chunk; k++)
            part += x[k];
        total += part;
    }
    s->f = total;
    return RB_OK;
}

static int chunk_verify(void *state, rb_result *result)
{
    chunk_sum *s = state;
    result->i = s->i;
    result->f = s->f;
    return RB_OK;
}

static void chunk_teardown(void *state) { free(state); }

#define CHUNK_PLUGIN(NAME)                                                                 \
    {                                                                                      \
        .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR,                  \
        .size = sizeof(rb_plugin), .name = (NAME),                                         \
        .summary = "test plugin: a reproducible sum of i32 or f32 over chunks",           \
        .backend = "cpu", .version = "1.0", .ops = RB_OP_BIT(RB_OP_SUM),                   \
        .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),                 \
        .params = chunk_params, .n_params = 1, .init = chunk_init, .run = chunk_run,       \
        .verify = chunk_verify, .teardown = chunk_teardown,                                \
    }

#endif
