/* plugins/cuda/pattern.cu: the published one-pass sum, written plainly, as
 * the yardstick of conf/hopper-vs-cub.ini (issue 31). The grid is
 * ceil(n / (1024 x 8 x V)) blocks of 1024 threads (V elements in 16
 * bytes); thread t of block b reads the 8 vectors b x 8192 + t + k x 1024,
 * each only if it lies below n / V, adds them, the warp adds by shuffles,
 * lane 0 of each warp adds into one shared value with a shared-memory
 * atomic, and thread 0 adds that into the result with one global atomic per
 * block. The result is cleared by a cudaMemsetAsync on the backend's stream
 * inside every call. The n % V elements after the last whole vector are
 * read by the first threads of the last block. No parameters: it is the
 * pattern as published, not a search space (onepass is).
 *
 * Its planted-bug twins, tests/run/judge/pattern-tail.cu and
 * pattern-no-reset.cu, are this file built with PATTERN_DROP_TAIL (the
 * n % V elements left out) or PATTERN_NO_RESET (no memset: a call adds onto
 * the one before). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#ifndef PATTERN_NAME
#define PATTERN_NAME "pattern"
#define PATTERN_SUMMARY                                                                   \
    "the published one-pass sum: 8 16-byte loads a block apart, warp shuffle, a shared " \
    "atomic per warp, a global atomic per block, the result cleared by a memset"
#endif

enum { PATTERN_BLOCK = 1024, PATTERN_BATCH = 8 };

/* Sums of A (unsigned for integers, so that they wrap) read as 16-byte
 * vectors of V elements. */
template <class A>
__global__ void __launch_bounds__(PATTERN_BLOCK)
    pattern_sum(const A *in, size_t n, A *out)
{
    constexpr int V = 16 / sizeof(A);
    __shared__ A block_sum;
    if (threadIdx.x == 0)
        block_sum = 0;
    __syncthreads();
    const size_t vectors = n / V;
    const size_t first = (size_t)blockIdx.x * PATTERN_BLOCK * PATTERN_BATCH + threadIdx.x;
    rb_cuda::vec<A, V> x[PATTERN_BATCH];
#pragma unroll
    for (int k = 0; k < PATTERN_BATCH; k++) {
        const size_t i = first + (size_t)k * PATTERN_BLOCK;
        if (i < vectors)
            x[k] = rb_cuda::load_vec<A, V>(in + i * V);
        else
#pragma unroll
            for (int j = 0; j < V; j++)
                x[k].v[j] = 0;
    }
    A sum = 0;
#pragma unroll
    for (int k = 0; k < PATTERN_BATCH; k++)
#pragma unroll
        for (int j = 0; j < V; j++)
            sum += x[k].v[j];
#ifndef PATTERN_DROP_TAIL
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % V)
        sum += in[vectors * V + threadIdx.x];
#endif
    sum = rb_cuda::warp_reduce<rb_cuda::op_sum>(sum);
    if ((threadIdx.x & 31u) == 0)
        atomicAdd(&block_sum, sum);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(out, block_sum);
}

struct pattern_state : rb_cuda::result_state {
    unsigned grid;
};

/* One block per 1024 x 8 vectors, rounded up; the input read from its start
 * in 16-byte vectors, so it must be 16-byte aligned (the backend's buffers
 * are). */
static int pattern_plan(const rb_config *cfg, unsigned *grid)
{
    if (cfg->op != RB_OP_SUM) {
        cfg->host->error(cfg->host, PATTERN_NAME " sums i32, i64, f32 and f64");
        return RB_UNSUPPORTED;
    }
    const size_t per_block = (size_t)PATTERN_BLOCK * PATTERN_BATCH * (16 / rb_dtype_size(cfg->dtype));
    return rb_cuda::plan_blocks(cfg, per_block, grid);
}

static int pattern_describe(const rb_config *cfg, rb_description *out)
{
    unsigned grid;
    const int status = pattern_plan(cfg, &grid);
    if (status != RB_OK)
        return status;
    const bool nondet = cfg->dtype == RB_DTYPE_F32 || cfg->dtype == RB_DTYPE_F64;
    snprintf(out->label, sizeof out->label, PATTERN_NAME "-1024x8%s", nondet ? "-nondet" : "");
    return RB_OK;
}

static int pattern_setup(pattern_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->out_bytes = rb_dtype_size(cfg->dtype);
    s->out_dtype = cfg->dtype;
    const int status = pattern_plan(cfg, &s->grid);
    if (status != RB_OK)
        return status;
    if ((uintptr_t)cfg->input % 16 != 0) {
        cfg->host->error(cfg->host, PATTERN_NAME " reads 16-byte vectors from the input's "
                                    "start: the input must be 16-byte aligned");
        return RB_UNSUPPORTED;
    }
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(s->out, 0, s->out_bytes, s->stream));
    return RB_OK;
}

template <class A> static void launch(const pattern_state *s)
{
    pattern_sum<A><<<s->grid, PATTERN_BLOCK, 0, s->stream>>>(
        static_cast<const A *>(s->cfg->input), s->cfg->n, static_cast<A *>(s->out));
}

static int pattern_run(void *state)
{
    pattern_state *s = (pattern_state *)state;
    const rb_host *host = s->cfg->host;
#ifndef PATTERN_NO_RESET
    RB_CUDA_CHECK(host, cudaMemsetAsync(s->out, 0, s->out_bytes, s->stream));
#endif
    switch (s->cfg->dtype) { /* integer sums wrap in the unsigned type */
    case RB_DTYPE_I32: launch<unsigned>(s); break;
    case RB_DTYPE_I64: launch<unsigned long long>(s); break;
    case RB_DTYPE_F32: launch<float>(s); break;
    default: launch<double>(s); break;
    }
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

static constexpr rb_plugin pattern_plugin = rb_cuda::plugin({
    .name = PATTERN_NAME,
    .summary = PATTERN_SUMMARY,
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = NULL, .n_params = 0,
    .describe = pattern_describe,
    .init = rb_cuda::init_with<pattern_state, pattern_setup>, .run = pattern_run,
    .verify = rb_cuda::verify_result<pattern_state>,
    .teardown = rb_cuda::teardown_result<pattern_state>,
});

RB_CUDA_PLUGIN_ENTRY(pattern_plugin)
