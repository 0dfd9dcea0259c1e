/* plugins/cuda/shaped.cuh: what the cuda pack's shaped strategies share
 * (ABI 1.6, "Shapes" in redbench/plugin.h): rows.cu, columns.cu and
 * segmented.cu reduce many rows or columns at once and hand back one answer
 * each.
 *
 *   shaped::reducer<Op, A>, shaped::arg_reducer<A>   one answer being
 *                         built: an accumulator of sum, min or max, or a
 *                         value and its index for argmax, with the same
 *                         calls (take, take_vec, merge, shfl_down, store)
 *   shaped::with_reducer  picks a template instance by op and dtype
 *   shaped::load_partial  a reducer another block stored, past the L1
 *   shaped::row_bounds    where row r lies (fixed lengths or offsets)
 *   shaped::reduce_range  a group of lanes over part of a row, with 16-byte
 *                         loads from the first aligned address on
 *   shaped::answers       the answers on the device (values, argmax
 *                         indices), and verify's copy of them to the host
 *   shaped::check_shape   describe's checks of the configuration's shape
 *
 * An answer has the dtype's type (an integer sum its unsigned type, which
 * has the same bits), f32 for f16 and bf16; an empty row's is the
 * operation's identity, and argmax's index 0 there. */
#ifndef REDBENCH_CUDA_SHAPED_CUH
#define REDBENCH_CUDA_SHAPED_CUH

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

namespace shaped {

/* No element has this index: an argmax that has taken nothing. */
constexpr unsigned long long no_index = ~0ull;

/* Sum, min or max in A (what the answer is). */
template <class Op, class A> struct reducer {
    typedef A answer;
    typedef Op op;
    static constexpr bool is_arg = false;
    A v;
    __host__ __device__ static reducer identity()
    {
        reducer r;
        r.v = Op::template identity<A>();
        return r;
    }
    __device__ __forceinline__ void take(A x, unsigned long long) { v = Op::apply(v, x); }
    /* V elements loaded at once, the first of them index `first` */
    template <class T, int V>
    __device__ __forceinline__ void take_vec(const rb_cuda::vec<T, V> &x, unsigned long long)
    {
        v = rb_cuda::combine_vec<Op, A>(v, x);
    }
    __device__ __forceinline__ void merge(const reducer &o) { v = Op::apply(v, o.v); }
    /* The reducer `offset` lanes down, within groups of `width` lanes. */
    __device__ __forceinline__ reducer shfl_down(unsigned offset, int width) const
    {
        reducer o;
        o.v = __shfl_down_sync(rb_cuda::full_mask, v, offset, width);
        return o;
    }
    __device__ __forceinline__ void store(A *values, unsigned long long *, size_t k) const
    {
        values[k] = v;
    }
};

/* Argmax: the largest value and the smallest index holding it (so that the
 * first maximum wins whatever the order of combination). */
template <class A> struct arg_reducer {
    typedef A answer;
    static constexpr bool is_arg = true;
    rb_cuda::arg<A> a;
    __host__ __device__ static arg_reducer identity()
    {
        arg_reducer r;
        r.a = rb_cuda::argmax_identity<A>();
        return r;
    }
    __device__ __forceinline__ void take(A x, unsigned long long index)
    {
        rb_cuda::arg<A> b;
        b.value = x;
        b.index = index;
        a = rb_cuda::argmax_pick(a, b);
    }
    template <class T, int V>
    __device__ __forceinline__ void take_vec(const rb_cuda::vec<T, V> &x, unsigned long long first)
    {
        rb_cuda::widen_each<A>(x, [&](A value, int j) { take(value, first + (unsigned)j); });
    }
    __device__ __forceinline__ void merge(const arg_reducer &o) { a = rb_cuda::argmax_pick(a, o.a); }
    __device__ __forceinline__ arg_reducer shfl_down(unsigned offset, int width) const
    {
        arg_reducer o;
        o.a.value = __shfl_down_sync(rb_cuda::full_mask, a.value, offset, width);
        o.a.index = __shfl_down_sync(rb_cuda::full_mask, a.index, offset, width);
        return o;
    }
    __device__ __forceinline__ void store(A *values, unsigned long long *indices, size_t k) const
    {
        values[k] = a.value;
        indices[k] = a.index == no_index ? 0 : a.index; /* an empty row: index 0 */
    }
};

/* Reduces r over groups of `width` lanes (a power of two up to 32, groups
 * aligned within the warp); the group's first lane holds the result. Every
 * lane of the warp must call it. */
template <class R> __device__ __forceinline__ R group_reduce(R r, int width)
{
    for (int offset = width / 2; offset > 0; offset /= 2)
        r.merge(r.shfl_down((unsigned)offset, width));
    return r;
}

/* Reduces r over the block; thread 0 holds the result. `scratch` is 32
 * reducers of shared memory; ends with a barrier. Every thread calls it. */
template <class R> __device__ __forceinline__ R block_reduce(R r, R *scratch)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    r = group_reduce(r, 32);
    if (lane == 0)
        scratch[warp] = r;
    __syncthreads();
    if (warp == 0) {
        r = lane < (blockDim.x >> 5) ? scratch[lane] : R::identity();
        r = group_reduce(r, 32);
    }
    __syncthreads();
    return r;
}

