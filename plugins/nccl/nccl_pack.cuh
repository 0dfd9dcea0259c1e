/* plugins/nccl/nccl_pack.cuh: what the nccl pack's strategies share: the
 * communicator (rank 0's unique id handed to every rank through the host's
 * exchange, NCCL's algorithm and protocol chosen through its environment
 * before the communicator is made), kept by the rank group (ABI 1.4:
 * group_open, group_close) for every configuration of the group that asks
 * for the same algorithm and protocol, so that NCCL's set-up is paid once
 * per group; the vector answer (`result = vector`: the n-element
 * all-reduce alone, handed to the host whole); the NCCL type and op of a
 * configuration, a device buffer of n elements for the collective's result,
 * CUB's reduction of a device vector to the one value verify reads
 * (redbench/cuda_vector_reduce.cuh), the
 * `algo` and `proto` parameters, setup (the body of every strategy's
 * init), verify and teardown, and the descriptor's fields that every
 * strategy has. Integer sums are reduced in the unsigned type, so that
 * they wrap like the dtype. */
#ifndef RB_NCCL_PACK_CUH
#define RB_NCCL_PACK_CUH

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <type_traits>

#include <nccl.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#include <redbench/cuda_vector_reduce.cuh>

#define RB_NCCL_CHECK(host, call)                                                          \
    do {                                                                                   \
        ncclResult_t rb_nccl_err_ = (call);                                                \
        if (rb_nccl_err_ != ncclSuccess) {                                                 \
            (host)->error((host), "%s failed: %s", #call, ncclGetErrorString(rb_nccl_err_)); \
            return RB_ERROR;                                                               \
        }                                                                                  \
    } while (0)

namespace rb_nccl {

static const char *const algo_words[] = {"auto", "ring", "tree", NULL};
static const char *const proto_words[] = {"auto", "simple", "ll", "ll128", NULL};

/* The parameters every strategy has after its own `scheme`. */
constexpr rb_param_spec algo_param = {"algo", RB_PARAM_CHOICE, "auto", 0, 0, algo_words, 0,
                                      "NCCL's algorithm (NCCL_ALGO); auto: NCCL's choice"};
constexpr rb_param_spec proto_param = {"proto", RB_PARAM_CHOICE, "auto", 0, 0, proto_words, 0,
                                       "NCCL's protocol (NCCL_PROTO); auto: NCCL's choice"};

static const char *const result_words[] = {"value", "vector", NULL};

/* The parameter `result` of an all-reduce strategy. */
constexpr rb_param_spec result_param = {
    "result", RB_PARAM_CHOICE, "value", 0, 0, result_words, 0,
    "value: the one value (the collective, then CUB's reduction); vector: the n-element "
    "all-reduce alone, judged element by element (as nccl-tests times it)"};

/* What a rank group keeps (group_open): a communicator for each algorithm
 * and protocol asked for, made by the first configuration that asks. */
struct group {
    ncclComm_t comms[3][4];
};

struct state {
    const rb_config *cfg;
    cudaStream_t stream;
    ncclComm_t comm;
    int comm_of_group; /* comm belongs to the group: teardown leaves it */
    int vector;        /* result = vector */
    int scheme;
    void *work;          /* n elements: the collective's result */
    size_t work_bytes;
    void *value;         /* 8 bytes: the answer on the device */
    void *value_in;      /* 8 bytes: this rank's value, for two-level */
    void *temp;          /* CUB's temporary storage */
    size_t temp_bytes;
    void *host_copy;     /* pinned: the slice, for host-staged */
    unsigned char answer[8]; /* host-staged: the answer on the host */
    int answer_on_host;
};

inline ncclDataType_t type_of(int dtype)
{
    switch (dtype) {
    case RB_DTYPE_I32: return ncclInt32;
    case RB_DTYPE_I64: return ncclInt64;
    case RB_DTYPE_F32: return ncclFloat32;
    default: return ncclFloat64;
    }
}

inline ncclRedOp_t op_of(int op)
{
    return op == RB_OP_SUM ? ncclSum : op == RB_OP_MIN ? ncclMin : ncclMax;
}

/* Sets NCCL_ALGO and NCCL_PROTO from the parameters (NCCL reads them when
 * the communicator is made; "auto" leaves NCCL's choice). */
inline void choose_algorithm(const rb_config *cfg)
{
    int64_t algo = rb_param_int(cfg, "algo", 0), proto = rb_param_int(cfg, "proto", 0);
    static const char *const algo_env[] = {NULL, "Ring", "Tree"};
    static const char *const proto_env[] = {NULL, "Simple", "LL", "LL128"};
    if (algo > 0 && algo < 3)
        setenv("NCCL_ALGO", algo_env[algo], 1);
    else
        unsetenv("NCCL_ALGO");
    if (proto > 0 && proto < 4)
        setenv("NCCL_PROTO", proto_env[proto], 1);
    else
        unsetenv("NCCL_PROTO");
}

/* Declines when two ranks share a GPU: NCCL needs one per rank. */
inline int check_one_gpu_each(const rb_config *cfg)
{
    char mine[32] = "", *all = static_cast<char *>(calloc(cfg->n_ranks, sizeof mine));
    if (!all) {
        cfg->host->error(cfg->host, "out of host memory");
        return RB_ERROR;
    }
    cudaDeviceGetPCIBusId(mine, sizeof mine - 1, cfg->device);
    if (cfg->host->exchange(cfg->host, mine, sizeof mine, all) != RB_OK) {
        free(all);
        cfg->host->error(cfg->host, "the ranks could not tell each other their GPUs");
        return RB_ERROR;
    }
    for (uint32_t a = 0; a < cfg->n_ranks; a++)
        for (uint32_t b = a + 1; b < cfg->n_ranks; b++)
            if (strncmp(all + a * sizeof mine, all + b * sizeof mine, sizeof mine) == 0) {
                cfg->host->error(cfg->host, "ranks %u and %u are both on GPU %.31s: NCCL needs a "
                                 "GPU of its own for each rank (fewer ranks, or `devices`)",
                                 a, b, all + a * sizeof mine);
                free(all);
                return RB_UNSUPPORTED;
            }
    free(all);
    return RB_OK;
}

/* The communicator of the configuration's ranks, made here. */
inline int make_own_comm(state *s, const rb_config *cfg)
{
    int gpus = check_one_gpu_each(cfg);
    if (gpus != RB_OK)
        return gpus;
    ncclUniqueId id, *all = static_cast<ncclUniqueId *>(calloc(cfg->n_ranks, sizeof id));
    if (!all) {
        cfg->host->error(cfg->host, "out of host memory");
        return RB_ERROR;
    }
    memset(&id, 0, sizeof id);
    if (cfg->rank == 0 && ncclGetUniqueId(&id) != ncclSuccess) {
        free(all);
        cfg->host->error(cfg->host, "ncclGetUniqueId failed");
        return RB_ERROR;
    }
    if (cfg->host->exchange(cfg->host, &id, sizeof id, all) != RB_OK) {
        free(all);
        cfg->host->error(cfg->host, "the ranks could not share NCCL's unique id");
        return RB_ERROR;
    }
    id = all[0];
    free(all);
    choose_algorithm(cfg);
    RB_CUDA_CHECK(cfg->host, cudaSetDevice(cfg->device));
    RB_NCCL_CHECK(cfg->host, ncclCommInitRank(&s->comm, (int)cfg->n_ranks, id, (int)cfg->rank));
    return RB_OK;
}

/* The rank group's state, where the host hands one (ABI 1.4). */
inline group *group_of(const rb_config *cfg)
{
    if (cfg->size < offsetof(rb_config, group) + sizeof cfg->group)
        return NULL;
    return static_cast<group *>(cfg->group);
}

/* The communicator of the configuration's ranks: the group's for its
 * algorithm and protocol (made once, by the first configuration that asks
 * for them; every rank asks in the same configuration), or one of its own
 * without a group. */
inline int make_comm(state *s, const rb_config *cfg)
{
    group *g = group_of(cfg);
    if (!g)
        return make_own_comm(s, cfg);
    int64_t algo = rb_param_int(cfg, "algo", 0), proto = rb_param_int(cfg, "proto", 0);
    if (algo < 0 || algo > 2 || proto < 0 || proto > 3)
        algo = proto = 0;
    ncclComm_t *kept = &g->comms[algo][proto];
    if (!*kept) {
        int st = make_own_comm(s, cfg);
        if (st != RB_OK)
            return st;
        *kept = s->comm;
    }
    RB_CUDA_CHECK(cfg->host, cudaSetDevice(cfg->device));
    s->comm = *kept;
    s->comm_of_group = 1;
    return RB_OK;
}

inline int group_open(const rb_group *grp, void **out)
{
    group *g = static_cast<group *>(calloc(1, sizeof(group)));
    if (!g) {
        grp->host->error(grp->host, "out of host memory");
        return RB_ERROR;
    }
    *out = g;
    return RB_OK;
}

inline void group_close(void *st)
{
    group *g = static_cast<group *>(st);
    for (auto &by_algo : g->comms)
        for (ncclComm_t &c : by_algo)
            if (c)
                ncclCommDestroy(c);
    free(g);
}

/* CUB's reduction of n elements at `in` to *out (device memory). */
inline cudaError_t reduce(const rb_config *cfg, const void *in, void *out, size_t n, void *temp,
                          size_t *temp_bytes, cudaStream_t stream)
{
    return rb_cuda::reduce_vector(cfg, in, out, n, temp, temp_bytes, stream);
}

/* The communicator, the n-element result buffer (when `vector`), the value
 * buffers and CUB's storage for reducing n elements. */
inline int setup(state *s, const rb_config *cfg, int vector)
{
    s->cfg = cfg;
    s->stream = static_cast<cudaStream_t>(cfg->queue);
    s->vector = rb_param_int(cfg, "result", 0) == 1;
    int st = make_comm(s, cfg);
    if (st != RB_OK)
        return st;
    s->work_bytes = (size_t)cfg->n * rb_dtype_size(cfg->dtype);
    if (vector)
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->work, s->work_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->value, 16));
    s->value_in = static_cast<char *>(s->value) + 8;
    RB_CUDA_CHECK(cfg->host, reduce(cfg, cfg->input, s->value, cfg->n, NULL, &s->temp_bytes,
                                    s->stream));
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->temp, s->temp_bytes ? s->temp_bytes : 1));
    return RB_OK;
}

