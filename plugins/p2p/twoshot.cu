/* plugins/p2p/twoshot.cu: the all-reduce in two steps within one kernel.
 * The n elements are cut into one chunk per rank (whole 16-byte units, the
 * last chunk shorter; any n, any number of ranks). After the barrier, each
 * rank reduces its own chunk, reading it from every rank's input
 * (reduce-scatter through peer reads), and writes the reduced chunk into
 * every rank's result (all-gather through peer writes); the closing
 * barrier, after a system fence, tells every rank that all chunks have
 * arrived. Each rank moves 2 (ranks - 1) / ranks of the data over the
 * links: what wins for large messages. `block`, `grid`, `vec` and `result`
 * as oneshot's. */
#include "p2p_pack.cuh"

#ifndef TWOSHOT_NAME
#define TWOSHOT_NAME "twoshot"
#define TWOSHOT_SUMMARY "all-reduce in two steps: reduce-scatter through peer reads, all-gather " \
                        "through peer writes"
#endif

static const rb_param_spec params[] = {
    rb_p2p::result_param,
    rb_p2p::block_param,
    rb_p2p::grid_param,
    rb_p2p::vec_param,
};

/* Elements per chunk: ceil(n / ranks), rounded up to whole 16-byte units
 * so that every chunk starts aligned. */
static size_t chunk_of(size_t n, uint32_t ranks, size_t element)
{
    size_t unit = 16 / element ? 16 / element : 1;
    size_t chunk = (n + ranks - 1) / ranks;
    return (chunk + unit - 1) / unit * unit;
}

template <class Op, class T, int V, int R>
__global__ void twoshot_kernel(rb_p2p::peers<T> p, uint32_t rank, size_t n, size_t chunk)
{
    rb_p2p::signals *self = p.sig[rank];
    uint32_t number = rb_p2p::call_number(self);
#ifdef TWOSHOT_STALE
    /* planted: a barrier that only waits the first time (flags checked for
     * "set", not for this call), so later calls may read inputs and hand
     * back results that are not this call's */
    number = 1;
#endif
    rb_p2p::start(p, self, rank, R, number);
    size_t first = (size_t)rank * chunk;
    first = first < n ? first : n;
    size_t last = first + chunk < n ? first + chunk : n;
    rb_p2p::reduce_range<Op, T, V, R, true>(p, rank, first, last, 0);
#ifdef TWOSHOT_NO_FENCE
    /* planted: the closing flags are set with no system fence and a
     * relaxed store, so a peer may see the flag before the chunk */
    __syncthreads();
    if (threadIdx.x < R) {
        volatile uint32_t *theirs = &p.sig[threadIdx.x]->end[blockIdx.x][rank];
        *theirs = number;
        while ((int32_t)(*(volatile uint32_t *)&self->end[blockIdx.x][threadIdx.x] - number) < 0) {
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        self->calls[blockIdx.x] = number;
#else
    rb_p2p::end(p, self, rank, R, number);
#endif
}

static int setup(rb_p2p::state *s, const rb_config *cfg)
{
    return rb_p2p::setup(s, cfg, chunk_of(cfg->n, cfg->n_ranks, rb_dtype_size(cfg->dtype)));
}

static int run(void *st)
{
    rb_p2p::state *s = static_cast<rb_p2p::state *>(st);
    const rb_config *c = s->cfg;
    size_t chunk = chunk_of(c->n, c->n_ranks, rb_dtype_size(c->dtype));
    cudaError_t e = rb_p2p::with_kernel(s, [&](auto op, auto t, auto v, auto r) {
        typedef decltype(t) T;
        twoshot_kernel<decltype(op), T, decltype(v)::value, decltype(r)::value>
            <<<s->grid, s->block, 0, s->stream>>>(rb_p2p::view<T>(s), c->rank, (size_t)c->n,
                                                  chunk);
        return cudaGetLastError();
    });
    RB_CUDA_CHECK(c->host, e);
    return rb_p2p::finish(s);
}

static constexpr rb_plugin descriptor = rb_p2p::plugin({
    .name = TWOSHOT_NAME,
    .summary = TWOSHOT_SUMMARY,
    .params = params,
    .n_params = rb_cuda::count_of(params),
    .init = rb_cuda::init_with<rb_p2p::state, setup, rb_p2p::teardown>,
    .run = run,
});

RB_CUDA_PLUGIN_ENTRY(descriptor)
