/* tests/compare/test_compare_stats.c: the statistics behind `redbench compare` on
 * samples with known answers: the median, the Mann-Whitney p-value (against
 * values computed independently, by counting pairs), the bootstrap interval,
 * and the verdicts: identical, 2x slower, 2x faster, noisy and overlapping,
 * a small real change, too few samples, the threshold, and the rate of
 * false alarms over many draws of one distribution; and the same rules
 * from rounds: the hierarchical bootstrap, a change seen within one run but
 * not beyond the variation between rounds, one round a side (widened),
 * Holm's adjustment, false alarms over many draws of rounds. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compare/significance.h"
#include "tap.h"

/* Deterministic test data: a generator, and samples around `center` with a
 * relative spread (normal, by Box-Muller), kept positive. */
static uint64_t test_state = 12345;

static double uniform01(void)
{
    test_state = test_state * 6364136223846793005u + 1442695040888963407u;
    return ((double)(test_state >> 11) + 0.5) / 9007199254740992.0;
}

static void noisy(double *v, size_t n, double center, double spread)
{
    for (size_t k = 0; k < n; k++) {
        double z = sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
        v[k] = center * (1 + spread * z);
        if (v[k] < center * 0.01)
            v[k] = center * 0.01;
    }
}

static rb_sample_comparison compare(const double *a, size_t n_a, const double *b, size_t n_b,
                                    double threshold)
{
    rb_compare_criteria c;
    compare_criteria_default(&c);
    c.threshold = threshold;
    rb_sample_comparison out;
    compare_samples(a, n_a, b, n_b, &c, &out);
    return out;
}

static void test_median(void)
{
    const double odd[] = {5, 1, 4, 2, 3};
    const double even[] = {10, 40, 20, 30};
    const double same[] = {7, 7, 7, 7, 7, 7};
    is_double(sample_median(odd, 5), 3, 0, "median of 5 values");
    is_double(sample_median(even, 4), 25, 0, "median of 4 values: mean of the middle two");
    is_double(sample_median(same, 6), 7, 0, "median of equal values");
    ok(isnan(sample_median(odd, 0)), "median of none is NaN");
}