inline int verify(void *st, rb_result *result)
{
    state *s = static_cast<state *>(st);
    const rb_config *cfg = s->cfg;
    if (s->vector)
        return rb_cuda::read_vector(cfg, s->stream, s->work, s->work_bytes, result);
    if (s->answer_on_host) {
        RB_CUDA_CHECK(cfg->host, cudaStreamSynchronize(s->stream));
        rb_cuda::store_bytes(result, cfg->dtype, s->answer);
        return RB_OK;
    }
    return rb_cuda::read_value(cfg->host, s->stream, s->value, rb_dtype_size(cfg->dtype),
                               cfg->dtype, result);
}

inline void teardown(void *st)
{
    state *s = static_cast<state *>(st);
    if (!s)
        return;
    if (s->comm) {
        cudaStreamSynchronize(s->stream);
        if (!s->comm_of_group)
            ncclCommDestroy(s->comm);
    }
    cudaFree(s->work);
    cudaFree(s->value);
    cudaFree(s->temp);
    if (s->host_copy)
        cudaFreeHost(s->host_copy);
    free(s);
}

/* What a strategy's descriptor says of itself; plugin() adds the rest. */
struct strategy {
    const char *name;
    const char *summary;
    const rb_param_spec *params;
    uint32_t n_params;
    int (*describe)(const rb_config *cfg, rb_description *out);
    int (*init)(const rb_config *cfg, void **state);
    int (*run)(void *state);
    uint32_t collective;
};

/* A strategy's descriptor: its own fields, and those every strategy of the
 * pack has (those of every CUDA plugin, from rb_cuda::plugin; sum, min and
 * max of the numeric dtypes, verify, teardown, ranks forked by the host). */
constexpr rb_plugin plugin(const strategy &own)
{
    return rb_cuda::plugin({
        .name = own.name,
        .summary = own.summary,
        .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
        .dtypes = rb_cuda::numeric_dtypes,
        .params = own.params,
        .n_params = own.n_params,
        .describe = own.describe,
        .init = own.init,
        .run = own.run,
        .verify = verify,
        .teardown = teardown,
        .collective = own.collective,
        .rank_launch = RB_RANK_LAUNCH_FORK,
        .group_open = group_open,
        .group_close = group_close,
    });
}

} // namespace rb_nccl

#endif
