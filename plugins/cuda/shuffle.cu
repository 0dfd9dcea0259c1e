/* plugins/cuda/shuffle.cu: grid-stride reduction with warp shuffles (seed
 * 000's reduce6/reduce7, seed 001's warp shuffle, seed 002's V5, its
 * vectorized version and its argmax). Each thread accumulates `items` loads
 * of `vector` elements per loop step over a grid-stride loop, the block
 * combines its warps' values by shuffles, and the blocks' values are finished
 * one of three ways:
 *   two-pass    each block writes a partial; one block of a second kernel
 *               reduces them
 *   atomic      each block combines its value into the result atomically
 *               (the result is reset on the stream first)
 *   last-block  each block writes a partial; the last block to finish (an
 *               atomic ticket) reduces them, all in one kernel
 *   atomic-epoch  as atomic, without the reset: a running count of the
 *               blocks started picks one of two results for each call, and
 *               the first block of a call clears the other one, for the
 *               next call. One launch per call, as last-block, with no
 *               ticket at the end of the blocks
 * A grid of one block (small n) writes its value as the result: one launch
 * whatever the finish. f16 and bf16 are reduced in f32 (sum, min, max and
 * argmax, returned as f32), converted by pairs as they are loaded: vector =
 * 8 reads 8 halves in one 16-byte load. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum shuffle_finish { TWO_PASS, ATOMIC, LAST_BLOCK, ATOMIC_EPOCH };

static const char *const finish_words[] = {"two-pass", "atomic", "last-block", "atomic-epoch",
                                           NULL};

static const rb_param_spec shuffle_params[] = {
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"grid", RB_PARAM_INT, "auto", 1, 0x7fffffff, NULL, RB_PARAM_AUTO,
     "blocks; auto: enough to fill the device once (2048 threads per SM), fewer for small n"},
    {"items", RB_PARAM_INT, "2", 1, 8, NULL, RB_PARAM_POW2,
     "loads in flight per thread and loop step"},
    {"vector", RB_PARAM_INT, "1", 1, 8, NULL, RB_PARAM_POW2,
     "elements per load: 1, 2, 4 (4 x f32 is one 16-byte float4 load) or, for f16 and bf16 "
     "only, 8 (one 16-byte load)"},
    {"finish", RB_PARAM_CHOICE, "two-pass", 0, 0, finish_words, 0,
     "two-pass | atomic | last-block | atomic-epoch: how the blocks' values are combined"},
};

/* What a thread accumulates: a value under Op, or a value and its index. */
/* value_t is what an element is reduced as (rb_cuda::widen). */
template <class Op, class A> struct value_policy {
    typedef A value_t;
    typedef A acc_t;
    __device__ static A init() { return Op::template identity<A>(); }
    __device__ static void add(A &acc, A x, size_t) { acc = Op::apply(acc, x); }
    __device__ static void merge(A &acc, A other) { acc = Op::apply(acc, other); }
    __device__ static A block(A v, A *scratch) { return rb_cuda::block_reduce<Op>(v, scratch); }
    __device__ static A load_coherent(const A *p) { return __ldcg(p); }
    __device__ static void atomic(A *out, A v) { rb_cuda::atomic_combine<Op>::apply(out, v); }
};

template <class A> struct argmax_policy {
    typedef A value_t;
    typedef rb_cuda::arg<A> acc_t;
    __device__ static acc_t init() { return rb_cuda::argmax_identity<A>(); }
    __device__ static void add(acc_t &acc, A x, size_t index)
    {
        acc_t c;
        c.value = x;
        c.index = index;
        acc = rb_cuda::argmax_pick(acc, c);
    }
    __device__ static void merge(acc_t &acc, acc_t other)
    {
        acc = rb_cuda::argmax_pick(acc, other);
    }
    __device__ static acc_t block(acc_t v, acc_t *scratch)
    {
        return rb_cuda::block_argmax(v, scratch);
    }
    __device__ static acc_t load_coherent(const acc_t *p)
    {
        acc_t a;
        a.value = __ldcg(&p->value);
        a.index = __ldcg(&p->index);
        return a;
    }
    __device__ static void atomic(acc_t *, acc_t) {} /* declined by describe */
};

/* Where the input lies: `head` scalars before the first address aligned to
 * a whole vector, `units` vectors, then scalars up to n (set once in init). */
typedef rb_cuda::aligned_split layout;

