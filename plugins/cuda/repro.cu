/* plugins/cuda/repro.cu: a floating sum whose bits depend on the data and n
 * only, never on the launch: the same bits for every block, batch, grid and
 * order (issue 46), at the speed of a one-pass sum. The reduction tree is
 * fixed in the input's index space, and the launch only decides who
 * computes which part of it:
 *   vector  16 bytes, V elements, widened to A (f32; f64 for f64) and added
 *           as a fixed pairwise tree: ((e0 + e1) + (e2 + e3)) ...
 *   chunk   32 lanes x 8 vectors: lane l adds the vectors k x 32 + l,
 *           k = 0..7, in order, then the 32 lanes are added by a fixed
 *           shuffle tree (offsets 16, 8, 4, 2, 1)
 *   tile    32 chunks (8,192 vectors, 128 KiB): their sums added by the
 *           same 32-way tree; each tile's sum is written to its own place
 *   total   the tiles' sums added by 32-way trees, level by level, by the
 *           block that takes the last ticket
 * Elements past n (the last tile's, and a tail shorter than a vector) are
 * zeros; an input not 16-byte aligned is read an element at a time, into
 * the same tree.
 * A block of `block` threads (W = block / 32 warps) reduces a tile, each
 * warp 32 / W of its chunks, `batch` 16-byte loads in flight per lane;
 * grid = 0 launches a block per tile, any other value that many blocks,
 * each taking tiles grid apart; order = alternate runs every other call's
 * tiles from the end. None of these changes what is added to what.
 * f16 and bf16 are widened to f32 and summed in f32, returned as f32.
 *
 * Its planted twin, tests/packs/cuda/repro-twin.cu, is this file built with
 * REPRO_BLOCK_TREE: each lane adds all of its chunks in one accumulator, so
 * the tree follows the block size, while it still calls itself
 * reproducible. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#ifndef REPRO_NAME
#define REPRO_NAME "repro"
#define REPRO_SUMMARY                                                                      \
    "a sum with the same bits for every block, batch, grid and order: a fixed tree over " \
    "fixed chunks and tiles of the input, then over the tiles' sums"
#endif

enum { CHUNK_VECTORS = 8, LANES = 32, TILE_CHUNKS = 32 };
enum { TILE_VECTORS = CHUNK_VECTORS * LANES * TILE_CHUNKS };
enum repro_order { FORWARD, ALTERNATE };

static const char *const order_words[] = {"forward", "alternate", NULL};

static const rb_param_spec repro_params[] = {
    {"block", RB_PARAM_INT, "1024", 32, 1024, NULL, RB_PARAM_POW2,
     "threads per block: its warps share a tile's 32 chunks"},
    {"batch", RB_PARAM_INT, "8", 4, 16, NULL, RB_PARAM_POW2,
     "16-byte loads in flight per lane (4, 8 or 16; at most a warp's share of a tile)"},
    {"grid", RB_PARAM_INT, "0", 0, 1 << 20, NULL, 0,
     "blocks: 0 = one per tile, else this many, each taking tiles grid apart"},
    {"order", RB_PARAM_CHOICE, "forward", 0, 0, order_words, 0,
     "forward | alternate: every other call takes the tiles from the end"},
};

/* The fixed 32-way tree of a warp: lane 0 holds the sum of the lanes'
 * values, added in the same order whatever the launch. */
template <class A> __device__ __forceinline__ A tree32(A v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(rb_cuda::full_mask, v, offset);
    return v;
}

/* A vector's elements added as a fixed pairwise tree. */
template <class A, int V> __device__ __forceinline__ A vector_tree(A (&w)[V])
{
#pragma unroll
    for (int step = 1; step < V; step *= 2)
#pragma unroll
        for (int j = 0; j + step < V; j += 2 * step)
            w[j] += w[j + step];
    return w[0];
}

/* Vector v of the input (V elements from v x V on), widened: one 16-byte
 * load where it lies whole below n in an aligned input, else element by
 * element, zeros past n. */
