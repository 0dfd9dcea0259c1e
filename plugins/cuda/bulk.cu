/* plugins/cuda/bulk.cu: a reduction fed by the bulk-copy engine (Hopper's
 * TMA, `cp.async.bulk`, compute capability 9.0 and later). Each block owns a
 * ring of `stages` buffers of `chunk` bytes in shared memory. One thread
 * asks the copy engine for whole chunks of the input, several ahead, and
 * each buffer's mbarrier says when its bytes have landed; meanwhile every
 * thread of the block adds up the buffer before it from shared memory. The
 * chunks are dealt to the blocks round-robin; the few elements before the
 * first 16-byte boundary and after the last whole chunk are read directly.
 * The blocks' values are combined in the same kernel:
 *   last-block  each block writes a partial; the last block to finish (an
 *               atomic ticket) adds them in block order: bit-identical
 *               results run to run
 *   atomic      each block combines its value into the result atomically
 *               (the result is reset on the stream first) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum bulk_finish { LAST_BLOCK, ATOMIC };

static const char *const finish_words[] = {"last-block", "atomic", NULL};

static const rb_param_spec bulk_params[] = {
    {"block", RB_PARAM_INT, "256", 64, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"stages", RB_PARAM_INT, "4", 2, 16, NULL, 0, "buffers in each block's ring"},
    {"chunk", RB_PARAM_INT, "8192", 1024, 65536, NULL, RB_PARAM_POW2,
     "bytes per buffer (one bulk copy)"},
    {"per_sm", RB_PARAM_INT, "2", 1, 8, NULL, 0,
     "blocks per multiprocessor (the grid is that times the SM count, fewer for small n)"},
    {"finish", RB_PARAM_CHOICE, "last-block", 0, 0, finish_words, 0,
     "last-block | atomic: how the blocks' values are combined"},
};

/* Where the input lies: `head` elements before the first 16-byte boundary,
 * `chunks` whole chunks from there, then the rest up to n. */
struct bulk_layout {
    size_t head, chunks, tail_start, n;
    unsigned chunk_bytes, stages;
};

/* The mbarrier and bulk-copy instructions (PTX ISA 8.0, sm_90). */
namespace bulk_ptx {
__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void barrier_init(uint64_t *bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bar)) : "memory");
}

__device__ __forceinline__ void barrier_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/* Orders this block's reads of shared memory before the copy engine's
 * writes into it. */
__device__ __forceinline__ void proxy_fence()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* Arrives on bar expecting `bytes` more, and copies them there. */
__device__ __forceinline__ void copy(void *dst, const void *src, unsigned bytes, uint64_t *bar)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];" ::"r"(smem(dst)),
                 "l"(src), "r"(bytes), "r"(smem(bar))
                 : "memory");
}