/* Reads elements T, each reduced as P::value_t (itself, or a half as f32). */
template <class P, class T, int V, int Items>
__global__ void shuffle_main(const T *__restrict__ in, layout at,
                             typename P::acc_t *__restrict__ partials,
                             typename P::acc_t *__restrict__ out, unsigned *ticket,
                             unsigned long long *blocks_started, int finish)
{
    typedef typename P::acc_t acc_t;
    typedef typename P::value_t A;
    __shared__ acc_t scratch[32];
    __shared__ bool is_last;
    __shared__ unsigned slot;
    const unsigned tid = threadIdx.x, block = blockDim.x;
    const size_t gid = (size_t)blockIdx.x * block + tid;
    acc_t acc = P::init();

    /* atomic-epoch: this call's result slot, while the loads below fly */
    if (finish == ATOMIC_EPOCH && gridDim.x > 1 && tid == 0)
        slot = rb_cuda::epoch_slot(blocks_started, out, P::init());

    if (gid < at.head)
        P::add(acc, rb_cuda::widen<A>(in[gid]), gid);

    const T *body = in + at.head;
    const size_t step = (size_t)gridDim.x * block * Items;
    size_t base = (size_t)blockIdx.x * block * Items + tid;
    for (; base + (size_t)(Items - 1) * block < at.units; base += step) {
        rb_cuda::vec<T, V> x[Items];
#pragma unroll
        for (int k = 0; k < Items; k++)
            x[k] = rb_cuda::load_vec<T, V>(body + (base + (size_t)k * block) * V);
#pragma unroll
        for (int k = 0; k < Items; k++) {
            const size_t first = at.head + (base + (size_t)k * block) * V;
            rb_cuda::widen_each<A>(x[k], [&](A e, int j) { P::add(acc, e, first + j); });
        }
    }
#pragma unroll
    for (int k = 0; k < Items; k++) {
        const size_t v = base + (size_t)k * block;
        if (v < at.units) {
            const size_t first = at.head + v * V;
            rb_cuda::widen_each<A>(rb_cuda::load_vec<T, V>(body + v * V),
                                   [&](A e, int j) { P::add(acc, e, first + j); });
        }
    }
    if (at.tail_start + gid < at.n)
        P::add(acc, rb_cuda::widen<A>(in[at.tail_start + gid]), at.tail_start + gid);

    acc = P::block(acc, scratch);
    if (gridDim.x == 1) { /* one block: its value is the result */
        if (tid == 0)
            *out = acc;
        return;
    }
    if (finish == ATOMIC || finish == ATOMIC_EPOCH) {
        if (tid == 0) /* slot was set by this thread */
            P::atomic(finish == ATOMIC ? out : out + slot, acc);
        return;
    }
    if (tid == 0)
        partials[blockIdx.x] = acc;
    if (finish == TWO_PASS)
        return;

    /* last-block: the block that takes the last ticket sees every partial. */
    if (tid == 0)
        is_last = rb_cuda::take_ticket(ticket) == gridDim.x - 1;
    __syncthreads();
    if (!is_last)
        return;
    acc = P::init();
    for (unsigned i = tid; i < gridDim.x; i += block)
        P::merge(acc, P::load_coherent(&partials[i]));
    acc = P::block(acc, scratch);
    if (tid == 0) {
        *out = acc;
        *ticket = 0;
    }
}

/* two-pass: one block reduces the partials. */
template <class P>
__global__ void shuffle_partials(const typename P::acc_t *__restrict__ partials, unsigned count,
                                 typename P::acc_t *__restrict__ out)
{
    __shared__ typename P::acc_t scratch[32];
    typename P::acc_t acc = P::init();
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
        P::merge(acc, partials[i]);
    acc = P::block(acc, scratch);
    if (threadIdx.x == 0)
        *out = acc;
}

typedef struct shuffle_state shuffle_state;
typedef int (*shuffle_launch_fn)(shuffle_state *s);

struct shuffle_state {
    const rb_config *cfg;
    cudaStream_t stream;
    unsigned block, grid;
    int items, vector, finish;
    size_t acc_bytes; /* what one block yields */
    void *partials, *out;
    unsigned *ticket;
    unsigned long long *blocks_started; /* atomic-epoch: blocks run so far */
    layout at;
    shuffle_launch_fn launch;
};

template <class P, class T, int V, int Items> static void launch_main(shuffle_state *s)
{
    typedef typename P::acc_t acc_t;
    shuffle_main<P, T, V, Items><<<s->grid, s->block, 0, s->stream>>>(
        static_cast<const T *>(s->cfg->input), s->at, static_cast<acc_t *>(s->partials),
        static_cast<acc_t *>(s->out), s->ticket, s->blocks_started, s->finish);
}

