/* SPDX-License-Identifier: Apache-2.0 */
/* redbench/cuda_helpers.cuh: building blocks for CUDA plugins.
 *
 *   RB_CUDA_CHECK(host, call)   runs a CUDA runtime call; on failure reports
 *                               it through host->error and returns RB_ERROR
 *   RB_CUDA_PLUGIN_ENTRY(desc)  exports the entry point with C linkage
 *   rb_cuda::op_sum/op_min/op_max   reduction operators with their identity
 *                               and accumulator type (integer sums wrap:
 *                               they accumulate in the unsigned type)
 *   rb_cuda::warp_reduce, block_reduce, warp_argmax, block_argmax
 *   rb_cuda::atomic_combine<Op>::apply   one atomic update of a result
 *   rb_cuda::take_ticket         the ticket of a last-block finish
 *   rb_cuda::load_vec            one load of V elements (1 to 16 bytes; 32 in two)
 *   rb_cuda::slice_length        the part of a thread's slice that lies below n
 *   rb_cuda::split_aligned       head, whole aligned units and tail of the input
 *   rb_cuda::store_value, store_bytes   a reduced value into rb_result
 *   rb_cuda::read_bytes, read_value      read a result back in verify
 *   rb_cuda::read_vector         hand an all-reduce's n-element answer to the host
 *   rb_cuda::init_state          the body of init: allocate, set up, or undo
 *   rb_cuda::init_with           init itself, for a descriptor
 *   rb_cuda::result_state        a state with one result on the device, and
 *   rb_cuda::verify_result, teardown_result   its verify and teardown
 *   rb_cuda::plugin              a descriptor: the strategy's fields, the
 *                               ABI stamp and the cuda backend
 *   rb_cuda::numeric_dtypes, count_of   a descriptor's dtypes and n_params
 *   rb_cuda::with_numeric_type   picks a template instance by dtype
 *   rb_cuda::with_numeric_op     ... by op (sum, min, max) and dtype
 *   rb_cuda::half_dtypes, with_half_type, with_half_op, widen   f16 and
 *                               bf16 (ABI 1.5): their types, and their
 *                               values as f32
 *   rb_cuda::widen_each, combine_vec   the elements of a vector as what
 *                               they are reduced in (halves converted by
 *                               pairs), and their reduction into a value
 *   rb_cuda::plan_blocks, wave_grid     grids: one block per slice, one wave
 *   rb_cuda::reset_result        an atomic finish's start (0, or the first element)
 *   rb_cuda::epoch_slot, epoch_setup, epoch_result_slot
 *                               an atomic finish with no reset launch
 *   rb_cuda::store_tagged, load_tagged   a block's partial marked with the
 *                               call that wrote it, and waiting for it
 *   rb_cuda::require_compute_capability   declines a device too old
 *
 * Everything here is a header: a plugin built against the installed SDK
 * needs nothing else. Block functions assume blockDim.x is a multiple of 32
 * and at most 1024. */
#ifndef REDBENCH_CUDA_HELPERS_CUH
#define REDBENCH_CUDA_HELPERS_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <type_traits>

#include <redbench/plugin.h>

/* Runs `call` (a cudaError_t expression) in a callback that returns an
 * rb_status; on failure says which call failed and why, and returns
 * RB_ERROR. */
#define RB_CUDA_CHECK(host, call)                                              \
    do {                                                                       \
        cudaError_t rb_cuda_err_ = (call);                                     \
        if (rb_cuda_err_ != cudaSuccess) {                                     \
            (host)->error((host), "%s failed: %s (%s)", #call,                 \
                          cudaGetErrorString(rb_cuda_err_),                    \
                          cudaGetErrorName(rb_cuda_err_));                     \
            return RB_ERROR;                                                   \
        }                                                                      \
    } while (0)

/* Checks the launch just issued (bad configuration, too much shared memory). */
#define RB_CUDA_CHECK_LAUNCH(host) RB_CUDA_CHECK(host, cudaGetLastError())

/* A .cu file is C++: the entry point needs C linkage to be found by name. */
#define RB_CUDA_PLUGIN_ENTRY(descriptor) extern "C" { RB_PLUGIN_ENTRY(descriptor) }

