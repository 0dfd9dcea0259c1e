/* plugins/cuda/shared_array.cu: seed 003's scenario 5. Each thread sums
 * values_per_thread consecutive elements into its own slot of a shared
 * array; thread 0 adds the block's slots one by one and makes one global
 * atomic per block. The result is reset with cudaMemsetAsync inside every
 * run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

static const rb_param_spec shared_array_params[] = {
    {"values_per_thread", RB_PARAM_INT, "16", 1, 1 << 20, NULL, 0,
     "consecutive elements each thread reads"},
    {"block", RB_PARAM_INT, "512", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
};

template <class A>
__global__ void shared_array_kernel(const A *__restrict__ in, size_t n,
                                    unsigned values_per_thread, A *out)
{
    __shared__ A slots[1024];
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * values_per_thread;
    const size_t count = rb_cuda::slice_length(first, values_per_thread, n);
    A total = 0;
#pragma unroll 16
    for (size_t i = 0; i < count; i++)
        total += in[first + i];
    slots[threadIdx.x] = total;
    __syncthreads();
    if (threadIdx.x == 0) {
        A block_total = 0;
        for (unsigned t = 0; t < blockDim.x; t++)
            block_total += slots[t];
        atomicAdd(out, block_total);
    }
}

struct shared_array_state : rb_cuda::result_state {
    unsigned values_per_thread, block, grid;
};

static int check(const rb_config *cfg, unsigned values_per_thread, unsigned block, unsigned *grid)
{
    if (cfg->op != RB_OP_SUM || rb_dtype_size(cfg->dtype) < 4) {
        cfg->host->error(cfg->host, "shared-array sums i32, i64, f32 or f64");
        return RB_UNSUPPORTED;
    }
    return rb_cuda::plan_blocks(cfg, (size_t)values_per_thread * block, grid);
}

static int shared_array_describe(const rb_config *cfg, rb_description *out)
{
    unsigned grid;
    int status = check(cfg, (unsigned)rb_param_int(cfg, "values_per_thread", 16),
                       (unsigned)rb_param_int(cfg, "block", 512), &grid);
    if (status == RB_OK)
        snprintf(out->label, sizeof out->label, "shared-unique-entry-per-thread");
    return status;
}

static int shared_array_setup(shared_array_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->values_per_thread = (unsigned)rb_param_int(cfg, "values_per_thread", 16);
    s->block = (unsigned)rb_param_int(cfg, "block", 512);
    s->out_bytes = rb_dtype_size(cfg->dtype);
    s->out_dtype = cfg->dtype;
    const int status = check(cfg, s->values_per_thread, s->block, &s->grid);
    if (status != RB_OK)
        return status;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    return RB_OK;
}

template <class A> static void launch(const shared_array_state *s)
{
    shared_array_kernel<A><<<s->grid, s->block, 0, s->stream>>>(
        static_cast<const A *>(s->cfg->input), s->cfg->n, s->values_per_thread,
        static_cast<A *>(s->out));
}

static int shared_array_run(void *state)
{
    shared_array_state *s = (shared_array_state *)state;
    const rb_host *host = s->cfg->host;
    RB_CUDA_CHECK(host, cudaMemsetAsync(s->out, 0, s->out_bytes, s->stream));
    switch (s->cfg->dtype) { /* integer sums wrap in the unsigned type */
    case RB_DTYPE_I32: launch<unsigned>(s); break;
    case RB_DTYPE_I64: launch<unsigned long long>(s); break;
    case RB_DTYPE_F32: launch<float>(s); break;
    default: launch<double>(s); break;
    }
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

static constexpr rb_plugin shared_array_plugin = rb_cuda::plugin({
    .name = "shared-array",
    .summary = "one shared slot per thread, thread 0 adds them, one atomic per block (seed 003)",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = shared_array_params, .n_params = rb_cuda::count_of(shared_array_params),
    .describe = shared_array_describe,
    .init = rb_cuda::init_with<shared_array_state, shared_array_setup>, .run = shared_array_run,
    .verify = rb_cuda::verify_result<shared_array_state>,
    .teardown = rb_cuda::teardown_result<shared_array_state>,
});

RB_CUDA_PLUGIN_ENTRY(shared_array_plugin)