template <class P, class T, int V> static void launch_items(shuffle_state *s)
{
    switch (s->items) {
    case 1: launch_main<P, T, V, 1>(s); break;
    case 2: launch_main<P, T, V, 2>(s); break;
    case 4: launch_main<P, T, V, 4>(s); break;
    default: launch_main<P, T, V, 8>(s); break;
    }
}

/* Reads elements T (the input of P, or halves reduced in f32). vector = 8
 * is only ever set for halves (shuffle_declines). */
template <class P, class T> static int shuffle_launch(shuffle_state *s)
{
    typedef typename P::acc_t acc_t;
    const rb_host *host = s->cfg->host;
    if (s->finish == ATOMIC && s->grid > 1 &&
        rb_cuda::reset_result(s->cfg, s->out, sizeof(acc_t), s->stream) != RB_OK)
        return RB_ERROR;
    switch (s->vector) {
    case 1: launch_items<P, T, 1>(s); break;
    case 2: launch_items<P, T, 2>(s); break;
    case 4: launch_items<P, T, 4>(s); break;
    default:
        if constexpr (sizeof(T) == 2)
            launch_items<P, T, 8>(s);
        break;
    }
    RB_CUDA_CHECK_LAUNCH(host);
    if (s->finish == TWO_PASS && s->grid > 1) {
        shuffle_partials<P><<<1, 256, 0, s->stream>>>(static_cast<const acc_t *>(s->partials),
                                                      s->grid, static_cast<acc_t *>(s->out));
        RB_CUDA_CHECK_LAUNCH(host);
    }
    return RB_OK;
}

/* Integer sums in the unsigned type (they wrap; the input is read as it,
 * which has the dtype's bits); min, max and argmax in the dtype; f16 and
 * bf16 in f32, whatever the op. */
static shuffle_launch_fn pick(int dtype, int op, size_t *acc_bytes)
{
    if (op == RB_OP_ARGMAX) {
        shuffle_launch_fn numeric = rb_cuda::with_numeric_type(dtype, [&](auto t) {
            typedef decltype(t) T;
            *acc_bytes = sizeof(rb_cuda::arg<T>);
            return shuffle_launch<argmax_policy<T>, T>;
        });
        if (numeric)
            return numeric;
        return rb_cuda::with_half_type(dtype, [&](auto t) {
            *acc_bytes = sizeof(rb_cuda::arg<float>);
            return shuffle_launch<argmax_policy<float>, decltype(t)>;
        });
    }
    shuffle_launch_fn numeric = rb_cuda::with_numeric_op(dtype, op, [&](auto reduce, auto, auto a) {
        typedef decltype(a) A;
        *acc_bytes = sizeof(A);
        return shuffle_launch<value_policy<decltype(reduce), A>, A>;
    });
    if (numeric)
        return numeric;
    return rb_cuda::with_half_op(dtype, op, [&](auto reduce, auto t, auto a) {
        *acc_bytes = sizeof a;
        return shuffle_launch<value_policy<decltype(reduce), decltype(a)>, decltype(t)>;
    });
}

static bool is_half(int dtype) { return dtype == RB_DTYPE_F16 || dtype == RB_DTYPE_BF16; }