namespace rb_cuda {

constexpr unsigned full_mask = 0xffffffffu;

/* The C++ type of each rb_dtype element. */
template <int Dtype> struct element;
template <> struct element<RB_DTYPE_I32> { typedef int type; };
template <> struct element<RB_DTYPE_I64> { typedef long long type; };
template <> struct element<RB_DTYPE_F32> { typedef float type; };
template <> struct element<RB_DTYPE_F64> { typedef double type; };
template <> struct element<RB_DTYPE_U8> { typedef unsigned char type; };
template <> struct element<RB_DTYPE_F16> { typedef __half type; };
template <> struct element<RB_DTYPE_BF16> { typedef __nv_bfloat16 type; };

/* An element as what it is reduced in (A): the same value for the numeric
 * dtypes (an integer sum's int as its unsigned bits), and an f16 or bf16 as
 * the f32 it is, exactly; halves are reduced in f32 (redbench/plugin.h,
 * "Half precision"). */
template <class A, class T> __host__ __device__ __forceinline__ A widen(T x) { return (A)x; }
template <> __host__ __device__ __forceinline__ float widen<float, __half>(__half x)
{
    return __half2float(x);
}
template <> __host__ __device__ __forceinline__ float widen<float, __nv_bfloat16>(__nv_bfloat16 x)
{
    return __bfloat162float(x);
}

/* Sums of integers wrap modulo 2^bits: they are computed in the unsigned
 * type, where wrapping is defined, and read back as the signed dtype. */
template <class T> struct sum_type { typedef T type; };
template <> struct sum_type<int> { typedef unsigned type; };
template <> struct sum_type<long long> { typedef unsigned long long type; };

/* Largest and lowest values, for the identities of min and max. */
template <class T> struct limits;
template <> struct limits<int> {
    __host__ __device__ static int lowest() { return -2147483647 - 1; }
    __host__ __device__ static int highest() { return 2147483647; }
};
template <> struct limits<long long> {
    __host__ __device__ static long long lowest() { return -9223372036854775807LL - 1; }
    __host__ __device__ static long long highest() { return 9223372036854775807LL; }
};
template <> struct limits<float> {
    __host__ __device__ static float lowest() { return -INFINITY; }
    __host__ __device__ static float highest() { return INFINITY; }
};
template <> struct limits<double> {
    __host__ __device__ static double lowest() { return -(double)INFINITY; }
    __host__ __device__ static double highest() { return (double)INFINITY; }
};

/* Reduction operators. acc<T>::type is what a reduction of T accumulates. */
struct op_sum {
    template <class T> struct acc { typedef typename sum_type<T>::type type; };
    template <class A> __host__ __device__ static A identity() { return A(0); }
    template <class A> __host__ __device__ static A apply(A a, A b) { return a + b; }
};
struct op_min {
    static constexpr bool is_min = true;
    template <class T> struct acc { typedef T type; };
    template <class A> __host__ __device__ static A identity() { return limits<A>::highest(); }
    template <class A> __host__ __device__ static A apply(A a, A b) { return b < a ? b : a; }
};
struct op_max {
    static constexpr bool is_min = false;
    template <class T> struct acc { typedef T type; };
    template <class A> __host__ __device__ static A identity() { return limits<A>::lowest(); }
    template <class A> __host__ __device__ static A apply(A a, A b) { return b > a ? b : a; }
};

/* Reduces v over the 32 lanes of a full warp; lane 0 holds the result. */
template <class Op, class A> __device__ __forceinline__ A warp_reduce(A v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v = Op::template apply<A>(v, __shfl_down_sync(full_mask, v, offset));
    return v;
}

/* Reduces v over the block; thread 0 holds the result. `scratch` is shared
 * memory of 32 elements; the function ends with a barrier, so the caller may
 * reuse it at once. Every thread of the block must call it. */
template <class Op, class A> __device__ __forceinline__ A block_reduce(A v, A *scratch)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    v = warp_reduce<Op>(v);
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x >> 5) ? scratch[lane] : Op::template identity<A>();
        v = warp_reduce<Op>(v);
    }
    __syncthreads();
    return v;
}

/* How many of `want` consecutive elements from index `first` lie below n:
 * the length of a thread's slice at the end of the input. */
__host__ __device__ __forceinline__ size_t slice_length(size_t first, size_t want, size_t n)
{
    if (first >= n)
        return 0;
    return n - first < want ? n - first : want;
}

/* A value and the index it came from, for argmax. */
template <class T> struct arg {
    T value;
    unsigned long long index;
};

/* The better of two candidates: the larger value, the smaller index on a
 * tie (so that the first maximum wins, whatever the order of combination). */
template <class T> __host__ __device__ __forceinline__ arg<T> argmax_pick(arg<T> a, arg<T> b)
{
    if (b.value > a.value || (b.value == a.value && b.index < a.index))
        return b;
    return a;
}

template <class T> __host__ __device__ __forceinline__ arg<T> argmax_identity()
{
    arg<T> a;
    a.value = limits<T>::lowest();
    a.index = ~0ull;
    return a;
}

