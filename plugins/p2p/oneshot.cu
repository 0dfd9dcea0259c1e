/* plugins/p2p/oneshot.cu: the all-reduce in one step. After the barrier,
 * every rank reads every rank's whole input straight from the peers'
 * memory and writes the whole element-wise reduction into its own result;
 * a second barrier keeps every input unchanged until every rank has read
 * it. The fewest steps: what wins for small messages, where a call costs
 * its latency; each rank reads (ranks - 1) x n elements over the links.
 * `block`, `grid` and `vec` (bytes per access) shape the kernel; `result`
 * says whether the host gets the n-element vector or the one value. */
#include "p2p_pack.cuh"

#ifndef ONESHOT_NAME
#define ONESHOT_NAME "oneshot"
#define ONESHOT_SUMMARY "all-reduce in one step: every rank reads every peer's input over the " \
                        "links and writes the whole sum"
#endif

static const rb_param_spec params[] = {
    rb_p2p::result_param,
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

static int setup(rb_p2p::state *s, const rb_config *cfg)
{
    return rb_p2p::setup(s, cfg, (size_t)cfg->n);
}

static int run(void *st)
{
    rb_p2p::state *s = static_cast<rb_p2p::state *>(st);
    const rb_config *c = s->cfg;
    cudaError_t e = rb_p2p::with_kernel(s, [&](auto op, auto t, auto v, auto r) {
        typedef decltype(t) T;
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
