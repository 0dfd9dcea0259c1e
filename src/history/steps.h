/* src/history/steps.h: the steps in a series of one configuration's
 * medians (or its energies) over the runs of a history: where its level
 * changed beyond the noise, and by how much.
 *
 * The method (docs/results-schema.md, "Steps"): a robust binary
 * segmentation of the log values. The noise sigma is estimated from the
 * series itself, robustly: the median absolute difference of consecutive
 * runs, scaled to a standard deviation (1.4826 / sqrt 2), so that a step
 * (one large difference) does not count as noise; never below
 * RB_STEPS_SIGMA_FLOOR. A place splits a segment into two levels (the
 * medians of each side, each side at least min_segment runs) when
 *   - the levels' difference, over sigma * sqrt(1/m1 + 1/m2), reaches `z`,
 *   - their ratio lies beyond the threshold (compare's practical
 *     threshold, 5% by default), and
 *   - more than half of each side's runs lie on its side of the midpoint
 *     between the levels (so a level of two runs needs both: one run off,
 *     a noisy night, never makes a step);
 * of the places that do, the one where the two levels fit best (least
 * absolute deviation, as asv's piecewise-constant fit) is cut, and each
 * side is split again. Where no place of a segment passes, its halves
 * (first, middle, second) are searched the same way, which finds a level
 * that comes and goes. Last, a step that the final levels beside it no
 * longer support is dropped (the weakest first). */
#ifndef RB_HISTORY_STEPS_H
#define RB_HISTORY_STEPS_H

#include <stddef.h>

#define RB_STEPS_SIGMA_FLOOR 0.002 /* 0.2%: the least noise assumed */

typedef struct rb_step_criteria {
    double threshold;    /* smallest change that matters (0.05: 5%) */
    double z;            /* the medians' difference over the noise (5) */
    size_t min_segment;  /* runs a level needs (2) */
} rb_step_criteria;

/* threshold 5%, z 5, min_segment 2. */
void steps_criteria_default(rb_step_criteria *c);

typedef struct rb_step {
    size_t at;           /* index of the first value at the new level */
    double before, after;/* the levels (medians) on each side */
    double ratio;        /* after / before */
    double score;        /* the levels' difference over the noise */
} rb_step;

/* The noise of `n` positive values as a relative sigma (of their logs). */
double steps_noise(const double *y, size_t n);

/* Finds the steps of `n` positive values, in order; *steps is newly
 * allocated (NULL when none). Returns their count. *noise (may be NULL)
 * gets steps_noise's estimate. */
size_t steps_find(const double *y, size_t n, const rb_step_criteria *c, rb_step **steps,
                  double *noise);

/* The median of `n` values (not modified); NaN for none. */
double steps_median(const double *v, size_t n);

#endif