/* A reducer another block stored in this kernel, read past the SM's L1
 * (which may hold an older copy of its line): word by word with
 * ld.global.cg. What a last-block finish reads its row's partials with. */
template <class R> __device__ __forceinline__ R load_partial(const R *p)
{
    static_assert(sizeof(R) % sizeof(unsigned) == 0, "a reducer of whole 32-bit words");
    R r;
    unsigned words[sizeof(R) / sizeof(unsigned)];
    const unsigned *q = reinterpret_cast<const unsigned *>(p);
#pragma unroll
    for (unsigned i = 0; i < sizeof(R) / sizeof(unsigned); i++)
        words[i] = __ldcg(q + i);
    memcpy(&r, words, sizeof r);
    return r;
}

/* Where row r lies: [r cols, (r + 1) cols), or [offsets[r], offsets[r + 1])
 * for ragged rows. */
struct row_bounds {
    const unsigned long long *offsets; /* NULL: fixed lengths */
    unsigned long long cols;
    __device__ __forceinline__ void of(size_t r, unsigned long long *begin,
                                       unsigned long long *end) const
    {
        if (offsets) {
            *begin = offsets[r];
            *end = offsets[r + 1];
        } else {
            *begin = (unsigned long long)r * cols;
            *end = *begin + cols;
        }
    }
};

/* Elements [from, to) of the row at `row` (indices within the row), taken
 * by lane `lane` of a group of `lanes`: the elements before the first
 * 16-byte aligned address one each, then 16-byte vectors, then the rest one
 * each; lane k takes every lanes-th of each. The row need not be aligned
 * (its length times the element size is rarely a multiple of 16). Each lane
 * takes its elements in increasing index order, its vectors four at a
 * time. */
template <class R, class T>
__device__ __forceinline__ void reduce_range(R &acc, const T *__restrict__ row,
                                             unsigned long long from, unsigned long long to,
                                             unsigned lane, unsigned lanes)
{
    typedef typename R::answer A;
    constexpr int V = (int)(16 / sizeof(T));
    if (from >= to)
        return;
    const unsigned long long len = to - from;
    const T *p = row + from;
    const unsigned misalign = (unsigned)(((uintptr_t)p % 16) / sizeof(T));
    unsigned long long head = misalign ? (unsigned long long)(V - (int)misalign) : 0;
    if (head > len)
        head = len;
    for (unsigned long long k = lane; k < head; k += lanes)
        acc.take(rb_cuda::widen<A>(p[k]), from + k);
    const unsigned long long units = (len - head) / V;
    const T *body = p + head;
    unsigned long long u = lane;
    /* four vectors loaded before any is taken, so that four loads of each
     * lane are in flight at once */
    for (; u + 3ull * lanes < units; u += 4ull * lanes) {
        rb_cuda::vec<T, V> x[4];
#pragma unroll
        for (int j = 0; j < 4; j++)
            x[j] = rb_cuda::load_vec<T, V>(body + (u + (unsigned long long)j * lanes) * V);
#pragma unroll
        for (int j = 0; j < 4; j++)
            acc.take_vec(x[j], from + head + (u + (unsigned long long)j * lanes) * V);
    }
    for (; u < units; u += lanes)
        acc.take_vec(rb_cuda::load_vec<T, V>(body + u * V), from + head + u * V);
    for (unsigned long long k = head + units * V + lane; k < len; k += lanes)
        acc.take(rb_cuda::widen<A>(p[k]), from + k);
}

/* Calls pick with a reducer (of the op, in what the dtype's answers are)
 * and a zero of the element type, and returns its answer; for another op
 * or dtype a value-initialised answer (NULL for a pointer):
 *   shaped::with_reducer(cfg, [&](auto r, auto t) {
 *       return launch<decltype(r), decltype(t)>; }) */
