/* plugins/mpi/doubling.c: a recursive-doubling all-reduce over
 * point-to-point messages: log2(r) steps, in step k each rank swaps its
 * whole vector with the rank 2^k away and combines the two. Needs a power
 * of two ranks. Each rank then reduces the result to the answer
 * (or, with `result = vector`, hands the vector to the host). */
#include "mpi_pack.h"

static const rb_param_spec params[] = {MPI_PACK_PARAM_RESULT};

static int run(void *state)
{
    mpi_state *s = state;
    const rb_config *c = s->cfg;
    size_t n = c->n;
    int r = (int)c->n_ranks, me = (int)c->rank;
    MPI_Datatype type = mpi_pack_type(c->dtype);
    memcpy(s->work, c->input, n * rb_dtype_size(c->dtype));
    for (int mask = 1; mask < r; mask <<= 1) {
        int peer = me ^ mask;
        if (MPI_Sendrecv(s->work, (int)n, type, peer, mask, s->scratch, (int)n, type, peer, mask,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return RB_ERROR;
        mpi_pack_combine(c->op, c->dtype, s->work, s->scratch, n);
    }
    if (!s->vector)
        s->answer = mpi_pack_reduce(c->op, c->dtype, s->work, n);
    return RB_OK;
}

static int describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    return mpi_pack_check(cfg, 1);
}

static const rb_plugin descriptor = {
    MPI_PACK_DESCRIPTOR_FIELDS,
    .name = "doubling",
    .summary = "recursive-doubling all-reduce over MPI point-to-point, then a local reduce",
    RB_PLUGIN_PARAMS(params),
    .describe = describe,
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
};

RB_PLUGIN_ENTRY(descriptor)
