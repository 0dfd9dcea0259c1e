/* plugins/cuda/cluster.cu: a reduction by one thread-block cluster
 * (compute capability 9.0 and later), for small inputs where the time is
 * the launch and a few memory round trips. The grid is a single cluster of
 * `blocks` blocks. Each thread adds up `items` 16-byte loads per loop step
 * over a cluster-stride loop, each block reduces its threads' values by warp
 * shuffles, and block 0 reads the other blocks' values straight from their
 * shared memory (distributed shared memory) after a cluster barrier. One
 * launch, no atomics, no reset of the result before the call, and the same
 * order of additions every time: bit-identical results run to run. Any n is
 * right, but above a few hundred thousand elements the few multiprocessors
 * of one cluster limit the bandwidth; `bulk` and `shuffle` are for those. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cooperative_groups.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

namespace cg = cooperative_groups;

#define CLUSTER_MAX_BLOCKS 16

static const rb_param_spec cluster_params[] = {
    {"blocks", RB_PARAM_INT, "8", 1, CLUSTER_MAX_BLOCKS, NULL, 0,
     "blocks in the cluster (up to 8 on every Hopper; 9..16 where the device allows)"},
    {"block", RB_PARAM_INT, "1024", 64, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"items", RB_PARAM_INT, "2", 1, 8, NULL, RB_PARAM_POW2,
     "16-byte loads in flight per thread and loop step"},
};

/* Where the input lies: `head` elements before the first 16-byte boundary,
 * `units` 16-byte vectors, then the rest from `tail_start` up to n. */
typedef rb_cuda::aligned_split cluster_layout;

template <class Op, class T, class A, int Items>
__global__ void __launch_bounds__(1024) cluster_main(const T *__restrict__ in, cluster_layout at,
                                                     A *__restrict__ out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    __trap(); /* describe declines devices before compute capability 9.0 */
#else
    constexpr int V = 16 / sizeof(T);
    typedef rb_cuda::vec<T, V> vec_t;
    __shared__ A scratch[32];
    __shared__ A block_value;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned tid = threadIdx.x, block = blockDim.x;
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    const size_t threads = (size_t)blocks * block, gid = (size_t)rank * block + tid;
    A acc = Op::template identity<A>();

    /* the scalars before the first vector and after the last */
    const size_t rest = at.head + (at.n - at.tail_start);
    for (size_t i = gid; i < rest; i += threads) {
        const size_t index = i < at.head ? i : at.tail_start + (i - at.head);
        acc = Op::apply(acc, (A)in[index]);
    }

    const T *body = in + at.head;
    size_t v = (size_t)rank * block * Items + tid;
    for (; v + (size_t)(Items - 1) * block < at.units; v += threads * Items) {
        vec_t x[Items];
#pragma unroll
        for (int k = 0; k < Items; k++)
            x[k] = rb_cuda::load_vec<T, V>(body + (v + (size_t)k * block) * V);
#pragma unroll
        for (int k = 0; k < Items; k++)
#pragma unroll
            for (int e = 0; e < V; e++)
                acc = Op::apply(acc, (A)x[k].v[e]);
    }
#pragma unroll
    for (int k = 0; k < Items; k++) {
        const size_t w = v + (size_t)k * block;
        if (w < at.units) {
            const vec_t x = rb_cuda::load_vec<T, V>(body + w * V);
#pragma unroll
            for (int e = 0; e < V; e++)
                acc = Op::apply(acc, (A)x.v[e]);
        }
    }

    acc = rb_cuda::block_reduce<Op>(acc, scratch);
    if (tid == 0)
        block_value = acc;
    cluster.sync(); /* every block's value is in its shared memory */
    if (rank == 0 && tid < 32) {
        A mine = tid < blocks ? *cluster.map_shared_rank(&block_value, tid)
                              : Op::template identity<A>();
        mine = rb_cuda::warp_reduce<Op>(mine);
        if (tid == 0)
            *out = mine;
    }
    cluster.sync(); /* block 0 has read them: the others may leave */
#endif
}

typedef struct cluster_state cluster_state;
typedef int (*cluster_launch_fn)(cluster_state *s);
typedef cudaError_t (*cluster_prepare_fn)(cluster_state *s, int *max_blocks);

struct cluster_state : rb_cuda::result_state {
    unsigned blocks, block;
    int items;
    cluster_layout at;                /* set once in init */
    cudaLaunchAttribute attribute[1]; /* the cluster's size */
    cudaLaunchConfig_t config;        /* grid = one cluster, on the stream */
    cluster_launch_fn launch;
    cluster_prepare_fn prepare;
};

template <class Op, class T, class A, int Items> static int launch_items(cluster_state *s)
{
    RB_CUDA_CHECK(s->cfg->host,
                  cudaLaunchKernelEx(&s->config, cluster_main<Op, T, A, Items>,
                                     static_cast<const T *>(s->cfg->input), s->at,
                                     static_cast<A *>(s->out)));
    return RB_OK;
}

