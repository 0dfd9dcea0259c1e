/* tests/run/judge/buggy.cu: a cuda strategy with planted bugs, the GPU twin of
 * tests/run/judge/buggy.c (bugs.h lists the bugs). A grid-stride loop
 * leaves one partial per block, and one block combines the partials; the
 * bugs are planted where such kernels have them (the tail, a boundary, a
 * block's partial, the clearing of the result between calls). Sum, min and
 * max of i32, i64, f32, f64, f16 and bf16 (halves reduced in f32, or in f16
 * under half-acc); histograms of u8. Built and run by
 * tests/run/test_gpu_judge.sh, which expects every bug reported `wrong`. */
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#include "bugs.h"

#define BLOCK 256
#define MAX_BLOCKS 1024

template <typename T> struct limits;
template <> struct limits<int32_t> { __device__ static int32_t lo() { return INT32_MIN; } __device__ static int32_t hi() { return INT32_MAX; } };
template <> struct limits<long long> { __device__ static long long lo() { return LLONG_MIN; } __device__ static long long hi() { return LLONG_MAX; } };
template <> struct limits<float> { __device__ static float lo() { return -INFINITY; } __device__ static float hi() { return INFINITY; } };
template <> struct limits<double> { __device__ static double lo() { return -INFINITY; } __device__ static double hi() { return INFINITY; } };

template <typename T, int OP> __device__ T identity()
{
    return OP == RB_OP_SUM ? T(0) : OP == RB_OP_MIN ? limits<T>::hi() : limits<T>::lo();
}

template <typename T, int OP> __device__ T combine(T a, T b)
{
    if (OP == RB_OP_SUM)
        return a + b;
    if (OP == RB_OP_MIN)
        return b < a ? b : a;
    return b > a ? b : a;
}

template <typename T, int OP> __device__ T block_reduce(T v)
{
    __shared__ T lane[BLOCK];
    lane[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            lane[threadIdx.x] = combine<T, OP>(lane[threadIdx.x], lane[threadIdx.x + s]);
        __syncthreads();
    }
    return lane[0];
}

/* Whether element k is read, and how often, under the bug. */
__device__ int times_read(size_t k, size_t n, int bug, size_t boundary)
{
    if (bug == BUG_DROP_LAST && k == n - 1 && n % 4 != 0)
        return 0;
    if (bug == BUG_DROP_BOUNDARY && k == boundary)
        return 0;
    if (bug == BUG_TAIL_TWICE && k >= n - (n % 8 ? n % 8 : 1))
        return 2;
    if (bug == BUG_DROP_ODD && k == n - 1 && n % 2 != 0)
        return 0;
    return 1;
}

template <typename T, int OP>
__global__ void partials_kernel(const T *x, size_t n, int bug, size_t boundary, T *partials)
{
    T acc = identity<T, OP>();
    size_t limit = bug == BUG_HALF && n > 1 ? (n + 1) / 2 : n;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < limit; k += stride)
        for (int t = times_read(k, n, bug, boundary); t > 0; t--)
            acc = combine<T, OP>(acc, x[k]);
    T block = block_reduce<T, OP>(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = bug == BUG_LOSE_BLOCK && gridDim.x > 1 && blockIdx.x == gridDim.x / 2
                                   ? identity<T, OP>()
                                   : block;
}

template <typename T, int OP>
__global__ void finish_kernel(const T *partials, unsigned count, int bug, T *result)
{
    T acc = identity<T, OP>();
    for (unsigned k = threadIdx.x; k < count; k += blockDim.x)
        acc = combine<T, OP>(acc, partials[k]);
    T total = block_reduce<T, OP>(acc);
    if (threadIdx.x == 0)
        *result = bug == BUG_ACCUMULATE ? combine<T, OP>(*result, total) : total;
}

