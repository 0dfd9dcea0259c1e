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

struct blocksum_state {
    const rb_config *cfg;
    void *out; /* the result on the device: 8 bytes */
    unsigned block, grid;
};

static int blocksum_setup(blocksum_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    /* enough blocks to fill the device once, fewer for a small input */
    uint64_t fill = (uint64_t)rb_cuda::sm_count(cfg->device) * (2048 / s->block);
    uint64_t need = (cfg->n + s->block - 1) / s->block;
    s->grid = (unsigned)(need < fill ? need : fill);
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, 8));
    return RB_OK;
}

static void blocksum_teardown(void *state);

/* init: a zeroed blocksum_state, set up by blocksum_setup; when that fails,
 * blocksum_teardown frees what it made */
static int blocksum_init(const rb_config *cfg, void **state)
{
    return rb_cuda::init_state(cfg, state, blocksum_setup, blocksum_teardown);
}

template <class T> static void launch(const blocksum_state *s, cudaStream_t stream)
{
    blocksum_kernel<T><<<s->grid, s->block, 0, stream>>>((const T *)s->cfg->input, s->cfg->n,
                                                          (sum_of<T> *)s->out);
}

static int blocksum_run(void *state)
{
    blocksum_state *s = (blocksum_state *)state;
    const rb_host *host = s->cfg->host;
    cudaStream_t stream = (cudaStream_t)s->cfg->queue;
    RB_CUDA_CHECK(host, cudaMemsetAsync(s->out, 0, 8, stream)); /* each run starts from 0 */
    switch (s->cfg->dtype) {
    case RB_DTYPE_I32: launch<int>(s, stream); break;
    case RB_DTYPE_I64: launch<long long>(s, stream); break;
    case RB_DTYPE_F32: launch<float>(s, stream); break;
    case RB_DTYPE_F64: launch<double>(s, stream); break;
    default: return RB_UNSUPPORTED; /* not declared: redbench never asks */
    }
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

static int blocksum_verify(void *state, rb_result *result)
{
    blocksum_state *s = (blocksum_state *)state;
    const rb_host *host = s->cfg->host;
    cudaStream_t stream = (cudaStream_t)s->cfg->queue;
    /* the 8-byte result back to the host, for redbench to compare */
    return rb_cuda::read_value(host, stream, s->out, 8, s->cfg->dtype, result);
}

static void blocksum_teardown(void *state)
{
    blocksum_state *s = (blocksum_state *)state;
    cudaFree(s->out);
    free(s);
}

static const rb_plugin blocksum_plugin = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
    .name = "blocksum",
    .summary = "grid-stride sum, block shuffles, one atomic a block",
    .version = "1.0",
    .backend = "cuda",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes, /* i32, i64, f32, f64 */
    .params = blocksum_params,
    .n_params = rb_cuda::count_of(blocksum_params),
    .describe = NULL, /* every declared op and dtype runs */
    .init = blocksum_init,
    .run = blocksum_run,
    .verify = blocksum_verify,
    .teardown = blocksum_teardown,
};

RB_CUDA_PLUGIN_ENTRY(blocksum_plugin)