__device__ __forceinline__ void wait(uint64_t *bar, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(smem(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}
} /* namespace bulk_ptx */

#define BULK_MAX_STAGES 16

template <class Op, class T, class A>
__global__ void bulk_main(const T *__restrict__ in, bulk_layout at, A *__restrict__ partials,
                          A *__restrict__ out, unsigned *ticket, int finish)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    __trap(); /* describe declines devices before compute capability 9.0 */
#else
    extern __shared__ __align__(128) unsigned char ring[];
    __shared__ uint64_t full[BULK_MAX_STAGES];
    __shared__ A scratch[32];
    __shared__ bool is_last;
    constexpr int V = 16 / sizeof(T);
    typedef rb_cuda::vec<T, V> vec_t;
    const unsigned tid = threadIdx.x, block = blockDim.x, grid = gridDim.x;
    const unsigned stages = at.stages, chunk_bytes = at.chunk_bytes;
    const char *body = reinterpret_cast<const char *>(in + at.head);
    /* this block's chunks: blockIdx.x, + grid, + 2 grid, ... */
    const size_t mine = blockIdx.x < at.chunks ? (at.chunks - blockIdx.x + grid - 1) / grid : 0;

    if (tid == 0) {
        for (unsigned s = 0; s < stages; s++)
            bulk_ptx::barrier_init(&full[s]);
        bulk_ptx::barrier_init_fence();
    }
    __syncthreads();
    if (tid == 0)
        for (unsigned s = 0; s < stages && s < mine; s++)
            bulk_ptx::copy(ring + (size_t)s * chunk_bytes,
                           body + (blockIdx.x + (size_t)s * grid) * chunk_bytes, chunk_bytes,
                           &full[s]);

    A acc = Op::template identity<A>();
    /* the elements outside whole chunks, while the first copies fly */
    const size_t rest = at.head + (at.n - at.tail_start);
    for (size_t i = (size_t)blockIdx.x * block + tid; i < rest; i += (size_t)grid * block) {
        const size_t index = i < at.head ? i : at.tail_start + (i - at.head);
        acc = Op::apply(acc, (A)__ldg(in + index));
    }

    const unsigned vectors = chunk_bytes / 16;
    for (size_t k = 0; k < mine; k++) {
        const unsigned s = (unsigned)(k % stages);
        bulk_ptx::wait(&full[s], (unsigned)(k / stages) & 1u);
        const vec_t *v = reinterpret_cast<const vec_t *>(ring + (size_t)s * chunk_bytes);
#pragma unroll 4
        for (unsigned j = tid; j < vectors; j += block) {
            const vec_t x = v[j];
#pragma unroll
            for (int e = 0; e < V; e++)
                acc = Op::apply(acc, (A)x.v[e]);
        }
        __syncthreads(); /* every thread is done with buffer s */
        if (tid == 0 && k + stages < mine) {
            bulk_ptx::proxy_fence();
            bulk_ptx::copy(ring + (size_t)s * chunk_bytes,
                           body + (blockIdx.x + (k + stages) * grid) * chunk_bytes, chunk_bytes,
                           &full[s]);
        }
    }

    acc = rb_cuda::block_reduce<Op>(acc, scratch);
    if (grid == 1) {
        if (tid == 0)
            *out = acc;
        return;
    }
    if (finish == ATOMIC) {
        if (tid == 0)
            rb_cuda::atomic_combine<Op>::apply(out, acc);
        return;
    }
    /* last-block: the block that takes the last ticket sees every partial */
    if (tid == 0) {
        partials[blockIdx.x] = acc;
        is_last = rb_cuda::take_ticket(ticket) == grid - 1;
    }
    __syncthreads();
    if (!is_last)
        return;
    acc = Op::template identity<A>();
    for (unsigned i = tid; i < grid; i += block)
        acc = Op::apply(acc, __ldcg(&partials[i]));
    acc = rb_cuda::block_reduce<Op>(acc, scratch);
    if (tid == 0) {
        *out = acc;
        *ticket = 0;
    }
#endif
}

typedef struct bulk_state bulk_state;
typedef int (*bulk_launch_fn)(bulk_state *s);
typedef cudaError_t (*bulk_prepare_fn)(bulk_state *s, int *resident);

/* out: the result; out_bytes: the accumulator's size, a partial's too */
struct bulk_state : rb_cuda::result_state {
    unsigned block, grid, stages, chunk;
    int per_sm, finish;
    size_t ring_bytes;
    void *partials;
    unsigned *ticket;
    bulk_layout at; /* set once in init */
    bulk_launch_fn launch;
};

template <class Op, class T, class A> static int bulk_launch(bulk_state *s)
{
    const rb_host *host = s->cfg->host;
    if (s->finish == ATOMIC && s->grid > 1 &&
        rb_cuda::reset_result(s->cfg, s->out, sizeof(A), s->stream) != RB_OK)
        return RB_ERROR;
    bulk_main<Op, T, A><<<s->grid, s->block, s->ring_bytes, s->stream>>>(
        static_cast<const T *>(s->cfg->input), s->at, static_cast<A *>(s->partials),
        static_cast<A *>(s->out), s->ticket, s->finish);
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

/* Allows the ring's shared memory and says how many blocks fit on one SM. */
template <class Op, class T, class A> static cudaError_t bulk_prepare(bulk_state *s, int *resident)
{
    cudaError_t e = cudaFuncSetAttribute(bulk_main<Op, T, A>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)s->ring_bytes);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(resident, bulk_main<Op, T, A>,
                                                          (int)s->block, s->ring_bytes);
    return e;
}

struct bulk_kernel {
    bulk_launch_fn launch;
    bulk_prepare_fn prepare;
    size_t acc_bytes, element_bytes;
};

template <class Op, class T, class A> static bulk_kernel kernel_for()
{
    bulk_kernel k = {bulk_launch<Op, T, A>, bulk_prepare<Op, T, A>, sizeof(A), sizeof(T)};
    return k;
}

/* The kernel of a configuration; launch NULL for one it does not reduce. */
static bulk_kernel pick(int dtype, int op)
{
    return rb_cuda::with_numeric_op(dtype, op, [&](auto reduce, auto t, auto a) {
        return kernel_for<decltype(reduce), decltype(t), decltype(a)>();
    });
}

