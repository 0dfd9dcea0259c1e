/* src/run/rank_entry.h: the runner's side of the rank processes
 * (rank_entry.c): the table procs/ runs a rank, merges a group's rows and
 * ends a group with (procs/rank_service.h), for this process's runner or
 * for a fresh one. */
#ifndef RB_RANK_ENTRY_H
#define RB_RANK_ENTRY_H

#include "config/experiment.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "procs/rank_service.h"
#include "results/rows.h"
#include "run/runner.h"
#include "run/runner_state.h"

/* The table through which procs/ runs configurations as ranks of `r`, the
 * runner of this process (and merges their rows, in a leader). */
void rank_entry_fill(runner *r, rank_service *s);

/* The table of a fresh runner of this process, for the rank processes
 * that a launcher's processes start (procs/rank_hub.h) and for a rank
 * that mpirun started: made once per process. */
const rank_service *rank_entry_fresh(const rb_experiment *exp, const rb_registry *reg,
                                     const rb_sweep *sweep, const rb_runner_options *opt);

#endif
