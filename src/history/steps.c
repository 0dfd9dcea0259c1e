/* src/history/steps.c: the steps of a series (history/steps.h): a robust
 * binary segmentation of the log values, each split tested against the
 * noise and the threshold; the medians of every prefix and suffix of a
 * segment come from one sorted insertion each. */
#include "history/steps.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void steps_criteria_default(rb_step_criteria *c)
{
    c->threshold = 0.05;
    c->z = 5;
    c->min_segment = 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double steps_median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double *s = xmalloc(n * sizeof *s);
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double m = (s[(n - 1) / 2] + s[n / 2]) / 2;
    free(s);
    return m;
}

/* The noise of log values: 1.4826 * median |consecutive difference| / sqrt 2. */
static double log_noise(const double *ly, size_t n)
{
    if (n < 3)
        return RB_STEPS_SIGMA_FLOOR;
    double *d = xmalloc((n - 1) * sizeof *d);
    for (size_t k = 1; k < n; k++)
        d[k - 1] = fabs(ly[k] - ly[k - 1]);
    double sigma = 1.4826 * steps_median(d, n - 1) / sqrt(2.0);
    free(d);
    return sigma > RB_STEPS_SIGMA_FLOOR ? sigma : RB_STEPS_SIGMA_FLOOR;
}

double steps_noise(const double *y, size_t n)
{
    double *ly = xmalloc((n ? n : 1) * sizeof *ly);
    for (size_t k = 0; k < n; k++)
        ly[k] = log(y[k]);
    double sigma = log_noise(ly, n);
    free(ly);
    return sigma;
}

/* med[k] = the median of v[0..k] (k + 1 values), for k < n; `sorted` is a
 * buffer of n. Reversed (`step` -1): of v[n-1-k..n-1]. */
