/* plugins/mpi/ring.c: a ring all-reduce written over point-to-point
 * messages, as NCCL's ring does it: the vector in r chunks; r-1 steps of
 * reduce-scatter, each rank sending one chunk to the next rank and adding
 * the one it receives from the previous; then r-1 steps that pass the
 * reduced chunks around. Each rank then reduces the result to the answer
 * (or, with `result = vector`, hands the vector to the host).
 * The bug it is most likely to have: a chunk boundary off by one, when n is
 * not a multiple of r (tests/procs/ranks cover odd n). */
#include "mpi_pack.h"

static const rb_param_spec params[] = {MPI_PACK_PARAM_RESULT};

/* Where chunk k of r starts in n elements (the first n % r are one longer). */
static size_t chunk_start(size_t n, int r, int k)
{
    size_t base = n / (size_t)r, extra = n % (size_t)r;
    return base * (size_t)k + ((size_t)k < extra ? (size_t)k : extra);
}

static int run(void *state)
{
    mpi_state *s = state;
    const rb_config *c = s->cfg;
    size_t size = rb_dtype_size(c->dtype), n = c->n;
    int r = (int)c->n_ranks, me = (int)c->rank;
    int next = (me + 1) % r, prev = (me + r - 1) % r;
    MPI_Datatype type = mpi_pack_type(c->dtype);
    char *work = s->work, *scratch = s->scratch;
    memcpy(work, c->input, n * size);
    for (int step = 0; step < r - 1; step++) {
        int send = (me - step + r) % r, recv = (me - step - 1 + 2 * r) % r;
        size_t s0 = chunk_start(n, r, send), s1 = chunk_start(n, r, send + 1);
        size_t r0 = chunk_start(n, r, recv), r1 = chunk_start(n, r, recv + 1);
        if (MPI_Sendrecv(work + s0 * size, (int)(s1 - s0), type, next, 0, scratch, (int)(r1 - r0),
                         type, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return RB_ERROR;
        mpi_pack_combine(c->op, c->dtype, work + r0 * size, scratch, r1 - r0);
    }
    for (int step = 0; step < r - 1; step++) {
        int send = (me + 1 - step + r) % r, recv = (me - step + r) % r;
        size_t s0 = chunk_start(n, r, send), s1 = chunk_start(n, r, send + 1);
        size_t r0 = chunk_start(n, r, recv), r1 = chunk_start(n, r, recv + 1);
        if (MPI_Sendrecv(work + s0 * size, (int)(s1 - s0), type, next, 1, work + r0 * size,
                         (int)(r1 - r0), type, prev, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return RB_ERROR;
    }
    if (!s->vector)
        s->answer = mpi_pack_reduce(c->op, c->dtype, work, n);
    return RB_OK;
}

static const rb_plugin descriptor = {
    MPI_PACK_DESCRIPTOR_FIELDS,
    .name = "ring",
    .summary = "ring all-reduce over MPI point-to-point (reduce-scatter, all-gather), then local",
    RB_PLUGIN_PARAMS(params),
    .describe = mpi_pack_describe,
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
};

RB_PLUGIN_ENTRY(descriptor)
