/* plugins/cuda/tree.cu: the classic shared-memory tree reductions (seed
 * 000's reduce0..reduce5, seed 001's levels, seed 002's V1..V4). Each block
 * reduces its slice of the input in shared memory and writes one partial;
 * the same kernel runs again on the partials until one value is left, as the
 * seeds do. Variants:
 *   divergent      reduce0: interleaved pairs, `tid % (2s) == 0` (divergent warps)
 *   strided-index  reduce1: interleaved pairs, index = 2 s tid (bank conflicts)
 *   sequential     reduce2: sequential addressing, `tid < s`
 *   first-add      reduce3: two elements per thread, added while loading
 *   warp-unroll    reduce4: first-add, and the last warp reduces by shuffles
 *   full-unroll    reduce5: first-add, the block size a template parameter,
 *                  every level unrolled */
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum tree_variant { DIVERGENT, STRIDED_INDEX, SEQUENTIAL, FIRST_ADD, WARP_UNROLL, FULL_UNROLL };

static const char *const variant_words[] = {"divergent",  "strided-index", "sequential",
                                            "first-add",  "warp-unroll",   "full-unroll",
                                            NULL};

static const rb_param_spec tree_params[] = {
    {"variant", RB_PARAM_CHOICE, "sequential", 0, 0, variant_words, 0,
     "divergent | strided-index | sequential | first-add | warp-unroll | full-unroll "
     "(reduce0..reduce5)"},
    {"block", RB_PARAM_INT, "256", 64, 1024, NULL, RB_PARAM_POW2, "threads per block"},
};

/* Partials come and go through dynamically sized shared memory. */
extern __shared__ __align__(16) unsigned char tree_shared[];

/* One pass: block b reduces elements [b * per_block, (b + 1) * per_block)
 * of `in` (n elements) into out[b]. */