static void test_mann_whitney(void)
{
    const double low[] = {1, 2, 3, 4, 5}, high[] = {6, 7, 8, 9, 10};
    /* Reference values: the exact two-sided p, counted over every way to
     * split the ranks (ties as mid-ranks), computed separately; R's
     * wilcox.test agrees where there are no ties. */
    is_double(mann_whitney_p(low, 5, high, 5), 2.0 / 252, 1e-15,
              "Mann-Whitney p, separated sets of 5: exact, 2/252 (not 0)");
    is_double(mann_whitney_p(high, 5, low, 5), 2.0 / 252, 1e-15,
              "Mann-Whitney p is symmetric");
    const double three_a[] = {1, 2, 3}, three_b[] = {4, 5, 6};
    is_double(mann_whitney_p(three_a, 3, three_b, 3), 0.1, 1e-15,
              "Mann-Whitney p, separated sets of 3: exact, 2/20");
    const double x[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
    const double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
    is_double(mann_whitney_p(x, 10, y, 5), 0.2544122544122544, 1e-12,
              "Mann-Whitney p, 10 and 5 samples (R's example, W = 35): 0.2544");
    const double tied_a[] = {1, 1, 2, 2, 3, 5}, tied_b[] = {2, 3, 3, 4, 4, 6, 7};
    is_double(mann_whitney_p(tied_a, 6, tied_b, 7), 0.06177156177156177, 1e-12,
              "Mann-Whitney p with ties: exact over mid-ranks");
    const double half_a[] = {10, 11, 12, 13, 14, 15, 16, 17};
    const double half_b[] = {12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5};
    is_double(mann_whitney_p(half_a, 8, half_b, 8), 0.08298368298368299, 1e-12,
              "Mann-Whitney p, overlapping sets of 8");
    /* Above 20 a side, the tie-corrected normal approximation with
     * continuity correction: 21 against 21, separated. */
    double lo21[21], hi21[21];
    for (int k = 0; k < 21; k++) {
        lo21[k] = k;
        hi21[k] = 100 + k;
    }
    is_double(mann_whitney_p(lo21, 21, hi21, 21), erfc((220.5 - 0.5) / sqrt(1580.25) / sqrt(2.0)),
              1e-15, "Mann-Whitney p, 21 a side: the normal approximation");
    ok(mann_whitney_p(lo21, 20, hi21, 20) > 0, "Mann-Whitney p, 20 a side, separated: exact, "
       "not 0 (%g)", mann_whitney_p(lo21, 20, hi21, 20));
    is_double(mann_whitney_p(lo21, 20, hi21, 20), rank_smallest_p(20, 20), 1e-20,
              "  the smallest p there is, 2 / C(40, 20)");
    is_double(mann_whitney_p(low, 5, low, 5), 1, 0, "Mann-Whitney p of a set against itself is 1");
    const double flat[] = {3, 3, 3, 3};
    is_double(mann_whitney_p(flat, 4, flat, 4), 1, 0, "Mann-Whitney p when all values are equal");
    ok(isnan(mann_whitney_p(low, 5, high, 0)), "Mann-Whitney p of an empty set is NaN");
}

static void test_bootstrap(void)
{
    double a[10], b[10], lo = 0, hi = 0;
    for (int k = 0; k < 10; k++) {
        a[k] = 100;
        b[k] = 200;
    }
    is_int(bootstrap_ratio_interval(a, 10, b, 10, 0.99, 500, 1, &lo, &hi), 0,
           "bootstrap of constant sets succeeds");
    ok(lo == 2 && hi == 2, "constant sets: the interval is exactly [2, 2] (got [%g, %g])", lo, hi);

    double x[40], y[40];
    noisy(x, 40, 1000, 0.05);
    noisy(y, 40, 1500, 0.05);
    double lo2 = 0, hi2 = 0;
    bootstrap_ratio_interval(x, 40, y, 40, 0.99, 2000, 7, &lo, &hi);
    bootstrap_ratio_interval(x, 40, y, 40, 0.99, 2000, 7, &lo2, &hi2);
    ok(lo == lo2 && hi == hi2, "the same seed gives the same interval");
    double ratio = sample_median(y, 40) / sample_median(x, 40);
    ok(lo < ratio && ratio < hi, "the interval [%g, %g] holds the ratio of medians %g", lo, hi,
       ratio);
    ok(lo > 1.4 && hi < 1.6, "and lies near the true ratio 1.5");
    double narrow_lo, narrow_hi;
    bootstrap_ratio_interval(x, 40, y, 40, 0.5, 2000, 7, &narrow_lo, &narrow_hi);
    ok(narrow_lo >= lo && narrow_hi <= hi && narrow_hi - narrow_lo < hi - lo,
       "a 50%% interval lies inside the 99%% one");
    const double zero[] = {0, 0, 0, 0, 0};
    is_int(bootstrap_ratio_interval(zero, 5, a, 5, 0.99, 100, 1, &lo, &hi), -1,
           "bootstrap refuses old medians of 0");
    is_int(bootstrap_ratio_interval(a, 0, b, 5, 0.99, 100, 1, &lo, &hi), -1,
           "bootstrap refuses an empty set");
}

static void test_verdicts(void)
{
    enum { N = 60 };
    double a[N], b[N];
    rb_sample_comparison r = {0};

    noisy(a, N, 1000, 0.02);
    compare_result_free(&r);
    r = compare(a, N, a, N, 0.05);
    is_str(verdict_name(r.verdict), "same", "identical samples: same (%s)", r.why);
    is_double(r.ratio, 1, 0, "identical samples: ratio 1");
    is_double(r.p_value, 1, 0, "identical samples: p = 1");

    for (int k = 0; k < N; k++)
        b[k] = 2 * a[k];
    compare_result_free(&r);
    r = compare(a, N, b, N, 0.05);
    is_str(verdict_name(r.verdict), "slower", "every sample doubled: slower (%s)", r.why);
    is_double(r.ratio, 2, 1e-12, "every sample doubled: ratio 2");
    ok(r.ci_low <= 2 && r.ci_high >= 2 && r.ci_low > 1.9 && r.ci_high < 2.1,
       "every sample doubled: interval [%g, %g] around 2", r.ci_low, r.ci_high);
    ok(r.p_value < 1e-10, "every sample doubled: p = %g", r.p_value);

    compare_result_free(&r);

    r = compare(b, N, a, N, 0.05);
    is_str(verdict_name(r.verdict), "faster", "every sample halved: faster (%s)", r.why);
    is_double(r.ratio, 0.5, 1e-12, "every sample halved: ratio 0.5");

    /* Independent draws of one wide distribution, few samples: the interval
     * is far wider than 5%, so the samples cannot say. */
    double c[8], d[8];
    noisy(c, 8, 1000, 0.3);
    noisy(d, 8, 1000, 0.3);
    compare_result_free(&r);
    r = compare(c, 8, d, 8, 0.05);
    is_str(verdict_name(r.verdict), "unclear", "noisy and overlapping: unclear (%s)", r.why);
    ok(r.ci_low < 1 / 1.05 || r.ci_high > 1.05, "noisy: the interval [%g, %g] is wider than +-5%%",
       r.ci_low, r.ci_high);

    /* Samples spread over 27 orders of magnitude: the threshold that would
     * call them same is past any --threshold, and the reason says so
     * (its percentage once overflowed an int). */
    double wild_a[8], wild_b[8];
    for (size_t k = 0; k < 8; k++) {
        wild_a[k] = k % 2 ? 1e27 * (1 + 0.1 * (double)k) : 1 + 0.1 * (double)k;
        wild_b[k] = k % 2 ? 2 + 0.1 * (double)k : 1e27 * (2 + 0.1 * (double)k);
    }
    compare_result_free(&r);
    r = compare(wild_a, 8, wild_b, 8, 0.05);
    is_str(verdict_name(r.verdict), "unclear", "27 orders of magnitude apart: unclear (%s)", r.why);
    ok(strstr(r.why, "no --threshold (at most 1000%) would call it same") != NULL,
       "... and no --threshold would call it same (%s)", r.why);

    /* Independent draws of one narrow distribution: same. */
    noisy(a, N, 1000, 0.02);
    noisy(b, N, 1000, 0.02);
    compare_result_free(&r);
    r = compare(a, N, b, N, 0.05);
    is_str(verdict_name(r.verdict), "same", "independent draws, 2%% noise: same (%s)", r.why);

    /* A real 1% change, well measured: significant, but below the
     * threshold: same. */
    double e[400], f[400];
    noisy(e, 400, 1000, 0.01);
    noisy(f, 400, 1010, 0.01);
    compare_result_free(&r);
    r = compare(e, 400, f, 400, 0.05);
    ok(r.p_value < 0.01, "a 1%% change over 400 samples is significant (p = %g)", r.p_value);
    is_str(verdict_name(r.verdict), "same", "but smaller than 5%%: same (%s)", r.why);

    /* Threshold: 10% slower is slower at 5%, same at 20%. */
    noisy(a, N, 1000, 0.01);
    noisy(b, N, 1100, 0.01);
    compare_result_free(&r);
    r = compare(a, N, b, N, 0.05);
    is_str(verdict_name(r.verdict), "slower", "10%% slower, threshold 5%%: slower");
    compare_result_free(&r);
    r = compare(a, N, b, N, 0.20);
    is_str(verdict_name(r.verdict), "same", "10%% slower, threshold 20%%: same (%s)", r.why);
    compare_result_free(&r);
    r = compare(b, N, a, N, 0.20);
    is_str(verdict_name(r.verdict), "same", "10%% faster, threshold 20%%: same");
    compare_result_free(&r);
    r = compare(b, N, a, N, 0.05);
    is_str(verdict_name(r.verdict), "faster", "10%% faster, threshold 5%%: faster");

    /* Too few samples: unclear, whatever the values say. */
    const double three_old[] = {100, 101, 99}, three_new[] = {300, 301, 299};
    compare_result_free(&r);
    r = compare(three_old, 3, three_new, 3, 0.05);
    is_str(verdict_name(r.verdict), "unclear", "3 samples each: unclear");
    ok(strstr(r.why, "too few samples") != NULL, "and says why: %s", r.why);
    is_double(r.ratio, 3, 1e-12, "the ratio is still shown");
    ok(isnan(r.ci_low) && isnan(r.p_value), "but no interval or p-value");
    compare_result_free(&r);
    r = compare(a, N, three_new, 0, 0.05);
    is_str(verdict_name(r.verdict), "unclear", "no new samples: unclear");
    compare_result_free(&r);
}

/* The rules added for gating: a large change seen in few samples, the
 * smallest p a rank test can reach, Holm's adjustment, the widened
 * interval. */
static void test_gate_rules(void)
{
    const double old5[] = {100, 101, 99, 102, 98}, new5[] = {200, 202, 198, 204, 196};
    rb_sample_comparison r = compare(old5, 5, new5, 5, 0.05);
    is_str(verdict_name(r.verdict), "slower", "2x slower, 5 samples a side: slower (%s)", r.why);
    is_double(r.p_value, 2.0 / 252, 1e-15, "  p is the exact 2/252");
    /* Among three configurations, Holm's adjustment takes p past alpha. */
    rb_compare_criteria criteria;
    compare_criteria_default(&criteria);
    r.p_adjusted = 3 * r.p_value;
    compare_decide(&r, &criteria);
    is_str(verdict_name(r.verdict), "slower", "  slower still, p adjusted past alpha (%s)", r.why);
    ok(strstr(r.why, "2x slower") && strstr(r.why, "all 5 new samples above the old median"),
       "  by the large-change rule, which says why: %s", r.why);
    compare_result_free(&r);
    r = compare(new5, 5, old5, 5, 0.05);
    is_str(verdict_name(r.verdict), "faster", "2x faster, 5 samples a side: faster (%s)", r.why);
    compare_result_free(&r);
    r = compare(old5, 5, new5, 5, 1.5);
    ok(r.verdict != RB_VERDICT_SLOWER, "2x slower, threshold 150%%: not slower (%s)", r.why);

    /* 1.4x is under the large factor: with 5 samples it stays unclear. */
    const double new14[] = {140, 141, 139, 142, 138};
    compare_result_free(&r);
    r = compare(old5, 5, new14, 5, 0.05);
    is_str(verdict_name(r.verdict), "slower", "1.4x, 5 samples a side, alone: slower, the exact "
           "p = 2/252 passes alpha (%s)", r.why);
    r.p_adjusted = 3 * r.p_value;
    compare_decide(&r, &criteria);
    is_str(verdict_name(r.verdict), "unclear", "  among three, adjusted: unclear (%s)", r.why);
    /* 2x in the median but one new sample under the old median: not the rule. */
    const double mixed[] = {200, 202, 99.5, 204, 196};
    compare_result_free(&r);
    r = compare(old5, 5, mixed, 5, 0.05);
    ok(r.verdict != RB_VERDICT_SLOWER, "2x median, one new sample below the old median: not "
       "slower by the large rule (%s)", r.why);

    is_double(rank_smallest_p(5, 5), 2.0 / 252, 1e-15, "smallest p, 5 and 5 samples: 2/252");
    is_double(rank_smallest_p(1, 1), 1, 0, "smallest p, 1 and 1 samples: 1");

    const double p[] = {0.01, 0.04, NAN, 0.03, 0.005};
    double adj[5];
    holm_adjust(p, 5, adj);
    is_double(adj[4], 0.02, 1e-15, "Holm: smallest of 4 times 4");
    is_double(adj[0], 0.03, 1e-15, "Holm: second times 3");
    is_double(adj[3], 0.06, 1e-15, "Holm: third times 2");
    is_double(adj[1], 0.06, 1e-15, "Holm: fourth times 1, kept non-decreasing");
    ok(isnan(adj[2]), "Holm: NaN kept and not counted");

    /* The interval is widened by the run-to-run allowance: constant sets
     * give [1 / 1.02, 1.02]. */
    const double flat[] = {100, 100, 100, 100, 100};
    compare_result_free(&r);
    r = compare(flat, 5, flat, 5, 0.05);
    is_double(r.ci_low, 1 / 1.02, 1e-12, "constant sets: interval widened to 1 / 1.02");
    is_double(r.ci_high, 1.02, 1e-12, "  and 1.02");
    is_str(verdict_name(r.verdict), "same", "  same");
    compare_result_free(&r);
}

/* Many comparisons of one distribution with itself: the rule must rarely
 * call any of them slower or faster, and with little noise it must call
 * most of them the same. */
static void count_verdicts(size_t n, double spread, int trials, int *alarms, int *same)
{
    double a[64], b[64];
    *alarms = *same = 0;
    for (int t = 0; t < trials; t++) {
        noisy(a, n, 1000, spread);
        noisy(b, n, 1000, spread);
        rb_sample_comparison r = compare(a, n, b, n, 0.05);
        *alarms += r.verdict == RB_VERDICT_SLOWER || r.verdict == RB_VERDICT_FASTER;
        *same += r.verdict == RB_VERDICT_SAME;
        compare_result_free(&r);
    }
}

static void test_false_alarms(void)
{
    enum { TRIALS = 300 };
    int alarms, same;
    count_verdicts(20, 0.05, TRIALS, &alarms, &same);
    ok(alarms <= TRIALS / 100, "no change, 5%% noise, 20 samples: %d of %d called slower or faster",
       alarms, TRIALS);
    count_verdicts(20, 0.01, TRIALS, &alarms, &same);
    ok(alarms == 0, "no change, 1%% noise, 20 samples: %d of %d called slower or faster", alarms,
       TRIALS);
    ok(same >= TRIALS * 9 / 10, "no change, 1%% noise, 20 samples: %d of %d called same", same,
       TRIALS);
}

/* `rounds` rounds of `per_round` samples: round k centred on
 * center * (1 + offsets[k]), each sample with relative spread `spread`. */
typedef struct test_side {
    double samples[10 * 40];
    size_t reps[10];
    rb_round_samples view;
} test_side;

static const rb_round_samples *make_side(test_side *side, size_t rounds, size_t per_round,
                                         double center, const double *offsets, double spread)
{
    for (size_t k = 0; k < rounds; k++) {
        noisy(side->samples + k * per_round, per_round, center * (1 + offsets[k]), spread);
        side->reps[k] = per_round;
    }
    side->view = (rb_round_samples){side->samples, rounds * per_round, side->reps, rounds};
    return &side->view;
}

static rb_sample_comparison compare_sides(const rb_round_samples *a, const rb_round_samples *b)
{
    rb_compare_criteria c;
    compare_criteria_default(&c);
    rb_sample_comparison out;
    compare_rounds(a, b, &c, &out);
    return out;
}

static void test_rounds(void)
{
    static test_side a, b;
    const double flat[3] = {0, 0, 0}, apart[3] = {-0.15, 0, 0.15}, near[3] = {-0.01, 0, 0.01};
    rb_sample_comparison r = {0};

    /* Constant rounds: the interval of the ratio is exactly the ratio. */
    for (size_t k = 0; k < 30; k++) {
        a.samples[k] = 100;
        b.samples[k] = 200;
    }
    size_t reps[3] = {10, 10, 10};
    rb_round_samples ca = {a.samples, 30, reps, 3}, cb = {b.samples, 30, reps, 3};
    double lo, hi, spread, tail;
    is_int(hierarchical_ratio_interval(&ca, &cb, 0.99, 500, 1, &lo, &hi, &spread, &tail), 0,
           "hierarchical bootstrap of constant rounds succeeds");
    ok(lo == 2 && hi == 2 && spread == 0, "... the interval is exactly [2, 2] (got [%g, %g])", lo,
       hi);
    compare_result_free(&r);
    r = compare_sides(&ca, &cb);
    is_double(r.p_value, 2.0 / 2001, 1e-15, "... its p-value is the bootstrap's smallest, "
              "2 / (resamples + 1), not 0");
    is_str(verdict_name(r.verdict), "slower", "... and 2x is slower (%s)", r.why);
    size_t short_reps[3] = {10, 10, 9};
    rb_round_samples bad = {a.samples, 30, short_reps, 3};
    is_int(hierarchical_ratio_interval(&bad, &cb, 0.99, 500, 1, &lo, &hi, &spread, &tail), -1,
           "reps that do not add up to the samples: refused");
    const double medians_odd[] = {1, 2, 3, 1000, 1000};
    size_t one_each[5] = {1, 1, 1, 1, 1};
    rb_round_samples five = {medians_odd, 5, one_each, 5};
    is_double(rounds_median(&five), 3, 0, "the figure of rounds is the median of their medians");

    /* Identical rounds on both sides: the same, judged from the rounds. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 3, 20, 1000, near, 0.01), make_side(&b, 3, 20, 1000, near, 0.01));
    is_str(verdict_name(r.verdict), "same", "3 rounds a side, no change: same (%s)", r.why);
    ok(r.from_rounds && r.rounds_old == 3 && r.rounds_new == 3,
       "... judged from 3 and 3 rounds");
    ok(strstr(r.why, "interval over 3 and 3 rounds") != NULL, "... and says so: %s", r.why);

    /* Every sample doubled: slower, the interval above +5%. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 3, 20, 1000, near, 0.01), make_side(&b, 3, 20, 2000, near, 0.01));
    is_str(verdict_name(r.verdict), "slower", "rounds, 2x: slower (%s)", r.why);
    ok(r.ci_low > 1.9 && r.ci_high < 2.1, "... the interval [%g, %g] is around 2", r.ci_low,
       r.ci_high);

    /* 10% slower, rounds 1% apart: slower; 10% faster: faster. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 3, 20, 1000, near, 0.01), make_side(&b, 3, 20, 1100, near, 0.01));
    is_str(verdict_name(r.verdict), "slower", "rounds, 10%% slower: slower (%s)", r.why);
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 3, 20, 1100, near, 0.01), make_side(&b, 3, 20, 1000, near, 0.01));
    is_str(verdict_name(r.verdict), "faster", "rounds, 10%% faster: faster (%s)", r.why);

    /* 3% slower, well measured: within the 5% threshold, same. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 5, 20, 1000, (const double[]){0, 0.002, -0.002, 0.001, -0.001}, 0.005),
                      make_side(&b, 5, 20, 1030, (const double[]){0, 0.002, -0.002, 0.001, -0.001}, 0.005));
    is_str(verdict_name(r.verdict), "same", "rounds, 3%% slower: within 5%%, same (%s)", r.why);

    /* 8% slower within each run, but the rounds vary by 15% each way: the
     * samples alone would call it slower; the rounds cannot tell. */
    make_side(&a, 3, 40, 1000, apart, 0.005);
    make_side(&b, 3, 40, 1080, (const double[]){0.15, -0.15, 0}, 0.005);
    rb_sample_comparison pooled = compare(a.samples, 120, b.samples, 120, 0.05);
    compare_result_free(&r);
    r = compare_sides(&a.view, &b.view);
    ok(r.verdict != RB_VERDICT_SLOWER,
       "8%% slower, rounds 15%% apart: not slower from the rounds (%s: %s)",
       verdict_name(r.verdict), r.why);
    ok(r.ci_low < 1.05, "... their interval [%g, %g] reaches below +5%%", r.ci_low, r.ci_high);
    compare_result_free(&pooled);

    /* 25% slower in every round, one new round slowed down twice as much
     * by other load: still slower (the p-value's spread is the one toward
     * no change). */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 3, 20, 1000, near, 0.01),
                      make_side(&b, 3, 20, 1250, (const double[]){0, 0.01, 1.0}, 0.01));
    is_str(verdict_name(r.verdict), "slower", "25%% slower, one new round 2x off: slower (%s)",
           r.why);

    /* One round on a side: the samples of one run, the interval widened. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 1, 20, 1000, flat, 0.01), make_side(&b, 3, 20, 1000, near, 0.01));
    ok(!r.from_rounds && r.rounds_old == 1 && r.rounds_new == 3,
       "one round old, 3 new: judged from the samples (%s)", r.why);
    ok(strstr(r.why, "widened") != NULL, "... with the interval widened, and says so: %s", r.why);

    /* A 2x change is a regression also from 2 rounds of 3 samples a side. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 2, 3, 1000, near, 0.01), make_side(&b, 2, 3, 2000, near, 0.01));
    is_str(verdict_name(r.verdict), "slower", "2 rounds of 3 samples, 2x: slower (%s)", r.why);

    /* Holm: the same slower pair, its p adjusted over many configurations
     * to 0.02 (above alpha, 0.01), is no longer slower. */
    compare_result_free(&r);
    r = compare_sides(make_side(&a, 3, 20, 1000, near, 0.02), make_side(&b, 3, 20, 1100, near, 0.02));
    is_str(verdict_name(r.verdict), "slower", "rounds, 10%% slower, 2%% noise: slower alone");
    rb_compare_criteria c;
    compare_criteria_default(&c);
    r.p_adjusted = 0.02;
    compare_decide(&r, &c);
    ok(r.verdict != RB_VERDICT_SLOWER, "... but not with its p (%.2g) adjusted to 0.02: %s",
       r.p_value, r.why);
    compare_result_free(&r);
}