template <class T> __device__ __forceinline__ arg<T> warp_argmax(arg<T> a)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        arg<T> other;
        other.value = __shfl_down_sync(full_mask, a.value, offset);
        other.index = __shfl_down_sync(full_mask, a.index, offset);
        a = argmax_pick(a, other);
    }
    return a;
}

/* As block_reduce, for argmax; `scratch` is 32 entries of shared memory. */
template <class T> __device__ __forceinline__ arg<T> block_argmax(arg<T> a, arg<T> *scratch)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    a = warp_argmax(a);
    if (lane == 0)
        scratch[warp] = a;
    __syncthreads();
    if (warp == 0) {
        a = lane < (blockDim.x >> 5) ? scratch[lane] : argmax_identity<T>();
        a = warp_argmax(a);
    }
    __syncthreads();
    return a;
}

/* Combines v into *addr atomically: atomicAdd for sums (unsigned, unsigned
 * long long, float, double), atomicMin/atomicMax for int and long long, and
 * a compare-and-swap loop for the min and max of float and double, which
 * have no atomic of their own. */
template <class Op> struct atomic_combine;
template <> struct atomic_combine<op_sum> {
    template <class A> __device__ static void apply(A *addr, A v) { atomicAdd(addr, v); }
};
template <class Op> struct atomic_extremum {
    __device__ static void apply(int *addr, int v)
    {
        if (Op::is_min)
            atomicMin(addr, v);
        else
            atomicMax(addr, v);
    }
    __device__ static void apply(long long *addr, long long v)
    {
        if (Op::is_min)
            atomicMin(addr, v);
        else
            atomicMax(addr, v);
    }
    __device__ static void apply(float *addr, float v)
    {
        unsigned *word = reinterpret_cast<unsigned *>(addr);
        unsigned old = *word, assumed;
        do {
            assumed = old;
            float now = __uint_as_float(assumed);
            if (Op::template apply<float>(now, v) == now)
                return;
            old = atomicCAS(word, assumed, __float_as_uint(v));
        } while (old != assumed);
    }
    __device__ static void apply(double *addr, double v)
    {
        unsigned long long *word = reinterpret_cast<unsigned long long *>(addr);
        unsigned long long old = *word, assumed;
        do {
            assumed = old;
            double now = __longlong_as_double((long long)assumed);
            if (Op::template apply<double>(now, v) == now)
                return;
            old = atomicCAS(word, assumed, (unsigned long long)__double_as_longlong(v));
        } while (old != assumed);
    }
};
template <> struct atomic_combine<op_min> : atomic_extremum<op_min> {};
template <> struct atomic_combine<op_max> : atomic_extremum<op_max> {};

/* Takes the next ticket of a last-block finish: adds 1 to *ticket and
 * returns the old value, as one atomic with acquire-release semantics at
 * device scope. Release: what this thread stored before (its block's
 * partial) is visible to whoever takes a later ticket. Acquire: the thread
 * that takes the last ticket sees every earlier partial, and so do the other
 * threads of its block once it has passed a __syncthreads() with them. It
 * replaces __threadfence() + atomicAdd(), whose sequentially consistent
 * fence costs a microsecond at the end of every block. */
__device__ __forceinline__ unsigned take_ticket(unsigned *ticket)
{
    unsigned old;
    asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], 1;"
                 : "=r"(old)
                 : "l"(ticket)
                 : "memory");
    return old;
}

/* Where n elements of `element` bytes at `input` lie for wide loads:
 * `head` elements before the first address aligned to `align` bytes (a
 * multiple of the element size), then `units` whole units of `unit_bytes`
 * (a multiple of align), then the rest from `tail_start` up to n. A plugin
 * works it out once in init, since the input does not move. */
struct aligned_split {
    size_t head, units, tail_start, n;
};

inline aligned_split split_aligned(const void *input, size_t n, size_t element, size_t align,
                                   size_t unit_bytes)
{
    aligned_split at;
    const size_t misalign = (size_t)((uintptr_t)input % align);
    at.n = n;
    at.head = misalign ? (align - misalign) / element : 0;
    if (at.head > n)
        at.head = n;
    at.units = (n - at.head) * element / unit_bytes;
    at.tail_start = at.head + at.units * (unit_bytes / element);
    return at;
}

/* Loads V consecutive elements at p (aligned to V * sizeof(T)) with one
 * load of 1 to 16 bytes, or two for 32. */
template <class T, int V> struct vec {
    T v[V];
};

