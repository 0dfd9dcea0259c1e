/* src/compare/significance.c: the verdict on two sets of timing samples: the
 * Mann-Whitney U test (exact up to MANN_WHITNEY_EXACT_MAX samples a side), a
 * bootstrap interval of the ratio of medians, the
 * hierarchical bootstrap over rounds, and the rule that combines them (see
 * compare/significance.h). */
#include "compare/significance.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/random.h"
#include "base/util.h"
#include "config/experiment.h"

static const char *const verdict_names[RB_VERDICT_COUNT_] = {
    [RB_VERDICT_SAME] = "same",
    [RB_VERDICT_FASTER] = "faster",
    [RB_VERDICT_SLOWER] = "slower",
    [RB_VERDICT_UNCLEAR] = "unclear",
};

const char *verdict_name(int verdict)
{
    return verdict >= 0 && verdict < RB_VERDICT_COUNT_ ? verdict_names[verdict] : "?";
}

static const char *const energy_words[RB_VERDICT_COUNT_] = {
    [RB_VERDICT_SAME] = "same",
    [RB_VERDICT_FASTER] = "lower",
    [RB_VERDICT_SLOWER] = "higher",
    [RB_VERDICT_UNCLEAR] = "unclear",
};

const char *verdict_word(int verdict, int quantity)
{
    if (quantity != RB_QUANTITY_ENERGY)
        return verdict_name(verdict);
    return verdict >= 0 && verdict < RB_VERDICT_COUNT_ ? energy_words[verdict] : "?";
}

void compare_criteria_default(rb_compare_criteria *c)
{
    c->threshold = 0.05;
    c->alpha = 0.01;
    c->min_samples = 5;
    c->resamples = 2000;
    c->seed = 0x5eed;
    c->run_allowance = 0.02;
    c->large_factor = 1.5;
}

double rank_smallest_p(size_t n_a, size_t n_b)
{
    /* C(n_a + n_b, n_a), as a double: exact while it is small, and past
     * 1e300 the answer is 0 anyway. */
    double ways = 1;
    size_t small = n_a < n_b ? n_a : n_b, n = n_a + n_b;
    for (size_t k = 1; k <= small && ways < 1e300; k++)
        ways = ways * (double)(n - small + k) / (double)k;
    double p = 2 / ways;
    return p > 1 ? 1 : p;
}

typedef struct indexed_p {
    double p;
    size_t index;
} indexed_p;

static int compare_indexed_p(const void *a, const void *b)
{
    const indexed_p *x = a, *y = b;
    if (x->p != y->p)
        return (x->p > y->p) - (x->p < y->p);
    return (x->index > y->index) - (x->index < y->index);
}

void holm_adjust(const double *p, size_t count, double *adjusted)
{
    indexed_p *sorted = xmalloc((count ? count : 1) * sizeof *sorted);
    size_t m = 0;
    for (size_t k = 0; k < count; k++) {
        if (isnan(p[k]))
            adjusted[k] = NAN;
        else
            sorted[m++] = (indexed_p){p[k], k};
    }
    qsort(sorted, m, sizeof *sorted, compare_indexed_p);
    double running = 0;
    for (size_t k = 0; k < m; k++) {
        double v = (double)(m - k) * sorted[k].p;
        if (v > 1)
            v = 1;
        if (v < running)
            v = running;
        running = v;
        adjusted[sorted[k].index] = v;
    }
    free(sorted);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Rearranges v so that v[k] is the k-th smallest, smaller ones before it and
 * larger ones after (quickselect, middle pivot). */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}

/* The median of v, reordering it. */
static double median_in_place(double *v, size_t n)
{
    size_t mid = n / 2;
    double upper = select_kth(v, n, mid);
    if (n % 2)
        return upper;
    double lower = v[0];
    for (size_t k = 1; k < mid; k++)
        if (v[k] > lower)
            lower = v[k];
    return (lower + upper) / 2;
}

double sample_median(const double *v, size_t count)
{
    if (count == 0)
        return NAN;
    double *copy = xmalloc(count * sizeof *copy);
    memcpy(copy, v, count * sizeof *copy);
    double m = median_in_place(copy, count);
    free(copy);
    return m;
}

