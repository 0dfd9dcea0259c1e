/* plugins/mpi/mpi_pack.h: what the mpi pack's strategies share: MPI set up
 * once per process (and finalized at its exit) with its ranks checked
 * against the host's, the MPI type of a dtype, the element-wise combine of
 * two vectors, the local reduction of a vector to the answer, MPI's own
 * collectives in both orders (vector first, or each slice's value first),
 * the parameter `stage` that picks the order, and the descriptor's fields
 * that every strategy has. Each
 * strategy reduces the ranks' vectors element by element (as an all-reduce
 * of gradients does) and then reduces the n-element result to one value,
 * or, with `stage = local`, reduces its slice first and the ranks' values
 * after. The host starts the ranks with mpirun (RB_RANK_LAUNCH_MPI), or,
 * under a launcher with as many ranks, runs them in one MPI rank process
 * under each of the launcher's processes, kept for the run: MPI is then
 * initialised by the first init there and finalized at its exit. */
#ifndef RB_MPI_PACK_H
#define RB_MPI_PACK_H

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/plugin.h>

#define MPI_PACK_OPS (RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX))
#define MPI_PACK_DTYPES (RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) | \
                         RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64))

/* One rank's answer. */
typedef struct mpi_value {
    int64_t i;
    double f;
} mpi_value;

typedef struct mpi_state {
    const rb_config *cfg;
    void *work;      /* n elements: the element-wise result */
    void *scratch;   /* n elements: what a peer sent */
    int local_first; /* stage = local */
    int vector;      /* result = vector: the answer is work, n elements */
    mpi_value answer;
} mpi_state;

static void mpi_pack_finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

/* MPI, once per process, with this process's rank and size checked against
 * the host's. */
static inline int mpi_pack_start(const rb_config *cfg)
{
    int started = 0;
    MPI_Initialized(&started);
    if (!started) {
        int provided;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
            cfg->host->error(cfg->host, "MPI_Init failed");
            return RB_ERROR;
        }
        atexit(mpi_pack_finalize);
    }
    int rank = -1, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if ((uint32_t)rank != cfg->rank || (uint32_t)size != cfg->n_ranks) {
        cfg->host->error(cfg->host, "this process is MPI rank %d of %d but the host's rank %u "
                         "of %u (the host starts the ranks with mpirun)", rank, size, cfg->rank,
                         cfg->n_ranks);
        return RB_ERROR;
    }
    return RB_OK;
}

static inline MPI_Datatype mpi_pack_type(int dtype)
{
    switch (dtype) {
    case RB_DTYPE_I32: return MPI_INT32_T;
    case RB_DTYPE_I64: return MPI_INT64_T;
    case RB_DTYPE_F32: return MPI_FLOAT;
    default: return MPI_DOUBLE;
    }
}

static inline MPI_Op mpi_pack_op(int op)
{
    return op == RB_OP_SUM ? MPI_SUM : op == RB_OP_MIN ? MPI_MIN : MPI_MAX;
}

/* acc[k] = acc[k] (op) x[k] for count elements; integer sums wrap. */
static inline void mpi_pack_combine(int op, int dtype, void *acc, const void *x, size_t count)
{
#define MPI_PACK_LOOP(T, U)                                                                  \
    do {                                                                                     \
        T *a = acc;                                                                          \
        const T *b = x;                                                                      \
        for (size_t k = 0; k < count; k++)                                                   \
            a[k] = op == RB_OP_SUM ? (T)((U)a[k] + (U)b[k])                                  \
                 : op == RB_OP_MIN ? (b[k] < a[k] ? b[k] : a[k]) : (b[k] > a[k] ? b[k] : a[k]); \
    } while (0)
    switch (dtype) {
    case RB_DTYPE_I32: MPI_PACK_LOOP(int32_t, uint32_t); break;
    case RB_DTYPE_I64: MPI_PACK_LOOP(int64_t, uint64_t); break;
    case RB_DTYPE_F32: MPI_PACK_LOOP(float, float); break;
    default: MPI_PACK_LOOP(double, double); break;
    }
#undef MPI_PACK_LOOP
}

/* The reduction of count elements to one value: sums of floats in a double,
 * of integers wrapping like the dtype. */