template <class Op, class A, int Variant>
__global__ void tree_pass(const A *__restrict__ in, A *__restrict__ out, size_t n)
{
    A *s = reinterpret_cast<A *>(tree_shared);
    const unsigned tid = threadIdx.x, block = blockDim.x;
    const bool two = Variant >= FIRST_ADD;
    const size_t i = (size_t)blockIdx.x * block * (two ? 2 : 1) + tid;

    A v = Op::template identity<A>();
    if (i < n)
        v = in[i];
    if (two && i + block < n)
        v = Op::apply(v, in[i + block]);
    s[tid] = v;
    __syncthreads();

    if (Variant == DIVERGENT) {
        /* tid % (2 stride) == 0, written as the mask it is for a power of
         * two: the cost under study is the divergence, not a division. */
        for (unsigned stride = 1; stride < block; stride *= 2) {
            if ((tid & (2 * stride - 1)) == 0)
                s[tid] = Op::apply(s[tid], s[tid + stride]);
            __syncthreads();
        }
    } else if (Variant == STRIDED_INDEX) {
        for (unsigned stride = 1; stride < block; stride *= 2) {
            unsigned index = 2 * stride * tid;
            if (index < block)
                s[index] = Op::apply(s[index], s[index + stride]);
            __syncthreads();
        }
    } else if (Variant == SEQUENTIAL || Variant == FIRST_ADD) {
        for (unsigned stride = block / 2; stride > 0; stride >>= 1) {
            if (tid < stride)
                s[tid] = Op::apply(s[tid], s[tid + stride]);
            __syncthreads();
        }
    } else { /* WARP_UNROLL */
        for (unsigned stride = block / 2; stride > 32; stride >>= 1) {
            if (tid < stride)
                s[tid] = Op::apply(s[tid], s[tid + stride]);
            __syncthreads();
        }
        if (tid < 32) {
            v = rb_cuda::warp_reduce<Op>(Op::apply(s[tid], s[tid + 32]));
            if (tid == 0)
                out[blockIdx.x] = v;
        }
        return;
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce5: as warp-unroll, with the block size known at compile time so
 * that every level is a straight line of code. */
template <class Op, class A, unsigned Block>
__global__ void __launch_bounds__(Block) tree_pass_unrolled(const A *__restrict__ in,
                                                            A *__restrict__ out, size_t n)
{
    A *s = reinterpret_cast<A *>(tree_shared);
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * Block * 2 + tid;

    A v = Op::template identity<A>();
    if (i < n)
        v = in[i];
    if (i + Block < n)
        v = Op::apply(v, in[i + Block]);
    s[tid] = v;
    __syncthreads();
    if (Block >= 1024) {
        if (tid < 512)
            s[tid] = v = Op::apply(v, s[tid + 512]);
        __syncthreads();
    }
    if (Block >= 512) {
        if (tid < 256)
            s[tid] = v = Op::apply(v, s[tid + 256]);
        __syncthreads();
    }
    if (Block >= 256) {
        if (tid < 128)
            s[tid] = v = Op::apply(v, s[tid + 128]);
        __syncthreads();
    }
    if (Block >= 128) {
        if (tid < 64)
            s[tid] = v = Op::apply(v, s[tid + 64]);
        __syncthreads();
    }
    if (tid < 32) {
        v = rb_cuda::warp_reduce<Op>(Op::apply(v, s[tid + 32]));
        if (tid == 0)
            out[blockIdx.x] = v;
    }
}

/* The passes of one reduction, planned by init. */
#define TREE_MAX_PASSES 8

typedef struct tree_state tree_state;
typedef int (*tree_launch_fn)(tree_state *s, const void *in, void *out, size_t n,
                              unsigned grid);

/* out: the final value; out_bytes: the accumulator's size, a partial's too */
struct tree_state : rb_cuda::result_state {
    int variant;
    unsigned block;
    size_t per_block;  /* elements one block reduces */
    void *partials[2]; /* ping-pong buffers between passes */
    int n_passes;
    size_t pass_n[TREE_MAX_PASSES];
    unsigned pass_grid[TREE_MAX_PASSES];
    tree_launch_fn launch;
};

template <class Op, class A, int Variant>
static void launch_variant(const tree_state *s, const A *in, A *out, size_t n, unsigned grid)
{
    tree_pass<Op, A, Variant><<<grid, s->block, s->block * sizeof(A), s->stream>>>(in, out, n);
}

template <class Op, class A, unsigned Block>
static void launch_unrolled(const tree_state *s, const A *in, A *out, size_t n, unsigned grid)
{
    tree_pass_unrolled<Op, A, Block><<<grid, Block, Block * sizeof(A), s->stream>>>(in, out, n);
}

template <class Op, class A>
static int tree_launch(tree_state *s, const void *in_ptr, void *out_ptr, size_t n, unsigned grid)
{
    const A *in = static_cast<const A *>(in_ptr);
    A *out = static_cast<A *>(out_ptr);
    switch (s->variant) {
    case DIVERGENT: launch_variant<Op, A, DIVERGENT>(s, in, out, n, grid); break;
    case STRIDED_INDEX: launch_variant<Op, A, STRIDED_INDEX>(s, in, out, n, grid); break;
    case SEQUENTIAL: launch_variant<Op, A, SEQUENTIAL>(s, in, out, n, grid); break;
    case FIRST_ADD: launch_variant<Op, A, FIRST_ADD>(s, in, out, n, grid); break;
    case WARP_UNROLL: launch_variant<Op, A, WARP_UNROLL>(s, in, out, n, grid); break;
    default: /* FULL_UNROLL */
        switch (s->block) {
        case 64: launch_unrolled<Op, A, 64>(s, in, out, n, grid); break;
        case 128: launch_unrolled<Op, A, 128>(s, in, out, n, grid); break;
        case 256: launch_unrolled<Op, A, 256>(s, in, out, n, grid); break;
        case 512: launch_unrolled<Op, A, 512>(s, in, out, n, grid); break;
        default: launch_unrolled<Op, A, 1024>(s, in, out, n, grid); break;
        }
    }
    RB_CUDA_CHECK_LAUNCH(s->cfg->host);
    return RB_OK;
}

/* Sums of integers read the input as the unsigned type (same bits). */
static tree_launch_fn pick(int dtype, int op, size_t *acc_bytes)
{
    return rb_cuda::with_numeric_op(dtype, op, [&](auto reduce, auto, auto a) {
        *acc_bytes = sizeof a;
        return tree_launch<decltype(reduce), decltype(a)>;
    });
}

/* Plans the passes: each reduces its input by per_block. Returns the number
 * of passes, or 0 if a grid would be too large. */
static int plan_passes(size_t n, size_t per_block, size_t pass_n[], unsigned pass_grid[])
{
    int count = 0;
    do {
        size_t grid = (n + per_block - 1) / per_block;
        if (grid > 0x7fffffffu || count == TREE_MAX_PASSES)
            return 0;
        pass_n[count] = n;
        pass_grid[count] = (unsigned)grid;
        count++;
        n = grid;
    } while (n > 1);
    return count;
}

static int tree_describe(const rb_config *cfg, rb_description *out)
{
    const int variant = (int)rb_param_int(cfg, "variant", SEQUENTIAL);
    const size_t block = (size_t)rb_param_int(cfg, "block", 256);
    const size_t per_block = block * (variant >= FIRST_ADD ? 2 : 1);
    size_t pass_n[TREE_MAX_PASSES];
    unsigned pass_grid[TREE_MAX_PASSES];
    size_t acc_bytes;
    if (!pick(cfg->dtype, cfg->op, &acc_bytes)) {
        cfg->host->error(cfg->host, "tree reduces sum, min and max of i32, i64, f32 and f64");
        return RB_UNSUPPORTED;
    }
    if (!plan_passes(cfg->n, per_block, pass_n, pass_grid)) {
        cfg->host->error(cfg->host, "n = %llu needs more than 2^31 - 1 blocks of %zu elements",
                         (unsigned long long)cfg->n, per_block);
        return RB_UNSUPPORTED;
    }
    static const char *const labels[] = {"reduce0", "reduce1", "reduce2",
                                         "reduce3", "reduce4", "reduce5"};
    snprintf(out->label, sizeof out->label, "%s", labels[variant]);
    return RB_OK;
}

static int tree_setup(tree_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->variant = (int)rb_param_int(cfg, "variant", SEQUENTIAL);
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    s->per_block = (size_t)s->block * (s->variant >= FIRST_ADD ? 2 : 1);
    s->out_dtype = cfg->dtype;
    s->launch = pick(cfg->dtype, cfg->op, &s->out_bytes);
    s->n_passes = plan_passes(cfg->n, s->per_block, s->pass_n, s->pass_grid);
    if (!s->launch || !s->n_passes) {
        cfg->host->error(cfg->host, "configuration not supported (see describe)");
        return RB_UNSUPPORTED;
    }
    /* Pass k writes partials[k % 2]; the last pass writes out. */
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    if (s->n_passes > 1)
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->partials[0], s->pass_grid[0] * s->out_bytes));
    if (s->n_passes > 2)
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->partials[1], s->pass_grid[1] * s->out_bytes));
    return RB_OK;
}

static int tree_run(void *state)
{
    tree_state *s = (tree_state *)state;
    const void *in = s->cfg->input;
    for (int k = 0; k < s->n_passes; k++) {
        void *out = k == s->n_passes - 1 ? s->out : s->partials[k % 2];
        if (s->launch(s, in, out, s->pass_n[k], s->pass_grid[k]) != RB_OK)
            return RB_ERROR;
        in = out;
    }
    return RB_OK;
}

static void tree_teardown(void *state)
{
    tree_state *s = (tree_state *)state;
    if (!s)
        return;
    cudaFree(s->partials[0]);
    cudaFree(s->partials[1]);
    rb_cuda::teardown_result<tree_state>(s);
}

static constexpr rb_plugin tree_plugin = rb_cuda::plugin({
    .name = "tree",
    .summary = "shared-memory tree per block, repeated passes (reduce0..reduce5)",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = tree_params, .n_params = rb_cuda::count_of(tree_params),
    .describe = tree_describe, .init = rb_cuda::init_with<tree_state, tree_setup, tree_teardown>,
    .run = tree_run, .verify = rb_cuda::verify_result<tree_state>, .teardown = tree_teardown,
});

RB_CUDA_PLUGIN_ENTRY(tree_plugin)
