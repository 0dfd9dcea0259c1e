/* src/procs/ranks.c: the ranks' leader (procs/ranks.h): for a configuration
 * run as several ranks, the worker that meets it starts the rank processes
 * (procs/rank_launch.c: forked; through mpirun for an MPI plugin; or from
 * the launcher's other processes, procs/rank_hub.h), or names the
 * configuration to the group it kept up from the last one; watches them
 * until every row is in or the group fails (procs/rank_supervise.c), merges
 * their rows into the configuration's row (through the runner's table,
 * procs/rank_service.h), and keeps
 * the group up for the next configuration of the same plugin and ranks,
 * or ends it after a fault. A rank's own run is procs/rank_serve.c; its side
 * of the link is procs/rank_link.c. */
#include "procs/ranks.h"

#include <stdlib.h>
#include <string.h>

#include <sys/types.h>

#include "base/names.h"
#include "base/util.h"
#include "procs/isolate.h"
#include "procs/rank_hub.h"
#include "procs/rank_launch.h"
#include "procs/rank_supervise.h"

int ranks_wanted(const rb_configuration *cfg)
{
    if (!cfg->plugin)
        return 0;
    return cfg->ranks > 1 || cfg->plugin->desc->rank_launch == RB_RANK_LAUNCH_MPI;
}

/* The group kept up after its last configuration, for the next ones of
 * the same plugin and ranks in this worker; NULL when none. */
static rank_group *kept;

static void free_group(rank_group *g)
{
    for (uint32_t k = 0; k < g->n; k++) {
        free(g->procs[k].samples);
        row_release(&g->procs[k].row);
    }
    free(g->procs);
    free(g);
}

void ranks_end_kept(void)
{
    if (!kept)
        return;
    isolate_keep_processes(NULL, 0);
    end_group_in_order(kept);
    free_group(kept);
    kept = NULL;
}

/* The processes of group `g` that its worker keeps up. */
static void keep_group(rank_group *g)
{
    pid_t *pids = xcalloc(g->n + 1, sizeof *pids);
    size_t count = 0;
    for (uint32_t k = 0; k < g->n; k++)
        if (g->procs[k].pid > 0)
            pids[count++] = g->procs[k].pid;
    if (g->launcher > 0)
        pids[count++] = g->launcher;
    isolate_keep_processes(pids, count);
    free(pids);
    kept = g;
}

static rank_group *new_group(const rank_service *s, const rb_configuration *cfg)
{
    rank_group *g = xcalloc(1, sizeof *g);
    g->serve = s;
    g->cfg = cfg;
    g->n = cfg->ranks ? cfg->ranks : 1;
    g->listen_fd = -1;
    g->forwarded_step = -1;
    g->configs = 1;
    g->procs = xcalloc(g->n, sizeof *g->procs);
    for (uint32_t k = 0; k < g->n; k++)
        g->procs[k].fd = -1;
    return g;
}

/* Starts a fresh group's rank processes for `cfg`; 0, or -1 after
 * group_fail. */
static int launch_group(rank_group *g)
{
    const rb_plugin *p = g->cfg->plugin->desc;
    if (p->rank_launch == RB_RANK_LAUNCH_MPI)
        return hub_size() == g->n ? launch_hub_mpi_ranks(g) : launch_mpi_ranks(g);
    if (hub_size() && hub_size() == g->n)
        return launch_hub_ranks(g);
    return fork_ranks(g, g->n);
}

void ranks_run(const rank_service *s, const rb_configuration *cfg, rb_row *row,
               int devices_open)
{
    const rb_plugin *p = cfg->plugin->desc;
    if (p->collective == RB_COLLECTIVE_NONE) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "%s runs on one device: it declares no "
                       "collective, so ranks = %u cannot run it", p->name, cfg->ranks);
        return;
    }
    if (cfg->op != RB_OP_SUM && cfg->op != RB_OP_MIN && cfg->op != RB_OP_MAX) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "%s across ranks: only sum, min and max are "
                       "reduced across ranks", op_name(cfg->op));
        return;
    }
    if (devices_open) {
        row_set_status(row, RB_ROW_SKIPPED, "rank processes cannot start from a process that "
                       "has opened a device (run without --no-isolation)");
        return;
    }
    uint32_t n = cfg->ranks ? cfg->ranks : 1;
    const char *lost = hub_mpi_lost();
    if (p->rank_launch == RB_RANK_LAUNCH_MPI && hub_size() == n && lost) {
        row_set_status(row, RB_ROW_SKIPPED, "MPI cannot start again in this launcher's job "
                       "(an MPI process initialises it once per job), and an earlier MPI "
                       "row ended the MPI ranks of its processes: %s", lost);
        row->ranks = n;
        return;
    }
    isolate_step(RB_STEP_INPUT);
    rank_group *g = NULL;
    if (kept) {
        g = kept;
        kept = NULL;
        isolate_keep_processes(NULL, 0);
        if (!group_fits(g, cfg)) {
            end_group_in_order(g);
            free_group(g);
            g = NULL;
        } else if (restart_group(g, cfg) != 0) {
            end_group(g);
            free_group(g);
            g = NULL;
        }
    }
    if (!g) {
        g = new_group(s, cfg);
        launch_group(g); /* a failure to start is in g->failure */
    }
    if (!g->failure[0])
        supervise_group(g, s->exp->timeout);
    if (g->failure[0]) {
        row_set_status(row, RB_ROW_FAILED, "%s%s", g->failure, g->hub_mpi ?
                       "; the launcher's MPI ranks are ended, and the job's later MPI rows "
                       "are skipped (MPI starts once per job)" : "");
        row->ranks = g->n;
    } else {
        s->merge(cfg, g->procs, g->n, row);
    }
    const rb_run_info *info = s->devices(s->user);
    for (size_t k = 0; k < info->n_devices; k++)
        if (strcmp(info->devices[k].backend, p->backend) == 0)
            row->device_index = (int)k;
    /* a group stays up for the next configuration unless it failed: a
     * fault ends it, and the next configuration gets a fresh one */
    if (!g->failure[0] && row->status != RB_ROW_FAILED && !*s->stop_now) {
        for (uint32_t k = 0; k < g->n; k++) {
            free(g->procs[k].samples);
            g->procs[k].samples = NULL;
        }
        keep_group(g);
        return;
    }
    if (g->hub_mpi && !g->failure[0] && !*s->stop_now)
        end_group_in_order(g); /* every rank is there: MPI stays up for the next rows */
    else
        end_group(g);
    free_group(g);
}
