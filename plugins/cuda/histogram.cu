/* plugins/cuda/histogram.cu: histograms of bytes (seed 002). Byte b falls
 * in bin b * bins / 256. A grid-stride loop reads `vector` bytes at a time
 * (one load of 1 to 16 bytes, four loads in flight per thread); the counts
 * end in 64-bit global bins, reset with cudaMemsetAsync inside every run.
 * Variants:
 *   global-atomic  every byte is one atomicAdd on the global bins
 *   block-shared   each block counts in shared memory with shared atomics,
 *                  then adds its non-zero bins to the global ones
 *   warp-private   each warp has its own shared bins (contention only
 *                  inside the warp); the block sums them at the end */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum histogram_variant { GLOBAL_ATOMIC, BLOCK_SHARED, WARP_PRIVATE };

static const char *const variant_words[] = {"global-atomic", "block-shared", "warp-private",
                                            NULL};

static const rb_param_spec histogram_params[] = {
    {"variant", RB_PARAM_CHOICE, "block-shared", 0, 0, variant_words, 0,
     "global-atomic | block-shared | warp-private: where the counting happens"},
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"grid", RB_PARAM_INT, "auto", 1, 0x7fffffff, NULL, RB_PARAM_AUTO,
     "blocks; auto: one full wave of the device (2048 threads per SM)"},
    {"vector", RB_PARAM_INT, "4", 1, 16, NULL, RB_PARAM_POW2,
     "bytes per load: 1 to 16 (4: one 32-bit load, as uchar4; 16: one 16-byte load)"},
};

extern __shared__ unsigned histogram_shared[];

/* Counts one byte into the variant's bins. */
template <int Variant>
__device__ __forceinline__ void count_byte(unsigned byte, unsigned bins,
                                           unsigned long long *global, unsigned *local)
{
    const unsigned bin = (byte * bins) >> 8;
    if (Variant == GLOBAL_ATOMIC)
        atomicAdd(&global[bin], 1ull);
    else
        atomicAdd(&local[bin], 1u);
}

template <int Variant, int V>
__global__ void histogram_kernel(const unsigned char *__restrict__ in, size_t head, size_t nvec,
                                 size_t tail_start, size_t n, unsigned bins,
                                 unsigned long long *global)
{
    const unsigned tid = threadIdx.x, block = blockDim.x;
    const unsigned warps = block >> 5;
    unsigned *local = histogram_shared;
    if (Variant == WARP_PRIVATE)
        local += (tid >> 5) * bins;
    if (Variant != GLOBAL_ATOMIC) {
        const unsigned slots = Variant == WARP_PRIVATE ? warps * bins : bins;
        for (unsigned i = tid; i < slots; i += block)
            histogram_shared[i] = 0;
        __syncthreads();
    }

    const size_t gid = (size_t)blockIdx.x * block + tid;
    const size_t stride = (size_t)gridDim.x * block;
    if (gid < head)
        count_byte<Variant>(in[gid], bins, global, local);
    const unsigned char *body = in + head;
    size_t v = gid;
    for (; v + 3 * stride < nvec; v += 4 * stride) { /* four loads in flight */
        rb_cuda::vec<unsigned char, V> x[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            x[k] = rb_cuda::load_vec<unsigned char, V>(body + (v + k * stride) * V);
#pragma unroll
        for (int k = 0; k < 4; k++)
#pragma unroll
            for (int j = 0; j < V; j++)
                count_byte<Variant>(x[k].v[j], bins, global, local);
    }
    for (; v < nvec; v += stride) {
        rb_cuda::vec<unsigned char, V> x = rb_cuda::load_vec<unsigned char, V>(body + v * V);
#pragma unroll
        for (int j = 0; j < V; j++)
            count_byte<Variant>(x.v[j], bins, global, local);
    }
    if (tail_start + gid < n)
        count_byte<Variant>(in[tail_start + gid], bins, global, local);

    if (Variant == GLOBAL_ATOMIC)
        return;
    __syncthreads();
    for (unsigned bin = tid; bin < bins; bin += block) {
        unsigned long long count = histogram_shared[bin];
        if (Variant == WARP_PRIVATE)
            for (unsigned w = 1; w < warps; w++)
                count += histogram_shared[w * bins + bin];
        if (count)
            atomicAdd(&global[bin], count);
    }
}

typedef struct histogram_state {
    const rb_config *cfg;
    cudaStream_t stream;
    int variant, vector;
    unsigned block, grid, bins;
    size_t shared_bytes;
    unsigned long long *global;
} histogram_state;

static unsigned grid_for(const rb_config *cfg, unsigned block, int vector)
{
    const int64_t given = rb_param_int(cfg, "grid", 0);
    if (given > 0)
        return (unsigned)given;
    return rb_cuda::wave_grid(cfg->device, block, cfg->n, (size_t)block * vector);
}

static size_t shared_bytes_for(int variant, unsigned block, unsigned bins)
{
    if (variant == GLOBAL_ATOMIC)
        return 0;
    return (variant == WARP_PRIVATE ? block / 32 : 1) * (size_t)bins * sizeof(unsigned);
}

static int check(const rb_config *cfg, int variant, unsigned block, unsigned grid)
{
    const rb_host *host = cfg->host;
    if (cfg->op != RB_OP_HISTOGRAM || cfg->dtype != RB_DTYPE_U8) {
        host->error(host, "histogram counts u8 data (op = histogram, dtype = u8)");
        return RB_UNSUPPORTED;
    }
    const size_t shared = shared_bytes_for(variant, block, cfg->bins);
    int limit = 48 * 1024;
    cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlock, cfg->device);
    if (shared > (size_t)limit) {
        host->error(host, "%zu bytes of shared bins per block exceed the device's %d; "
                          "use fewer bins or a smaller block", shared, limit);
        return RB_UNSUPPORTED;
    }
    /* A block's shared counters are 32-bit. */
    if (variant != GLOBAL_ATOMIC && (cfg->n + grid - 1) / grid > 0xffffffffull) {
        host->error(host, "n = %llu over %u blocks overflows a block's 32-bit counters; "
                          "use a larger grid", (unsigned long long)cfg->n, grid);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static int histogram_describe(const rb_config *cfg, rb_description *out)
{
    const int variant = (int)rb_param_int(cfg, "variant", BLOCK_SHARED);
    const unsigned block = (unsigned)rb_param_int(cfg, "block", 256);
    const int status = check(cfg, variant, block,
                             grid_for(cfg, block, (int)rb_param_int(cfg, "vector", 4)));
    if (status == RB_OK)
        snprintf(out->label, sizeof out->label, "histogram-%s", variant_words[variant]);
    return status;
}

static int histogram_setup(histogram_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->variant = (int)rb_param_int(cfg, "variant", BLOCK_SHARED);
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    s->vector = (int)rb_param_int(cfg, "vector", 4);
    s->grid = grid_for(cfg, s->block, s->vector);
    s->bins = cfg->bins;
    s->shared_bytes = shared_bytes_for(s->variant, s->block, s->bins);
    const int status = check(cfg, s->variant, s->block, s->grid);
    if (status != RB_OK)
        return status;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->global, s->bins * sizeof *s->global));
    return RB_OK;
}