template <class T, int V> __device__ __forceinline__ vec<T, V> load_vec(const T *p)
{
    vec<T, V> out;
    constexpr size_t bytes = sizeof(T) * V;
    static_assert(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16 ||
                      bytes == 32, "load_vec: 1 to 32 bytes, a power of two");
    if constexpr (bytes == 32) {
        const uint4 *q = reinterpret_cast<const uint4 *>(p);
        uint4 lo = q[0], hi = q[1];
        memcpy(&out.v[0], &lo, 16);
        memcpy(reinterpret_cast<char *>(out.v) + 16, &hi, 16);
    } else if constexpr (bytes == 16) {
        uint4 raw = *reinterpret_cast<const uint4 *>(p);
        memcpy(out.v, &raw, 16);
    } else if constexpr (bytes == 8) {
        uint2 raw = *reinterpret_cast<const uint2 *>(p);
        memcpy(out.v, &raw, 8);
    } else if constexpr (bytes == 4) {
        unsigned raw = *reinterpret_cast<const unsigned *>(p);
        memcpy(out.v, &raw, 4);
    } else if constexpr (bytes == 2) {
        unsigned short raw = *reinterpret_cast<const unsigned short *>(p);
        memcpy(out.v, &raw, 2);
    } else {
        out.v[0] = *p;
    }
    return out;
}

/* Whether T is a half type (f16 or bf16), reduced in f32. */
template <class T> struct is_half { static constexpr bool value = false; };
template <> struct is_half<__half> { static constexpr bool value = true; };
template <> struct is_half<__nv_bfloat16> { static constexpr bool value = true; };

/* Two consecutive halves as one pair (__half2, __nv_bfloat162), and a
 * pair as the two f32 it is, with one conversion (__half22float2,
 * __bfloat1622float2). */
__device__ __forceinline__ __half2 half_pair(__half a, __half b) { return __halves2half2(a, b); }
__device__ __forceinline__ __nv_bfloat162 half_pair(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return __halves2bfloat162(a, b);
}
__device__ __forceinline__ float2 widen_pair(__half2 p) { return __half22float2(p); }
__device__ __forceinline__ float2 widen_pair(__nv_bfloat162 p) { return __bfloat1622float2(p); }

/* Calls f(value, j) for each element j of x, the value as A (widen<A>):
 * halves by pairs, as f32, any other type as itself. What a strategy that
 * loads V elements at a time and needs each one (argmax: its index) does
 * with them:
 *   rb_cuda::widen_each<A>(x, [&](A v, int j) { ... }); */
template <class A, class T, int V, class F>
__device__ __forceinline__ void widen_each(const vec<T, V> &x, F f)
{
    if constexpr (is_half<T>::value && V % 2 == 0) {
#pragma unroll
        for (int j = 0; j < V; j += 2) {
            const float2 w = widen_pair(half_pair(x.v[j], x.v[j + 1]));
            f(w.x, j);
            f(w.y, j + 1);
        }
    } else {
#pragma unroll
        for (int j = 0; j < V; j++)
            f(widen<A>(x.v[j]), j);
    }
}

/* Combines the V elements of x into acc (of A) under Op (op_sum, op_min,
 * op_max), each as widen_each has it; but the min or max of halves is
 * taken by pairs in the half type first (__hmin2, __hmax2: exact, and a
 * quarter of the f32 work), and only the last pair widened. */
template <class Op, class A, class T, int V>
__device__ __forceinline__ A combine_vec(A acc, const vec<T, V> &x)
{
    if constexpr (is_half<T>::value && V % 4 == 0 && !std::is_same<Op, op_sum>::value) {
        auto m = half_pair(x.v[0], x.v[1]);
#pragma unroll
        for (int j = 2; j < V; j += 2) {
            const auto p = half_pair(x.v[j], x.v[j + 1]);
            m = Op::is_min ? __hmin2(m, p) : __hmax2(m, p);
        }
        const float2 w = widen_pair(m);
        acc = Op::apply(acc, w.x);
        return Op::apply(acc, w.y);
    } else {
        widen_each<A>(x, [&](A v, int) { acc = Op::apply(acc, v); });
        return acc;
    }
}

/* Stores a reduced value into rb_result: integer results as the signed
 * dtype they came from (wrapped sums included), floating ones in f. */
inline void store_value(rb_result *r, int v) { r->i = v; }
inline void store_value(rb_result *r, unsigned v) { r->i = (int32_t)v; }
inline void store_value(rb_result *r, long long v) { r->i = v; }
inline void store_value(rb_result *r, unsigned long long v) { r->i = (int64_t)v; }
inline void store_value(rb_result *r, float v) { r->f = v; }
inline void store_value(rb_result *r, double v) { r->f = v; }

