/* plugins/mpi/reduce.c: MPI_Reduce of the ranks' vectors to rank 0, which
 * reduces the result to the answer; `stage = local` reduces each slice
 * first and reduces one value to rank 0. Only rank 0 holds the answer. */
#include "mpi_pack.h"

static const rb_param_spec params[] = {
    MPI_PACK_PARAM_STAGE(
        "vector: reduce n elements to rank 0, then reduce there; local: the reverse"),
};

static int run(void *state)
{
    return mpi_pack_collective(state, 0);
}

static const rb_plugin descriptor = {
    MPI_PACK_DESCRIPTOR_FIELDS,
    .name = "reduce",
    .summary = "MPI_Reduce of the vectors to rank 0 (or of each slice's value), then a local reduce",
    RB_PLUGIN_PARAMS(params),
    .describe = mpi_pack_describe,
    .run = run,
    .collective = RB_COLLECTIVE_REDUCE,
};

RB_PLUGIN_ENTRY(descriptor)