template <class Pick>
inline auto with_reducer(const rb_config *cfg, Pick pick)
    -> decltype(pick(reducer<rb_cuda::op_sum, float>(), 0.0f))
{
    typedef decltype(pick(reducer<rb_cuda::op_sum, float>(), 0.0f)) result;
    auto by_op = [&](auto t, auto a) -> result {
        typedef decltype(t) T;
        typedef decltype(a) A; /* min, max, argmax: T, or f32 for halves */
        switch (cfg->op) {
        case RB_OP_SUM: {
            typedef typename std::conditional<rb_cuda::is_half<T>::value, float,
                                              typename rb_cuda::sum_type<T>::type>::type S;
            return pick(reducer<rb_cuda::op_sum, S>(), t);
        }
        case RB_OP_MIN: return pick(reducer<rb_cuda::op_min, A>(), t);
        case RB_OP_MAX: return pick(reducer<rb_cuda::op_max, A>(), t);
        case RB_OP_ARGMAX: return pick(arg_reducer<A>(), t);
        default: return result{};
        }
    };
    switch (cfg->dtype) {
    case RB_DTYPE_I32: return by_op(0, 0);
    case RB_DTYPE_I64: return by_op(0ll, 0ll);
    case RB_DTYPE_F32: return by_op(0.0f, 0.0f);
    case RB_DTYPE_F64: return by_op(0.0, 0.0);
    case RB_DTYPE_F16: return by_op(__half(), 0.0f);
    case RB_DTYPE_BF16: return by_op(__nv_bfloat16(), 0.0f);
    default: return result{};
    }
}

/* The dtypes and ops every shaped strategy takes. */
constexpr uint32_t dtypes = rb_cuda::numeric_dtypes | rb_cuda::half_dtypes;
constexpr uint32_t ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |
                         RB_OP_BIT(RB_OP_ARGMAX);

/* Bytes of one answer: the dtype's size, 4 (f32) for f16 and bf16. */
inline size_t answer_bytes(int dtype)
{
    return dtype == RB_DTYPE_F16 || dtype == RB_DTYPE_BF16 ? 4 : rb_dtype_size(dtype);
}

/* Whether cfg carries the shape fields (a host of ABI 1.6 or newer). */
inline bool has_shape(const rb_config *cfg)
{
    return cfg->size >= offsetof(rb_config, host_offsets) + sizeof cfg->host_offsets;
}

/* describe's checks: the op and dtype, a host that sets the shape, and the
 * axis the strategy reduces along (RB_AXIS_ROW: rows, ragged or not;
 * RB_AXIS_COLUMN: columns). RB_OK or RB_UNSUPPORTED with the reason. */
inline int check_shape(const rb_config *cfg, uint32_t axis)
{
    const rb_host *host = cfg->host;
    if (!(ops & RB_OP_BIT(cfg->op)) || !(dtypes & RB_DTYPE_BIT(cfg->dtype))) {
        host->error(host, "sum, min, max and argmax of i32, i64, f32, f64, f16 or bf16 rows");
        return RB_UNSUPPORTED;
    }
    if (!has_shape(cfg)) {
        host->error(host, "this host (ABI %u.%u) sets no shape; shaped strategies need 1.6",
                    host->abi_major, host->abi_minor);
        return RB_UNSUPPORTED;
    }
    if (cfg->axis != axis) {
        host->error(host, axis == RB_AXIS_ROW
                              ? "reduces along rows (axis = row); for columns use cuda/columns"
                              : "reduces along columns (axis = column); for rows use cuda/rows");
        return RB_UNSUPPORTED;
    }
    if (cfg->ragged && axis != RB_AXIS_ROW) {
        host->error(host, "ragged lengths are rows' (axis = row)");
        return RB_UNSUPPORTED;
    }
    if (cfg->rows < 1 || cfg->n_answers != (axis == RB_AXIS_ROW ? cfg->rows : cfg->cols)) {
        host->error(host, "inconsistent shape: rows %llu, cols %llu, %llu answers",
                    (unsigned long long)cfg->rows, (unsigned long long)cfg->cols,
                    (unsigned long long)cfg->n_answers);
        return RB_UNSUPPORTED;
    }
    if (!cfg->ragged && cfg->rows * cfg->cols != cfg->n) {
        host->error(host, "inconsistent shape: %llu rows of %llu are not n = %llu elements",
                    (unsigned long long)cfg->rows, (unsigned long long)cfg->cols,
                    (unsigned long long)cfg->n);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

/* The answers on the device: n values of `value_bytes`, and for argmax n
 * indices, zeroed by answers_alloc (so that an answer a strategy fails to
 * write reads as 0, not as what a freed buffer held). */
struct answers {
    void *values;
    unsigned long long *indices;
    size_t value_bytes;
    uint64_t n;
};

inline int answers_alloc(const rb_config *cfg, answers *a)
{
    a->n = cfg->n_answers;
    a->value_bytes = answer_bytes(cfg->dtype);
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&a->values, a->n * a->value_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(a->values, 0, a->n * a->value_bytes,
                                             (cudaStream_t)cfg->queue));
    if (cfg->op == RB_OP_ARGMAX) {
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&a->indices, a->n * sizeof *a->indices));
        RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(a->indices, 0, a->n * sizeof *a->indices,
                                                 (cudaStream_t)cfg->queue));
    }
    return RB_OK;
}

