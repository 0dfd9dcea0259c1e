/* blocksum.cu: the example pack's CUDA strategy: a grid-stride sum of i32,
 * i64, f32 or f64 data. Each thread sums elements a grid apart, each block
 * combines its threads' sums with warp shuffles (rb_cuda::block_reduce),
 * and each block adds its sum to the result with one atomic. All device
 * work is issued on cfg->queue, the stream on which redbench times it.
 * Parameter `block` sets the threads per block. */
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

static const rb_param_spec blocksum_params[] = {
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
};

/* What a sum of T accumulates in: T, or its unsigned type for integers. */
template <class T> using sum_of = typename rb_cuda::op_sum::acc<T>::type;

template <class T>
__global__ void blocksum_kernel(const T *__restrict__ in, size_t n, sum_of<T> *out)
{
    __shared__ sum_of<T> scratch[32];
    sum_of<T> sum = 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
        sum += (sum_of<T>)in[k];
    sum = rb_cuda::block_reduce<rb_cuda::op_sum>(sum, scratch);
    if (threadIdx.x == 0)
        atomicAdd(out, sum);
}

/* cfg, stream (cfg->queue) and the result on the device (out: 8 bytes, read
 * back as the data's dtype), which rb_cuda::verify_result reads and
 * rb_cuda::teardown_result frees; then what this strategy adds */
struct blocksum_state : rb_cuda::result_state {
    unsigned block, grid;
};

static int blocksum_setup(blocksum_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    /* enough blocks to fill the device once, fewer for a small input */
    uint64_t fill = (uint64_t)rb_cuda::sm_count(cfg->device) * (2048 / s->block);
    uint64_t need = (cfg->n + s->block - 1) / s->block;
    s->grid = (unsigned)(need < fill ? need : fill);
    s->out_bytes = 8;
    s->out_dtype = cfg->dtype;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    return RB_OK;
}

template <class T> static void launch(const blocksum_state *s)
{
    blocksum_kernel<T><<<s->grid, s->block, 0, s->stream>>>((const T *)s->cfg->input, s->cfg->n,
                                                             (sum_of<T> *)s->out);
}

static int blocksum_run(void *state)
{
    blocksum_state *s = (blocksum_state *)state;
    const rb_host *host = s->cfg->host;
    /* each run starts from 0 */
    RB_CUDA_CHECK(host, cudaMemsetAsync(s->out, 0, s->out_bytes, s->stream));
    switch (s->cfg->dtype) {
    case RB_DTYPE_I32: launch<int>(s); break;
    case RB_DTYPE_I64: launch<long long>(s); break;
    case RB_DTYPE_F32: launch<float>(s); break;
    case RB_DTYPE_F64: launch<double>(s); break;
    default: return RB_UNSUPPORTED; /* not declared: redbench never asks */
    }
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

/* The descriptor: rb_cuda::plugin adds the ABI it was built with, the
 * descriptor's size, version 1.0 and the cuda backend. */
static constexpr rb_plugin blocksum_plugin = rb_cuda::plugin({
    .name = "blocksum",
    .summary = "grid-stride sum, block shuffles, one atomic a block",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes, /* i32, i64, f32, f64 */
    .params = blocksum_params,
    .n_params = rb_cuda::count_of(blocksum_params),
    .describe = NULL, /* every declared op and dtype runs */
    /* a zeroed blocksum_state, set up by blocksum_setup; when that fails,
     * teardown_result frees what it made */
    .init = rb_cuda::init_with<blocksum_state, blocksum_setup>,
    .run = blocksum_run,
    .verify = rb_cuda::verify_result<blocksum_state>, /* out back to the host */
    .teardown = rb_cuda::teardown_result<blocksum_state>,
});

RB_CUDA_PLUGIN_ENTRY(blocksum_plugin)
