/* src/run/rank_serve.h: a rank's own run (rank_serve.c): the rank processes
 * that the leader forks, that mpirun starts, or that a launcher's other
 * processes start, each serving its slice of one configuration. */
#ifndef RB_RANK_SERVE_H
#define RB_RANK_SERVE_H

#include <stdint.h>

#include "run/runner_state.h"

/* How the runner runs one configuration on this process's device, as this
 * process's rank (r->rank of r->n_ranks): handed to the functions below,
 * and to ranks_run, which start rank processes that call it. */
typedef void (*rank_run_fn)(runner *r, const rb_configuration *cfg, rb_row *row);

/* Runs configuration `cfg` as rank `rank` of `ranks` over socket `fd` and
 * sends the row; then each next configuration the leader names (NEXT),
 * until it ends the group (END: group_close) or is gone. Ends the process
 * (with exit when whole_program, so that an MPI plugin finalizes MPI; else
 * with _exit). */
void rank_main(runner *r, const rb_configuration *cfg, uint32_t rank, uint32_t ranks, int fd,
               int whole_program, rank_run_fn run);

/* In a rank, before the configuration's init: the plugin's group_open,
 * once per group (ABI 1.4), on the device this rank opened. Returns 0, or
 * -1 with the row's reason set. */
int ranks_open_group(runner *r, const rb_plugin *p, void *queue, rb_row *row);

/* Under a launcher (run/rank_hub.h): process 0 meets the others, which
 * serve it and never return; ranks_stop_hub after the run lets them end. */
void ranks_start_hub(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                     const rb_runner_options *opt, rank_run_fn run);
void ranks_stop_hub(void);

/* A process that mpirun started as a rank (REDBENCH_RANK_OF is set):
 * serves configuration REDBENCH_RANK_CONFIG of the sweep as its rank, and
 * the next ones its leader names, then ends the process.
 * Returns only when this process is not such a rank. */
void ranks_serve_if_asked(const rb_experiment *exp, const rb_registry *reg,
                          const rb_sweep *sweep, const rb_runner_options *opt, rank_run_fn run);

#endif