__global__ void histogram_kernel(const uint8_t *x, size_t n, int bug, size_t boundary,
                                 unsigned bins, unsigned long long *counts)
{
    if (bug == BUG_LOSE_BLOCK && gridDim.x > 1 && blockIdx.x == gridDim.x / 2)
        return;
    size_t limit = bug == BUG_HALF && n > 1 ? (n + 1) / 2 : n;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < limit; k += stride) {
        if (bug == BUG_HIST_LAST && k == n - 1)
            continue;
        for (int t = times_read(k, n, bug, boundary); t > 0; t--)
            atomicAdd(&counts[(unsigned)x[k] * bins / 256u], 1ull);
    }
}

/* A half element's value (its bits): bf16 read as f16 under bf16-as-f16. */
__device__ float half_value(unsigned short bits, int dtype, int bug)
{
    if (dtype == RB_DTYPE_F16 || bug == BUG_BF16_AS_F16)
        return __half2float(__ushort_as_half(bits));
    return __bfloat162float(__ushort_as_bfloat16(bits));
}

/* half-acc: every partial rounded to f16, as half arithmetic leaves it. */
__device__ float keep(float v, int bug)
{
    return bug == BUG_HALF_ACC ? __half2float(__float2half_rn(v)) : v;
}

template <int OP>
__global__ void half_partials_kernel(const unsigned short *x, size_t n, int dtype, int bug,
                                     size_t boundary, float *partials)
{
    float acc = identity<float, OP>();
    size_t limit = bug == BUG_HALF && n > 1 ? (n + 1) / 2 : n;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < limit; k += stride)
        for (int t = times_read(k, n, bug, boundary); t > 0; t--)
            acc = keep(combine<float, OP>(acc, half_value(x[k], dtype, bug)), bug);
    /* under half-acc the block's tree rounds too: its result is rounded
     * once more (the shared tree itself is f32, a milder version) */
    float block = keep(block_reduce<float, OP>(acc), bug);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = bug == BUG_LOSE_BLOCK && gridDim.x > 1 && blockIdx.x == gridDim.x / 2
                                   ? identity<float, OP>()
                                   : block;
}

typedef struct state {
    const rb_config *cfg;
    int bug;
    int calls;
    unsigned blocks;
    size_t boundary;
    void *partials;
    void *result; /* one element, or the bins */
    size_t result_bytes;
} state;

template <typename T, int OP> static void launch(state *s)
{
    const rb_config *cfg = s->cfg;
    cudaStream_t q = (cudaStream_t)cfg->queue;
    partials_kernel<T, OP><<<s->blocks, BLOCK, 0, q>>>((const T *)cfg->input, (size_t)cfg->n, s->bug,
                                                       s->boundary, (T *)s->partials);
    finish_kernel<T, OP><<<1, BLOCK, 0, q>>>((const T *)s->partials, s->blocks, s->bug,
                                             (T *)s->result);
}

template <int OP> static void launch_half(state *s)
{
    const rb_config *cfg = s->cfg;
    cudaStream_t q = (cudaStream_t)cfg->queue;
    half_partials_kernel<OP><<<s->blocks, BLOCK, 0, q>>>(
        (const unsigned short *)cfg->input, (size_t)cfg->n, cfg->dtype, s->bug, s->boundary,
        (float *)s->partials);
    finish_kernel<float, OP><<<1, BLOCK, 0, q>>>((const float *)s->partials, s->blocks, s->bug,
                                                 (float *)s->result);
}

template <typename T> static void launch_op(state *s)
{
    switch (s->cfg->op) {
    case RB_OP_SUM: launch<T, RB_OP_SUM>(s); break;
    case RB_OP_MIN: launch<T, RB_OP_MIN>(s); break;
    default: launch<T, RB_OP_MAX>(s); break;
    }
}