static inline mpi_value mpi_pack_reduce(int op, int dtype, const void *data, size_t count)
{
    mpi_value v = {0, 0};
#define MPI_PACK_REDUCE(T, U, FIELD, FINAL)                                                         \
    do {                                                                                     \
        const T *x = data;                                                                   \
        if (op == RB_OP_SUM) {                                                               \
            U s = 0;                                                                         \
            for (size_t k = 0; k < count; k++)                                               \
                s += (U)x[k];                                                                \
            v.FIELD = FINAL(s);                                                              \
        } else {                                                                             \
            T m = x[0];                                                                      \
            for (size_t k = 1; k < count; k++)                                               \
                m = op == RB_OP_MIN ? (x[k] < m ? x[k] : m) : (x[k] > m ? x[k] : m);         \
            v.FIELD = m;                                                                     \
        }                                                                                    \
    } while (0)
    switch (dtype) {
    case RB_DTYPE_I32: MPI_PACK_REDUCE(int32_t, uint32_t, i, (int32_t)); break;
    case RB_DTYPE_I64: MPI_PACK_REDUCE(int64_t, uint64_t, i, (int64_t)); break;
    case RB_DTYPE_F32: MPI_PACK_REDUCE(float, double, f, (double)); break;
    default: MPI_PACK_REDUCE(double, double, f, (double)); break;
    }
#undef MPI_PACK_REDUCE
    return v;
}

/* The local answer as one element of the dtype, for a collective of one. */
static inline void mpi_pack_value_bytes(int dtype, const mpi_value *v, void *out)
{
    switch (dtype) {
    case RB_DTYPE_I32: *(int32_t *)out = (int32_t)v->i; break;
    case RB_DTYPE_I64: *(int64_t *)out = v->i; break;
    case RB_DTYPE_F32: *(float *)out = (float)v->f; break;
    default: *(double *)out = v->f; break;
    }
}

static inline void mpi_pack_value_from(int dtype, const void *in, mpi_value *v)
{
    switch (dtype) {
    case RB_DTYPE_I32: v->i = *(const int32_t *)in; break;
    case RB_DTYPE_I64: v->i = *(const int64_t *)in; break;
    case RB_DTYPE_F32: v->f = *(const float *)in; break;
    default: v->f = *(const double *)in; break;
    }
}

static const char *const mpi_stage_words[] = {"vector", "local", NULL};

/* The parameter `stage` (mpi_state.local_first) of a strategy that can
 * reduce each slice first, with its help text. */
#define MPI_PACK_PARAM_STAGE(HELP)                                                         \
    {.name = "stage", .type = RB_PARAM_CHOICE, .default_value = "vector",                  \
     .choices = mpi_stage_words, .help = (HELP)}

static const char *const mpi_result_words[] = {"value", "vector", NULL};

/* The parameter `result` (mpi_state.vector) of an all-reduce: value, the
 * one value (the element-wise all-reduce reduced locally); vector, the
 * n-element all-reduce alone, handed to the host whole (ABI 1.4). */
#define MPI_PACK_PARAM_RESULT                                                               \
    {.name = "result", .type = RB_PARAM_CHOICE, .default_value = "value",                  \
     .choices = mpi_result_words,                                                          \
     .help = "value: then reduce locally to one value; vector: the n-element all-reduce "  \
             "alone, judged element by element"}

/* Whether `result = vector` is asked for. */
static inline int mpi_pack_vector(const rb_config *cfg)
{
    const rb_param_value *v = rb_param(cfg, "result");
    return v && v->i == 1;
}

/* Declines what MPI's int counts cannot hold, and, with `power_of_two`, a
 * rank count that is not a power of two. */
