/* plugins/cuda/cub.cu: the vendor libraries, the reference every table is
 * read against. variant = cub: cub::DeviceReduce (Sum, Min, Max, ArgMax) and
 * cub::DeviceHistogram::HistogramEven, with their temporary storage
 * allocated once by init. variant = thrust: thrust::reduce (sum, min, max)
 * on the stream, as a user would call it (it allocates temporary storage and
 * waits for the result on every call). f16 and bf16 are read through an
 * iterator that widens each element to f32, so that CUB and thrust reduce
 * them in f32 (sum) and return min, max and argmax as exact f32 values. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <exception>
#include <type_traits>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum cub_variant { VARIANT_CUB, VARIANT_THRUST };

static const char *const variant_words[] = {"cub", "thrust", NULL};

static const rb_param_spec cub_params[] = {
    {"variant", RB_PARAM_CHOICE, "cub", 0, 0, variant_words, 0,
     "cub: cub::DeviceReduce / cub::DeviceHistogram; thrust: thrust::reduce"},
};

typedef struct cub_state cub_state;
/* Issues the library call. For cub, temp == NULL only sets *temp_bytes (the
 * size query); thrust allocates for itself and ignores both. */
typedef cudaError_t (*cub_call_fn)(cub_state *s, void *temp, size_t *temp_bytes);

struct cub_state {
    const rb_config *cfg;
    cudaStream_t stream;
    int variant;
    cub_call_fn call;
    void *temp;
    size_t temp_bytes;
    void *out;               /* value (and int64 index at byte 8), or the bins
                                (32-bit counts below 2^32 samples, else 64-bit) */
    size_t out_bytes;
    unsigned char thrust_result[16]; /* thrust returns its result to the host */
};

/* Functors for thrust: the sum wraps in the unsigned type for integers. */
template <class Op> struct thrust_op {
    template <class A> __host__ __device__ A operator()(A a, A b) const { return Op::apply(a, b); }
};

/* Offset: int where n allows, as most callers write it (CUB picks its
 * 32-bit offset paths then), int64_t beyond 2^31 - 1 elements. */
template <class Op, class A, class Offset>
static cudaError_t cub_reduce(cub_state *s, void *temp, size_t *temp_bytes)
{
    const A *in = static_cast<const A *>(s->cfg->input);
    A *out = static_cast<A *>(s->out);
    const Offset n = (Offset)s->cfg->n;
    if constexpr (std::is_same_v<Op, rb_cuda::op_sum>)
        return cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, n, s->stream);
    else if constexpr (std::is_same_v<Op, rb_cuda::op_min>)
        return cub::DeviceReduce::Min(temp, *temp_bytes, in, out, n, s->stream);
    else
        return cub::DeviceReduce::Max(temp, *temp_bytes, in, out, n, s->stream);
}

template <class T> static cudaError_t cub_argmax(cub_state *s, void *temp, size_t *temp_bytes)
{
    const T *in = static_cast<const T *>(s->cfg->input);
    T *value = static_cast<T *>(s->out);
    int64_t *index = reinterpret_cast<int64_t *>(static_cast<char *>(s->out) + 8);
    return cub::DeviceReduce::ArgMax(temp, *temp_bytes, in, value, index,
                                     (int64_t)s->cfg->n, s->stream);
}

/* Counter: 32-bit below 2^32 samples (no bin can overflow), as most callers
 * write it; 64-bit above. Levels 0..256 in `bins` equal parts: byte b falls
 * in bin b * bins / 256. */
template <class Counter, class Offset>
static cudaError_t cub_histogram(cub_state *s, void *temp, size_t *temp_bytes)
{
    const unsigned char *in = static_cast<const unsigned char *>(s->cfg->input);
    return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, in,
                                               static_cast<Counter *>(s->out),
                                               (int)s->cfg->bins + 1, 0, 256,
                                               (Offset)s->cfg->n, s->stream);
}

template <class Op, class A> static cudaError_t thrust_reduce(cub_state *s, void *, size_t *)
{
    const A *in = static_cast<const A *>(s->cfg->input);
    A result = thrust::reduce(thrust::cuda::par.on(s->stream), in, in + s->cfg->n,
                              Op::template identity<A>(), thrust_op<Op>());
    memcpy(s->thrust_result, &result, sizeof result);
    return cudaGetLastError();
}

/* f16 and bf16: each element read as the f32 it is. */
template <class H> struct widen_f32 {
    __host__ __device__ float operator()(H x) const { return rb_cuda::widen<float>(x); }
};

template <class H> static auto widened(const cub_state *s)
{
    return thrust::make_transform_iterator(static_cast<const H *>(s->cfg->input), widen_f32<H>());
}

template <class Op, class H, class Offset>
static cudaError_t cub_reduce_half(cub_state *s, void *temp, size_t *temp_bytes)
{
    float *out = static_cast<float *>(s->out);
    const Offset n = (Offset)s->cfg->n;
    return cub::DeviceReduce::Reduce(temp, *temp_bytes, widened<H>(s), out, n, thrust_op<Op>(),
                                     Op::template identity<float>(), s->stream);
}