template <class T, class A, bool Checked>
__device__ __forceinline__ rb_cuda::vec<T, 16 / sizeof(T)> load_vector(const T *__restrict__ in,
                                                                      size_t v, size_t n,
                                                                      bool aligned)
{
    constexpr int V = 16 / sizeof(T);
    const size_t first = v * V;
    if (!Checked || (aligned && first + V <= n))
        return rb_cuda::load_vec<T, V>(in + first);
    rb_cuda::vec<T, V> x;
#pragma unroll
    for (int j = 0; j < V; j++)
        x.v[j] = first + j < n ? in[first + j] : (T)0.0f;
    return x;
}

template <class T, class A, int V> __device__ __forceinline__ A vector_sum(const rb_cuda::vec<T, V> &x)
{
    A w[V];
    rb_cuda::widen_each<A>(x, [&](A e, int j) { w[j] = e; });
    return vector_tree<A, V>(w);
}

/* One warp's share of a tile: chunks warp, warp + W, ... (32 / W of
 * them), Batch loads of a lane in flight at a time; each chunk's sum goes
 * to sums[chunk]. */
template <class T, class A, int Batch, bool Checked>
__device__ __forceinline__ void warp_chunks(const T *__restrict__ in, size_t n, bool aligned,
                                            size_t tile, unsigned warp, unsigned warps,
                                            unsigned lane, A *sums)
{
    constexpr int V = 16 / sizeof(T);
    const unsigned count = TILE_CHUNKS / warps * CHUNK_VECTORS; /* the lane's vectors */
    const size_t tile_first = tile * (size_t)TILE_VECTORS;
    A acc = 0;
    /* After vector q of the lane: a chunk done (or, planted, the warp's
     * share) goes to sums. Uniform over the warp. */
    auto after = [&](unsigned q) {
#ifdef REPRO_BLOCK_TREE
        if (q + 1 == count) { /* the planted bug: one sum over all of the warp's chunks */
            const A s = tree32(acc);
            if (lane == 0)
                sums[warp] = s;
        }
#else
        if ((q + 1) % CHUNK_VECTORS == 0) {
            const A s = tree32(acc);
            if (lane == 0)
                sums[warp + (q / CHUNK_VECTORS) * warps] = s;
            acc = 0;
        }
#endif
    };
    auto where = [&](unsigned q) {
        const unsigned chunk = warp + (q / CHUNK_VECTORS) * warps;
        return tile_first + (size_t)chunk * (CHUNK_VECTORS * LANES) + (q % CHUNK_VECTORS) * LANES +
               lane;
    };
    if constexpr (Checked) {
        /* the last tile, or an input not aligned: a vector at a time */
        for (unsigned q = 0; q < count; q++) {
            acc += vector_sum<T, A, V>(load_vector<T, A, true>(in, where(q), n, aligned));
            after(q);
        }
    } else {
        for (unsigned q0 = 0; q0 < count; q0 += Batch) {
            rb_cuda::vec<T, V> x[Batch];
#pragma unroll
            for (int b = 0; b < Batch; b++)
                x[b] = rb_cuda::load_vec<T, V>(in + where(q0 + b) * V);
#pragma unroll
            for (int b = 0; b < Batch; b++) {
                acc += vector_sum<T, A, V>(x[b]);
                after(q0 + b);
            }
        }
    }
}

/* The tiles' sums in the grid's last block: 32-way trees level by level,
 * each level written past the one before in scratch; returns the total in
 * thread 0. */
template <class A>
__device__ __forceinline__ A total_of(const A *partials, size_t m, A *scratch, unsigned warp,
                                      unsigned warps, unsigned lane)
{
    const A *from = partials;
    A *to = scratch;
    while (m > 1) {
        const size_t groups = (m + 31) / 32;
        for (size_t g = warp; g < groups; g += 4 * (size_t)warps) {
            A v[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const size_t i = (g + k * (size_t)warps) * 32 + lane;
                v[k] = i < m ? __ldcg(&from[i]) : (A)0;
            }
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const A s = tree32(v[k]);
                const size_t at = g + k * (size_t)warps;
                if (lane == 0 && at < groups)
                    __stcg(&to[at], s);
            }
        }
        __syncthreads();
        from = to;
        to += groups;
        m = groups;
    }
    return __ldcg(&from[0]);
}

