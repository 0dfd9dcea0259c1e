/* plugins/p2p/p2p_pack.cuh: what the p2p pack's strategies share. Each rank
 * is a process of its own on one GPU (forked by the host, as the nccl
 * pack's); the ranks reach each other's memory directly over the GPUs'
 * links. In init every rank makes two buffers of its own (the n-element
 * result, and the signals: barrier flags and call counters), and hands the
 * CUDA IPC handles of those and of its input to the others through the
 * host's exchange; each opens the others' (peer access enabled by the
 * driver where it offers it; a clear `unsupported` where it does not).
 *
 * The barrier is part of every call: each block of every rank tells the
 * same block of every other rank that it arrived (a flag in the peer's
 * signal buffer, written with release semantics at system scope after a
 * system fence), and waits until every peer's flag for this call is set
 * (acquire). A call's number is counted on the device, per block, so that
 * a replayed CUDA graph counts as well as launches do. Two barriers per
 * call: at the start (every peer's input holds this call's data) and at
 * the end (every peer has finished reading this rank's input, and has
 * written what it writes here, before the host may change either).
 *
 * Also here: the parameters every strategy has (block, grid, vec, result),
 * the vector answer handed to the host whole (`result = vector`) or
 * reduced by CUB to the one value (`result = value`), verify, teardown and
 * the descriptor's common fields. Integer sums are computed in the
 * unsigned type, so that they wrap like the dtype. NVLink multicast is
 * never used. */
#ifndef RB_P2P_PACK_CUH
#define RB_P2P_PACK_CUH

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <type_traits>

#include <cuda.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#include <redbench/cuda_vector_reduce.cuh>

