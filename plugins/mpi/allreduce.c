/* plugins/mpi/allreduce.c: MPI_Allreduce of the ranks' vectors, element by
 * element, then each rank reduces the result to the answer; `stage = local`
 * reduces each slice first and all-reduces one value; `result = vector`
 * times the all-reduce alone and hands the n-element vector to the host. */
#include "mpi_pack.h"

static const rb_param_spec params[] = {
    MPI_PACK_PARAM_STAGE(
        "vector: all-reduce n elements, then reduce locally; local: the reverse"),
    MPI_PACK_PARAM_RESULT,
};

static int run(void *state)
{
    return mpi_pack_collective(state, -1);
}

static const rb_plugin descriptor = {
    MPI_PACK_DESCRIPTOR_FIELDS,
    .name = "allreduce",
    .summary = "MPI_Allreduce of the vectors (or of each slice's value), then a local reduce",
    RB_PLUGIN_PARAMS(params),
    .describe = mpi_pack_describe,
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
};

RB_PLUGIN_ENTRY(descriptor)