static int bulk_describe(const rb_config *cfg, rb_description *out)
{
    const rb_host *host = cfg->host;
    if (!pick(cfg->dtype, cfg->op).launch) {
        host->error(host, "bulk reduces sum, min and max of i32, i64, f32 and f64");
        return RB_UNSUPPORTED;
    }
    const int stages = (int)rb_param_int(cfg, "stages", 4);
    const int chunk = (int)rb_param_int(cfg, "chunk", 8192);
    const int status = rb_cuda::require_compute_capability(cfg, 90, "the bulk-copy engine needs");
    if (status != RB_OK)
        return status;
    int smem_max = 0;
    if (cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, cfg->device) ==
            cudaSuccess &&
        (long)stages * chunk > smem_max - 1024) {
        host->error(host, "stages x chunk = %ld bytes of shared memory; a block of device %d "
                          "may have at most %d",
                    (long)stages * chunk, cfg->device, smem_max - 1024);
        return RB_UNSUPPORTED;
    }
    snprintf(out->label, sizeof out->label, "bulk-%dx%dK-%s", stages, chunk / 1024,
             rb_param_int(cfg, "finish", LAST_BLOCK) == ATOMIC ? "atomic" : "lastblock");
    return RB_OK;
}

static int bulk_setup(bulk_state *s, const rb_config *cfg)
{
    const rb_host *host = cfg->host;
    bulk_kernel k = pick(cfg->dtype, cfg->op);
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    s->stages = (unsigned)rb_param_int(cfg, "stages", 4);
    s->chunk = (unsigned)rb_param_int(cfg, "chunk", 8192);
    s->per_sm = (int)rb_param_int(cfg, "per_sm", 2);
    s->finish = (int)rb_param_int(cfg, "finish", LAST_BLOCK);
    s->ring_bytes = (size_t)s->stages * s->chunk;
    s->launch = k.launch;
    s->out_bytes = k.acc_bytes;
    s->out_dtype = cfg->dtype;
    if (!k.launch) {
        host->error(host, "configuration not supported (see describe)");
        return RB_UNSUPPORTED;
    }
    int resident = 0;
    RB_CUDA_CHECK(host, k.prepare(s, &resident));
    if (resident < s->per_sm) {
        host->error(host, "per_sm = %d, but only %d such blocks (%u threads, %zu bytes of ring) "
                          "fit on one multiprocessor",
                    s->per_sm, resident, s->block, s->ring_bytes);
        return RB_UNSUPPORTED;
    }
    /* one block per chunk at most: small inputs get few blocks */
    const rb_cuda::aligned_split split =
        rb_cuda::split_aligned(cfg->input, cfg->n, k.element_bytes, 16, s->chunk);
    s->at.head = split.head;
    s->at.chunks = split.units;
    s->at.tail_start = split.tail_start;
    s->at.n = split.n;
    s->at.chunk_bytes = s->chunk;
    s->at.stages = s->stages;
    const size_t elements_per_chunk = s->chunk / k.element_bytes;
    size_t need = (cfg->n + elements_per_chunk - 1) / elements_per_chunk;
    const size_t full = (size_t)rb_cuda::sm_count(cfg->device) * (size_t)s->per_sm;
    s->grid = (unsigned)(need < 1 ? 1 : need < full ? need : full);
    RB_CUDA_CHECK(host, cudaMalloc(&s->out, s->out_bytes));
    if (s->finish == LAST_BLOCK) {
        RB_CUDA_CHECK(host, cudaMalloc(&s->partials, (size_t)s->grid * s->out_bytes));
        RB_CUDA_CHECK(host, cudaMalloc(&s->ticket, sizeof *s->ticket));
        RB_CUDA_CHECK(host, cudaMemsetAsync(s->ticket, 0, sizeof *s->ticket, s->stream));
    }
    return RB_OK;
}

static int bulk_run(void *state)
{
    bulk_state *s = (bulk_state *)state;
    return s->launch(s);
}

static void bulk_teardown(void *state)
{
    bulk_state *s = (bulk_state *)state;
    if (!s)
        return;
    cudaFree(s->partials);
    cudaFree(s->ticket);
    rb_cuda::teardown_result<bulk_state>(s);
}

static constexpr rb_plugin bulk_plugin = rb_cuda::plugin({
    .name = "bulk",
    .summary =
        "bulk copies (TMA) into a shared-memory ring, one kernel; last-block or atomic finish",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = bulk_params, .n_params = rb_cuda::count_of(bulk_params),
    .describe = bulk_describe, .init = rb_cuda::init_with<bulk_state, bulk_setup, bulk_teardown>,
    .run = bulk_run, .verify = rb_cuda::verify_result<bulk_state>, .teardown = bulk_teardown,
});

RB_CUDA_PLUGIN_ENTRY(bulk_plugin)