namespace rb_p2p {

constexpr uint32_t max_ranks = 8;     /* ranks a call reaches (flags per block) */
constexpr uint32_t max_blocks = 1024; /* blocks of a call (flag rows) */

/* One rank's signal buffer: the flags its peers set in it, and its own
 * call counter per block. */
struct signals {
    uint32_t start[max_blocks][max_ranks];
    uint32_t end[max_blocks][max_ranks];
    uint32_t calls[max_blocks];
};

/* What a kernel needs of every rank, indexed by rank. */
template <class T> struct peers {
    const T *in[max_ranks]; /* each rank's input */
    T *out[max_ranks];      /* each rank's n-element result */
    T *stage[max_ranks];    /* each rank's copy of its input, two of n
                               elements (odd and even calls), or NULL */
    signals *sig[max_ranks];
};

/* The barrier's flag operations, at system scope (the peers are other
 * processes on other GPUs). */
__device__ __forceinline__ void flag_release(uint32_t *flag, uint32_t v)
{
    asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(flag), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t flag_acquire(const uint32_t *flag)
{
    uint32_t v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
}

/* This block's number for the call starting now (1, 2, ...). Every thread
 * gets it; thread 0 keeps it for the next call in end(). */
__device__ __forceinline__ uint32_t call_number(const signals *self)
{
    __shared__ uint32_t number;
    if (threadIdx.x == 0)
        number = self->calls[blockIdx.x] + 1;
    __syncthreads();
    return number;
}

/* Tells every rank's block blockIdx.x that this one reached `which` of call
 * `number`, and waits until all of them have. What this rank wrote before
 * (every thread of the block) is visible to the peers after it. */
template <class T>
__device__ __forceinline__ void barrier(const peers<T> &p, signals *self, uint32_t rank,
                                        uint32_t ranks, int which, uint32_t number)
{
    __threadfence_system();
    __syncthreads();
    if (threadIdx.x < ranks) {
        signals *peer = p.sig[threadIdx.x];
        uint32_t *theirs = which ? &peer->end[blockIdx.x][rank] : &peer->start[blockIdx.x][rank];
        const uint32_t *mine = which ? &self->end[blockIdx.x][threadIdx.x]
                                     : &self->start[blockIdx.x][threadIdx.x];
        flag_release(theirs, number);
        while ((int32_t)(flag_acquire(mine) - number) < 0) {
        }
    }
    __syncthreads();
}

template <class T>
__device__ __forceinline__ void start(const peers<T> &p, signals *self, uint32_t rank,
                                      uint32_t ranks, uint32_t number)
{
    barrier(p, self, rank, ranks, 0, number);
}

template <class T>
__device__ __forceinline__ void end(const peers<T> &p, signals *self, uint32_t rank,
                                    uint32_t ranks, uint32_t number)
{
    barrier(p, self, rank, ranks, 1, number);
    if (threadIdx.x == 0)
        self->calls[blockIdx.x] = number;
}

/* V elements of T, loaded or stored as one access of V * sizeof(T) bytes
 * (4, 8 or 16). */
template <class T, int V> struct alignas(sizeof(T) * V) pack {
    T v[V];
};

/* The reduction of element positions [first, last) of the R ranks' inputs,
 * in rank order (the same answer on every rank), stored into this rank's
 * result (To_all false) or into every rank's (To_all true). Whole units of
 * V elements from `first` (aligned), single elements after; the R loads of
 * a unit are all issued before they are combined. */
template <class Op, class T, int V, int R, bool To_all>
__device__ __forceinline__ void reduce_range(const peers<T> &p, uint32_t rank, size_t first,
                                             size_t last, uint32_t skip_last)
{
    typedef typename Op::template acc<T>::type A;
    size_t units = (last - first) / V;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t u = (size_t)blockIdx.x * blockDim.x + threadIdx.x; u < units; u += stride) {
        size_t at = first + u * V;
        pack<T, V> x[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            x[r] = *reinterpret_cast<const pack<T, V> *>(p.in[r] + at);
        pack<T, V> out;
#pragma unroll
        for (int k = 0; k < V; k++) {
            A acc = (A)x[0].v[k];
#pragma unroll
            for (int r = 1; r < R; r++)
                if (r < R - (int)skip_last)
                    acc = Op::template apply<A>(acc, (A)x[r].v[k]);
            out.v[k] = (T)acc;
        }
        if (To_all) {
#pragma unroll
            for (int r = 0; r < R; r++)
                *reinterpret_cast<pack<T, V> *>(p.out[r] + at) = out;
        } else {
            *reinterpret_cast<pack<T, V> *>(p.out[rank] + at) = out;
        }
    }
    for (size_t at = first + units * V + (size_t)blockIdx.x * blockDim.x + threadIdx.x; at < last;
         at += stride) {
        A acc = (A)p.in[0][at];
#pragma unroll
        for (int r = 1; r < R; r++)
            if (r < R - (int)skip_last)
                acc = Op::template apply<A>(acc, (A)p.in[r][at]);
        if (To_all) {
#pragma unroll
            for (int r = 0; r < R; r++)
                p.out[r][at] = (T)acc;
        } else {
            p.out[rank][at] = (T)acc;
        }
    }
}

/* The parameters every strategy has. */
static const char *const result_words[] = {"value", "vector", NULL};

constexpr rb_param_spec block_param = {"block", RB_PARAM_INT, "512", 64, 1024, NULL, RB_PARAM_POW2,
                                       "threads per block"};
constexpr rb_param_spec grid_param = {
    "grid", RB_PARAM_INT, "auto", 1, (int64_t)max_blocks, NULL, RB_PARAM_AUTO,
    "blocks per call (each has its own barrier flags); auto: enough to cover the data, at "
    "most the GPU's SMs"};
constexpr rb_param_spec vec_param = {"vec", RB_PARAM_INT, "16", 4, 16, NULL, RB_PARAM_POW2,
                                     "bytes per load and store (4, 8 or 16)"};
constexpr rb_param_spec result_param = {
    "result", RB_PARAM_CHOICE, "value", 0, 0, result_words, 0,
    "value: the all-reduce, then CUB's reduction of it to the one value; vector: the n-element "
    "all-reduce alone, judged element by element (as nccl-tests times it)"};

/* One configuration's state. */
struct state {
    const rb_config *cfg;
    cudaStream_t stream;
    int vector;         /* result = vector */
    unsigned block, grid;
    int vec_bytes;      /* 4, 8, 16, or the element's size where a peer is misaligned */
    size_t bytes;       /* n elements */
    void *out;          /* this rank's n-element result (peers may write it) */
    signals *sig;       /* this rank's signals */
    void *stage;        /* 2 n elements: this rank's input copied (oneshot's stage = copy) */
    void *opened[max_ranks][4]; /* peers' input (allocation base), out, sig, stage */
    void *in[max_ranks], *outs[max_ranks], *stages[max_ranks];
    signals *sigs[max_ranks];
    void *value; /* 8 bytes: the one value (result = value) */
    void *temp;  /* CUB's temporary storage */
    size_t temp_bytes;
};

/* What one rank tells the others in init. */
struct card {
    cudaIpcMemHandle_t input, out, sig, stage;
    int staged; /* it has a stage */
    uint64_t input_offset; /* the input's start inside its allocation */
    uint64_t n;
    char bus[32];
    int pid;
};

/* The start of the allocation that holds `ptr` (IPC handles name whole
 * allocations), through the driver's entry point. */
inline int allocation_base(const rb_host *host, const void *ptr, char **base)
{
    typedef CUresult (*get_attr_fn)(void *, CUpointer_attribute, CUdeviceptr);
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
    RB_CUDA_CHECK(host, cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", &fn, 12000,
                                                         cudaEnableDefault, &found));
#else
    RB_CUDA_CHECK(host, cudaGetDriverEntryPoint("cuPointerGetAttribute", &fn, cudaEnableDefault,
                                                &found));
#endif
    if (!fn || found != cudaDriverEntryPointSuccess) {
        host->error(host, "the CUDA driver offers no cuPointerGetAttribute");
        return RB_ERROR;
    }
    CUdeviceptr start = 0;
    CUresult e = ((get_attr_fn)fn)(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                   (CUdeviceptr)(uintptr_t)ptr);
    if (e != CUDA_SUCCESS) {
        host->error(host, "cuPointerGetAttribute(RANGE_START_ADDR) of the input failed (%d)",
                    (int)e);
        return RB_ERROR;
    }
    *base = (char *)(uintptr_t)start;
    return RB_OK;
}

/* Opens a peer's buffer; declines with the reason when this GPU cannot
 * reach that rank's memory. */
inline int open_peer(const rb_config *cfg, const char *mine_bus, const card &c, uint32_t peer,
                     cudaIpcMemHandle_t handle, void **out)
{
    cudaError_t e = cudaIpcOpenMemHandle(out, handle, cudaIpcMemLazyEnablePeerAccess);
    if (e == cudaSuccess)
        return RB_OK;
    cudaGetLastError();
    *out = NULL;
    cfg->host->error(cfg->host,
                     "rank %u (GPU %.31s) cannot reach the memory of rank %u (GPU %.31s): "
                     "cudaIpcOpenMemHandle: %s; the p2p pack needs peer access between every "
                     "pair of the ranks' GPUs (nvidia-smi topo -p2p r)",
                     cfg->rank, mine_bus, peer, c.bus, cudaGetErrorString(e));
    return e == cudaErrorPeerAccessUnsupported || e == cudaErrorInvalidDevice ||
                   e == cudaErrorMapBufferObjectFailed || e == cudaErrorNotSupported
               ? RB_UNSUPPORTED
               : RB_ERROR;
}

/* Tells the others this rank's buffers and opens theirs. */
inline int connect(state *s, const rb_config *cfg)
{
    card mine;
    memset(&mine, 0, sizeof mine);
    char *base = NULL;
    if (allocation_base(cfg->host, cfg->input, &base) != RB_OK)
        return RB_ERROR;
    mine.input_offset = (uint64_t)((const char *)cfg->input - base);
    mine.n = cfg->n;
    mine.pid = (int)getpid();
    cudaDeviceGetPCIBusId(mine.bus, sizeof mine.bus - 1, cfg->device);
    RB_CUDA_CHECK(cfg->host, cudaIpcGetMemHandle(&mine.input, base));
    RB_CUDA_CHECK(cfg->host, cudaIpcGetMemHandle(&mine.out, s->out));
    RB_CUDA_CHECK(cfg->host, cudaIpcGetMemHandle(&mine.sig, s->sig));
    if (s->stage) {
        RB_CUDA_CHECK(cfg->host, cudaIpcGetMemHandle(&mine.stage, s->stage));
        mine.staged = 1;
    }
    card *all = static_cast<card *>(calloc(cfg->n_ranks, sizeof(card)));
    if (!all) {
        cfg->host->error(cfg->host, "out of host memory");
        return RB_ERROR;
    }
    if (cfg->host->exchange(cfg->host, &mine, sizeof mine, all) != RB_OK) {
        free(all);
        cfg->host->error(cfg->host, "the ranks could not tell each other their buffers");
        return RB_ERROR;
    }
    int st = RB_OK;
    for (uint32_t a = 0; a < cfg->n_ranks && st == RB_OK; a++)
        for (uint32_t b = a + 1; b < cfg->n_ranks && st == RB_OK; b++)
            if (strncmp(all[a].bus, all[b].bus, sizeof all[a].bus) == 0) {
                cfg->host->error(cfg->host, "ranks %u and %u are both on GPU %.31s: the p2p "
                                 "pack needs a GPU of its own for each rank (fewer ranks, or "
                                 "`devices`)", a, b, all[a].bus);
                st = RB_UNSUPPORTED;
            }
    for (uint32_t r = 0; r < cfg->n_ranks && st == RB_OK; r++) {
        if (all[r].n != cfg->n) {
            cfg->host->error(cfg->host, "the element-wise all-reduce needs the same n on every "
                             "rank (rank %u has %llu, rank %u %llu): n_total splits unequally",
                             r, (unsigned long long)all[r].n, cfg->rank,
                             (unsigned long long)cfg->n);
            st = RB_UNSUPPORTED;
            break;
        }
        if (all[r].staged != mine.staged) {
            cfg->host->error(cfg->host, "ranks %u and %u disagree on staging their input", r,
                             cfg->rank);
            st = RB_ERROR;
            break;
        }
        if (r == cfg->rank) {
            s->in[r] = const_cast<void *>(cfg->input);
            s->outs[r] = s->out;
            s->sigs[r] = s->sig;
            s->stages[r] = s->stage;
            continue;
        }
        cudaIpcMemHandle_t handles[4] = {all[r].input, all[r].out, all[r].sig, all[r].stage};
        for (int k = 0; k < 3 + (all[r].staged && s->stage) && st == RB_OK; k++)
            st = open_peer(cfg, mine.bus, all[r], r, handles[k], &s->opened[r][k]);
        if (st != RB_OK)
            break;
        s->in[r] = static_cast<char *>(s->opened[r][0]) + all[r].input_offset;
        s->outs[r] = s->opened[r][1];
        s->sigs[r] = static_cast<signals *>(s->opened[r][2]);
        s->stages[r] = s->opened[r][3];
    }
    /* 16-byte accesses need every rank's input and result aligned alike */
    for (uint32_t r = 0; r < cfg->n_ranks && st == RB_OK; r++)
        while (s->vec_bytes > (int)rb_dtype_size(cfg->dtype) &&
               (((uintptr_t)s->in[r] | (uintptr_t)s->outs[r] | (uintptr_t)s->stages[r] |
                 (s->stage ? (uintptr_t)s->bytes : 0)) % (uintptr_t)s->vec_bytes))
            s->vec_bytes /= 2;
    free(all);
    /* every rank agrees on the outcome before any uses a peer */
    int verdicts = st, *all_st = static_cast<int *>(calloc(cfg->n_ranks, sizeof(int)));
    if (!all_st || cfg->host->exchange(cfg->host, &verdicts, sizeof verdicts, all_st) != RB_OK) {
        free(all_st);
        cfg->host->error(cfg->host, "the ranks could not agree on their buffers");
        return RB_ERROR;
    }
    for (uint32_t r = 0; r < cfg->n_ranks && st == RB_OK; r++)
        if (all_st[r] != RB_OK) {
            cfg->host->error(cfg->host, "rank %u could not open the others' buffers", r);
            st = all_st[r];
        }
    free(all_st);
    return st;
}

/* The kernels' view of the ranks' buffers. */
template <class T> inline peers<T> view(const state *s)
{
    peers<T> p;
    memset(&p, 0, sizeof p);
    for (uint32_t r = 0; r < s->cfg->n_ranks; r++) {
        p.in[r] = static_cast<const T *>(s->in[r]);
        p.out[r] = static_cast<T *>(s->outs[r]);
        p.sig[r] = s->sigs[r];
        p.stage[r] = static_cast<T *>(s->stages[r]);
    }
    return p;
}

/* CUB's reduction of the n-element result to the one value. */
inline cudaError_t reduce(const state *s, size_t *temp_bytes, void *temp)
{
    const rb_config *cfg = s->cfg;
    return rb_cuda::reduce_vector(cfg, s->out, s->value, cfg->n, temp, temp_bytes, s->stream);
}

/* The number of SMs of the configuration's device. */
inline int sm_count(const rb_config *cfg)
{
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, cfg->device) != cudaSuccess ||
        sms < 1)
        sms = 1;
    return sms;
}

