/* src/run/runner.h: runs a sweep. For each data group (run section x op x dtype
 * x n x distribution) it generates the input once, computes the reference,
 * uploads it once through the backend, and then for each configuration
 * reading it: describe, init, warm-up, timed repetitions (until min_time and
 * the noise target, within max_reps), verify, judge, teardown. Plugins run
 * in worker processes unless isolation is off (isolate.h). */
#ifndef RB_RUNNER_H
#define RB_RUNNER_H

#include <signal.h>

#include "config/experiment.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "procs/role.h"
#include "results/rows.h"

/* Where plugins run. */
enum rb_isolation_mode {
    RB_ISOLATION_WORKER = 0, /* in a worker process that runs configurations
                                one after another until one crashes, hangs
                                or leaves its device unusable; then a fresh
                                one goes on (the default) */
    RB_ISOLATION_GROUP,      /* a fresh worker for each data group: stricter,
                                but each pays for opening the device again
                                (a CUDA context) */
    RB_ISOLATION_NONE        /* in this process, for debugging: a crash or a
                                hang ends the run (--no-isolation) */
};

typedef struct rb_runner_options {
    int verbosity;
    int progress;       /* report finished rows to run/progress.h */
    int isolation;      /* enum rb_isolation_mode; 0 is the default */
} rb_runner_options;

/* Set by signal handlers (async-signal-safe to set). stop_requested: start
 * no more configurations; the one in progress finishes. stop_now: abandon
 * the one in progress too (its worker is killed; with isolation off it
 * cannot be abandoned). */
extern volatile sig_atomic_t runner_stop_requested;
extern volatile sig_atomic_t runner_stop_now;

/* Fills res->rows (one per configuration, in sweep order) and the devices in
 * res->info. Configurations not run because of a stop are `skipped`, saying
 * so. Returns 0; rows carry every failure. */
int runner_run(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
               const rb_runner_options *opt, rb_results *res);

/* A process whose role (procs/role.h, decided in cli/main.c) is to serve
 * ranks: a rank that mpirun started serves its configurations of `sweep`;
 * a launcher's process k > 0 serves process 0's requests. Ends the
 * process; never returns. */
void runner_serve(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                  const rb_runner_options *opt, int role) __attribute__((noreturn));

#endif