/* Stores a value read back from the device as raw bytes: an element of
 * `dtype` (or of its unsigned sum type, which has the same bits). */
inline void store_bytes(rb_result *r, int dtype, const void *bytes)
{
    switch (dtype) {
    case RB_DTYPE_I32: { int32_t v; memcpy(&v, bytes, sizeof v); r->i = v; break; }
    case RB_DTYPE_I64: { int64_t v; memcpy(&v, bytes, sizeof v); r->i = v; break; }
    case RB_DTYPE_F32: { float v; memcpy(&v, bytes, sizeof v); r->f = v; break; }
    case RB_DTYPE_F64: { double v; memcpy(&v, bytes, sizeof v); r->f = v; break; }
    /* halves are reduced in f32: the bytes are an f32 */
    case RB_DTYPE_F16: case RB_DTYPE_BF16: { float v; memcpy(&v, bytes, sizeof v); r->f = v; break; }
    default: break;
    }
}

/* Copies `bytes` from device memory `from` into host memory `to` on
 * `stream` and waits for it: what a verify callback reads back. */
inline int read_bytes(const rb_host *host, cudaStream_t stream, void *to, const void *from,
                      size_t bytes)
{
    RB_CUDA_CHECK(host, cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, stream));
    RB_CUDA_CHECK(host, cudaStreamSynchronize(stream));
    return RB_OK;
}

/* Reads a reduced value of `bytes` (at most 8) from device memory and
 * stores it into *result as an element of `dtype` (or of its unsigned sum
 * type, which has the same bits). */
inline int read_value(const rb_host *host, cudaStream_t stream, const void *from, size_t bytes,
                      int dtype, rb_result *result)
{
    unsigned char raw[8] = {0};
    if (bytes > sizeof raw) {
        host->error(host, "read_value reads at most 8 bytes, not %zu", bytes);
        return RB_ERROR;
    }
    if (read_bytes(host, stream, raw, from, bytes) != RB_OK)
        return RB_ERROR;
    store_bytes(result, dtype, raw);
    return RB_OK;
}

/* Hands the n-element answer of an all-reduce across ranks (`bytes` at
 * `from`, device memory) to the host in verify (ABI 1.4: rb_result's
 * elements), for `result = vector`: the host then judges every element.
 * RB_ERROR where the host offers no vector answer. */
inline int read_vector(const rb_config *cfg, cudaStream_t stream, const void *from, size_t bytes,
                       rb_result *result)
{
    if (result->size < offsetof(rb_result, n_elements) + sizeof result->n_elements ||
        !result->elements) {
        cfg->host->error(cfg->host, "result = vector: this host takes no vector answer");
        return RB_ERROR;
    }
    RB_CUDA_CHECK(cfg->host, cudaMemcpyAsync(result->elements, from, bytes,
                                             cudaMemcpyDeviceToHost, stream));
    RB_CUDA_CHECK(cfg->host, cudaStreamSynchronize(stream));
    result->n_elements = cfg->n;
    return RB_OK;
}

/* The body of an init callback: a zeroed State, set up by `setup`, handed
 * back in *state; when setup fails, `teardown` frees what it had made and
 * *state stays NULL. */
template <class State>
inline int init_state(const rb_config *cfg, void **state, int (*setup)(State *, const rb_config *),
                      void (*teardown)(void *))
{
    *state = NULL;
    State *s = static_cast<State *>(calloc(1, sizeof(State)));
    if (!s) {
        cfg->host->error(cfg->host, "out of host memory");
        return RB_ERROR;
    }
    int status = setup(s, cfg);
    if (status != RB_OK) {
        teardown(s);
        return status;
    }
    *state = s;
    return RB_OK;
}

/* The start of the state of a strategy whose result is one value on the
 * device: derive the state from it (struct mine_state :
 * rb_cuda::result_state { ... }), set cfg and stream at the start of its
 * setup, out, out_bytes and out_dtype by its end. verify_result<State> and
 * teardown_result<State> are then its verify and teardown, the latter
 * where out is all the device memory it has. */
struct result_state {
    const rb_config *cfg; /* valid from init to teardown */
    cudaStream_t stream;  /* cfg->queue: all device work goes here */
    void *out;            /* the result on the device */
    size_t out_bytes;     /* its size: at most 8 */
    int out_dtype;        /* the dtype verify reads it as (an integer sum's
                             unsigned bits as the signed dtype's) */
};

/* verify for a State derived from result_state: waits for the last run on
 * the stream and reads the result into *result (read_value). */
template <class State> inline int verify_result(void *state, rb_result *result)
{
    const State *s = static_cast<const State *>(state);
    return read_value(s->cfg->host, s->stream, s->out, s->out_bytes, s->out_dtype, result);
}

