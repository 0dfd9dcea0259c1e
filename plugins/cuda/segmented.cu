/* plugins/cuda/segmented.cu: the baseline of the shaped reductions (ABI
 * 1.6): cub::DeviceSegmentedReduce, one segment per answer, as a CUB user
 * writes it. Rows of fixed length are segments whose begin and end offsets
 * come from a counting iterator times cols (no offsets buffer); ragged
 * rows are segments [offsets[r], offsets[r + 1]) read from cfg->offsets
 * itself; columns (axis = column) are segments of `rows` elements of the
 * input read through a transposing iterator (element k of segment c is
 * row k of column c: strided, uncoalesced reads, the cost of taking CUB's
 * segments for columns).
 *
 * Every op goes through DeviceSegmentedReduce::Reduce with an explicit
 * initial value, the operation's identity, since the convenience calls give
 * empty segments something else: Min and Max of floats the type's finite
 * limits (not +-infinity), and ArgMax the pair {1, lowest} (an index of 1).
 * argmax reduces (value, index) pairs over each element's index, the index
 * made relative to its row (or, for columns, the row) in verify. f16 and
 * bf16 are read through an iterator that widens each element to f32.
 *
 * variant = iterators is the above. variant = fixed is CUB's own
 * fixed-size segments (CCCL 3.1 and later: DeviceSegmentedReduce::Reduce
 * with a segment size instead of offsets, whose dispatch picks a thread, a
 * warp or a block per segment by its length), for fixed rows and for
 * columns (segments of `rows` through the same transposing iterator); it
 * takes no offsets, so ragged rows are declined, and so is every shape
 * where the CCCL built against is older (saying which it is). The plugin
 * may be built against a CCCL other than the toolkit's
 * (plugins/cuda/local.mk's CUDA_CCCL_FLAGS). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/version>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#include "shaped.cuh"

/* CUB's fixed-size segmented reduce: CCCL 3.1 and later. */
#if CCCL_MAJOR_VERSION > 3 || (CCCL_MAJOR_VERSION == 3 && CCCL_MINOR_VERSION >= 1)
#define SEGMENTED_HAS_FIXED 1
#else
#define SEGMENTED_HAS_FIXED 0
#endif

#ifndef SEGMENTED_NAME
#define SEGMENTED_NAME "segmented"
#define SEGMENTED_SUMMARY "cub::DeviceSegmentedReduce: one segment per row or column (baseline)"
#endif

enum segmented_variant { VARIANT_ITERATORS, VARIANT_FIXED };

static const char *const variant_words[] = {"iterators", "fixed", NULL};

static const rb_param_spec segmented_params[] = {
    {"variant", RB_PARAM_CHOICE, "iterators", 0, 0, variant_words, 0,
     "iterators: segments from offset iterators; fixed: CUB's fixed-size segments "
     "(CCCL 3.1 and later; fixed rows and columns)"},
};

typedef unsigned long long u64;

/* Segment s begins at s x len (fixed lengths, columns). */
struct times_len {
    u64 len;
    __host__ __device__ u64 operator()(u64 s) const { return s * len; }
};

/* An element widened to A (halves to f32, an int to its unsigned sum type). */
template <class T, class A> struct widen_to {
    __host__ __device__ A operator()(T x) const { return rb_cuda::widen<A>(x); }
};

/* Element k of the sequence CUB reduces: the input's k-th, or with
 * Transposed the k % rows-th row of column k / rows. */
template <class T, class A, bool Transposed> struct element_at {
    const T *in;
    u64 rows, cols;
    __host__ __device__ u64 where(u64 k) const
    {
        return Transposed ? (k % rows) * cols + k / rows : k;
    }
    __host__ __device__ A operator()(u64 k) const { return rb_cuda::widen<A>(in[where(k)]); }
};

/* As element_at, paired with its index k in the sequence, for argmax. */
template <class T, class A, bool Transposed> struct pair_at {
    element_at<T, A, Transposed> at;
    __host__ __device__ rb_cuda::arg<A> operator()(u64 k) const
    {
        rb_cuda::arg<A> a;
        a.value = at(k);
        a.index = k;
        return a;
    }
};

