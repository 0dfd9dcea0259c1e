/* src/base/stats.h: sample statistics of repeated timings. */
#ifndef RB_STATS_H
#define RB_STATS_H

#include <stddef.h>

typedef struct rb_stats {
    size_t count;
    double median, min, max, mean, stddev; /* nanoseconds */
    double cv;    /* stddev / mean */
    double noise; /* relative standard error of the median:
                     1.2533 * 1.4826 * MAD / (sqrt(count) * median) */
} rb_stats;

/* Computes the statistics of `count` samples (not modified). count 0 gives
 * all zeros. */
void stats_compute(const double *samples, size_t count, rb_stats *out);

#endif