static void running_medians(const double *v, size_t n, int reversed, double *sorted, double *med)
{
    for (size_t k = 0; k < n; k++) {
        double x = reversed ? v[n - 1 - k] : v[k];
        size_t lo = 0, hi = k; /* insert x into sorted[0..k) */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (sorted[mid] < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        memmove(sorted + lo + 1, sorted + lo, (k - lo) * sizeof *sorted);
        sorted[lo] = x;
        med[k] = (sorted[k / 2] + sorted[(k + 1) / 2]) / 2;
    }
}

typedef struct seg_state {
    const double *ly;
    double sigma;
    const rb_step_criteria *c;
    double *sorted, *left, *right;
    size_t *cuts;
    size_t n_cuts;
} seg_state;

static int passes(const seg_state *s, double diff, size_t m1, size_t m2, double *score)
{
    *score = fabs(diff) / (s->sigma * sqrt(1.0 / (double)m1 + 1.0 / (double)m2));
    return fabs(diff) >= log1p(s->c->threshold) && *score >= s->c->z;
}

/* Whether more than half of each side's values lie on its side of the
 * midpoint between the two levels: a level of two runs needs both (one
 * run off makes no level). */
static int sides_agree(const double *ly, size_t lo, size_t at, size_t hi, double left,
                       double right)
{
    double mid = (left + right) / 2;
    int up = right > left;
    size_t own = 0;
    for (size_t k = lo; k < at; k++)
        own += up ? ly[k] < mid : ly[k] > mid;
    if (2 * own <= at - lo)
        return 0;
    own = 0;
    for (size_t k = at; k < hi; k++)
        own += up ? ly[k] > mid : ly[k] < mid;
    return 2 * own > hi - at;
}

/* The absolute deviations of ly[lo..at) from `left` and of ly[at..hi)
 * from `right`: how well two levels split there fit. */
static double fit_cost(const double *ly, size_t lo, size_t at, size_t hi, double left,
                       double right)
{
    double cost = 0;
    for (size_t k = lo; k < at; k++)
        cost += fabs(ly[k] - left);
    for (size_t k = at; k < hi; k++)
        cost += fabs(ly[k] - right);
    return cost;
}

/* Where ly[lo..hi) splits best into two levels: the place of least
 * absolute deviation among those whose levels pass the test and whose
 * sides agree; 0 where none does. */
static size_t best_cut(seg_state *s, size_t lo, size_t hi)
{
    size_t m = hi - lo, min = s->c->min_segment ? s->c->min_segment : 1;
    if (m < 2 * min)
        return 0;
    running_medians(s->ly + lo, m, 0, s->sorted, s->left);
    running_medians(s->ly + lo, m, 1, s->sorted, s->right);
    size_t best = 0;
    double best_cost = INFINITY;
    for (size_t k = min; k + min <= m; k++) { /* left: [0, k), right: [k, m) */
        double left = s->left[k - 1], right = s->right[m - k - 1], score;
        if (!passes(s, right - left, k, m - k, &score) ||
            !sides_agree(s->ly, lo, lo + k, hi, left, right))
            continue;
        double cost = fit_cost(s->ly, lo, lo + k, hi, left, right);
        if (cost < best_cost) {
            best_cost = cost;
            best = k;
        }
    }
    return best ? lo + best : 0;
}

/* A cut of ly[lo..hi): the best of the whole, else one found in its
 * halves (the first half, the middle half, the second half, each searched
 * the same way), so that a level that comes and goes (a bump), which no
 * single cut of the whole splits, is found; 0 for none. */
static size_t find_cut(seg_state *s, size_t lo, size_t hi)
{
    size_t at = best_cut(s, lo, hi), min = s->c->min_segment ? s->c->min_segment : 1;
    if (at || hi - lo < 8 * min)
        return at;
    size_t q = (hi - lo) / 4;
    if (!(at = find_cut(s, lo, lo + 2 * q)) && !(at = find_cut(s, lo + q, lo + 3 * q)))
        at = find_cut(s, lo + 2 * q, hi);
    return at;
}

/* Cuts ly[lo..hi), then each side. */
static void split(seg_state *s, size_t lo, size_t hi)
{
    size_t at = find_cut(s, lo, hi);
    if (!at)
        return;
    s->cuts[s->n_cuts++] = at;
    split(s, lo, at);
    split(s, at, hi);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

size_t steps_find(const double *y, size_t n, const rb_step_criteria *c, rb_step **steps,
                  double *noise)
{
    *steps = NULL;
    double *ly = xmalloc((n ? n : 1) * sizeof *ly);
    for (size_t k = 0; k < n; k++)
        ly[k] = log(y[k]);
    seg_state s = {ly, log_noise(ly, n), c, xmalloc((n + 1) * sizeof(double)),
                   xmalloc((n + 1) * sizeof(double)), xmalloc((n + 1) * sizeof(double)),
                   xmalloc((n + 1) * sizeof(size_t)), 0};
    if (noise)
        *noise = s.sigma;
    split(&s, 0, n);
    qsort(s.cuts, s.n_cuts, sizeof *s.cuts, cmp_size);
    /* Drop the steps that the final levels beside them no longer support,
     * one at a time (the weakest first), until every one passes. */
    for (;;) {
        size_t weakest = SIZE_MAX;
        double weakest_score = 0;
        for (size_t k = 0; k < s.n_cuts; k++) {
            size_t lo = k ? s.cuts[k - 1] : 0, at = s.cuts[k],
                   hi = k + 1 < s.n_cuts ? s.cuts[k + 1] : n;
            double left = steps_median(ly + lo, at - lo), right = steps_median(ly + at, hi - at),
                   score;
            int kept = passes(&s, right - left, at - lo, hi - at, &score) &&
                       sides_agree(ly, lo, at, hi, left, right);
            if (!kept &&
                (weakest == SIZE_MAX || score < weakest_score)) {
                weakest = k;
                weakest_score = score;
            }
        }
        if (weakest == SIZE_MAX)
            break;
        memmove(s.cuts + weakest, s.cuts + weakest + 1,
                (s.n_cuts - weakest - 1) * sizeof *s.cuts);
        s.n_cuts--;
    }
    if (s.n_cuts)
        *steps = xcalloc(s.n_cuts, sizeof **steps);
    for (size_t k = 0; k < s.n_cuts; k++) {
        size_t lo = k ? s.cuts[k - 1] : 0, at = s.cuts[k],
               hi = k + 1 < s.n_cuts ? s.cuts[k + 1] : n;
        rb_step *st = &(*steps)[k];
        st->at = at;
        st->before = steps_median(y + lo, at - lo);
        st->after = steps_median(y + at, hi - at);
        st->ratio = st->after / st->before;
        passes(&s, log(st->ratio), at - lo, hi - at, &st->score);
    }
    size_t count = s.n_cuts;
    free(s.sorted);
    free(s.left);
    free(s.right);
    free(s.cuts);
    free(ly);
    return count;
}
