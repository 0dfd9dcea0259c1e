/* src/compare/significance.h: the statistics behind `redbench compare`: is the
 * new timing of a configuration the same as the old one, faster, slower, or
 * can the samples not tell?
 *
 * Two tests look at the two sets of samples (nanoseconds per run):
 *   - the Mann-Whitney U test: is one set shifted against the other? With
 *     at most MANN_WHITNEY_EXACT_MAX samples a side, from the exact
 *     distribution of the rank sum (every way to split the ranks, ties
 *     included); above, the normal approximation with the corrections for
 *     ties and continuity.
 *   - a bootstrap percentile interval of the ratio of medians (new / old):
 *     how large is the change, and how sure is that?
 * Rows measured in rounds (rounds = K, two or more on both sides) are
 * compared from the rounds instead (compare_rounds): each side's figure is
 * the median of its rounds' medians, and a hierarchical bootstrap (rounds
 * drawn with replacement, then samples within each drawn round) gives the
 * interval of the ratio, so that the variation between runs is in it; the
 * p-value is that of a ratio of 1: from the bootstrap's spread of the log
 * ratio on the side of 1 (normal approximation), or the bootstrap's own
 * tail beyond 1 where that is smaller or where every resample is the same
 * (never 0: at least 2 / (resamples + 1)).
 * Where either side has one round, its samples come from one run, so the
 * variation between runs (other load, clocks, placement) is not in them:
 * the rank test and the bootstrap of samples are used, and the interval is
 * widened by the run-to-run allowance (criteria.run_allowance, 2% by
 * default) each way, [low / (1 + a), high * (1 + a)], before it is used.
 * A change is `slower` or `faster` when it is significant (the p-value,
 * adjusted for the number of configurations compared, is under alpha) and
 * the whole interval lies beyond the practical threshold (above
 * 1 + threshold, or below 1 / (1 + threshold)): a change beyond the
 * threshold with confidence; or when it is large
 * (the ratio at or beyond criteria.large_factor, 1.5 by default, or its
 * inverse) and every new sample lies beyond the old median, which few
 * samples can show though no rank test on them can reach alpha.
 * It is `same` when the whole widened interval lies within the threshold's
 * bounds, and `unclear` otherwise: too few samples, or an interval too wide
 * to decide. */
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

/* What a comparison judges: time per call (its verdicts are faster and
 * slower), or energy per call, judged by the same rules over one figure a
 * round (its verdicts are said lower and higher). */
enum rb_quantity { RB_QUANTITY_TIME = 0, RB_QUANTITY_ENERGY };

/* A verdict as said of a quantity: verdict_name's for time; "same",
 * "lower", "higher", "unclear" for energy. */
const char *verdict_word(int verdict, int quantity);

typedef struct rb_compare_criteria {
    double threshold;    /* smallest change that matters, e.g. 0.05 for 5% */
    double alpha;        /* significance level; the interval is at 1 - alpha */
    size_t min_samples;  /* fewer in either set: unclear */
    unsigned resamples;  /* bootstrap resamples */
    uint64_t seed;       /* of the bootstrap's generator: same input, same answer */
    double run_allowance; /* run-to-run variation assumed where the samples
                             cannot show it: the interval is widened by this
                             fraction each way (0.02: 2%) */
    double large_factor; /* a ratio at least this (or at most its inverse)
                            with every new sample beyond the old median is a
                            change whatever the p-value */
} rb_compare_criteria;

/* The defaults: 5%, alpha 0.01 (99% intervals), 5 samples, 2000 resamples,
 * a 2% run-to-run allowance, large changes from 1.5x. */
void compare_criteria_default(rb_compare_criteria *c);

