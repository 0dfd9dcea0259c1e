/* src/compare/significance.h: the statistics behind `redbench compare`: is the
 * new timing of a configuration the same as the old one, faster, slower, or
 * can the samples not tell?
 *
 * Two tests look at the two sets of samples (nanoseconds per run):
 *   - the Mann-Whitney U test (normal approximation, with the corrections
 *     for ties and continuity): is one set shifted against the other?
 *   - a bootstrap percentile interval of the ratio of medians (new / old):
 *     how large is the change, and how sure is that?
 * A change is `slower` or `faster` only when it is significant (the test's
 * p-value is under alpha and the interval excludes 1) and the ratio lies
 * beyond the practical threshold (1 + threshold, or 1 / (1 + threshold)).
 * It is `same` when the whole interval lies within those bounds, and
 * `unclear` otherwise: too few samples, or an interval too wide to decide. */
#ifndef RB_COMPARE_SIGNIFICANCE_H
#define RB_COMPARE_SIGNIFICANCE_H

#include <stddef.h>
#include <stdint.h>

enum rb_verdict {
    RB_VERDICT_SAME = 0,
    RB_VERDICT_FASTER,
    RB_VERDICT_SLOWER,
    RB_VERDICT_UNCLEAR,
    RB_VERDICT_COUNT_
};

const char *verdict_name(int verdict); /* "same", "faster", "slower", "unclear" */

typedef struct rb_compare_criteria {
    double threshold;    /* smallest change that matters, e.g. 0.05 for 5% */
    double alpha;        /* significance level; the interval is at 1 - alpha */
    size_t min_samples;  /* fewer in either set: unclear */
    unsigned resamples;  /* bootstrap resamples */
    uint64_t seed;       /* of the bootstrap's generator: same input, same answer */
} rb_compare_criteria;

/* The defaults: 5%, alpha 0.01 (99% intervals), 5 samples, 2000 resamples. */
void compare_criteria_default(rb_compare_criteria *c);

typedef struct rb_sample_comparison {
    int verdict;            /* enum rb_verdict */
    size_t n_old, n_new;
    double median_old, median_new;
    double ratio;           /* median_new / median_old; NaN when unknown */
    double ci_low, ci_high; /* interval of the ratio at 1 - alpha; NaN when unknown */
    double p_value;         /* Mann-Whitney, two-sided; NaN when unknown */
    char why[160];          /* one line saying how the verdict was reached */
} rb_sample_comparison;

/* Compares two sets of samples (neither is modified). */
void compare_samples(const double *old_ns, size_t n_old, const double *new_ns, size_t n_new,
                     const rb_compare_criteria *criteria, rb_sample_comparison *out);

/* The parts, for tests and for other uses. */

/* Two-sided p-value of the Mann-Whitney U test; 1 when every value is equal;
 * NaN when a set is empty. */
double mann_whitney_p(const double *a, size_t n_a, const double *b, size_t n_b);

/* The median of `count` values (not modified); NaN for none. */
double sample_median(const double *v, size_t count);

/* The bootstrap percentile interval, at `confidence` (e.g. 0.99), of
 * median(b) / median(a). Returns 0, or -1 when a set is empty or a
 * resampled median of `a` is not positive. */
int bootstrap_ratio_interval(const double *a, size_t n_a, const double *b, size_t n_b,
                             double confidence, unsigned resamples, uint64_t seed, double *low,
                             double *high);

#endif
