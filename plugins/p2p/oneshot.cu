/* plugins/p2p/oneshot.cu: the all-reduce in one step: every rank reads
 * every rank's whole input from the peers' memory and writes the whole
 * element-wise reduction into its own result. The fewest steps: what wins
 * for small messages, where a call costs its latency; each rank reads
 * (ranks - 1) x n elements over the links. Two ways (`stage`):
 *   direct  the peers read the input where it is: a barrier at the start
 *           (every input holds this call's data) and one at the end (no
 *           input changes while a peer still reads it);
 *   copy    each rank first copies its input into one of two buffers of
 *           its own that the peers read (odd calls one, even calls the
 *           other), so that only the barrier at the start is needed: a
 *           rank cannot reach call k + 2, which overwrites call k's copy,
 *           before every peer has started call k + 1, and so finished k;
 *   auto    copy up to 1 MiB per rank, direct above.
 * `block`, `grid` and `vec` (bytes per access) shape the kernel; `result`
 * says whether the host gets the n-element vector or the one value. */
#include "p2p_pack.cuh"

#ifndef ONESHOT_NAME
#define ONESHOT_NAME "oneshot"
#define ONESHOT_SUMMARY "all-reduce in one step: every rank reads every peer's input over the " \
                        "links and writes the whole sum"
#endif

static const char *const stage_words[] = {"auto", "copy", "direct", NULL};
enum { STAGE_AUTO, STAGE_COPY, STAGE_DIRECT };
constexpr uint64_t stage_auto_bytes = 1u << 20; /* copy up to this many bytes per rank */

static const rb_param_spec params[] = {
    rb_p2p::result_param,
    {"stage", RB_PARAM_CHOICE, "auto", 0, 0, stage_words, 0,
     "copy: the input copied to a buffer the peers read, one barrier per call; direct: read in "
     "place, a barrier at the start and the end; auto: copy up to 1 MiB per rank"},
    rb_p2p::block_param,
    rb_p2p::grid_param,
    rb_p2p::vec_param,
};

#ifdef ONESHOT_SKIP_PEER
constexpr uint32_t skip_last = 1; /* planted: the last rank's input is left out */
#else
constexpr uint32_t skip_last = 0;
#endif

template <class Op, class T, int V, int R>
__global__ void oneshot_kernel(rb_p2p::peers<T> p, uint32_t rank, size_t n)
{
    rb_p2p::signals *self = p.sig[rank];
    uint32_t number = rb_p2p::call_number(self);
    rb_p2p::start(p, self, rank, R, number);
    rb_p2p::reduce_range<Op, T, V, R, false>(p, rank, 0, n, skip_last);
    rb_p2p::end(p, self, rank, R, number);
}

/* Copies this rank's input into its stage: the same units, in the same
 * order, as reduce_range reads them, so that each block copies exactly
 * what the same block of every rank reads after the barrier. */
template <class T, int V>
__device__ __forceinline__ void copy_range(const T *from, T *to, size_t n)
{
    size_t units = n / V, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t u = (size_t)blockIdx.x * blockDim.x + threadIdx.x; u < units; u += stride)
        *reinterpret_cast<rb_p2p::pack<T, V> *>(to + u * V) =
            *reinterpret_cast<const rb_p2p::pack<T, V> *>(from + u * V);
    for (size_t at = units * V + (size_t)blockIdx.x * blockDim.x + threadIdx.x; at < n;
         at += stride)
        to[at] = from[at];
}

template <class Op, class T, int V, int R>
__global__ void oneshot_staged_kernel(rb_p2p::peers<T> p, uint32_t rank, size_t n)
{
    rb_p2p::signals *self = p.sig[rank];
    uint32_t number = rb_p2p::call_number(self);
#ifdef ONESHOT_ONE_STAGE
    size_t offset = 0; /* planted: one copy for every call */
#else
    size_t offset = (size_t)(number & 1u) * n;
#endif
    copy_range<T, V>(p.in[rank], p.stage[rank] + offset, n);
    rb_p2p::start(p, self, rank, R, number);
    rb_p2p::peers<T> staged = p;
#pragma unroll
    for (int r = 0; r < R; r++)
        staged.in[r] = p.stage[r] + offset;
    rb_p2p::reduce_range<Op, T, V, R, false>(staged, rank, 0, n, skip_last);
    if (threadIdx.x == 0)
        self->calls[blockIdx.x] = number;
}

static int staged(const rb_config *cfg)
{
    int64_t stage = rb_param_int(cfg, "stage", STAGE_AUTO);
    uint64_t per_rank = cfg->n_total ? cfg->n_total / (cfg->n_ranks ? cfg->n_ranks : 1) : cfg->n;
    if (stage == STAGE_AUTO)
        return per_rank * rb_dtype_size(cfg->dtype) <= stage_auto_bytes;
    return stage == STAGE_COPY;
}

static int setup(rb_p2p::state *s, const rb_config *cfg)
{
    return rb_p2p::setup(s, cfg, (size_t)cfg->n, staged(cfg));
}

static int run(void *st)
{
    rb_p2p::state *s = static_cast<rb_p2p::state *>(st);
    const rb_config *c = s->cfg;
    cudaError_t e = rb_p2p::with_kernel(s, [&](auto op, auto t, auto v, auto r) {
        typedef decltype(t) T;
        if (s->stage)
            oneshot_staged_kernel<decltype(op), T, decltype(v)::value, decltype(r)::value>
                <<<s->grid, s->block, 0, s->stream>>>(rb_p2p::view<T>(s), c->rank, (size_t)c->n);
        else
            oneshot_kernel<decltype(op), T, decltype(v)::value, decltype(r)::value>
                <<<s->grid, s->block, 0, s->stream>>>(rb_p2p::view<T>(s), c->rank, (size_t)c->n);
        return cudaGetLastError();
    });
    RB_CUDA_CHECK(c->host, e);
    return rb_p2p::finish(s);
}

static constexpr rb_plugin descriptor = rb_p2p::plugin({
    .name = ONESHOT_NAME,
    .summary = ONESHOT_SUMMARY,
    .params = params,
    .n_params = rb_cuda::count_of(params),
    .init = rb_cuda::init_with<rb_p2p::state, setup, rb_p2p::teardown>,
    .run = run,
});

RB_CUDA_PLUGIN_ENTRY(descriptor)