/* Declines what the pack cannot do: too many ranks, a vector load smaller
 * than an element. */
inline int describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    if (cfg->n_ranks > max_ranks) {
        cfg->host->error(cfg->host, "the p2p pack reaches at most %u ranks, not %u", max_ranks,
                         cfg->n_ranks);
        return RB_UNSUPPORTED;
    }
    if ((size_t)rb_param_int(cfg, "vec", 16) < rb_dtype_size(cfg->dtype)) {
        cfg->host->error(cfg->host, "vec = %lld bytes is less than one %zu-byte element",
                         (long long)rb_param_int(cfg, "vec", 16), rb_dtype_size(cfg->dtype));
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

/* The body of every strategy's init: buffers, signals, the peers' buffers,
 * CUB's storage. `units` is how many elements one call's grid covers: the
 * grid is enough blocks for them, at most the SMs (or `grid`). */
inline int setup(state *s, const rb_config *cfg, size_t units, int staged = 0)
{
    s->cfg = cfg;
    s->stream = static_cast<cudaStream_t>(cfg->queue);
    s->vector = rb_param_int(cfg, "result", 0) == 1;
    s->block = (unsigned)rb_param_int(cfg, "block", 512);
    s->vec_bytes = (int)rb_param_int(cfg, "vec", 16);
    s->bytes = (size_t)cfg->n * rb_dtype_size(cfg->dtype);
    RB_CUDA_CHECK(cfg->host, cudaSetDevice(cfg->device));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->bytes ? s->bytes : 1));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->sig, sizeof(signals)));
    RB_CUDA_CHECK(cfg->host, cudaMemset(s->sig, 0, sizeof(signals)));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->value, 16));
    if (staged)
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->stage, 2 * (s->bytes ? s->bytes : 1)));
    RB_CUDA_CHECK(cfg->host, cudaDeviceSynchronize());
    int st = connect(s, cfg);
    if (st != RB_OK)
        return st;
    size_t per_unit = (size_t)s->block * (size_t)(s->vec_bytes / (int)rb_dtype_size(cfg->dtype));
    size_t want = (units + per_unit - 1) / per_unit;
    int64_t grid = rb_param_int(cfg, "grid", 0);
    if (grid > 0)
        s->grid = (unsigned)grid;
    else {
        size_t cap = (size_t)sm_count(cfg);
        s->grid = (unsigned)(want < 1 ? 1 : want > cap ? cap : want);
    }
    if (s->grid > max_blocks)
        s->grid = max_blocks;
    if (!s->vector) {
        RB_CUDA_CHECK(cfg->host, reduce(s, &s->temp_bytes, NULL));
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->temp, s->temp_bytes ? s->temp_bytes : 1));
    }
    return RB_OK;
}