typedef struct rb_sample_comparison {
    int verdict;            /* enum rb_verdict */
    size_t n_old, n_new;
    double median_old, median_new;
    double ratio;           /* median_new / median_old; NaN when unknown */
    double ci_low, ci_high; /* interval of the ratio at 1 - alpha, widened by
                               the run-to-run allowance; NaN when unknown */
    double p_value;         /* Mann-Whitney, two-sided; NaN when unknown */
    double p_adjusted;      /* p_value adjusted for the configurations compared
                               (compare_adjust); p_value until then */
    double p_smallest;      /* the smallest two-sided p a rank test on these
                               sample counts can reach; NaN when unknown */
    int tested;             /* 1 when the p-value and interval exist, so that
                               the pair counts among those compared */
    int new_all_above, new_all_below; /* every new sample above (below) the
                                         old median */
    size_t rounds_old, rounds_new; /* rounds on each side (1: one run) */
    int from_rounds;        /* judged from the rounds (compare_rounds);
                               0: from one run's samples, interval widened */
    double spread_old, spread_new; /* how noisy each side was, relative to its
                               median: over rounds, the range of the rounds'
                               medians; in one run, the samples'
                               interquartile range; NaN unknown */
    char *why;              /* one line saying how the verdict was reached
                               (and, when unclear, what would settle it), at
                               most RB_WHY_MAX - 1 bytes; the comparison's
                               own (compare_result_free) */
    int quantity;           /* enum rb_quantity: the words compare_decide
                               uses (comparisons begin with time) */
} rb_sample_comparison;

/* The longest why, in bytes with its NUL (a longer one is cut). */
#define RB_WHY_MAX 512

/* Sets a comparison's why, formatted and cut to RB_WHY_MAX - 1 bytes, in
 * place of the one before (the arguments may point into it). */
void compare_set_why(rb_sample_comparison *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Frees what a comparison owns (its why). compare_samples and
 * compare_rounds make a comparison afresh, over whatever *out held: free
 * one made before in the same place first. */
void compare_result_free(rb_sample_comparison *s);
/* Its why, "" when it has none. */
const char *compare_why(const rb_sample_comparison *s);

/* Compares two sets of samples (neither is modified). */
void compare_samples(const double *old_ns, size_t n_old, const double *new_ns, size_t n_new,
                     const rb_compare_criteria *criteria, rb_sample_comparison *out);

/* One side's samples, grouped by round: round k's are the next reps[k] of
 * `samples` (the reps add up to n_samples). n_rounds 0 or 1: one run. */
typedef struct rb_round_samples {
    const double *samples;
    size_t n_samples;
    const size_t *reps;
    size_t n_rounds;
} rb_round_samples;

/* Compares two sides measured in rounds: from the rounds when both have two
 * or more, else as compare_samples (one run: the interval widened). */
void compare_rounds(const rb_round_samples *old_side, const rb_round_samples *new_side,
                    const rb_compare_criteria *criteria, rb_sample_comparison *out);

/* The median of a side's round medians; NaN when it has no samples. */
double rounds_median(const rb_round_samples *side);

/* The hierarchical bootstrap percentile interval, at `confidence`, of
 * rounds_median(b) / rounds_median(a): each resample draws a's rounds with
 * replacement, then each drawn round's samples with replacement, and the
 * same for b. *log_spread is the resampled log ratios' spread on the side
 * of no change (from their median to their 15.9% quantile when the median
 * is above 0, else to their 84.1% quantile: a one-sided standard error, so
 * that one round far off on the other side does not hide a change);
 * *p_tail twice the share of resampled ratios on the other side of 1 than
 * their median (at least 2 / (resamples + 1)), a p-value of no change.
 * Returns 0, or -1 when a side has no round or a resampled figure of a is
 * not positive. */
int hierarchical_ratio_interval(const rb_round_samples *a, const rb_round_samples *b,
                                double confidence, unsigned resamples, uint64_t seed,
                                double *low, double *high, double *log_spread,
                                double *p_tail);

/* Decides the verdict and its reason again from the statistics already in
 * `s`, with s->p_adjusted as the p-value; nothing to do unless s->tested. */
void compare_decide(rb_sample_comparison *s, const rb_compare_criteria *criteria);

/* Holm's step-down adjustment of m p-values (family-wise error): sorted
 * ascending, the k-th (from 0) becomes min(1, (m - k) p), made
 * non-decreasing. NaN values are kept and not counted in m. */
void holm_adjust(const double *p, size_t m, double *adjusted);

/* The parts, for tests and for other uses. */

/* 2 / C(n_a + n_b, n_a), capped at 1: the smallest two-sided p-value an
 * exact rank test can give with these sample counts. */
double rank_smallest_p(size_t n_a, size_t n_b);

/* The most samples a side for which the U test's p-value is exact. */
#define MANN_WHITNEY_EXACT_MAX 20

/* Two-sided p-value of the Mann-Whitney U test: exact (the permutation
 * distribution of the rank sum, ties included) with at most
 * MANN_WHITNEY_EXACT_MAX samples a side, else the normal approximation
 * with the corrections for ties and continuity; 1 when every value is
 * equal; NaN when a set is empty. */
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
