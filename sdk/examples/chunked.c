/* chunked.c: the example pack's CPU strategy: the sum of i32, i64, f32 or
 * f64 data, a chunk at a time. Each chunk is summed in the element's own
 * type (integers wrap, as the dtype does) and the chunks' sums are added in
 * a 64-bit total: a float sum then rounds like a blocked sum, not like one
 * long float accumulator. Parameter `chunk` sets the chunk's length.
 *
 * redbench feeds it (cfg->input, host memory for the cpu backend), times
 * every call of run, and judges what verify hands back. */
#include <stdlib.h>

#include <redbench/plugin.h>

static const rb_param_spec chunked_params[] = {
    {"chunk", RB_PARAM_INT, "4096", 16, 1 << 20, NULL, RB_PARAM_POW2,
     "elements summed in the element's own type before joining the total"},
};

typedef struct chunked_state {
    const rb_config *cfg;
    uint64_t chunk;
    uint64_t total_bits; /* integer sums: the wrapped total */
    double total;        /* floating sums */
} chunked_state;

static int chunked_init(const rb_config *cfg, void **state)
{
    chunked_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->chunk = (uint64_t)rb_param_int(cfg, "chunk", 4096);
    *state = s;
    return RB_OK;
}

/* One chunk of each dtype. Integer sums are taken in the unsigned type of
 * the same width, where wrapping is defined. */
#define CHUNK_SUM(name, type, acc_type)                                        \
    static acc_type name(const type *x, uint64_t count)                        \
    {                                                                          \
        acc_type sum = 0;                                                      \
        for (uint64_t k = 0; k < count; k++)                                   \
            sum += (acc_type)x[k];                                             \
        return sum;                                                            \
    }
CHUNK_SUM(chunk_i32, int32_t, uint32_t)
CHUNK_SUM(chunk_i64, int64_t, uint64_t)
CHUNK_SUM(chunk_f32, float, float)
CHUNK_SUM(chunk_f64, double, double)

static int chunked_run(void *state)
{
    chunked_state *s = state;
    const rb_config *cfg = s->cfg;
    s->total_bits = 0;
    s->total = 0;
    for (uint64_t at = 0; at < cfg->n; at += s->chunk) {
        uint64_t count = cfg->n - at < s->chunk ? cfg->n - at : s->chunk;
        const void *x = (const char *)cfg->input + at * rb_dtype_size(cfg->dtype);
        switch (cfg->dtype) {
        case RB_DTYPE_I32: s->total_bits += chunk_i32(x, count); break;
        case RB_DTYPE_I64: s->total_bits += chunk_i64(x, count); break;
        case RB_DTYPE_F32: s->total += chunk_f32(x, count); break;
        case RB_DTYPE_F64: s->total += chunk_f64(x, count); break;
        default: return RB_UNSUPPORTED; /* not declared: redbench never asks */
        }
    }
    return RB_OK;
}

static int chunked_verify(void *state, rb_result *result)
{
    chunked_state *s = state;
    if (s->cfg->dtype == RB_DTYPE_I32)
        result->i = (int32_t)(uint32_t)s->total_bits; /* the i32 sum, wrapped */
    else
        result->i = (int64_t)s->total_bits;
    result->f = s->total;
    return RB_OK;
}

static void chunked_teardown(void *state)
{
    free(state);
}

static const rb_plugin chunked_plugin = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "chunked",
    .summary = "sum a chunk at a time in the element's type, chunks joined in 64 bits",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |
              RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64),
    RB_PLUGIN_PARAMS(chunked_params),
    .describe = NULL, /* every declared op and dtype runs */
    .init = chunked_init,
    .run = chunked_run,
    .verify = chunked_verify,
    .teardown = chunked_teardown,
};

RB_PLUGIN_ENTRY(chunked_plugin)