template <class H> static cudaError_t cub_argmax_half(cub_state *s, void *temp, size_t *temp_bytes)
{
    float *value = static_cast<float *>(s->out);
    int64_t *index = reinterpret_cast<int64_t *>(static_cast<char *>(s->out) + 8);
    return cub::DeviceReduce::ArgMax(temp, *temp_bytes, widened<H>(s), value, index,
                                     (int64_t)s->cfg->n, s->stream);
}

template <class Op, class H> static cudaError_t thrust_reduce_half(cub_state *s, void *, size_t *)
{
    auto in = widened<H>(s);
    float result = thrust::reduce(thrust::cuda::par.on(s->stream), in, in + s->cfg->n,
                                  Op::template identity<float>(), thrust_op<Op>());
    memcpy(s->thrust_result, &result, sizeof result);
    return cudaGetLastError();
}

template <class H> static cub_call_fn pick_half(int variant, int op, bool wide)
{
    typedef rb_cuda::op_sum Sum;
    typedef rb_cuda::op_min Min;
    typedef rb_cuda::op_max Max;
    if (variant != VARIANT_CUB) {
        switch (op) {
        case RB_OP_SUM: return thrust_reduce_half<Sum, H>;
        case RB_OP_MIN: return thrust_reduce_half<Min, H>;
        case RB_OP_MAX: return thrust_reduce_half<Max, H>;
        default: return NULL;
        }
    }
    switch (op) {
    case RB_OP_SUM: return wide ? cub_reduce_half<Sum, H, int64_t> : cub_reduce_half<Sum, H, int>;
    case RB_OP_MIN: return wide ? cub_reduce_half<Min, H, int64_t> : cub_reduce_half<Min, H, int>;
    case RB_OP_MAX: return wide ? cub_reduce_half<Max, H, int64_t> : cub_reduce_half<Max, H, int>;
    case RB_OP_ARGMAX: return cub_argmax_half<H>;
    default: return NULL;
    }
}

template <class T> static cub_call_fn pick_cub(int op, bool wide)
{
    typedef typename rb_cuda::op_sum::acc<T>::type S;
    switch (op) {
    case RB_OP_SUM:
        return wide ? cub_reduce<rb_cuda::op_sum, S, int64_t> : cub_reduce<rb_cuda::op_sum, S, int>;
    case RB_OP_MIN:
        return wide ? cub_reduce<rb_cuda::op_min, T, int64_t> : cub_reduce<rb_cuda::op_min, T, int>;
    case RB_OP_MAX:
        return wide ? cub_reduce<rb_cuda::op_max, T, int64_t> : cub_reduce<rb_cuda::op_max, T, int>;
    case RB_OP_ARGMAX: return cub_argmax<T>;
    default: return NULL;
    }
}

template <class T> static cub_call_fn pick_thrust(int op)
{
    typedef typename rb_cuda::op_sum::acc<T>::type S;
    switch (op) {
    case RB_OP_SUM: return thrust_reduce<rb_cuda::op_sum, S>;
    case RB_OP_MIN: return thrust_reduce<rb_cuda::op_min, T>;
    case RB_OP_MAX: return thrust_reduce<rb_cuda::op_max, T>;
    default: return NULL; /* argmax is not a thrust::reduce */
    }
}

template <class T> static cub_call_fn pick_for(int variant, int op, bool wide)
{
    return variant == VARIANT_CUB ? pick_cub<T>(op, wide) : pick_thrust<T>(op);
}

/* The call for a configuration, or NULL with the reason. */
static cub_call_fn pick(const rb_config *cfg, int variant)
{
    const bool wide = cfg->n > 0x7fffffffu;
    if (cfg->op == RB_OP_HISTOGRAM) {
        if (cfg->dtype != RB_DTYPE_U8) {
            cfg->host->error(cfg->host, "histograms count u8 data");
            return NULL;
        }
        if (variant == VARIANT_THRUST) {
            cfg->host->error(cfg->host, "thrust has no histogram call; use variant = cub");
            return NULL;
        }
        if (cfg->n > 0xffffffffu)
            return cub_histogram<unsigned long long, int64_t>;
        return wide ? cub_histogram<unsigned, int64_t> : cub_histogram<unsigned, int>;
    }
    if (cfg->op == RB_OP_ARGMAX && variant == VARIANT_THRUST) {
        cfg->host->error(cfg->host, "variant = thrust runs thrust::reduce (sum, min, max); "
                                    "for argmax use variant = cub");
        return NULL;
    }
    switch (cfg->dtype) {
    case RB_DTYPE_I32: return pick_for<int>(variant, cfg->op, wide);
    case RB_DTYPE_I64: return pick_for<long long>(variant, cfg->op, wide);
    case RB_DTYPE_F32: return pick_for<float>(variant, cfg->op, wide);
    case RB_DTYPE_F64: return pick_for<double>(variant, cfg->op, wide);
    case RB_DTYPE_F16: return pick_half<__half>(variant, cfg->op, wide);
    case RB_DTYPE_BF16: return pick_half<__nv_bfloat16>(variant, cfg->op, wide);
    default:
        cfg->host->error(cfg->host,
                         "sum, min, max and argmax take i32, i64, f32, f64, f16 or bf16 data");
        return NULL;
    }
}