/* Launch bounds: 2 blocks of 1024 per SM for 4-byte sums of up to 8 loads
 * in flight (32 registers), as onepass has them. */
template <class A, int Batch> __host__ __device__ constexpr int repro_blocks_per_sm()
{
    return sizeof(A) == 4 && Batch <= 8 ? 2 : 1;
}

template <class T, class A, int Batch>
__global__ void __launch_bounds__(1024, repro_blocks_per_sm<A, Batch>())
    repro_sum(const T *__restrict__ in, size_t n, bool aligned, size_t tiles, bool reverse,
              A *partials, A *scratch, unsigned *ticket, A *out)
{
    __shared__ A sums[TILE_CHUNKS];
    __shared__ bool is_last;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    const size_t whole = aligned ? n / (16 / sizeof(T)) / TILE_VECTORS : 0; /* tiles read unchecked */
    for (size_t b = blockIdx.x; b < tiles; b += gridDim.x) {
        const size_t tile = reverse ? tiles - 1 - b : b;
        if (tile < whole)
            warp_chunks<T, A, Batch, false>(in, n, aligned, tile, warp, warps, lane, sums);
        else
            warp_chunks<T, A, Batch, true>(in, n, aligned, tile, warp, warps, lane, sums);
        __syncthreads();
        if (warp == 0) {
#ifdef REPRO_BLOCK_TREE
            const A s = tree32(lane < warps ? sums[lane] : (A)0);
#else
            const A s = tree32(sums[lane]);
#endif
            if (lane == 0)
                partials[tile] = s;
        }
        __syncthreads(); /* sums is taken again by the next tile */
    }
    /* thread 0 wrote this block's partials: its ticket releases them */
    if (threadIdx.x == 0)
        is_last = rb_cuda::take_ticket(ticket) == gridDim.x - 1;
    __syncthreads();
    if (!is_last)
        return;
    const A total = total_of(partials, tiles, scratch, warp, warps, lane);
    if (threadIdx.x == 0) {
        *out = total;
        *ticket = 0;
    }
}

struct repro_state : rb_cuda::result_state {
    unsigned block, grid;
    int batch, order;
    size_t tiles;
    bool aligned;
    unsigned long long calls; /* alternate: the parity of the next call */
    void *partials, *scratch;
    unsigned *ticket;
    void (*launch)(repro_state *s);
};

template <class T, class A, int Batch> static void launch_with(repro_state *s)
{
    const bool reverse = s->order == ALTERNATE && (s->calls & 1u);
    s->calls++;
    repro_sum<T, A, Batch><<<s->grid, s->block, 0, s->stream>>>(
        static_cast<const T *>(s->cfg->input), s->cfg->n, s->aligned, s->tiles, reverse,
        static_cast<A *>(s->partials), static_cast<A *>(s->scratch), s->ticket,
        static_cast<A *>(s->out));
}

template <class T, class A> static void (*pick_batch(int batch))(repro_state *)
{
    switch (batch) {
    case 4: return launch_with<T, A, 4>;
    case 8: return launch_with<T, A, 8>;
    default: return launch_with<T, A, 16>;
    }
}

/* The kernel for the dtype and batch, and the size of a sum; NULL for a
 * dtype it does not sum. */
static void (*pick(int dtype, int batch, size_t *acc_bytes))(repro_state *)
{
    switch (dtype) {
    case RB_DTYPE_F32: *acc_bytes = 4; return pick_batch<float, float>(batch);
    case RB_DTYPE_F64: *acc_bytes = 8; return pick_batch<double, double>(batch);
    case RB_DTYPE_F16: *acc_bytes = 4; return pick_batch<__half, float>(batch);
    case RB_DTYPE_BF16: *acc_bytes = 4; return pick_batch<__nv_bfloat16, float>(batch);
    default: return NULL;
    }
}