/* teardown for a State derived from result_state: frees out and the state. */
template <class State> inline void teardown_result(void *state)
{
    State *s = static_cast<State *>(state);
    if (!s)
        return;
    cudaFree(s->out);
    free(s);
}

/* init itself, for a descriptor: init_state with Setup, and Teardown
 * (teardown_result<State> unless named) when Setup fails:
 *   .init = rb_cuda::init_with<mine_state, mine_setup>, */
template <class State, int (*Setup)(State *, const rb_config *),
          void (*Teardown)(void *) = teardown_result<State>>
inline int init_with(const rb_config *cfg, void **state)
{
    return init_state(cfg, state, Setup, Teardown);
}

/* A descriptor: the strategy's own fields (name, summary, ops, dtypes,
 * parameters, callbacks; its version, "1.0" where it gives none) and those
 * every CUDA plugin has (the ABI it was built with, the descriptor's size,
 * the cuda backend). With C++20's designated initializers:
 *   static constexpr rb_plugin mine = rb_cuda::plugin({
 *       .name = "mine", .summary = "...", .ops = ..., .dtypes = ...,
 *       .init = ..., .run = ..., .verify = ..., .teardown = ...,
 *   }); */
constexpr rb_plugin plugin(rb_plugin own)
{
    own.abi_major = REDBENCH_ABI_MAJOR;
    own.abi_minor = REDBENCH_ABI_MINOR;
    own.size = sizeof(rb_plugin);
    if (!own.version)
        own.version = "1.0";
    own.backend = "cuda";
    return own;
}

/* The compute capability of a device, or -1 (with the reason through host)
 * when it cannot be read. */
inline int compute_capability(const rb_host *host, int device)
{
    int major = 0, minor = 0;
    cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (e != cudaSuccess) {
        host->error(host, "cannot read the compute capability of device %d: %s", device,
                    cudaGetErrorString(e));
        return -1;
    }
    return major * 10 + minor;
}

/* The number of multiprocessors of a device (at least 1). */
inline int sm_count(int device)
{
    int count = 0;
    if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        count < 1)
        count = 1;
    return count;
}

/* The dtypes of every strategy that reduces numbers (all but histograms),
 * for a descriptor's `dtypes`. */
constexpr uint32_t numeric_dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |
                                    RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64);

/* Calls pick with a zero of the C++ type of a numeric dtype (int, long
 * long, float, double) and returns its answer; for any other dtype returns
 * a value-initialised answer (NULL for a pointer). pick is a generic lambda
 * that names the type as decltype(its argument):
 *   return rb_cuda::with_numeric_type(cfg->dtype,
 *       [&](auto t) { return launch_for<decltype(t)>(cfg->op); }); */
template <class Pick> inline auto with_numeric_type(int dtype, Pick pick) -> decltype(pick(0))
{
    switch (dtype) {
    case RB_DTYPE_I32: return pick(0);
    case RB_DTYPE_I64: return pick(0ll);
    case RB_DTYPE_F32: return pick(0.0f);
    case RB_DTYPE_F64: return pick(0.0);
    default: return decltype(pick(0)){};
    }
}

/* The half-precision dtypes (ABI 1.5), for a descriptor's `dtypes`: a
 * strategy that reduces them in f32 declares them beside numeric_dtypes. */
constexpr uint32_t half_dtypes = RB_DTYPE_BIT(RB_DTYPE_F16) | RB_DTYPE_BIT(RB_DTYPE_BF16);

/* As with_numeric_type, for f16 and bf16: calls pick with a zero of
 * __half or __nv_bfloat16 (the element type; reduce it in f32 through
 * widen<float>), and for any other dtype returns a value-initialised
 * answer. Kept apart from with_numeric_type, so that a strategy only meets
 * halves where it was written for them. */
template <class Pick> inline auto with_half_type(int dtype, Pick pick) -> decltype(pick(__half()))
{
    switch (dtype) {
    case RB_DTYPE_F16: return pick(__half());
    case RB_DTYPE_BF16: return pick(__nv_bfloat16());
    default: return decltype(pick(__half())){};
    }
}

/* Calls pick with the operator of a sum, min or max (op_sum, op_min,
 * op_max), a zero of the C++ type of a numeric dtype (T) and a zero of
 * what the reduction accumulates (A: T, or for an integer sum its unsigned
 * type, which has T's bits), and returns its answer; for any other op or
 * dtype returns a value-initialised answer (NULL for a pointer):
 *   return rb_cuda::with_numeric_op(cfg->dtype, cfg->op, [&](auto op, auto t, auto a) {
 *       return launch<decltype(op), decltype(t), decltype(a)>;
 *   }); */