template <class Op> struct op_fn {
    template <class A> __host__ __device__ A operator()(const A &a, const A &b) const
    {
        return Op::apply(a, b);
    }
};

struct argmax_fn {
    template <class A>
    __host__ __device__ rb_cuda::arg<A> operator()(const rb_cuda::arg<A> &a,
                                                   const rb_cuda::arg<A> &b) const
    {
        return rb_cuda::argmax_pick(a, b);
    }
};

typedef struct segmented_state segmented_state;
/* Issues the CUB call; temp == NULL only sets *temp_bytes (the size query). */
typedef cudaError_t (*segmented_call_fn)(segmented_state *s, void *temp, size_t *temp_bytes);
/* verify's copy of argmax's pairs (host_pairs) into the host's buffers. */
typedef void (*segmented_split_fn)(const segmented_state *s, rb_result *result);

struct segmented_state {
    const rb_config *cfg;
    cudaStream_t stream;
    bool ragged;      /* segments from cfg->offsets */
    bool transposed;  /* columns */
    bool fixed;       /* variant = fixed: CUB's fixed-size segments */
    u64 segments;     /* n_answers */
    u64 len;          /* a segment's length where fixed */
    segmented_call_fn call;
    segmented_split_fn split;
    void *temp;
    size_t temp_bytes;
    void *out;        /* the answers, or argmax's pairs */
    size_t out_bytes;
    void *host_pairs; /* argmax: the pairs read back in verify */
};

/* The sequence CUB reduces: a plain pointer where the elements are what
 * the answer is (an int's bits as its unsigned sum type), else an iterator
 * that widens them or transposes. */
template <class T, class A, bool Transposed> static auto sequence(const segmented_state *s)
{
    const T *in = static_cast<const T *>(s->cfg->input);
    if constexpr (Transposed)
        return thrust::make_transform_iterator(
            thrust::counting_iterator<u64>(0),
            element_at<T, A, true>{in, s->cfg->rows, s->cfg->cols});
    else if constexpr (sizeof(T) == sizeof(A))
        return reinterpret_cast<const A *>(in);
    else
        return thrust::make_transform_iterator(in, widen_to<T, A>());
}

/* DeviceSegmentedReduce::Reduce over the segments: `bounds(...)` appends
 * the segments' description to the call's arguments (begin and end
 * offsets, or a fixed segment size). */
template <class R, class T, bool Transposed, class Bounds>
static cudaError_t segmented_reduce(segmented_state *s, void *temp, size_t *temp_bytes,
                                    Bounds bounds)
{
    typedef typename R::answer A;
    const int64_t segments = (int64_t)s->segments;
    if constexpr (R::is_arg) {
        const T *in = static_cast<const T *>(s->cfg->input);
        auto pairs = thrust::make_transform_iterator(
            thrust::counting_iterator<u64>(0),
            pair_at<T, A, Transposed>{{in, s->cfg->rows, s->cfg->cols}});
        return bounds([&](auto... segments_are) {
            return cub::DeviceSegmentedReduce::Reduce(
                temp, *temp_bytes, pairs, static_cast<rb_cuda::arg<A> *>(s->out), segments,
                segments_are..., argmax_fn(), rb_cuda::argmax_identity<A>(), s->stream);
        });
    } else {
        typedef typename R::op Op;
        return bounds([&](auto... segments_are) {
            return cub::DeviceSegmentedReduce::Reduce(
                temp, *temp_bytes, sequence<T, A, Transposed>(s), static_cast<A *>(s->out),
                segments, segments_are..., op_fn<Op>(), Op::template identity<A>(), s->stream);
        });
    }
}

template <class R, class T, bool Transposed, bool Ragged>
static cudaError_t segmented_call(segmented_state *s, void *temp, size_t *temp_bytes)
{
    if constexpr (Ragged) {
        const u64 *offsets = static_cast<const u64 *>(s->cfg->offsets);
        return segmented_reduce<R, T, false>(
            s, temp, temp_bytes, [&](auto call) { return call(offsets, offsets + 1); });
    } else {
        auto begin = thrust::make_transform_iterator(thrust::counting_iterator<u64>(0),
                                                     times_len{s->len});
        return segmented_reduce<R, T, Transposed>(
            s, temp, temp_bytes, [&](auto call) { return call(begin, begin + 1); });
    }
}