/* One value of either set, for ranking. */
typedef struct ranked {
    double value;
    int from_a;
} ranked;

static int compare_ranked(const void *x, const void *y)
{
    return compare_doubles(&((const ranked *)x)->value, &((const ranked *)y)->value);
}

/* The two-sided p-value of the exact (permutation) distribution of a's
 * rank sum, ties included: each of the C(n, n_a) ways to pick n_a of the
 * ranks is equally likely, and p is the share of them whose sum is at
 * least as far from its mean as the one observed. Ranks are doubled so
 * that mid-ranks are whole; the counts of each sum come from one pass over
 * the ranks (ways[j][s]: the ways to pick j of the ranks seen so far with
 * doubled sum s). */
static double exact_rank_p(const double *doubled, size_t n, size_t n_a, double observed)
{
    size_t max_sum = 0;
    for (size_t k = 0; k < n; k++)
        max_sum += (size_t)doubled[k];
    size_t width = max_sum + 1;
    double *ways = xcalloc((n_a + 1) * width, sizeof *ways);
    ways[0] = 1;
    for (size_t k = 0; k < n; k++) {
        size_t r = (size_t)doubled[k];
        size_t top = k + 1 < n_a ? k + 1 : n_a;
        for (size_t j = top; j >= 1; j--)
            for (size_t sum = max_sum; sum >= r; sum--) {
                ways[j * width + sum] += ways[(j - 1) * width + sum - r];
                if (sum == 0)
                    break;
            }
    }
    double mean = (double)n_a * (double)(n + 1); /* of the doubled sum */
    double distance = fabs(observed - mean), total = 0, beyond = 0;
    for (size_t sum = 0; sum <= max_sum; sum++) {
        double w = ways[n_a * width + sum];
        total += w;
        if (fabs((double)sum - mean) >= distance - 0.25)
            beyond += w;
    }
    free(ways);
    double p = beyond / total;
    return p > 1 ? 1 : p;
}

double mann_whitney_p(const double *a, size_t n_a, const double *b, size_t n_b)
{
    if (n_a == 0 || n_b == 0)
        return NAN;
    size_t n = n_a + n_b;
    ranked *all = xmalloc(n * sizeof *all);
    for (size_t k = 0; k < n_a; k++)
        all[k] = (ranked){a[k], 1};
    for (size_t k = 0; k < n_b; k++)
        all[n_a + k] = (ranked){b[k], 0};
    qsort(all, n, sizeof *all, compare_ranked);

    /* Ranks from 1; equal values share the mean of their ranks. Each
     * value's rank is kept doubled (whole) for the exact test. */
    int exact = n_a <= MANN_WHITNEY_EXACT_MAX && n_b <= MANN_WHITNEY_EXACT_MAX;
    double *doubled = exact ? xmalloc(n * sizeof *doubled) : NULL;
    double rank_sum_a = 0, ties = 0;
    for (size_t start = 0; start < n;) {
        size_t end = start + 1;
        while (end < n && all[end].value == all[start].value)
            end++;
        double rank = (double)(start + 1 + end) / 2;
        double t = (double)(end - start);
        for (size_t k = start; k < end; k++) {
            if (all[k].from_a)
                rank_sum_a += rank;
            if (doubled)
                doubled[k] = (double)(start + 1 + end);
        }
        ties += t * t * t - t;
        start = end;
    }
    free(all);
    if (doubled) {
        double p = exact_rank_p(doubled, n, n_a, 2 * rank_sum_a);
        free(doubled);
        return p;
    }

    double na = (double)n_a, nb = (double)n_b, total = (double)n;
    double u = rank_sum_a - na * (na + 1) / 2;
    double mean = na * nb / 2;
    double variance = na * nb / 12 * ((total + 1) - ties / (total * (total - 1)));
    if (!(variance > 0))
        return 1;
    double distance = fabs(u - mean) - 0.5; /* continuity correction */
    if (distance <= 0)
        return 1;
    return erfc(distance / sqrt(variance) / sqrt(2.0));
}

/* xoshiro256**, seeded through splitmix64: small, fast, and the same
 * sequence everywhere, so a comparison reads the same each time. */