template <class Pick>
inline auto with_numeric_op(int dtype, int op, Pick pick) -> decltype(pick(op_sum(), 0, 0u))
{
    typedef decltype(pick(op_sum(), 0, 0u)) answer;
    return with_numeric_type(dtype, [&](auto t) -> answer {
        switch (op) {
        case RB_OP_SUM: return pick(op_sum(), t, typename op_sum::acc<decltype(t)>::type(0));
        case RB_OP_MIN: return pick(op_min(), t, t);
        case RB_OP_MAX: return pick(op_max(), t, t);
        default: return answer{};
        }
    });
}

/* As with_numeric_op, for f16 and bf16: calls pick with the operator (sum,
 * min or max), a zero of the element type (__half or __nv_bfloat16) and a
 * zero of f32, what halves are reduced in; for any other op or dtype
 * returns a value-initialised answer. */
template <class Pick>
inline auto with_half_op(int dtype, int op, Pick pick) -> decltype(pick(op_sum(), __half(), 0.0f))
{
    typedef decltype(pick(op_sum(), __half(), 0.0f)) answer;
    return with_half_type(dtype, [&](auto t) -> answer {
        switch (op) {
        case RB_OP_SUM: return pick(op_sum(), t, 0.0f);
        case RB_OP_MIN: return pick(op_min(), t, 0.0f);
        case RB_OP_MAX: return pick(op_max(), t, 0.0f);
        default: return answer{};
        }
    });
}

/* The number of entries of an array, for a descriptor's `n_params`. */
template <class T, size_t N> constexpr uint32_t count_of(const T (&)[N]) { return (uint32_t)N; }

/* The grid of blocks that each reduce `per_block` consecutive elements of
 * the input: ceil(n / per_block) blocks in *grid, or RB_UNSUPPORTED with the
 * reason when that passes 2^31 - 1. */
inline int plan_blocks(const rb_config *cfg, size_t per_block, unsigned *grid)
{
    const size_t blocks = (cfg->n + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) {
        cfg->host->error(cfg->host, "n = %llu needs more than 2^31 - 1 blocks of %zu elements",
                         (unsigned long long)cfg->n, per_block);
        return RB_UNSUPPORTED;
    }
    *grid = (unsigned)blocks;
    return RB_OK;
}

/* Blocks of `block` threads for a grid-stride loop over n elements that a
 * block reads `per_block` at a time: one full wave of the device (its
 * resident threads per SM, 2048 where that cannot be read, on every SM),
 * fewer when the input needs fewer, and at least one. */
inline unsigned wave_grid(int device, unsigned block, size_t n, size_t per_block)
{
    int threads_per_sm = 0;
    if (cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                               device) != cudaSuccess || threads_per_sm < (int)block)
        threads_per_sm = 2048;
    const size_t wave = (size_t)sm_count(device) * (threads_per_sm / block);
    size_t need = (n + per_block - 1) / per_block;
    if (need < 1)
        need = 1;
    return (unsigned)(need < wave ? need : wave);
}

/* Queues on `stream` the start of a result that blocks combine into with
 * atomics: zero for a sum, the input's first element (`bytes` of it) for
 * min and max, so that every value combined is one of the input's. */
inline int reset_result(const rb_config *cfg, void *out, size_t bytes, cudaStream_t stream)
{
    if (cfg->op == RB_OP_SUM)
        RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(out, 0, bytes, stream));
    else
        RB_CUDA_CHECK(cfg->host, cudaMemcpyAsync(out, cfg->input, bytes,
                                                 cudaMemcpyDeviceToDevice, stream));
    return RB_OK;
}

/* An atomic finish with no reset launch of its own (the "epoch"): the
 * blocks of a call combine into one of two results, picked by a running
 * count of the blocks started (the calls so far, mod 2), and the first
 * block of a call clears the other result, for the next call. A memset
 * before the kernel would be a dependency of its own on the stream, about
 * 2 us per call on an H100 (docs/cuda-pack.md).
 *   epoch_slot         device, one thread per block: this call's result
 *   epoch_setup        host, in init: the count at 0, both results started
 *   epoch_result_slot  host, in verify: the result of the last call */
template <class A>
__device__ __forceinline__ unsigned epoch_slot(unsigned long long *blocks_started, A *out,
                                               A identity)
{
    const unsigned long long started = atomicAdd(blocks_started, 1ull);
    const unsigned slot = (unsigned)(started / gridDim.x) & 1u;
    if (started % gridDim.x == 0) /* the call's first block */
        out[slot ^ 1u] = identity;
    return slot;
}