static inline int mpi_pack_check(const rb_config *cfg, int power_of_two)
{
    if (power_of_two && (cfg->n_ranks & (cfg->n_ranks - 1))) {
        cfg->host->error(cfg->host, "needs a power of two ranks, not %u", cfg->n_ranks);
        return RB_UNSUPPORTED;
    }
    if (cfg->n > 0x7fffffffu) {
        cfg->host->error(cfg->host, "MPI counts are ints: at most 2^31-1 elements per rank");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static inline int mpi_pack_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    if (mpi_pack_vector(cfg) && rb_param_int(cfg, "stage", 0) == 1) {
        cfg->host->error(cfg->host, "result = vector is the all-reduce of the vectors: not "
                         "with stage = local");
        return RB_UNSUPPORTED;
    }
    return mpi_pack_check(cfg, 0);
}

/* MPI's own collective of the ranks' `count` elements, element by element,
 * with the configuration's op and dtype: `root` < 0, MPI_Allreduce into
 * `out` on every rank; else MPI_Reduce into `out` on rank `root`. */
static inline int mpi_pack_reduce_ranks(const rb_config *c, const void *in, void *out,
                                        int count, int root)
{
    MPI_Datatype type = mpi_pack_type(c->dtype);
    MPI_Op op = mpi_pack_op(c->op);
    int st = root < 0 ? MPI_Allreduce(in, out, count, type, op, MPI_COMM_WORLD)
                      : MPI_Reduce(in, out, count, type, op, root, MPI_COMM_WORLD);
    return st == MPI_SUCCESS ? RB_OK : RB_ERROR;
}

/* `stage = local`, or a plugin that reduces each slice first: the slice's
 * value, then `root` < 0: MPI_Allreduce of the ranks' values into the
 * answer on every rank; else MPI_Reduce to rank `root`. */
static inline int mpi_pack_local_first(mpi_state *s, int root)
{
    const rb_config *c = s->cfg;
    mpi_value mine = mpi_pack_reduce(c->op, c->dtype, c->input, c->n);
    char in[8], out[8];
    mpi_pack_value_bytes(c->dtype, &mine, in);
    if (mpi_pack_reduce_ranks(c, in, out, 1, root) != RB_OK)
        return RB_ERROR;
    if (root < 0 || (uint32_t)root == c->rank)
        mpi_pack_value_from(c->dtype, out, &s->answer);
    return RB_OK;
}

/* MPI's own collective of the ranks' n-element vectors, then the local
 * reduction of the result to the answer: `root` < 0, MPI_Allreduce (every
 * rank reduces); else MPI_Reduce to rank `root` (which alone reduces).
 * `stage = local` takes the other order (mpi_pack_local_first). */
static inline int mpi_pack_collective(mpi_state *s, int root)
{
    const rb_config *c = s->cfg;
    if (s->local_first)
        return mpi_pack_local_first(s, root);
    if (mpi_pack_reduce_ranks(c, c->input, s->work, (int)c->n, root) != RB_OK)
        return RB_ERROR;
    if (s->vector)
        return RB_OK;
    if (root < 0 || (uint32_t)root == c->rank)
        s->answer = mpi_pack_reduce(c->op, c->dtype, s->work, c->n);
    return RB_OK;
}

/* Starts MPI and allocates the two n-element buffers. */
static inline int mpi_pack_init(const rb_config *cfg, void **out)
{
    int st = mpi_pack_start(cfg);
    if (st != RB_OK)
        return st;
    mpi_state *s = calloc(1, sizeof *s);
    size_t bytes = (size_t)cfg->n * rb_dtype_size(cfg->dtype);
    if (!s || !(s->work = malloc(bytes)) || !(s->scratch = malloc(bytes))) {
        if (s) {
            free(s->work);
            free(s);
        }
        cfg->host->error(cfg->host, "out of host memory for two buffers of %zu bytes", bytes);
        return RB_ERROR;
    }
    s->cfg = cfg;
    s->local_first = rb_param_int(cfg, "stage", 0) == 1;
    s->vector = mpi_pack_vector(cfg);
    *out = s;
    return RB_OK;
}

static inline int mpi_pack_verify(void *state, rb_result *result)
{
    mpi_state *s = state;
    if (s->vector) {
        const rb_config *c = s->cfg;
        if (result->size < offsetof(rb_result, n_elements) + sizeof result->n_elements ||
            !result->elements) {
            c->host->error(c->host, "result = vector: this host takes no vector answer");
            return RB_ERROR;
        }
        memcpy(result->elements, s->work, (size_t)c->n * rb_dtype_size(c->dtype));
        result->n_elements = c->n;
        return RB_OK;
    }
    result->i = s->answer.i;
    result->f = s->answer.f;
    return RB_OK;
}

static inline void mpi_pack_teardown(void *state)
{
    mpi_state *s = state;
    free(s->work);
    free(s->scratch);
    free(s);
}

/* The descriptor's fields that every strategy of the pack has: the ABI it
 * was built with, the cpu backend, the ops and dtypes above, the state's
 * callbacks and the launch by mpirun. A strategy's descriptor adds its
 * name, summary, parameters, describe, run and collective. */
#define MPI_PACK_DESCRIPTOR_FIELDS                                                        \
    RB_PLUGIN_ABI_FIELDS, .version = "1.0", .backend = "cpu", .ops = MPI_PACK_OPS,         \
    .dtypes = MPI_PACK_DTYPES, .init = mpi_pack_init, .verify = mpi_pack_verify,           \
    .teardown = mpi_pack_teardown, .rank_launch = RB_RANK_LAUNCH_MPI

#endif