template <class Op, class T, class A> static int cluster_launch(cluster_state *s)
{
    switch (s->items) {
    case 1: return launch_items<Op, T, A, 1>(s);
    case 2: return launch_items<Op, T, A, 2>(s);
    case 4: return launch_items<Op, T, A, 4>(s);
    default: return launch_items<Op, T, A, 8>(s);
    }
}

/* Allows clusters above the portable 8 where the device can, and says the
 * largest cluster of these blocks it can place. */
template <class Op, class T, class A, int Items>
static cudaError_t prepare_items(cluster_state *s, int *max_blocks)
{
    cudaError_t e = cudaSuccess;
    if (s->blocks > 8)
        e = cudaFuncSetAttribute(cluster_main<Op, T, A, Items>,
                                 cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (e != cudaSuccess)
        return e;
    return cudaOccupancyMaxPotentialClusterSize(max_blocks, cluster_main<Op, T, A, Items>,
                                                &s->config);
}

template <class Op, class T, class A>
static cudaError_t cluster_prepare(cluster_state *s, int *max_blocks)
{
    switch (s->items) {
    case 1: return prepare_items<Op, T, A, 1>(s, max_blocks);
    case 2: return prepare_items<Op, T, A, 2>(s, max_blocks);
    case 4: return prepare_items<Op, T, A, 4>(s, max_blocks);
    default: return prepare_items<Op, T, A, 8>(s, max_blocks);
    }
}

static cluster_launch_fn pick(int dtype, int op, cluster_prepare_fn *prepare, size_t *acc_bytes)
{
    return rb_cuda::with_numeric_op(dtype, op, [&](auto reduce, auto t, auto a) {
        typedef decltype(reduce) Op;
        typedef decltype(t) T;
        typedef decltype(a) A;
        *prepare = cluster_prepare<Op, T, A>;
        *acc_bytes = sizeof(A);
        return cluster_launch<Op, T, A>;
    });
}

static int cluster_describe(const rb_config *cfg, rb_description *out)
{
    const rb_host *host = cfg->host;
    cluster_prepare_fn prepare;
    size_t acc_bytes;
    if (!pick(cfg->dtype, cfg->op, &prepare, &acc_bytes)) {
        host->error(host, "cluster reduces sum, min and max of i32, i64, f32 and f64");
        return RB_UNSUPPORTED;
    }
    const int status = rb_cuda::require_compute_capability(cfg, 90, "thread-block clusters need");
    if (status != RB_OK)
        return status;
    snprintf(out->label, sizeof out->label, "cluster-%dx%d", (int)rb_param_int(cfg, "blocks", 8),
             (int)rb_param_int(cfg, "block", 1024));
    return RB_OK;
}

static int cluster_setup(cluster_state *s, const rb_config *cfg)
{
    const rb_host *host = cfg->host;
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->blocks = (unsigned)rb_param_int(cfg, "blocks", 8);
    s->block = (unsigned)rb_param_int(cfg, "block", 1024);
    s->items = (int)rb_param_int(cfg, "items", 2);
    s->out_dtype = cfg->dtype;
    s->launch = pick(cfg->dtype, cfg->op, &s->prepare, &s->out_bytes);
    if (!s->launch) {
        host->error(host, "configuration not supported (see describe)");
        return RB_UNSUPPORTED;
    }
    const size_t element = rb_dtype_size(cfg->dtype);
    s->at = rb_cuda::split_aligned(cfg->input, cfg->n, element, 16, 16);
    s->attribute[0].id = cudaLaunchAttributeClusterDimension;
    s->attribute[0].val.clusterDim.x = s->blocks;
    s->attribute[0].val.clusterDim.y = 1;
    s->attribute[0].val.clusterDim.z = 1;
    s->config.gridDim = dim3(s->blocks);
    s->config.blockDim = dim3(s->block);
    s->config.stream = s->stream;
    s->config.attrs = s->attribute;
    s->config.numAttrs = 1;
    int max_blocks = 0;
    RB_CUDA_CHECK(host, s->prepare(s, &max_blocks));
    if ((int)s->blocks > max_blocks) {
        host->error(host, "blocks = %u: device %d places clusters of at most %d blocks of %u "
                          "threads",
                    s->blocks, cfg->device, max_blocks, s->block);
        return RB_UNSUPPORTED;
    }
    RB_CUDA_CHECK(host, cudaMalloc(&s->out, s->out_bytes));
    return RB_OK;
}

static int cluster_run(void *state)
{
    cluster_state *s = (cluster_state *)state;
    return s->launch(s);
}

static constexpr rb_plugin cluster_plugin = rb_cuda::plugin({
    .name = "cluster",
    .summary =
        "one thread-block cluster, blocks combined through distributed shared memory; one launch",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = cluster_params, .n_params = rb_cuda::count_of(cluster_params),
    .describe = cluster_describe, .init = rb_cuda::init_with<cluster_state, cluster_setup>,
    .run = cluster_run, .verify = rb_cuda::verify_result<cluster_state>,
    .teardown = rb_cuda::teardown_result<cluster_state>,
});

RB_CUDA_PLUGIN_ENTRY(cluster_plugin)