inline void answers_free(answers *a)
{
    cudaFree(a->values);
    cudaFree(a->indices);
    a->values = NULL;
    a->indices = NULL;
}

/* Whether the host's rb_result takes the answers (elements, and indices for
 * argmax); RB_ERROR with the reason where not. */
inline int check_result(const rb_config *cfg, const rb_result *result)
{
    if (result->size < offsetof(rb_result, indices) + sizeof result->indices ||
        !result->elements || (cfg->op == RB_OP_ARGMAX && !result->indices)) {
        cfg->host->error(cfg->host, "this host's result takes no answers per row");
        return RB_ERROR;
    }
    return RB_OK;
}

/* The one reduction of n elements (rows = 1 along rows, fixed lengths):
 * no shape, so its answer goes in the result's value, as before ABI 1.6. */
inline bool one_reduction(const rb_config *cfg)
{
    return cfg->rows == 1 && cfg->axis == RB_AXIS_ROW && !cfg->ragged;
}

/* The one answer, `value` as answer_bytes(dtype) holds it, into result->i
 * or f, and its index. */
inline void answer_into_value(const rb_config *cfg, const unsigned char value[8],
                              unsigned long long index, rb_result *result)
{
    switch (cfg->dtype) {
    case RB_DTYPE_I32: { int32_t v; memcpy(&v, value, sizeof v); result->i = v; break; }
    case RB_DTYPE_I64: { int64_t v; memcpy(&v, value, sizeof v); result->i = v; break; }
    case RB_DTYPE_F64: { double v; memcpy(&v, value, sizeof v); result->f = v; break; }
    default: { float v; memcpy(&v, value, sizeof v); result->f = v; break; } /* f32, halves */
    }
    result->index = index;
}

/* The one answer into result->i or f (and index for argmax). */
inline int answer_read_value(const rb_config *cfg, cudaStream_t stream, const answers *a,
                             rb_result *result)
{
    unsigned char value[8] = {0};
    unsigned long long index = 0;
    RB_CUDA_CHECK(cfg->host, cudaMemcpyAsync(value, a->values, a->value_bytes,
                                             cudaMemcpyDeviceToHost, stream));
    if (cfg->op == RB_OP_ARGMAX)
        RB_CUDA_CHECK(cfg->host, cudaMemcpyAsync(&index, a->indices, sizeof index,
                                                 cudaMemcpyDeviceToHost, stream));
    RB_CUDA_CHECK(cfg->host, cudaStreamSynchronize(stream));
    answer_into_value(cfg, value, index, result);
    return RB_OK;
}

/* verify: waits for the last run on the stream and copies the answers into
 * the host's buffers (the one reduction's into the result's value). */
inline int answers_read(const rb_config *cfg, cudaStream_t stream, const answers *a,
                        rb_result *result)
{
    if (one_reduction(cfg) && !result->elements)
        return answer_read_value(cfg, stream, a, result);
    if (check_result(cfg, result) != RB_OK)
        return RB_ERROR;
    RB_CUDA_CHECK(cfg->host, cudaMemcpyAsync(result->elements, a->values, a->n * a->value_bytes,
                                             cudaMemcpyDeviceToHost, stream));
    if (cfg->op == RB_OP_ARGMAX)
        RB_CUDA_CHECK(cfg->host, cudaMemcpyAsync(result->indices, a->indices,
                                                 a->n * sizeof *a->indices,
                                                 cudaMemcpyDeviceToHost, stream));
    RB_CUDA_CHECK(cfg->host, cudaStreamSynchronize(stream));
    result->n_elements = a->n;
    return RB_OK;
}

/* A grid of `blocks` blocks, or RB_UNSUPPORTED with the reason past 2^31 - 1. */
inline int check_grid(const rb_config *cfg, unsigned long long blocks, const char *what)
{
    if (blocks > 0x7fffffffull) {
        cfg->host->error(cfg->host, "%s needs %llu blocks, more than 2^31 - 1", what, blocks);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

} /* namespace shaped */

#endif
