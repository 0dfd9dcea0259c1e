/* src/tune/search.h: `redbench tune`'s search. Each run's configurations at
 * one data set (op, dtype, n, distribution, bins) form a group whose
 * candidates differ only by their parameters; the search measures them
 * through the runner and keeps each group's winner.
 *
 * Search, per group:
 *  - up to TUNE_EXHAUSTIVE candidates: successive halving, every candidate
 *    measured briefly, the best third kept and measured longer, until one
 *    is left;
 *  - more: coordinate descent from the plugin's defaults, one parameter at a
 *    time (all its values measured, the best kept) until a whole pass
 *    changes nothing, then successive halving among the best points visited.
 * The winner is measured once more with the experiment's own settings. Only
 * `ok` rows compete, by the experiment's `objective`: the median time, the
 * energy per call, or energy x delay (both need energy = on, which an
 * objective other than time sets). */
#ifndef RB_TUNE_SEARCH_H
#define RB_TUNE_SEARCH_H

#include <stddef.h>
#include <stdio.h>

#include "config/experiment.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "results/rows.h"

#define TUNE_EXHAUSTIVE 24 /* candidates searched without descent */
#define TUNE_KEEP_VISITED 6 /* best descent points confirmed by halving */

/* One candidate's measurements. */
typedef struct rb_candidate {
    const rb_configuration *config;
    double median_ns;     /* latest measurement; INFINITY when not ok */
    double score;         /* what the experiment's objective minimises
                             (time: median_ns; energy: joules per call;
                             edp: joules per call x seconds per call);
                             INFINITY when not ok or not measured */
    int rounds;           /* times measured */
    int status;           /* latest row status */
    double bandwidth_gbs;
    double noise;         /* the latest measurement's relative noise */
} rb_candidate;

/* A run section at one data set: the configurations that differ only by
 * parameters. */
typedef struct rb_tune_group {
    rb_candidate *cands;
    size_t count;
    size_t winner;        /* index into cands; count if none was ok */
    int interrupted;      /* its search was stopped by a signal */
    double final_median_ns, final_gbs;
    double final_score;   /* the winner's score (rb_candidate) */
    double final_noise;   /* the winner's relative noise in its final measurement */
} rb_tune_group;

typedef struct rb_tuner {
    const rb_experiment *exp;
    const rb_registry *reg;
    rb_device_record device;
    int have_device;
    size_t measured;      /* configurations measured in all */
} rb_tuner;

/* Consecutive configurations of one run at one data set form a group;
 * returns how many, each without a winner yet. */
size_t make_groups(const rb_sweep *sweep, rb_tune_group **out);
void free_groups(rb_tune_group *groups, size_t n_groups);

/* Searches the groups in order until done or stopped (runner_stop_requested
 * or runner_stop_now, set by a signal); the group in progress when stopped
 * keeps no winner and is marked interrupted. Unless quiet, a line on
 * standard error after each group. Returns the groups done. */
size_t search_groups(rb_tuner *t, rb_tune_group *groups, size_t n_groups, int quiet);

/* What was tried in each group: a line on how the search works, then per
 * group its winner first, marked with '*' and its final time, then the
 * others by the stage of their latest measurement (later stages first,
 * each labelled, e.g. "stage 1 (1/27 time)") and by time within a stage. */
void print_tried(FILE *out, const rb_tune_group *groups, size_t n_groups);

#endif