static int cub_describe(const rb_config *cfg, rb_description *out)
{
    const int variant = (int)rb_param_int(cfg, "variant", VARIANT_CUB);
    if (!pick(cfg, variant))
        return RB_UNSUPPORTED;
    snprintf(out->label, sizeof out->label, "%s", variant == VARIANT_CUB ? "cub" : "thrust");
    return RB_OK;
}

static int cub_setup(cub_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->variant = (int)rb_param_int(cfg, "variant", VARIANT_CUB);
    s->call = pick(cfg, s->variant);
    if (!s->call)
        return RB_UNSUPPORTED;
    s->out_bytes = cfg->op == RB_OP_HISTOGRAM ? cfg->bins * sizeof(unsigned long long) : 16;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    if (s->variant == VARIANT_CUB) {
        RB_CUDA_CHECK(cfg->host, s->call(s, NULL, &s->temp_bytes));
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->temp, s->temp_bytes ? s->temp_bytes : 1));
    }
    return RB_OK;
}

static int cub_run(void *state)
{
    cub_state *s = (cub_state *)state;
    const rb_host *host = s->cfg->host;
    /* cub::DeviceHistogram zeroes the bins itself (its init kernel), so a
     * call needs no clearing of its own */
    if (s->variant == VARIANT_THRUST) {
        try {
            RB_CUDA_CHECK(host, s->call(s, NULL, NULL));
        } catch (const std::exception &e) {
            host->error(host, "thrust: %s", e.what());
            return RB_ERROR;
        }
        return RB_OK;
    }
    size_t temp_bytes = s->temp_bytes;
    RB_CUDA_CHECK(host, s->call(s, s->temp, &temp_bytes));
    return RB_OK;
}

static int cub_verify(void *state, rb_result *result)
{
    cub_state *s = (cub_state *)state;
    const rb_host *host = s->cfg->host;
    if (s->cfg->op == RB_OP_HISTOGRAM) {
        if (result->n_bins < s->cfg->bins || !result->bins) {
            host->error(host, "the host's bins buffer holds %u bins, %u needed", result->n_bins,
                        s->cfg->bins);
            return RB_ERROR;
        }
        if (s->cfg->n > 0xffffffffu)
            return rb_cuda::read_bytes(host, s->stream, result->bins, s->out, s->out_bytes);
        unsigned narrow[256]; /* bins <= 256 */
        if (rb_cuda::read_bytes(host, s->stream, narrow, s->out,
                                s->cfg->bins * sizeof narrow[0]) != RB_OK)
            return RB_ERROR;
        for (unsigned k = 0; k < s->cfg->bins; k++)
            result->bins[k] = narrow[k];
        return RB_OK;
    }
    unsigned char bytes[16];
    if (s->variant == VARIANT_THRUST) { /* thrust handed its result to the host */
        RB_CUDA_CHECK(host, cudaStreamSynchronize(s->stream));
        memcpy(bytes, s->thrust_result, sizeof bytes);
    } else if (rb_cuda::read_bytes(host, s->stream, bytes, s->out, sizeof bytes) != RB_OK) {
        return RB_ERROR;
    }
    rb_cuda::store_bytes(result, s->cfg->dtype, bytes);
    if (s->cfg->op == RB_OP_ARGMAX) {
        int64_t index;
        memcpy(&index, bytes + 8, sizeof index);
        result->index = (uint64_t)index;
    }
    return RB_OK;
}

static void cub_teardown(void *state)
{
    cub_state *s = (cub_state *)state;
    if (!s)
        return;
    cudaFree(s->out);
    cudaFree(s->temp);
    free(s);
}

static constexpr rb_plugin cub_plugin = rb_cuda::plugin({
    .name = "cub",
    .summary = "the vendor libraries: cub::DeviceReduce, cub::DeviceHistogram, thrust::reduce",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |
        RB_OP_BIT(RB_OP_ARGMAX) | RB_OP_BIT(RB_OP_HISTOGRAM),
    .dtypes = rb_cuda::numeric_dtypes | rb_cuda::half_dtypes | RB_DTYPE_BIT(RB_DTYPE_U8),
    .params = cub_params, .n_params = rb_cuda::count_of(cub_params),
    .describe = cub_describe, .init = rb_cuda::init_with<cub_state, cub_setup, cub_teardown>,
    .run = cub_run, .verify = cub_verify, .teardown = cub_teardown,
});

RB_CUDA_PLUGIN_ENTRY(cub_plugin)
