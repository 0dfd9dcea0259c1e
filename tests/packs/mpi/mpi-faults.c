/* tests/packs/mpi/mpi-faults.c: MPI_Allreduce of each rank's slice sum, with
 * planted faults for the rank machinery's MPI tests: `bug = crash` makes
 * rank 1 crash in its third run, `bug = hang` makes it stop answering
 * there (the others wait in MPI_Allreduce), `bug = none` is correct. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../../plugins/mpi/mpi_pack.h"

static const char *const bug_words[] = {"none", "crash", "hang", NULL};

static const rb_param_spec params[] = {
    {.name = "bug", .type = RB_PARAM_CHOICE, .default_value = "none", .choices = bug_words,
     .help = "the fault to plant on rank 1 (none: correct)"},
};

static int runs;

static int run(void *state)
{
    mpi_state *s = state;
    const rb_config *c = s->cfg;
    int bug = (int)rb_param_int(c, "bug", 0);
    if (c->rank == 1 && ++runs == 3) {
        if (bug == 1)
            abort(); /* SIGABRT: sanitizers leave it alone, unlike SIGSEGV */
        if (bug == 2)
            for (;;)
                pause();
    }
    return mpi_pack_local_first(s, -1);
}

static const rb_plugin descriptor = {
    MPI_PACK_DESCRIPTOR_FIELDS,
    .name = "mpi-faults",
    .summary = "MPI_Allreduce of slice sums, with a crash or hang planted on rank 1",
    RB_PLUGIN_PARAMS(params),
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
};

RB_PLUGIN_ENTRY(descriptor)