static int buggy_run(void *p)
{
    state *s = (state *)p;
    const rb_config *cfg = s->cfg;
    cudaStream_t q = (cudaStream_t)cfg->queue;
    s->calls++;
    if (s->bug == BUG_FIRST_ANSWER && s->calls > 1)
        return RB_OK;
    if (s->bug != BUG_ACCUMULATE || s->calls == 1)
        cudaMemsetAsync(s->result, 0, s->result_bytes, q);
    if (s->bug == BUG_CONSTANT)
        return cudaGetLastError() == cudaSuccess ? RB_OK : RB_ERROR;
    if (cfg->op == RB_OP_HISTOGRAM) {
        histogram_kernel<<<s->blocks, BLOCK, 0, q>>>((const uint8_t *)cfg->input, (size_t)cfg->n,
                                                     s->bug, s->boundary, cfg->bins,
                                                     (unsigned long long *)s->result);
    } else {
        switch (cfg->dtype) {
        case RB_DTYPE_F16:
        case RB_DTYPE_BF16:
            if (cfg->op == RB_OP_SUM)
                launch_half<RB_OP_SUM>(s);
            else if (cfg->op == RB_OP_MIN)
                launch_half<RB_OP_MIN>(s);
            else
                launch_half<RB_OP_MAX>(s);
            break;
        case RB_DTYPE_I32: launch_op<int32_t>(s); break;
        case RB_DTYPE_I64: launch_op<long long>(s); break;
        case RB_DTYPE_F32: launch_op<float>(s); break;
        default: launch_op<double>(s); break;
        }
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        cfg->host->error(cfg->host, "launch: %s", cudaGetErrorString(e));
        return RB_ERROR;
    }
    return RB_OK;
}

static int buggy_verify(void *p, rb_result *out)
{
    state *s = (state *)p;
    const rb_config *cfg = s->cfg;
    cudaStream_t q = (cudaStream_t)cfg->queue;
    if (cfg->op == RB_OP_HISTOGRAM)
        return rb_cuda::read_bytes(cfg->host, q, out->bins, s->result, s->result_bytes);
    /* halves: the result is an f32 (4 bytes) */
    const bool half = cfg->dtype == RB_DTYPE_F16 || cfg->dtype == RB_DTYPE_BF16;
    return rb_cuda::read_value(cfg->host, q, s->result, half ? 4 : 8, cfg->dtype, out);
}

static int buggy_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    if ((cfg->op == RB_OP_HISTOGRAM) != (cfg->dtype == RB_DTYPE_U8)) {
        cfg->host->error(cfg->host, "histograms of u8 only, and u8 for histograms only");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static int buggy_setup(state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->bug = (int)rb_param_int(cfg, "bug", BUG_NONE);
    uint64_t want = (cfg->n + BLOCK - 1) / BLOCK;
    s->blocks = (unsigned)(want < MAX_BLOCKS ? want : MAX_BLOCKS);
    s->boundary = cfg->n >= 3 ? (size_t)1 << (63 - __builtin_clzll(cfg->n - 2)) : (size_t)-1;
    s->result_bytes = cfg->op == RB_OP_HISTOGRAM ? cfg->bins * sizeof(uint64_t) : 8;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->partials, MAX_BLOCKS * 8));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->result, s->result_bytes));
    return RB_OK;
}

static void buggy_teardown(void *p)
{
    state *s = (state *)p;
    cudaFree(s->partials);
    cudaFree(s->result);
    free(s);
}

static constexpr rb_plugin buggy = rb_cuda::plugin({
    .name = "buggy-cuda",
    .summary = "test strategy with planted bugs for the judge, on a CUDA device",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |
        RB_OP_BIT(RB_OP_HISTOGRAM),
    .dtypes = rb_cuda::numeric_dtypes | rb_cuda::half_dtypes | RB_DTYPE_BIT(RB_DTYPE_U8),
    .params = params, .n_params = rb_cuda::count_of(params),
    .describe = buggy_describe, .init = rb_cuda::init_with<state, buggy_setup, buggy_teardown>,
    .run = buggy_run, .verify = buggy_verify, .teardown = buggy_teardown,
});

RB_CUDA_PLUGIN_ENTRY(buggy)
