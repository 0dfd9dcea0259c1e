/* core/runner.h: runs a sweep. For each data set (run section x op x dtype x
 * n x distribution) it generates the input once, computes the reference,
 * uploads it once through the backend, and then for each configuration
 * reading it: describe, init, warm-up, timed repetitions (until min_time and
 * the noise target, within max_reps), verify, judge, teardown. */
#ifndef RB_RUNNER_H
#define RB_RUNNER_H

#include <signal.h>

#include "experiment.h"
#include "registry.h"
#include "results.h"
#include "sweep.h"

typedef struct rb_runner_options {
    int verbosity;
    int progress;       /* print one line per configuration to stderr */
} rb_runner_options;

/* Set by a signal handler: configurations not started yet are skipped. */
extern volatile sig_atomic_t runner_stop_requested;

/* Fills res->rows (one per configuration, in sweep order) and the devices in
 * res->info. Returns 0; rows carry every failure. */
int runner_run(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
               const rb_runner_options *opt, rb_results *res);

#endif
