/* src/run/rules.c: the rules of measuring one configuration that need no
 * plugin and no device (see run/rules.h): the stop rule of the timed
 * repetitions and its noise, the bimodality check of samples, the size of a graph batch, the bit comparison of results,
 * the digest of a result's bits and the reproducibility level a row has on
 * its own, the error in units of the tolerance, and the names of profiler
 * ranges. */
#include "run/rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/names.h"
#include "base/stats.h"
#include "base/units.h"
#include "base/util.h"
#include "results/rows.h"

int rules_checks_noise_at(size_t count)
{
    if (count <= 64)
        return 1;
    /* every 16th up to 256, then every (largest power of two <= count/16)th:
     * about 16 checks per doubling */
    size_t step = 16;
    while (step * 2 <= count / 16)
        step *= 2;
    return count % step == 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double *sorted_copy(const double *samples, size_t count)
{
    double *sorted = xmalloc(count * sizeof *sorted);
    memcpy(sorted, samples, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_doubles);
    return sorted;
}

double rules_noise(const double *samples, size_t count)
{
    if (count < 2)
        return 0;
    rb_stats s;
    stats_compute(samples, count, &s);
    if (s.median == 0)
        return 0;
    double *sorted = sorted_copy(samples, count);
    /* The k-th order statistic lies below the median with the chance of a
     * binomial(n, 1/2) of at least k: n/2 -+ sqrt(n)/2 is one standard
     * deviation of it each way. */
    double n = (double)count, half = sqrt(n) / 2;
    double low_at = floor(n / 2 - half), high_at = ceil(n / 2 + half) - 1;
    size_t low = low_at < 0 ? 0 : (size_t)low_at;
    size_t high = high_at > n - 1 ? count - 1 : (size_t)high_at;
    double spread = (sorted[high] - sorted[low]) / (2 * fabs(s.median));
    free(sorted);
    return spread > s.noise ? spread : s.noise;
}

int rules_multimodal(const double *samples, size_t count)
{
    if (count < RB_MULTIMODAL_MIN_SAMPLES)
        return -1;
    double *v = sorted_copy(samples, count);
    size_t distinct = 1;
    for (size_t k = 1; k < count; k++)
        distinct += v[k] != v[k - 1];
    if (distinct < 8) {
        free(v);
        return -1;
    }
    /* prefix sums of the values and their squares, about the first value
     * so that the squares lose no precision */
    double *sum = xmalloc((count + 1) * sizeof *sum), *squares = xmalloc((count + 1) * sizeof *squares);
    sum[0] = squares[0] = 0;
    for (size_t k = 0; k < count; k++) {
        double x = v[k] - v[0];
        sum[k + 1] = sum[k] + x;
        squares[k + 1] = squares[k] + x * x;
    }
    size_t least = count / 10 > 3 ? count / 10 : 3;
    double best_within = INFINITY, best_gap = 0, best_pooled = 0;
    for (size_t split = least; split + least <= count; split++) {
        double n1 = (double)split, n2 = (double)(count - split);
        double s1 = sum[split], s2 = sum[count] - s1;
        double ss1 = squares[split] - s1 * s1 / n1;
        double ss2 = squares[count] - squares[split] - s2 * s2 / n2;
        if (ss1 < 0)
            ss1 = 0;
        if (ss2 < 0)
            ss2 = 0;
        if (ss1 + ss2 < best_within) {
            best_within = ss1 + ss2;
            best_gap = s2 / n2 - s1 / n1;
            best_pooled = sqrt((ss1 / n1 + ss2 / n2) / 2);
        }
    }
    double median = count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
    free(sum);
    free(squares);
    free(v);
    int apart = best_gap > 0.02 * fabs(median) &&
                best_gap > RB_MULTIMODAL_SEPARATION * best_pooled;
    return apart ? 1 : 0;
}

const char *rules_should_stop(const rb_stop_rule *rule, const double *samples, size_t count,
                              double total_ns, double elapsed_s, double next_s)
{
    int enough = (long)count >= rule->min_reps && total_ns >= rule->min_time_ns;
    int check_noise = enough && count >= 2 && rules_checks_noise_at(count);
    if ((long)count >= rule->max_reps) {
        /* the last look at the noise decides which it was */
        return enough && count >= 2 && rules_noise(samples, count) <= rule->noise ? "noise"
                                                                                 : "max_reps";
    }
    if (check_noise && rules_noise(samples, count) <= rule->noise)
        return "noise";
    if (elapsed_s + next_s > rule->budget_s)
        return "timeout";
    return NULL;
}

uint32_t rules_batch_calls(long requested, double call_ns)
{
    if (requested > 0)
        return (uint32_t)requested;
    if (!(call_ns > 0))
        return RB_BATCH_MAX_CALLS;
    double calls = ceil(RB_BATCH_TARGET_NS / call_ns);
    if (calls > RB_BATCH_MAX_CALLS)
        return RB_BATCH_MAX_CALLS;
    /* even, so that a strategy alternating by call parity (order =
     * alternate) alternates across replays too: F R F F R F would
     * start every replay of an odd batch on the order the last ended on */
    uint32_t even = (uint32_t)calls + ((uint32_t)calls & 1u);
    return even < 2 ? 2 : even;
}

int rules_same_result(const rb_result *a, const rb_result *b, int op, uint32_t bins)
{
    if (op == RB_OP_HISTOGRAM) {
        if (!a->bins || !b->bins || a->n_bins < bins || b->n_bins < bins)
            return 0;
        return memcmp(a->bins, b->bins, bins * sizeof *a->bins) == 0;
    }
    /* the floating value by its bits: -0.0 and 0.0 differ, a NaN equals
     * the same NaN */
    if (a->i != b->i || memcmp(&a->f, &b->f, sizeof a->f) != 0)
        return 0;
    return op != RB_OP_ARGMAX || a->index == b->index;
}

uint64_t rules_result_bits(const rb_result *r, int op, uint32_t bins)
{
    uint64_t h = RB_FNV1A_BASIS;
    if (op == RB_OP_HISTOGRAM) {
        uint32_t have = r->bins && r->n_bins >= bins ? bins : 0;
        h = rb_fnv1a(h, &have, sizeof have);
        return have ? rb_fnv1a(h, r->bins, bins * sizeof *r->bins) : h;
    }
    h = rb_fnv1a(h, &r->i, sizeof r->i);
    h = rb_fnv1a(h, &r->f, sizeof r->f);
    if (op == RB_OP_ARGMAX)
        h = rb_fnv1a(h, &r->index, sizeof r->index);
    return h;
}

int rules_repro_alone(int ok, int determinism, int exact_answer, double error)
{
    if (!ok || determinism == RB_DETERMINISM_UNKNOWN)
        return RB_REPRO_UNKNOWN;
    if (determinism == RB_DETERMINISM_DIFFERS)
        return RB_REPRO_VARIES;
    return exact_answer && error == 0 ? RB_REPRO_EXACT : RB_REPRO_RUN_TO_RUN;
}

int rules_exact_answer(int op, int dtype, int distribution, uint64_t n)
{
    if (op != RB_OP_SUM)
        return 1; /* min, max, argmax: an element; histogram: counts */
    int bits; /* whole numbers up to 2^bits are exact in the format */
    switch (dtype) {
    case RB_DTYPE_F32: bits = 24; break;
    case RB_DTYPE_F64: bits = 53; break;
    case RB_DTYPE_F16: bits = 11; break;
    case RB_DTYPE_BF16: bits = 8; break;
    default: return 1; /* integers wrap alike in any order */
    }
    uint64_t largest; /* the largest element */
    if (distribution == RB_DIST_ONES)
        largest = 1;
    else if (distribution == RB_DIST_SMALL)
        largest = 15;
    else
        return 0;
    return n <= (UINT64_C(1) << bits) / largest;
}

int rules_error_ratio(double error, double tolerance, double *ratio)
{
    if (isnan(error) || isnan(tolerance))
        return 0;
    if (tolerance > 0) {
        *ratio = error / tolerance;
        return 1;
    }
    if (error == 0) {
        *ratio = 0;
        return 1;
    }
    return 0;
}

void rules_range_name(const rb_configuration *cfg, char *buf, size_t len)
{
    char n[32];
    format_size(cfg->n, n, sizeof n);
    const char *params = cfg->params_text ? cfg->params_text : "";
    snprintf(buf, len, "%s%s%s %s %s n=%s", cfg->run ? cfg->run->name : "", *params ? " " : "",
             params, op_name(cfg->op), dtype_name(cfg->dtype), n);
    for (char *p = buf; *p; p++)
        if (*p == '/' || *p == '@' || (unsigned char)*p < 0x20)
            *p = '_';
}