#if SEGMENTED_HAS_FIXED
/* variant = fixed: the segment size in place of the offsets. */
template <class R, class T, bool Transposed>
static cudaError_t segmented_call_fixed(segmented_state *s, void *temp, size_t *temp_bytes)
{
    const int len = (int)s->len;
    return segmented_reduce<R, T, Transposed>(s, temp, temp_bytes,
                                              [&](auto call) { return call(len); });
}
#endif

/* argmax: each pair's value into elements, its index, less its segment's
 * begin, into indices (0 for an empty segment, which took nothing). */
template <class A> static void segmented_split(const segmented_state *s, rb_result *result)
{
    const rb_cuda::arg<A> *pairs = static_cast<const rb_cuda::arg<A> *>(s->host_pairs);
    A *values = static_cast<A *>(result->elements);
    for (u64 k = 0; k < s->segments; k++) {
        const u64 begin = s->ragged ? s->cfg->host_offsets[k] : k * s->len;
        values[k] = pairs[k].value;
        result->indices[k] = pairs[k].index == shaped::no_index ? 0 : pairs[k].index - begin;
    }
}

static int segmented_plan(segmented_state *s, const rb_config *cfg)
{
    const rb_host *host = cfg->host;
    int status = shaped::check_shape(cfg, shaped::has_shape(cfg) ? cfg->axis : RB_AXIS_ROW);
    if (status != RB_OK)
        return status;
    s->fixed = rb_param_int(cfg, "variant", VARIANT_ITERATORS) == VARIANT_FIXED;
    if (s->fixed && !SEGMENTED_HAS_FIXED) {
        host->error(host,
                    "variant = fixed: the CCCL this plugin was built against (%d.%d.%d) has no "
                    "cub::DeviceSegmentedReduce overload taking a segment size (CCCL 3.1 and "
                    "later; variant = iterators)",
                    CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
        return RB_UNSUPPORTED;
    }
    if (s->fixed && cfg->ragged) {
        host->error(host, "variant = fixed: CUB's fixed-size segments take no offsets, so no "
                          "ragged rows (variant = iterators)");
        return RB_UNSUPPORTED;
    }
    s->cfg = cfg;
    s->transposed = cfg->axis == RB_AXIS_COLUMN;
#ifdef SEGMENTED_TWIN_FIXED_LENGTHS
    s->ragged = false; /* the planted bug: every row taken as cols long */
#else
    s->ragged = cfg->ragged != 0;
#endif
    s->segments = cfg->n_answers;
    s->len = s->transposed ? cfg->rows : cfg->cols;
    if (s->segments > (u64)INT64_MAX) {
        host->error(host, "%llu segments are more than CUB's int64_t count", s->segments);
        return RB_UNSUPPORTED;
    }
    if (s->fixed && s->len > (u64)INT32_MAX) {
        host->error(host, "variant = fixed: segments of %llu elements are more than CUB's int "
                          "segment size",
                    s->len);
        return RB_UNSUPPORTED;
    }
    s->call = shaped::with_reducer(cfg, [&](auto r, auto t) -> segmented_call_fn {
        typedef decltype(r) R;
        typedef decltype(t) T;
#if SEGMENTED_HAS_FIXED
        if (s->fixed)
            return s->transposed ? segmented_call_fixed<R, T, true>
                                 : segmented_call_fixed<R, T, false>;
#endif
        if (s->ragged)
            return segmented_call<R, T, false, true>;
        return s->transposed ? segmented_call<R, T, true, false>
                             : segmented_call<R, T, false, false>;
    });
    s->split = shaped::with_reducer(cfg, [&](auto r, auto) -> segmented_split_fn {
        return segmented_split<typename decltype(r)::answer>;
    });
    s->out_bytes = shaped::with_reducer(cfg, [&](auto r, auto) -> size_t {
        typedef decltype(r) R;
        return R::is_arg ? sizeof(rb_cuda::arg<typename R::answer>) : sizeof(typename R::answer);
    }) * s->segments;
    return s->call ? RB_OK : RB_UNSUPPORTED;
}

static int segmented_describe(const rb_config *cfg, rb_description *out)
{
    segmented_state s = {};
    const int status = segmented_plan(&s, cfg);
    if (status != RB_OK)
        return status;
    if (s.fixed)
        snprintf(out->label, sizeof out->label, "%s",
                 s.transposed ? "cub-fixed-columns" : "cub-fixed");
    else
        snprintf(out->label, sizeof out->label, "%s",
                 s.transposed ? "cub-columns" : s.ragged ? "cub-offsets" : "cub-iterators");
    return RB_OK;
}

static int segmented_setup(segmented_state *s, const rb_config *cfg)
{
    const int status = segmented_plan(s, cfg);
    if (status != RB_OK)
        return status;
    const rb_host *host = cfg->host;
    if (s->ragged && (!cfg->offsets || !cfg->host_offsets)) {
        host->error(host, "ragged rows without offsets");
        return RB_ERROR;
    }
    s->stream = (cudaStream_t)cfg->queue;
    RB_CUDA_CHECK(host, cudaMalloc(&s->out, s->out_bytes));
    if (cfg->op == RB_OP_ARGMAX && !(s->host_pairs = malloc(s->out_bytes))) {
        host->error(host, "out of host memory");
        return RB_ERROR;
    }
    RB_CUDA_CHECK(host, s->call(s, NULL, &s->temp_bytes));
    RB_CUDA_CHECK(host, cudaMalloc(&s->temp, s->temp_bytes ? s->temp_bytes : 1));
    return RB_OK;
}

static int segmented_run(void *state)
{
    segmented_state *s = static_cast<segmented_state *>(state);
    size_t temp_bytes = s->temp_bytes;
    RB_CUDA_CHECK(s->cfg->host, s->call(s, s->temp, &temp_bytes));
    return RB_OK;
}

static int segmented_read(segmented_state *s, rb_result *result);

static int segmented_verify(void *state, rb_result *result)
{
    segmented_state *s = static_cast<segmented_state *>(state);
    const rb_config *cfg = s->cfg;
    if (shaped::one_reduction(cfg) && !result->elements) {
        /* no shape: the one segment's answer goes in the result's value,
         * read through buffers of one answer */
        unsigned char value[8] = {0};
        uint64_t index = 0;
        rb_result one = *result;
        one.elements = value;
        one.indices = &index;
        if (segmented_read(s, &one) != RB_OK)
            return RB_ERROR;
        shaped::answer_into_value(cfg, value, index, result);
        return RB_OK;
    }
    if (shaped::check_result(cfg, result) != RB_OK)
        return RB_ERROR;
    return segmented_read(s, result);
}

/* The answers read back into the host's buffers (elements, and indices
 * for argmax). */
static int segmented_read(segmented_state *s, rb_result *result)
{
    const rb_config *cfg = s->cfg;
    if (cfg->op != RB_OP_ARGMAX) {
        if (rb_cuda::read_bytes(cfg->host, s->stream, result->elements, s->out, s->out_bytes) !=
            RB_OK)
            return RB_ERROR;
    } else {
        if (rb_cuda::read_bytes(cfg->host, s->stream, s->host_pairs, s->out, s->out_bytes) !=
            RB_OK)
            return RB_ERROR;
        s->split(s, result);
    }
    result->n_elements = s->segments;
    return RB_OK;
}

static void segmented_teardown(void *state)
{
    segmented_state *s = static_cast<segmented_state *>(state);
    if (!s)
        return;
    cudaFree(s->out);
    cudaFree(s->temp);
    free(s->host_pairs);
    free(s);
}

static constexpr rb_plugin segmented_plugin = rb_cuda::plugin({
    .name = SEGMENTED_NAME,
    .summary = SEGMENTED_SUMMARY,
    .ops = shaped::ops,
    .dtypes = shaped::dtypes,
    .params = segmented_params, .n_params = rb_cuda::count_of(segmented_params),
    .describe = segmented_describe,
    .init = rb_cuda::init_with<segmented_state, segmented_setup, segmented_teardown>,
    .run = segmented_run, .verify = segmented_verify, .teardown = segmented_teardown,
    .shapes = RB_SHAPE_ROWS | RB_SHAPE_COLUMNS | RB_SHAPE_RAGGED,
});

RB_CUDA_PLUGIN_ENTRY(segmented_plugin)