/* Many comparisons of rounds of one distribution with each other, each
 * round shifted by 2% (the variation between runs): no false alarm. */
static void test_rounds_false_alarms(void)
{
    enum { TRIALS = 300 };
    static test_side a, b;
    int alarms = 0;
    for (int t = 0; t < TRIALS; t++) {
        double shift_a[3], shift_b[3];
        noisy(shift_a, 3, 1, 0.02);
        noisy(shift_b, 3, 1, 0.02);
        for (int k = 0; k < 3; k++) {
            shift_a[k] -= 1;
            shift_b[k] -= 1;
        }
        rb_sample_comparison r = compare_sides(make_side(&a, 3, 20, 1000, shift_a, 0.01),
                                               make_side(&b, 3, 20, 1000, shift_b, 0.01));
        alarms += r.verdict == RB_VERDICT_SLOWER || r.verdict == RB_VERDICT_FASTER;
        compare_result_free(&r);
    }
    ok(alarms <= TRIALS / 100, "no change, rounds 2%% apart: %d of %d called slower or faster",
       alarms, TRIALS);
}

int main(void)
{
    plan(4 + 12 + 8 + 25 + 19 + 3 + 22 + 1);
    test_median();
    test_mann_whitney();
    test_bootstrap();
    test_verdicts();
    test_gate_rules();
    test_false_alarms();
    test_rounds();
    test_rounds_false_alarms();
    return done();
}