static void rng_seed(rb_rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++)
        r->s[k] = rb_splitmix64(&seed);
}


/* A uniform index below n (n < 2^32). */
static size_t rng_index(rb_rng *r, size_t n)
{
    return (size_t)(((rb_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static double resampled_median(rb_rng *r, const double *v, size_t n, double *scratch)
{
    for (size_t k = 0; k < n; k++)
        scratch[k] = v[rng_index(r, n)];
    return median_in_place(scratch, n);
}

/* The q-quantile of sorted values, interpolating between neighbours. */
static double sorted_quantile(const double *v, size_t n, double q)
{
    double at = q * (double)(n - 1);
    size_t below = (size_t)floor(at);
    if (below + 1 >= n)
        return v[n - 1];
    return v[below] + (at - (double)below) * (v[below + 1] - v[below]);
}

int bootstrap_ratio_interval(const double *a, size_t n_a, const double *b, size_t n_b,
                             double confidence, unsigned resamples, uint64_t seed, double *low,
                             double *high)
{
    if (n_a == 0 || n_b == 0 || resamples == 0)
        return -1;
    rb_rng r;
    rng_seed(&r, seed);
    double *scratch = xmalloc((n_a > n_b ? n_a : n_b) * sizeof *scratch);
    double *ratios = xmalloc(resamples * sizeof *ratios);
    int status = 0;
    for (unsigned k = 0; k < resamples && status == 0; k++) {
        double median_a = resampled_median(&r, a, n_a, scratch);
        double median_b = resampled_median(&r, b, n_b, scratch);
        if (!(median_a > 0))
            status = -1;
        ratios[k] = median_b / median_a;
    }
    if (status == 0) {
        qsort(ratios, resamples, sizeof *ratios, compare_doubles);
        *low = sorted_quantile(ratios, resamples, (1 - confidence) / 2);
        *high = sorted_quantile(ratios, resamples, 1 - (1 - confidence) / 2);
    }
    free(scratch);
    free(ratios);
    return status;
}

/* "5%" from 0.05, "0.5%" from 0.005, "99%" from 0.99. */
static void percent_text(double fraction, char *buf, size_t len)
{
    snprintf(buf, len, "%.3g%%", fraction * 100);
}

static void add_settling(rb_sample_comparison *out, const rb_compare_criteria *criteria);

void compare_decide(rb_sample_comparison *out, const rb_compare_criteria *criteria)
{
    if (!out->tested)
        return;
    double confidence = 1 - criteria->alpha;
    double upper = 1 + criteria->threshold, lower = 1 / upper;
    double large = criteria->large_factor > upper ? criteria->large_factor : upper;
    double p = out->p_adjusted;
    int significant = p < criteria->alpha && (out->ci_low > 1 || out->ci_high < 1);
    char threshold[32], level[32], adjusted[48] = "", interval[80], best[64] = "";
    percent_text(criteria->threshold, threshold, sizeof threshold);
    percent_text(confidence, level, sizeof level);
    if (p != out->p_value)
        snprintf(adjusted, sizeof adjusted, "; %.2g adjusted for many", p);
    if (out->from_rounds)
        snprintf(interval, sizeof interval, "%s interval over %zu and %zu rounds", level,
                 out->rounds_old, out->rounds_new);
    else
        snprintf(interval, sizeof interval, "widened %s interval (one round on a side)", level);
    if (!isnan(out->p_smallest))
        snprintf(best, sizeof best, "; %.2g at best with %zu and %zu samples", out->p_smallest,
                 out->n_old, out->n_new);
    const char *up = verdict_word(RB_VERDICT_SLOWER, out->quantity);
    const char *down = verdict_word(RB_VERDICT_FASTER, out->quantity);
    const char *figures = out->quantity == RB_QUANTITY_ENERGY ? "rounds" : "samples";
    out->verdict = RB_VERDICT_UNCLEAR;
    if (significant && out->ci_low > upper) {
        out->verdict = RB_VERDICT_SLOWER;
        compare_set_why(out, "significant (p = %.2g%s) and more than %s %s: the %s lies above +%s",
                        out->p_value, adjusted, threshold, up, interval, threshold);
    } else if (significant && out->ci_high < lower) {
        out->verdict = RB_VERDICT_FASTER;
        compare_set_why(out, "significant (p = %.2g%s) and more than %s %s: the %s lies below -%s",
                        out->p_value, adjusted, threshold, down, interval, threshold);
    } else if (out->ratio >= large && out->new_all_above) {
        out->verdict = RB_VERDICT_SLOWER;
        compare_set_why(out,
                        "%.3gx %s (at least %.3gx) and all %zu new %s above the old median "
                        "(p = %.2g%s)",
                        out->ratio, up, large, out->n_new, figures, p, best);
    } else if (out->ratio <= 1 / large && out->new_all_below) {
        out->verdict = RB_VERDICT_FASTER;
        compare_set_why(out,
                        "%.3gx %s (at least %.3gx) and all %zu new %s below the old median "
                        "(p = %.2g%s)",
                        1 / out->ratio, down, large, out->n_new, figures, p, best);
    } else if (out->ci_low >= lower && out->ci_high <= upper) {
        out->verdict = RB_VERDICT_SAME;
        compare_set_why(out, "the %s lies within %s either way", interval, threshold);
    } else if (significant) {
        compare_set_why(out, "a significant change (p = %.2g%s), but the %s reaches within %s",
                        out->p_value, adjusted, interval, threshold);
        add_settling(out, criteria);
    } else {
        compare_set_why(out, "no significant change (p = %.2g%s), but the %s reaches past %s",
                        out->p_value, adjusted, interval, threshold);
        add_settling(out, criteria);
    }
}

void compare_set_why(rb_sample_comparison *s, const char *fmt, ...)
{
    char text[RB_WHY_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    free(s->why);
    s->why = xstrdup(text);
}

void compare_result_free(rb_sample_comparison *s)
{
    free(s->why);
    s->why = NULL;
}

const char *compare_why(const rb_sample_comparison *s) { return s->why ? s->why : ""; }

/* The start of every comparison: *out cleared to an unclear verdict of one
 * round a side, with the counts and medians given and every statistic
 * unknown. */
static void comparison_begin(rb_sample_comparison *out, size_t n_old, size_t n_new,
                             double median_old, double median_new)
{
    memset(out, 0, sizeof *out);
    out->verdict = RB_VERDICT_UNCLEAR;
    out->rounds_old = out->rounds_new = 1;
    out->n_old = n_old;
    out->n_new = n_new;
    out->median_old = median_old;
    out->median_new = median_new;
    out->ratio = out->ci_low = out->ci_high = out->p_value = out->p_adjusted = NAN;
    out->p_smallest = out->spread_old = out->spread_new = NAN;
}

static size_t usable_rounds(const rb_round_samples *side, size_t *start, size_t *reps);

/* One run's samples: their interquartile range over their median. */
static double samples_spread(const double *v, size_t n)
{
    if (n < 2)
        return NAN;
    double *sorted = xmalloc(n * sizeof *sorted);
    memcpy(sorted, v, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_doubles);
    double median = sorted_quantile(sorted, n, 0.5);
    double spread = median > 0 ? (sorted_quantile(sorted, n, 0.75) -
                                  sorted_quantile(sorted, n, 0.25)) / median
                               : NAN;
    free(sorted);
    return spread;
}

/* A side measured in rounds: the range of its rounds' medians over their
 * median. */
static double rounds_spread(const rb_round_samples *side)
{
    if (side->n_rounds < 2 || !side->reps)
        return samples_spread(side->samples, side->n_samples);
    size_t *start = xmalloc(side->n_rounds * sizeof *start);
    size_t *reps = xmalloc(side->n_rounds * sizeof *reps);
    size_t n = usable_rounds(side, start, reps);
    double low = INFINITY, high = -INFINITY, *medians = xmalloc((n ? n : 1) * sizeof *medians);
    for (size_t k = 0; k < n; k++) {
        medians[k] = sample_median(side->samples + start[k], reps[k]);
        low = medians[k] < low ? medians[k] : low;
        high = medians[k] > high ? medians[k] : high;
    }
    double middle = n ? median_in_place(medians, n) : NAN;
    free(medians);
    free(start);
    free(reps);
    return n >= 2 && middle > 0 ? (high - low) / middle : NAN;
}

/* After an unclear verdict whose interval is known: how noisy the sides
 * were, and what would settle it: rounds enough that the interval (its
 * width shrinking as one over the root of the rounds), were it centred on
 * no change, fits within the threshold; and the threshold that calls it
 * the same now. */
static void add_settling(rb_sample_comparison *out, const rb_compare_criteria *criteria)
{
    if (!(out->ci_low > 0) || !(out->ci_high > 0) || !(out->ratio > 0))
        return;
    const char *what = out->quantity == RB_QUANTITY_ENERGY ? "energy" : "time";
    char spread[RB_WHY_MAX] = ""; /* kept only where it fits whole */
    if (!isnan(out->spread_old) && !isnan(out->spread_new)) {
        int n = snprintf(spread, sizeof spread, out->from_rounds
                             ? "; the rounds' median %ss spread %.3g%% (old) and %.3g%% (new)"
                             : "; the samples' %ss spread %.3g%% (old) and %.3g%% (new), "
                               "interquartile",
                         what, 100 * out->spread_old, 100 * out->spread_new);
        if (!(n > 0 && strlen(out->why ? out->why : "") + (size_t)n < RB_WHY_MAX))
            spread[0] = '\0';
    }
    double half = 0.5 * log(out->ci_high / out->ci_low);
    double room = log(1 + criteria->threshold);
    double same_at = (out->ci_high > 1 / out->ci_low ? out->ci_high : 1 / out->ci_low) - 1;
    /* --threshold takes at most 1000%: past it, no threshold calls it same */
    double threshold_pct = ceil(100 * same_at + 1e-9);
    char threshold[96];
    if (threshold_pct <= 1000)
        snprintf(threshold, sizeof threshold, "--threshold %d would call it same",
                 (int)threshold_pct);
    else
        snprintf(threshold, sizeof threshold,
                 "no --threshold (at most 1000%%) would call it same");
    char rounds[160];
    if (!out->from_rounds)
        snprintf(rounds, sizeof rounds, "rounds = 5 or more in both runs' experiments (the "
                 "run-to-run variation is then measured, not assumed)");
    else if (fabs(log(out->ratio)) >= room)
        snprintf(rounds, sizeof rounds, "more rounds (the ratio itself is past %g%%: they would "
                 "tell whether it is a change)", 100 * criteria->threshold);
    else {
        size_t have = out->rounds_old < out->rounds_new ? out->rounds_old : out->rounds_new;
        double need = ceil((double)have * (half / room) * (half / room));
        if (need > RB_MAX_ROUNDS)
            snprintf(rounds, sizeof rounds, "more rounds than a run takes (about %.3g a side; "
                     "at most %d)", need, RB_MAX_ROUNDS);
        else
            snprintf(rounds, sizeof rounds, "about %.0f rounds a side (if nothing changed: "
                     "the interval narrows to within %g%%)", need < 2 ? 2 : need,
                     100 * criteria->threshold);
    }
    compare_set_why(out, "%s%s; settle it with %s, or %s", out->why ? out->why : "", spread,
                    rounds, threshold);
}

/* Whether there are enough samples a side and both medians are positive;
 * if not, out->why says which. */
static int comparable(rb_sample_comparison *out, const rb_compare_criteria *criteria)
{
    if (out->n_old < criteria->min_samples || out->n_new < criteria->min_samples) {
        compare_set_why(out, "too few samples (%zu old, %zu new; %zu of each are needed)",
                        out->n_old, out->n_new, criteria->min_samples);
        return 0;
    }
    if (!(out->median_old > 0) || !(out->median_new > 0)) {
        compare_set_why(out, "a median time is not positive");
        return 0;
    }
    return 1;
}

void compare_samples(const double *old_ns, size_t n_old, const double *new_ns, size_t n_new,
                     const rb_compare_criteria *criteria, rb_sample_comparison *out)
{
    comparison_begin(out, n_old, n_new, sample_median(old_ns, n_old),
                     sample_median(new_ns, n_new));
    if (n_old > 0 && n_new > 0 && out->median_old > 0)
        out->ratio = out->median_new / out->median_old;
    if (!comparable(out, criteria))
        return;
    double confidence = 1 - criteria->alpha;
    double low, high;
    if (bootstrap_ratio_interval(old_ns, n_old, new_ns, n_new, confidence, criteria->resamples,
                                 criteria->seed, &low, &high) != 0) {
        compare_set_why(out, "the old samples hold times that are not positive");
        return;
    }
    /* One run per file: widen by the run-to-run allowance. */
    double widen = 1 + (criteria->run_allowance > 0 ? criteria->run_allowance : 0);
    out->ci_low = low / widen;
    out->ci_high = high * widen;
    out->spread_old = samples_spread(old_ns, n_old);
    out->spread_new = samples_spread(new_ns, n_new);
    out->p_value = out->p_adjusted = mann_whitney_p(old_ns, n_old, new_ns, n_new);
    out->p_smallest = rank_smallest_p(n_old, n_new);
    out->new_all_above = out->new_all_below = 1;
    for (size_t k = 0; k < n_new; k++) {
        out->new_all_above &= new_ns[k] > out->median_old;
        out->new_all_below &= new_ns[k] < out->median_old;
    }
    out->tested = 1;
    compare_decide(out, criteria);
}

/* The rounds of a side that hold samples, with where each starts; returns
 * how many (0 when the reps do not add up to the samples). */
static size_t usable_rounds(const rb_round_samples *side, size_t *start, size_t *reps)
{
    size_t used = 0, at = 0;
    for (size_t k = 0; k < side->n_rounds; k++) {
        if (side->reps[k] > 0) {
            start[used] = at;
            reps[used++] = side->reps[k];
        }
        at += side->reps[k];
    }
    return at == side->n_samples ? used : 0;
}

double rounds_median(const rb_round_samples *side)
{
    if (side->n_rounds < 2 || !side->reps)
        return sample_median(side->samples, side->n_samples);
    size_t *start = xmalloc(side->n_rounds * sizeof *start);
    size_t *reps = xmalloc(side->n_rounds * sizeof *reps);
    size_t n = usable_rounds(side, start, reps);
    double *medians = xmalloc((n ? n : 1) * sizeof *medians);
    for (size_t k = 0; k < n; k++)
        medians[k] = sample_median(side->samples + start[k], reps[k]);
    double m = n ? median_in_place(medians, n) : NAN;
    free(medians);
    free(start);
    free(reps);
    return m;
}

/* One side of a hierarchical resample: rounds drawn with replacement, then
 * each drawn round's samples; the median of the drawn rounds' medians. */
static double resampled_rounds(rb_rng *r, const double *samples, const size_t *start,
                               const size_t *reps, size_t n_rounds, double *scratch,
                               double *medians)
{
    for (size_t k = 0; k < n_rounds; k++) {
        size_t pick = rng_index(r, n_rounds);
        medians[k] = resampled_median(r, samples + start[pick], reps[pick], scratch);
    }
    return median_in_place(medians, n_rounds);
}

int hierarchical_ratio_interval(const rb_round_samples *a, const rb_round_samples *b,
                                double confidence, unsigned resamples, uint64_t seed,
                                double *low, double *high, double *log_spread, double *p_tail)
{
    if (resamples == 0 || a->n_rounds == 0 || b->n_rounds == 0 || !a->reps || !b->reps)
        return -1;
    size_t rounds = a->n_rounds > b->n_rounds ? a->n_rounds : b->n_rounds;
    size_t *start_a = xmalloc(a->n_rounds * sizeof *start_a);
    size_t *reps_a = xmalloc(a->n_rounds * sizeof *reps_a);
    size_t *start_b = xmalloc(b->n_rounds * sizeof *start_b);
    size_t *reps_b = xmalloc(b->n_rounds * sizeof *reps_b);
    size_t n_a = usable_rounds(a, start_a, reps_a), n_b = usable_rounds(b, start_b, reps_b);
    size_t longest = a->n_samples > b->n_samples ? a->n_samples : b->n_samples;
    double *scratch = xmalloc((longest ? longest : 1) * sizeof *scratch);
    double *medians = xmalloc(rounds * sizeof *medians);
    double *logs = xmalloc(resamples * sizeof *logs);
    int status = n_a && n_b ? 0 : -1;
    rb_rng r;
    rng_seed(&r, seed);
    for (unsigned k = 0; k < resamples && status == 0; k++) {
        double fa = resampled_rounds(&r, a->samples, start_a, reps_a, n_a, scratch, medians);
        double fb = resampled_rounds(&r, b->samples, start_b, reps_b, n_b, scratch, medians);
        if (!(fa > 0) || !(fb > 0))
            status = -1;
        else
            logs[k] = log(fb / fa);
    }
    if (status == 0) {
        qsort(logs, resamples, sizeof *logs, compare_doubles);
        *low = exp(sorted_quantile(logs, resamples, (1 - confidence) / 2));
        *high = exp(sorted_quantile(logs, resamples, 1 - (1 - confidence) / 2));
        /* the spread on the side of no change (log ratio 0): one round far
         * off skews the other side, and must not hide a change */
        double middle = sorted_quantile(logs, resamples, 0.5);
        *log_spread = middle >= 0 ? middle - sorted_quantile(logs, resamples, 0.1587)
                                  : sorted_quantile(logs, resamples, 0.8413) - middle;
        /* the share of resampled ratios on the other side of 1, twice, at
         * least 2 / (resamples + 1) */
        size_t across = 0;
        for (unsigned k = 0; k < resamples; k++)
            across += middle >= 0 ? logs[k] <= 0 : logs[k] >= 0;
        *p_tail = 2 * ((double)across + 1) / ((double)resamples + 1);
        if (*p_tail > 1)
            *p_tail = 1;
    }
    free(start_a);
    free(reps_a);
    free(start_b);
    free(reps_b);
    free(scratch);
    free(medians);
    free(logs);
    return status;
}

void compare_rounds(const rb_round_samples *old_side, const rb_round_samples *new_side,
                    const rb_compare_criteria *criteria, rb_sample_comparison *out)
{
    size_t rounds_old = old_side->n_rounds ? old_side->n_rounds : 1;
    size_t rounds_new = new_side->n_rounds ? new_side->n_rounds : 1;
    if (rounds_old < 2 || rounds_new < 2) {
        compare_samples(old_side->samples, old_side->n_samples, new_side->samples,
                        new_side->n_samples, criteria, out);
        out->rounds_old = rounds_old;
        out->rounds_new = rounds_new;
        return;
    }
    size_t n_old = old_side->n_samples, n_new = new_side->n_samples;
    comparison_begin(out, n_old, n_new, rounds_median(old_side), rounds_median(new_side));
    out->from_rounds = 1;
    out->rounds_old = rounds_old;
    out->rounds_new = rounds_new;
    if (out->median_old > 0 && out->median_new >= 0)
        out->ratio = out->median_new / out->median_old;
    if (!comparable(out, criteria))
        return;
    double low, high, spread, tail;
    if (hierarchical_ratio_interval(old_side, new_side, 1 - criteria->alpha, criteria->resamples,
                                    criteria->seed, &low, &high, &spread, &tail) != 0) {
        compare_set_why(out, "the rounds' samples do not add up, or hold times that are not "
                             "positive");
        return;
    }
    out->ci_low = low;
    out->ci_high = high;
    out->spread_old = rounds_spread(old_side);
    out->spread_new = rounds_spread(new_side);
    /* the normal approximation reaches the small p-values that Holm's
     * adjustment over many configurations needs; the bootstrap's own tail
     * holds where a few rounds make its distribution far from normal */
    double distance = fabs(log(out->ratio));
    if (spread > 0)
        out->p_value = erfc(distance / spread / sqrt(2.0));
    else /* every resample the same: the bootstrap's own tail, never 0 */
        out->p_value = distance > 0 ? tail : 1;
    if (distance > 0 && tail < out->p_value)
        out->p_value = tail;
    out->p_adjusted = out->p_value;
    out->new_all_above = out->new_all_below = 1;
    for (size_t k = 0; k < n_new; k++) {
        out->new_all_above &= new_side->samples[k] > out->median_old;
        out->new_all_below &= new_side->samples[k] < out->median_old;
    }
    out->tested = 1;
    compare_decide(out, criteria);
}
