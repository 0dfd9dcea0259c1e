/* src/run/ranks.h: configurations that run as several ranks, one process per
 * rank on one device each, that reduce all ranks' data together.
 *
 * The worker that meets such a configuration becomes the ranks' leader: it
 * starts one rank process per rank (forked, or through mpirun for a plugin
 * whose ranks are MPI processes), relays what the ranks exchange (rb_host's
 * exchange, and the host's own agreements: whether every rank got through
 * a step, when to stop measuring, the reference of the whole data set),
 * watches each rank's step, and ends them all when one crashes or stops
 * answering. Each rank makes its own seeded slice of the data, runs the
 * usual steps on it (the runner's, handed in as a rank_run_fn) and is
 * judged against the reference of all slices (run/rank_link.h); the leader merges the ranks' rows into one: the slowest
 * rank's time per call, the slowest and fastest rank, the ranks judged
 * wrong, algbw and busbw as nccl-tests reports them. */
#ifndef RB_RANKS_H
#define RB_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "run/rank_link.h"
#include "run/results.h"
#include "run/runner_state.h"

/* Whether a configuration runs through ranks: more than one rank, or a
 * plugin whose ranks are MPI processes. */
int ranks_wanted(const rb_configuration *cfg);

/* How the runner runs one configuration on this process's device, as this
 * process's rank (r->rank of r->n_ranks): handed to the functions below,
 * which start rank processes that call it. */
typedef void (*rank_run_fn)(runner *r, const rb_configuration *cfg, rb_row *row);

/* In the leader: runs the configuration as cfg->ranks rank processes, each
 * calling `run`, and fills the row with their merged rows. */
void ranks_run(runner *r, const rb_configuration *cfg, rb_row *row, rank_run_fn run);

/* The row's ranks, elements in total and bus bandwidth (after its
 * bandwidth is known). */
void ranks_finish_row(const runner *r, const rb_configuration *cfg, rb_row *row);

/* Under a launcher (run/rank_hub.h): process 0 meets the others, which
 * serve it and never return; ranks_stop_hub after the run lets them end. */
void ranks_start_hub(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                     const rb_runner_options *opt, rank_run_fn run);
void ranks_stop_hub(void);

/* In the parent after the run: each multi-rank row's scaling efficiency
 * against the one-rank row of the same configuration in the same run. */
void ranks_scaling(rb_results *res);

/* A process that mpirun started as a rank (REDBENCH_RANK_OF is set):
 * serves configuration 0 of the sweep as its rank, then ends the process.
 * Returns only when this process is not such a rank. */
void ranks_serve_if_asked(const rb_experiment *exp, const rb_registry *reg,
                          const rb_sweep *sweep, const rb_runner_options *opt, rank_run_fn run);

#endif