/* After the all-reduce: the one value, where it is asked for. */
inline int finish(state *s)
{
    if (s->vector)
        return RB_OK;
    RB_CUDA_CHECK(s->cfg->host, reduce(s, &s->temp_bytes, s->temp));
    return RB_OK;
}

inline int verify(void *st, rb_result *result)
{
    state *s = static_cast<state *>(st);
    const rb_config *cfg = s->cfg;
    if (s->vector)
        return rb_cuda::read_vector(cfg, s->stream, s->out, s->bytes, result);
    return rb_cuda::read_value(cfg->host, s->stream, s->value, rb_dtype_size(cfg->dtype),
                               cfg->dtype, result);
}

inline void teardown(void *st)
{
    state *s = static_cast<state *>(st);
    if (!s)
        return;
    cudaStreamSynchronize(s->stream);
    for (auto &peer : s->opened)
        for (void *&p : peer)
            if (p)
                cudaIpcCloseMemHandle(p);
    cudaFree(s->out);
    cudaFree(s->sig);
    cudaFree(s->stage);
    cudaFree(s->value);
    cudaFree(s->temp);
    free(s);
}

/* Calls pick with the op, the element type, the elements per access
 * (vec_bytes / sizeof(T)) and the number of ranks, each as a type, as
 * with_numeric_op does: the kernels are instantiated for 1 to max_ranks
 * ranks, so that a unit's loads from every rank are issued together. */