template <int Variant, int V> static void launch(const histogram_state *s)
{
    const unsigned char *in = static_cast<const unsigned char *>(s->cfg->input);
    const size_t n = s->cfg->n;
    const size_t misalign = (uintptr_t)in % V;
    size_t head = misalign ? V - misalign : 0;
    if (head > n)
        head = n;
    const size_t nvec = (n - head) / V;
    histogram_kernel<Variant, V><<<s->grid, s->block, s->shared_bytes, s->stream>>>(
        in, head, nvec, head + nvec * V, n, s->bins, s->global);
}

template <int Variant> static void launch_vector(const histogram_state *s)
{
    switch (s->vector) {
    case 1: launch<Variant, 1>(s); break;
    case 2: launch<Variant, 2>(s); break;
    case 4: launch<Variant, 4>(s); break;
    case 8: launch<Variant, 8>(s); break;
    default: launch<Variant, 16>(s); break;
    }
}

static int histogram_run(void *state)
{
    histogram_state *s = (histogram_state *)state;
    const rb_host *host = s->cfg->host;
    RB_CUDA_CHECK(host, cudaMemsetAsync(s->global, 0, s->bins * sizeof *s->global, s->stream));
    switch (s->variant) {
    case GLOBAL_ATOMIC: launch_vector<GLOBAL_ATOMIC>(s); break;
    case BLOCK_SHARED: launch_vector<BLOCK_SHARED>(s); break;
    default: launch_vector<WARP_PRIVATE>(s); break;
    }
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

static int histogram_verify(void *state, rb_result *result)
{
    histogram_state *s = (histogram_state *)state;
    const rb_host *host = s->cfg->host;
    if (!result->bins || result->n_bins < s->bins) {
        host->error(host, "the host's bins buffer holds %u bins, %u needed", result->n_bins,
                    s->bins);
        return RB_ERROR;
    }
    return rb_cuda::read_bytes(host, s->stream, result->bins, s->global,
                               s->bins * sizeof *s->global);
}

static void histogram_teardown(void *state)
{
    histogram_state *s = (histogram_state *)state;
    if (!s)
        return;
    cudaFree(s->global);
    free(s);
}

static constexpr rb_plugin histogram_plugin = rb_cuda::plugin({
    .name = "histogram",
    .summary = "byte histograms: global atomics, per-block or per-warp shared bins (seed 002)",
    .ops = RB_OP_BIT(RB_OP_HISTOGRAM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_U8),
    .params = histogram_params, .n_params = rb_cuda::count_of(histogram_params),
    .describe = histogram_describe,
    .init = rb_cuda::init_with<histogram_state, histogram_setup, histogram_teardown>,
    .run = histogram_run, .verify = histogram_verify, .teardown = histogram_teardown,
});

RB_CUDA_PLUGIN_ENTRY(histogram_plugin)