/* out holds two results of `bytes` each; both start as reset_result's. */
inline int epoch_setup(const rb_config *cfg, void *out, size_t bytes,
                       unsigned long long **blocks_started, cudaStream_t stream)
{
    RB_CUDA_CHECK(cfg->host, cudaMalloc(blocks_started, sizeof **blocks_started));
    RB_CUDA_CHECK(cfg->host,
                  cudaMemsetAsync(*blocks_started, 0, sizeof **blocks_started, stream));
    for (int slot = 0; slot < 2; slot++)
        if (reset_result(cfg, static_cast<char *>(out) + slot * bytes, bytes, stream) != RB_OK)
            return RB_ERROR;
    return RB_OK;
}

/* The slot the last call's blocks picked (slot 0 for a grid of one, which
 * writes its value there directly). */
inline int epoch_result_slot(const rb_host *host, cudaStream_t stream,
                             const unsigned long long *blocks_started, unsigned grid,
                             unsigned *slot)
{
    *slot = 0;
    if (grid == 1)
        return RB_OK;
    unsigned long long started = 0;
    if (read_bytes(host, stream, &started, blocks_started, sizeof started) != RB_OK)
        return RB_ERROR;
    if (started >= grid)
        *slot = (unsigned)((started / grid - 1) & 1u);
    return RB_OK;
}

/* A block's partial marked with the call that wrote it, so that one block
 * can wait for the others' partials of this call with no ticket: every 32
 * bits of the value go in a 64-bit word of their own beside the call's tag
 * (the high 32 bits), written and read as single 64-bit accesses, so a
 * reader that sees the tag sees the bits written with it. A slot of type A
 * is sizeof(A) / 4 words; A is 4 or 8 bytes. Tags are never 0 (the words
 * start at 0). */
template <class A> __host__ __device__ constexpr int tagged_words() { return (int)(sizeof(A) / 4); }

template <class A>
__device__ __forceinline__ void store_tagged(unsigned long long *slot, A value, unsigned tag)
{
    static_assert(sizeof(A) == 4 || sizeof(A) == 8, "store_tagged: 4 or 8 bytes");
    unsigned bits[sizeof(A) / 4];
    memcpy(bits, &value, sizeof(A));
#pragma unroll
    for (int w = 0; w < tagged_words<A>(); w++) {
        const unsigned long long word = ((unsigned long long)tag << 32) | bits[w];
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(slot + w), "l"(word)
                     : "memory");
    }
}

__device__ __forceinline__ unsigned long long load_word_relaxed(const unsigned long long *p)
{
    unsigned long long word;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(word) : "l"(p) : "memory");
    return word;
}

/* Reads Count slots, slot `first + k x stride` of those at `slots` for k
 * below Count, all in flight at once, then waits on each word until it
 * carries `tag`, and returns the values in order in values[]. */
template <class A, int Count>
__device__ __forceinline__ void load_tagged(const unsigned long long *slots, size_t first,
                                            size_t stride, unsigned tag, A values[Count])
{
    constexpr int W = tagged_words<A>();
    unsigned long long words[Count][W];
#pragma unroll
    for (int k = 0; k < Count; k++)
#pragma unroll
        for (int w = 0; w < W; w++)
            words[k][w] = load_word_relaxed(slots + (first + (size_t)k * stride) * W + w);
#pragma unroll
    for (int k = 0; k < Count; k++) {
        unsigned bits[W];
#pragma unroll
        for (int w = 0; w < W; w++) {
            while ((unsigned)(words[k][w] >> 32) != tag)
                words[k][w] = load_word_relaxed(slots + (first + (size_t)k * stride) * W + w);
            bits[w] = (unsigned)words[k][w];
        }
        memcpy(&values[k], bits, sizeof(A));
    }
}

/* Says whether device cfg->device has compute capability `needed` (e.g. 90
 * for 9.0): RB_OK; RB_UNSUPPORTED with "<what> compute capability 9.0;
 * device 0 has 8.0" (what: e.g. "clusters need"); RB_ERROR when it cannot
 * be read. For describe. */
inline int require_compute_capability(const rb_config *cfg, int needed, const char *what)
{
    const rb_host *host = cfg->host;
    const int cc = compute_capability(host, cfg->device);
    if (cc < 0)
        return RB_ERROR;
    if (cc < needed) {
        host->error(host, "%s compute capability %d.%d; device %d has %d.%d", what, needed / 10,
                    needed % 10, cfg->device, cc / 10, cc % 10);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

} /* namespace rb_cuda */

#endif
