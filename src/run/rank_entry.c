/* src/run/rank_entry.c: the runner's side of the rank processes
 * (run/rank_entry.h). procs/ starts the processes, links them and watches
 * them; here a rank's configuration is cut to its slice and run on its
 * device (run/on_device.c), the plugin's group_close is called when its
 * group ends (run/group_state.c), the devices a rank opened are handed
 * over and a group's rows are merged into one (run/row_finish.c). */
#include "run/rank_entry.h"

#include <string.h>

#include "run/group_state.h"
#include "run/rank_slice.h"
#include "run/row_finish.h"

/* Runs configuration `cfg` as rank at->rank of at->ranks: its slice of
 * the data, on this process's device. */
static void run_as_rank(void *user, const rank_place *at, const rb_configuration *cfg,
                        rb_row *row)
{
    runner *r = user;
    r->place = *at;
    rb_configuration mine = *cfg;
    mine.n = ranks_count(r->exp, cfg->n, at->rank, at->ranks, &r->slice.offset);
    r->slice.n_total = 0;
    for (uint32_t k = 0; k < at->ranks; k++) {
        uint64_t offset;
        r->slice.n_total += ranks_count(r->exp, cfg->n, k, at->ranks, &offset);
    }
    runner_run_on_device(r, &mine, row);
}

static rb_run_info *devices_of(void *user)
{
    runner *r = user;
    return &r->res->info;
}

/* The group ends: in order, the plugin's group_close for what its
 * group_open made. */
static void end_of_group(void *user, int in_order)
{
    runner *r = user;
    group_state_close(&r->group, in_order);
}

static void drop_data(void *user)
{
    runner_drop_data(user);
}

void rank_entry_fill(runner *r, rank_service *s)
{
    *s = (rank_service){
        .exp = r->exp,
        .sweep = r->sweep,
        .verbosity = r->opt->verbosity,
        .stop_now = &runner_stop_now,
        .user = r,
        .run = run_as_rank,
        .devices = devices_of,
        .group_end = end_of_group,
        .drop_data = drop_data,
        .merge = row_merge_ranks,
    };
}

const rank_service *rank_entry_fresh(const rb_experiment *exp, const rb_registry *reg,
                                     const rb_sweep *sweep, const rb_runner_options *opt)
{
    static runner r;
    static rb_results res;
    static rank_service s;
    memset(&r, 0, sizeof r);
    memset(&res, 0, sizeof res);
    r.exp = exp;
    r.reg = reg;
    r.sweep = sweep;
    r.opt = opt;
    r.res = &res;
    res.info.experiment = exp;
    rank_entry_fill(&r, &s);
    return &s;
}
