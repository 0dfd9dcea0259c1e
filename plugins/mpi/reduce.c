/* plugins/mpi/reduce.c: MPI_Reduce of the ranks' vectors to rank 0, which
 * reduces the result to the answer; `stage = local` reduces each slice
 * first and reduces one value to rank 0. Only rank 0 holds the answer. */
#include "mpi_pack.h"

static const rb_param_spec params[] = {
    {.name = "stage", .type = RB_PARAM_CHOICE, .default_value = "vector",
     .choices = mpi_stage_words,
     .help = "vector: reduce n elements to rank 0, then reduce there; local: the reverse"},
};

static int run(void *state)
{
    mpi_state *s = state;
    const rb_config *c = s->cfg;
    MPI_Datatype type = mpi_pack_type(c->dtype);
    MPI_Op op = mpi_pack_op(c->op);
    if (s->local_first)
        return mpi_pack_local_first(s, 0);
    if (MPI_Reduce(c->input, s->work, (int)c->n, type, op, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return RB_ERROR;
    if (c->rank == 0)
        s->answer = mpi_pack_reduce(c->op, c->dtype, s->work, c->n);
    return RB_OK;
}

static const rb_plugin descriptor = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "reduce",
    .summary = "MPI_Reduce of the vectors to rank 0 (or of each slice's value), then a local reduce",
    .version = "1.0",
    .backend = "cpu",
    .ops = MPI_PACK_OPS,
    .dtypes = MPI_PACK_DTYPES,
    .params = params,
    .n_params = 1,
    .describe = mpi_pack_describe,
    .init = mpi_pack_init,
    .run = run,
    .verify = mpi_pack_verify,
    .teardown = mpi_pack_teardown,
    .collective = RB_COLLECTIVE_REDUCE,
    .rank_launch = RB_RANK_LAUNCH_MPI,
};

RB_PLUGIN_ENTRY(descriptor)
