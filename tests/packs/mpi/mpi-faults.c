/* tests/packs/mpi/mpi-faults.c: MPI_Allreduce of each rank's slice sum, with
 * planted faults for the rank machinery's MPI tests: `bug = crash` makes
 * rank 1 crash in its third run, `bug = hang` makes it stop answering
 * there (the others wait in MPI_Allreduce), `bug = none` is correct. The
 * third run counts from the configuration's init. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../../plugins/mpi/mpi_pack.h"

static const char *const bug_words[] = {"none", "crash", "hang", NULL};

static const rb_param_spec params[] = {
    {.name = "bug", .type = RB_PARAM_CHOICE, .default_value = "none", .choices = bug_words,
     .help = "the fault to plant on rank 1 (none: correct)"},
};

static int runs; /* of the configuration in progress: a rank's process runs
                   several configurations of its group */

static int init(const rb_config *cfg, void **state)
{
    runs = 0;
    return mpi_pack_init(cfg, state);
}

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
    RB_PLUGIN_ABI_FIELDS, .version = "1.0", .backend = "cpu", .ops = MPI_PACK_OPS,
    .dtypes = MPI_PACK_DTYPES, .verify = mpi_pack_verify, .teardown = mpi_pack_teardown,
    .rank_launch = RB_RANK_LAUNCH_MPI,
    .name = "mpi-faults",
    .summary = "MPI_Allreduce of slice sums, with a crash or hang planted on rank 1",
    RB_PLUGIN_PARAMS(params),
    .init = init,
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
};

RB_PLUGIN_ENTRY(descriptor)
