/* src/run/ranks.c: the ranks' leader (run/ranks.h): for a configuration
 * run as several ranks, the worker that meets it starts the rank processes
 * (run/rank_launch.c: forked; through mpirun for an MPI plugin; or from
 * the launcher's other processes, run/rank_hub.h), watches them until
 * every row is in or the group fails (run/rank_supervise.c), merges their
 * rows into the configuration's row (run/row_finish.c), and ends them. A
 * rank's own run is run/rank_serve.c; its side of the link is
 * run/rank_link.c. */
#include "run/ranks.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "run/isolate.h"
#include "run/rank_hub.h"
#include "run/rank_launch.h"
#include "run/rank_supervise.h"
#include "run/row_finish.h"

int ranks_wanted(const rb_configuration *cfg)
{
    if (!cfg->plugin)
        return 0;
    return cfg->ranks > 1 || cfg->plugin->desc->rank_launch == RB_RANK_LAUNCH_MPI;
}

void ranks_run(runner *r, const rb_configuration *cfg, rb_row *row, rank_run_fn run)
{
    const rb_plugin *p = cfg->plugin->desc;
    if (p->collective == RB_COLLECTIVE_NONE) {
        runner_set_reason(row, RB_ROW_UNSUPPORTED, "%s runs on one device: it declares no "
                          "collective, so ranks = %u cannot run it", p->name, cfg->ranks);
        return;
    }
    if (cfg->op != RB_OP_SUM && cfg->op != RB_OP_MIN && cfg->op != RB_OP_MAX) {
        runner_set_reason(row, RB_ROW_UNSUPPORTED, "%s across ranks: only sum, min and max are "
                          "reduced across ranks", op_name(cfg->op));
        return;
    }
    if (r->n_backends > 0) {
        runner_set_reason(row, RB_ROW_SKIPPED, "rank processes cannot start from a process that "
                          "has opened a device (run without --no-isolation)");
        return;
    }
    rank_group g;
    memset(&g, 0, sizeof g);
    g.r = r;
    g.cfg = cfg;
    g.run = run;
    g.n = cfg->ranks ? cfg->ranks : 1;
    g.listen_fd = -1;
    g.forwarded_step = -1;
    g.procs = xcalloc(g.n, sizeof *g.procs);
    for (uint32_t k = 0; k < g.n; k++)
        g.procs[k].fd = -1;
    isolate_step(RB_STEP_INPUT);
    int started;
    if (p->rank_launch == RB_RANK_LAUNCH_MPI && hub_size()) {
        runner_set_reason(row, RB_ROW_SKIPPED, "%s's ranks are MPI processes that redbench "
                          "starts with mpirun itself; under a launcher it cannot (run redbench "
                          "without mpirun for them)", p->name);
        free(g.procs);
        return;
    }
    if (p->rank_launch == RB_RANK_LAUNCH_MPI)
        started = launch_mpi_ranks(&g);
    else if (hub_size() && hub_size() == g.n)
        started = launch_hub_ranks(&g);
    else
        started = fork_ranks(&g, g.n);
    if (started == 0)
        supervise_group(&g, r->exp->timeout);
    if (g.failure[0]) {
        runner_set_reason(row, RB_ROW_FAILED, "%s", g.failure);
        row->ranks = g.n;
    } else {
        row_merge_ranks(&g, row);
    }
    for (size_t k = 0; k < r->res->info.n_devices; k++)
        if (strcmp(r->res->info.devices[k].backend, p->backend) == 0)
            row->device_index = (int)k;
    end_group(&g);
    for (uint32_t k = 0; k < g.n; k++)
        free(g.procs[k].samples);
    free(g.procs);
}