/* What this strategy cannot do, with the reason: RB_OK or RB_UNSUPPORTED. */
static int shuffle_declines(const rb_config *cfg, int finish, int vector)
{
    size_t acc_bytes;
    const rb_host *host = cfg->host;
    if (!pick(cfg->dtype, cfg->op, &acc_bytes)) {
        host->error(host, "shuffle reduces sum, min, max and argmax of i32, i64, f32, f64, f16 "
                          "and bf16");
        return RB_UNSUPPORTED;
    }
    if (cfg->op == RB_OP_ARGMAX && (finish == ATOMIC || finish == ATOMIC_EPOCH)) {
        host->error(host, "argmax has no single atomic for a value and its index; "
                          "use finish = two-pass or last-block");
        return RB_UNSUPPORTED;
    }
    if (vector == 8 && !is_half(cfg->dtype)) {
        host->error(host, "vector = 8 is for f16 and bf16 (8 halves, one 16-byte load); "
                          "use vector = 1, 2 or 4");
        return RB_UNSUPPORTED;
    }
    /* the atomic finishes start min and max from the input's first element
     * (rb_cuda::reset_result), which for halves is not the f32 they are
     * reduced in */
    if (is_half(cfg->dtype) && cfg->op != RB_OP_SUM && (finish == ATOMIC || finish == ATOMIC_EPOCH)) {
        host->error(host, "finish = atomic and atomic-epoch start min and max from the input's "
                          "first element, not an f32 for f16 and bf16; use finish = two-pass "
                          "or last-block");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

/* The grid: as given, or auto: one full wave of the device (2048 threads
 * per SM on every current GPU, e.g. 8 x SMs at 256 threads), fewer blocks if
 * the input needs fewer. */
static unsigned grid_for(const rb_config *cfg, unsigned block, int items, int vector)
{
    const int64_t given = rb_param_int(cfg, "grid", 0);
    if (given > 0)
        return (unsigned)given;
    return rb_cuda::wave_grid(cfg->device, block, cfg->n, (size_t)block * items * vector);
}

static int shuffle_describe(const rb_config *cfg, rb_description *out)
{
    const int finish = (int)rb_param_int(cfg, "finish", TWO_PASS);
    const int status = shuffle_declines(cfg, finish, (int)rb_param_int(cfg, "vector", 1));
    if (status != RB_OK)
        return status;
    static const char *const finish_labels[] = {"2pass", "atomic", "lastblock", "epoch"};
    snprintf(out->label, sizeof out->label, "shuffle-v%d-%s",
             (int)rb_param_int(cfg, "vector", 1), finish_labels[finish]);
    return RB_OK;
}

static int shuffle_setup(shuffle_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    s->items = (int)rb_param_int(cfg, "items", 2);
    s->vector = (int)rb_param_int(cfg, "vector", 1);
    s->finish = (int)rb_param_int(cfg, "finish", TWO_PASS);
    s->grid = grid_for(cfg, s->block, s->items, s->vector);
    const size_t element = rb_dtype_size(cfg->dtype), vector_bytes = s->vector * element;
    s->at = rb_cuda::split_aligned(cfg->input, cfg->n, element, vector_bytes, vector_bytes);
    s->launch = pick(cfg->dtype, cfg->op, &s->acc_bytes);
    const int epoch = s->finish == ATOMIC_EPOCH;
    const int status = shuffle_declines(cfg, s->finish, s->vector);
    if (status != RB_OK)
        return status;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, (epoch ? 2 : 1) * s->acc_bytes));
    if (s->finish == TWO_PASS || s->finish == LAST_BLOCK)
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->partials, (size_t)s->grid * s->acc_bytes));
    if (s->finish == LAST_BLOCK) {
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->ticket, sizeof *s->ticket));
        RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(s->ticket, 0, sizeof *s->ticket, s->stream));
    }
    if (epoch)
        return rb_cuda::epoch_setup(cfg, s->out, s->acc_bytes, &s->blocks_started, s->stream);
    return RB_OK;
}

static int shuffle_run(void *state)
{
    shuffle_state *s = (shuffle_state *)state;
    return s->launch(s);
}

static int shuffle_verify(void *state, rb_result *result)
{
    shuffle_state *s = (shuffle_state *)state;
    unsigned char bytes[16];
    unsigned slot = 0; /* atomic-epoch: the slot the last call's blocks picked */
    if (s->finish == ATOMIC_EPOCH &&
        rb_cuda::epoch_result_slot(s->cfg->host, s->stream, s->blocks_started, s->grid,
                                   &slot) != RB_OK)
        return RB_ERROR;
    const char *from = static_cast<const char *>(s->out) + slot * s->acc_bytes;
    if (rb_cuda::read_bytes(s->cfg->host, s->stream, bytes, from, s->acc_bytes) != RB_OK)
        return RB_ERROR;
    rb_cuda::store_bytes(result, s->cfg->dtype, bytes);
    if (s->cfg->op == RB_OP_ARGMAX) /* arg<T>: the value, then the index at 8 */
        memcpy(&result->index, bytes + 8, sizeof result->index);
    return RB_OK;
}

static void shuffle_teardown(void *state)
{
    shuffle_state *s = (shuffle_state *)state;
    if (!s)
        return;
    cudaFree(s->out);
    cudaFree(s->partials);
    cudaFree(s->ticket);
    cudaFree(s->blocks_started);
    free(s);
}

static constexpr rb_plugin shuffle_plugin = rb_cuda::plugin({
    .name = "shuffle",
    .summary =
        "grid-stride loop, vector loads, warp shuffles; two-pass, atomic or last-block finish",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |
        RB_OP_BIT(RB_OP_ARGMAX),
    .dtypes = rb_cuda::numeric_dtypes | rb_cuda::half_dtypes,
    .params = shuffle_params, .n_params = rb_cuda::count_of(shuffle_params),
    .describe = shuffle_describe,
    .init = rb_cuda::init_with<shuffle_state, shuffle_setup, shuffle_teardown>,
    .run = shuffle_run, .verify = shuffle_verify, .teardown = shuffle_teardown,
});

RB_CUDA_PLUGIN_ENTRY(shuffle_plugin)