/* What it declines, with the reason: RB_OK or RB_UNSUPPORTED. */
static int repro_declines(const rb_config *cfg)
{
    size_t bytes;
    if (cfg->op != RB_OP_SUM || !pick(cfg->dtype, 8, &bytes)) {
        cfg->host->error(cfg->host, REPRO_NAME " sums f32, f64, f16 and bf16");
        return RB_UNSUPPORTED;
    }
    const int64_t block = rb_param_int(cfg, "block", 1024), batch = rb_param_int(cfg, "batch", 8);
    const int64_t per_lane = TILE_CHUNKS / (block / 32) * CHUNK_VECTORS;
    if (batch > per_lane) {
        cfg->host->error(cfg->host,
                         "batch = %lld: a lane of a block of %lld reads %lld vectors of a tile; "
                         "batch may be at most that",
                         (long long)batch, (long long)block, (long long)per_lane);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

/* Tiles of TILE_VECTORS vectors over n, at least one. */
static size_t tiles_of(const rb_config *cfg)
{
    const size_t per_tile = (size_t)TILE_VECTORS * (16 / rb_dtype_size(cfg->dtype));
    const size_t tiles = (cfg->n + per_tile - 1) / per_tile;
    return tiles ? tiles : 1;
}

static int repro_describe(const rb_config *cfg, rb_description *out)
{
    const int status = repro_declines(cfg);
    if (status != RB_OK)
        return status;
    snprintf(out->label, sizeof out->label, REPRO_NAME "-fixed-tree");
    return RB_OK;
}

static int repro_setup(repro_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    int status = repro_declines(cfg);
    if (status != RB_OK)
        return status;
    s->block = (unsigned)rb_param_int(cfg, "block", 1024);
    s->batch = (int)rb_param_int(cfg, "batch", 8);
    s->order = (int)rb_param_int(cfg, "order", FORWARD);
    s->launch = pick(cfg->dtype, s->batch, &s->out_bytes);
    s->out_dtype = cfg->dtype;
    s->tiles = tiles_of(cfg);
    s->aligned = (uintptr_t)cfg->input % 16 == 0;
    const int64_t grid = rb_param_int(cfg, "grid", 0);
    size_t blocks = grid > 0 && (size_t)grid < s->tiles ? (size_t)grid : s->tiles;
    if (blocks > 0x7fffffffu) {
        cfg->host->error(cfg->host, "n = %llu needs more than 2^31 - 1 blocks: set grid",
                         (unsigned long long)cfg->n);
        return RB_UNSUPPORTED;
    }
    s->grid = (unsigned)blocks;
    /* the levels of the total: ceil(m / 32) each, fewer than m / 31 + 1 each time */
    size_t levels = 0;
    for (size_t m = s->tiles; m > 1; m = (m + 31) / 32)
        levels += (m + 31) / 32;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->partials, s->tiles * s->out_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->scratch, (levels + 1) * s->out_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->ticket, sizeof *s->ticket));
    RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(s->ticket, 0, sizeof *s->ticket, s->stream));
    RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(s->out, 0, s->out_bytes, s->stream));
    return RB_OK;
}

static int repro_run(void *state)
{
    repro_state *s = (repro_state *)state;
    s->launch(s);
    RB_CUDA_CHECK_LAUNCH(s->cfg->host);
    return RB_OK;
}

static void repro_teardown(void *state)
{
    repro_state *s = (repro_state *)state;
    if (!s)
        return;
    cudaFree(s->out);
    cudaFree(s->partials);
    cudaFree(s->scratch);
    cudaFree(s->ticket);
    free(s);
}

static constexpr rb_plugin repro_plugin = rb_cuda::plugin({
    .name = REPRO_NAME,
    .summary = REPRO_SUMMARY,
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64) | rb_cuda::half_dtypes,
    .params = repro_params, .n_params = rb_cuda::count_of(repro_params),
    .describe = repro_describe,
    .init = rb_cuda::init_with<repro_state, repro_setup, repro_teardown>,
    .run = repro_run, .verify = rb_cuda::verify_result<repro_state>, .teardown = repro_teardown,
});

RB_CUDA_PLUGIN_ENTRY(repro_plugin)