template <class Pick, class Op, class T, class V>
inline cudaError_t with_ranks(uint32_t ranks, Pick &pick, Op op, T t, V v)
{
    switch (ranks) {
    case 1: return pick(op, t, v, std::integral_constant<int, 1>());
    case 2: return pick(op, t, v, std::integral_constant<int, 2>());
    case 3: return pick(op, t, v, std::integral_constant<int, 3>());
    case 4: return pick(op, t, v, std::integral_constant<int, 4>());
    case 5: return pick(op, t, v, std::integral_constant<int, 5>());
    case 6: return pick(op, t, v, std::integral_constant<int, 6>());
    case 7: return pick(op, t, v, std::integral_constant<int, 7>());
    case 8: return pick(op, t, v, std::integral_constant<int, 8>());
    default: return cudaErrorInvalidValue;
    }
}

template <class Pick> inline cudaError_t with_kernel(const state *s, Pick pick)
{
    uint32_t ranks = s->cfg->n_ranks;
    return rb_cuda::with_numeric_op(s->cfg->dtype, s->cfg->op, [&](auto op, auto t, auto a) {
        typedef decltype(t) T;
        (void)a;
        constexpr int wide = 16 / (int)sizeof(T), half = 8 / (int)sizeof(T) ? 8 / (int)sizeof(T) : 1;
        int v = s->vec_bytes / (int)sizeof(T);
        if (v >= wide)
            return with_ranks(ranks, pick, op, t, std::integral_constant<int, wide>());
        if (v >= half)
            return with_ranks(ranks, pick, op, t, std::integral_constant<int, half>());
        return with_ranks(ranks, pick, op, t, std::integral_constant<int, 1>());
    });
}

/* What a strategy's descriptor says of itself; plugin() adds the rest. */
struct strategy {
    const char *name;
    const char *summary;
    const rb_param_spec *params;
    uint32_t n_params;
    int (*init)(const rb_config *cfg, void **state);
    int (*run)(void *state);
};

constexpr rb_plugin plugin(const strategy &own)
{
    return rb_cuda::plugin({
        .name = own.name,
        .summary = own.summary,
        .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
        .dtypes = rb_cuda::numeric_dtypes,
        .params = own.params,
        .n_params = own.n_params,
        .describe = describe,
        .init = own.init,
        .run = own.run,
        .verify = verify,
        .teardown = teardown,
        .collective = RB_COLLECTIVE_ALLREDUCE,
        .rank_launch = RB_RANK_LAUNCH_FORK,
    });
}

} // namespace rb_p2p

#endif
