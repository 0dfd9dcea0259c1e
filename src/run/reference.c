/* src/run/reference.c: the reference result of an input and the verdict on a
 * plugin's result. The input is cut into chunks of REF_CHUNK elements that
 * threads take in turn; each chunk leaves a partial result in its own slot,
 * and the partials are combined in chunk order, so the reference is the same
 * whatever the thread count (REDBENCH_THREADS=N, otherwise the online
 * cores).
 *
 * Integer sums wrap like the dtype: they are accumulated modulo 2^64 and then
 * wrapped to 32 bits for i32 (u8 sums are not wrapped to 8 bits: they are
 * counted modulo 2^64, like i64). Floating sums are Neumaier compensated sums
 * in long double. The tolerance uses FLT_EPSILON (2^-23) and DBL_EPSILON
 * (2^-52), the spacing of the dtype's numbers at 1, and adds the dtype's
 * smallest normal number as an absolute floor so that a sum of zeros is
 * judged sanely. f16 and bf16 elements are read exactly as f32 values
 * (redbench/half.h) and summed the same way; their sums are judged as f32
 * sums, since a plugin accumulates them in f32 (redbench/plugin.h, "Half
 * precision"; docs/measurement.md says why that is the bound). */
#include "run/reference.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/names.h"
#include "base/parallel.h"
#include "base/util.h"

#include <redbench/half.h>

#define REF_CHUNK ((uint64_t)1 << 20)
#define BYTE_VALUES 256

/* A running Neumaier sum: the sum and the rounding errors it lost. */
typedef struct neumaier {
    long double sum, comp;
} neumaier;

static inline void neumaier_add(neumaier *a, long double x)
{
    long double t = a->sum + x;
    if (fabsl(a->sum) >= fabsl(x))
        a->comp += (a->sum - t) + x;
    else
        a->comp += (x - t) + a->sum;
    a->sum = t;
}

/* What one chunk leaves for the combination. */
typedef struct chunk_result {
    uint64_t isum;       /* integer sum modulo 2^64 */
    neumaier fsum;       /* floating sum */
    long double abs_sum; /* floating sum |x| */
    int64_t iext;        /* integer min or max */
    long double fext;    /* floating min or max */
    uint64_t *counts;    /* histogram: BYTE_VALUES counts */
} chunk_result;

/* The Neumaier sum and sum |x| of a chunk of floating values. */
#define FLOAT_SUM_LOOP(x, count, fsum, abs_sum)                                \
    do {                                                                       \
        for (uint64_t k = 0; k < count; k++) {                                 \
            long double v = x[k];                                              \
            neumaier_add(&fsum, v);                                            \
            abs_sum += fabsl(v);                                               \
        }                                                                      \
    } while (0)

static void chunk_sum(const rb_input *in, uint64_t first, uint64_t count, chunk_result *out)
{
    uint64_t isum = 0;
    neumaier fsum = {0, 0};
    long double abs_sum = 0;
    switch (in->dtype) {
    case RB_DTYPE_I32: {
        const int32_t *x = (const int32_t *)in->data + first;
        for (uint64_t k = 0; k < count; k++)
            isum += (uint64_t)(int64_t)x[k];
        break;
    }
    case RB_DTYPE_I64: {
        const int64_t *x = (const int64_t *)in->data + first;
        for (uint64_t k = 0; k < count; k++)
            isum += (uint64_t)x[k];
        break;
    }
    case RB_DTYPE_U8: {
        const uint8_t *x = (const uint8_t *)in->data + first;
        for (uint64_t k = 0; k < count; k++)
            isum += x[k];
        break;
    }
    case RB_DTYPE_F32: {
        const float *x = (const float *)in->data + first;
        FLOAT_SUM_LOOP(x, count, fsum, abs_sum);
        break;
    }
    case RB_DTYPE_F64: {
        const double *x = (const double *)in->data + first;
        FLOAT_SUM_LOOP(x, count, fsum, abs_sum);
        break;
    }
    case RB_DTYPE_F16:
    case RB_DTYPE_BF16: {
        const uint16_t *x = (const uint16_t *)in->data + first;
        for (uint64_t k = 0; k < count; k++) {
            long double v = reference_half(in->dtype, x[k]);
            neumaier_add(&fsum, v);
            abs_sum += fabsl(v);
        }
        break;
    }
    default:
        break;
    }
    out->isum = isum;
    out->fsum = fsum;
    out->abs_sum = abs_sum;
}

/* The case of chunk_extreme for one dtype, of element type T: the smallest
 * (want_max 0) or largest element of the chunk, into out->field. */
#define EXTREME_CASE(dtype, T, field)                                          \
    case dtype: {                                                              \
        const T *x = (const T *)in->data + first;                              \
        T m = x[0];                                                            \
        if (want_max) {                                                        \
            for (uint64_t k = 1; k < count; k++)                               \
                m = x[k] > m ? x[k] : m;                                       \
        } else {                                                               \
            for (uint64_t k = 1; k < count; k++)                               \
                m = x[k] < m ? x[k] : m;                                       \
        }                                                                      \
        out->field = m;                                                        \
        break;                                                                 \
    }

static void chunk_extreme(const rb_input *in, uint64_t first, uint64_t count, int want_max,
                          chunk_result *out)
{
    switch (in->dtype) {
    EXTREME_CASE(RB_DTYPE_I32, int32_t, iext)
    EXTREME_CASE(RB_DTYPE_I64, int64_t, iext)
    EXTREME_CASE(RB_DTYPE_U8, uint8_t, iext)
    EXTREME_CASE(RB_DTYPE_F32, float, fext)
    EXTREME_CASE(RB_DTYPE_F64, double, fext)
    case RB_DTYPE_F16:
    case RB_DTYPE_BF16: {
        const uint16_t *x = (const uint16_t *)in->data + first;
        float m = reference_half(in->dtype, x[0]);
        for (uint64_t k = 1; k < count; k++) {
            float v = reference_half(in->dtype, x[k]);
            m = want_max ? (v > m ? v : m) : (v < m ? v : m);
        }
        out->fext = m;
        break;
    }
    default:
        break;
    }
}

/* Counts of every byte value (the histogram's bins are folded later). */
static void chunk_counts(const rb_input *in, uint64_t first, uint64_t count, chunk_result *out)
{
    const uint8_t *x = (const uint8_t *)in->data + first;
    uint64_t *c = out->counts;
    memset(c, 0, BYTE_VALUES * sizeof *c);
    for (uint64_t k = 0; k < count; k++)
        c[x[k]]++;
}

/* What the threads share: each chunk's result goes to its own slot. */
typedef struct ref_job {
    const rb_input *in;
    int op;
    uint64_t n_chunks;
    chunk_result *chunks;
} ref_job;

/* One chunk's partial result (a parallel_chunks callback). */
static void ref_chunk(void *ctx, uint64_t c)
{
    ref_job *job = ctx;
    uint64_t first = c * REF_CHUNK;
    uint64_t count = job->in->n - first < REF_CHUNK ? job->in->n - first : REF_CHUNK;
    chunk_result *out = &job->chunks[c];
    switch (job->op) {
    case RB_OP_SUM: chunk_sum(job->in, first, count, out); break;
    case RB_OP_MIN: chunk_extreme(job->in, first, count, 0, out); break;
    case RB_OP_MAX:
    case RB_OP_ARGMAX: chunk_extreme(job->in, first, count, 1, out); break;
    case RB_OP_HISTOGRAM: chunk_counts(job->in, first, count, out); break;
    default: break;
    }
}

int reference_is_float(int dtype)
{
    return dtype == RB_DTYPE_F32 || dtype == RB_DTYPE_F64 || reference_is_half(dtype);
}

int reference_is_half(int dtype) { return dtype == RB_DTYPE_F16 || dtype == RB_DTYPE_BF16; }

float reference_half(int dtype, uint16_t bits)
{
    return dtype == RB_DTYPE_F16 ? rb_f16_to_f32(bits) : rb_bf16_to_f32(bits);
}

/* An integer sum modulo 2^64 as the dtype holds it (two's complement). */
int64_t reference_wrap(uint64_t u, int dtype)
{
    if (dtype == RB_DTYPE_I32) {
        uint32_t w = (uint32_t)u;
        return w <= INT32_MAX ? (int64_t)w : (int64_t)w - ((int64_t)1 << 32);
    }
    return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

static int element_is_max(const rb_reference *ref, const rb_input *in, uint64_t k)
{
    return reference_is_float(in->dtype) ? reference_element_float(in, k) == ref->f : reference_element_int(in, k) == ref->i;
}

void reference_compute(rb_reference *ref, const rb_input *in, int op, uint32_t bins)
{
    memset(ref, 0, sizeof *ref);
    ref->op = op;
    ref->dtype = in->dtype;
    ref->n = in->n;
    if (in->n == 0)
        return;

    ref_job job = {in, op, (in->n + REF_CHUNK - 1) / REF_CHUNK, NULL};
    job.chunks = xcalloc(job.n_chunks, sizeof *job.chunks);
    uint64_t *counts = NULL;
    if (op == RB_OP_HISTOGRAM) {
        counts = xcalloc(job.n_chunks * BYTE_VALUES, sizeof *counts);
        for (uint64_t c = 0; c < job.n_chunks; c++)
            job.chunks[c].counts = counts + c * BYTE_VALUES;
    }
    parallel_chunks(job.n_chunks, ref_chunk, &job);

    switch (op) {
    case RB_OP_SUM: {
        uint64_t isum = 0;
        neumaier fsum = {0, 0};
        long double abs_sum = 0;
        for (uint64_t c = 0; c < job.n_chunks; c++) {
            isum += job.chunks[c].isum;
            neumaier_add(&fsum, job.chunks[c].fsum.sum);
            neumaier_add(&fsum, job.chunks[c].fsum.comp);
            abs_sum += job.chunks[c].abs_sum;
        }
        ref->i = reference_wrap(isum, in->dtype);
        ref->f = fsum.sum + fsum.comp;
        ref->abs_sum = abs_sum;
        break;
    }
    case RB_OP_MIN:
    case RB_OP_MAX:
    case RB_OP_ARGMAX: {
        int want_max = op != RB_OP_MIN;
        ref->i = job.chunks[0].iext;
        ref->f = job.chunks[0].fext;
        for (uint64_t c = 1; c < job.n_chunks; c++) {
            int64_t i = job.chunks[c].iext;
            long double f = job.chunks[c].fext;
            if (want_max ? i > ref->i : i < ref->i)
                ref->i = i;
            if (want_max ? f > ref->f : f < ref->f)
                ref->f = f;
        }
        if (op == RB_OP_ARGMAX) {
            /* the first index: in the first chunk that holds the maximum */
            uint64_t c = 0;
            while (c + 1 < job.n_chunks &&
                   (reference_is_float(in->dtype) ? job.chunks[c].fext != ref->f
                                        : job.chunks[c].iext != ref->i))
                c++;
            uint64_t k = c * REF_CHUNK;
            while (k + 1 < in->n && !element_is_max(ref, in, k))
                k++;
            ref->index = k;
        }
        break;
    }
    case RB_OP_HISTOGRAM: {
        /* sweep.c allows 1..256 bins; anything else is counted in one bin */
        ref->n_bins = bins >= 1 && bins <= BYTE_VALUES ? bins : 1;
        ref->bins = xcalloc(ref->n_bins, sizeof *ref->bins);
        for (uint64_t c = 0; c < job.n_chunks; c++)
            for (uint32_t b = 0; b < BYTE_VALUES; b++)
                ref->bins[b * ref->n_bins / BYTE_VALUES] += job.chunks[c].counts[b];
        break;
    }
    default:
        break;
    }
    free(counts);
    free(job.chunks);
}

void reference_free(rb_reference *ref)
{
    free(ref->bins);
    ref->bins = NULL;
    ref->n_bins = 0;
}

double reference_tolerance(int dtype, uint64_t n, long double abs_sum)
{
    if (!reference_is_float(dtype))
        return 0;
    /* halves: the f32 accumulator's rounding, not the format's (their
     * elements are exact) */
    int single = dtype != RB_DTYPE_F64;
    double eps = single ? FLT_EPSILON : DBL_EPSILON;
    double floor_abs = single ? FLT_MIN : DBL_MIN;
    return RB_TOLERANCE_K * sqrt((double)n) * eps * (double)abs_sum + floor_abs;
}

/* A value of the dtype as text: integers exactly, floats with the digits
 * that tell any two values of the dtype apart. */
void reference_format_value(char *buf, size_t len, int dtype, int64_t i, long double f)
{
    if (dtype == RB_DTYPE_F32 || reference_is_half(dtype)) /* halves: f32 results */
        snprintf(buf, len, "%.9g", (double)f);
    else if (dtype == RB_DTYPE_F64)
        snprintf(buf, len, "%.17g", (double)f);
    else
        snprintf(buf, len, "%" PRId64, i);
}

static void judge_sum(const rb_reference *ref, const rb_result *res, rb_verdict *out)
{
    if (!reference_is_float(ref->dtype)) {
        int64_t got = reference_wrap((uint64_t)res->i, ref->dtype);
        out->ok = got == ref->i;
        out->error = fabs((double)got - (double)ref->i);
        if (!out->ok)
            snprintf(out->why, sizeof out->why, "the exact sum is %" PRId64 ", not %" PRId64,
                     ref->i, got);
        return;
    }
    if (!isfinite(res->f)) {
        out->ok = 0;
        out->error = INFINITY;
        snprintf(out->why, sizeof out->why, "result is %s",
                 isnan(res->f) ? "nan" : res->f > 0 ? "inf" : "-inf");
        return;
    }
    out->tolerance = reference_tolerance(ref->dtype, ref->n, ref->abs_sum);
    out->error = (double)fabsl((long double)res->f - ref->f);
    out->ok = out->error <= out->tolerance;
    if (!out->ok)
        snprintf(out->why, sizeof out->why, "off by %.3g, more than the tolerance %.3g",
                 out->error, out->tolerance);
}

/* Min, max and the value of argmax: exactly the dtype's value. */
static int judge_value(const rb_reference *ref, const rb_result *res, rb_verdict *out)
{
    if (reference_is_float(ref->dtype)) {
        double want = (double)ref->f;
        out->ok = res->f == want;
        out->error = isnan(res->f) ? INFINITY : fabs(res->f - want);
    } else {
        out->ok = res->i == ref->i;
        out->error = fabs((double)res->i - (double)ref->i);
    }
    if (!out->ok)
        snprintf(out->why, sizeof out->why, "expected %s %s, got %s", op_name(ref->op),
                 out->expected_text, out->result_text);
    return out->ok;
}

static void judge_argmax(const rb_reference *ref, const rb_input *in, const rb_result *res,
                         rb_verdict *out)
{
    if (!judge_value(ref, res, out))
        return;
    if (res->index >= ref->n) {
        out->ok = 0;
        snprintf(out->why, sizeof out->why, "index %" PRIu64 " is outside the input (n = %" PRIu64 ")",
                 res->index, ref->n);
        return;
    }
    if (!element_is_max(ref, in, res->index)) {
        char value[64];
        reference_format_value(value, sizeof value, in->dtype, reference_element_int(in, res->index),
                     reference_element_float(in, res->index));
        out->ok = 0;
        snprintf(out->why, sizeof out->why,
                 "element %" PRIu64 " is %s, not the maximum %s (first at %" PRIu64 ")",
                 res->index, value, out->expected_text, ref->index);
    }
}

static void judge_histogram(const rb_reference *ref, const rb_result *res, rb_verdict *out)
{
    if (!res->bins || res->n_bins != ref->n_bins) {
        out->ok = 0;
        snprintf(out->why, sizeof out->why, "%u bins returned, expected %u",
                 res->bins ? res->n_bins : 0, ref->n_bins);
        return;
    }
    uint64_t total = 0, diff = 0;
    uint32_t first_bad = ref->n_bins;
    for (uint32_t b = 0; b < ref->n_bins; b++) {
        total += res->bins[b];
        if (res->bins[b] != ref->bins[b]) {
            diff += res->bins[b] > ref->bins[b] ? res->bins[b] - ref->bins[b]
                                                : ref->bins[b] - res->bins[b];
            if (first_bad == ref->n_bins)
                first_bad = b;
        }
    }
    snprintf(out->result_text, sizeof out->result_text, "%" PRIu64 " counted in %u bins", total,
             ref->n_bins);
    snprintf(out->expected_text, sizeof out->expected_text, "%" PRIu64 " counted in %u bins",
             ref->n, ref->n_bins);
    out->error = (double)diff;
    out->ok = first_bad == ref->n_bins;
    if (!out->ok)
        snprintf(out->why, sizeof out->why,
                 "bin %u holds %" PRIu64 ", expected %" PRIu64 " (%" PRIu64
                 " counted in all, expected %" PRIu64 ")",
                 first_bad, res->bins[first_bad], ref->bins[first_bad], total, ref->n);
}

void reference_judge(const rb_reference *ref, const rb_input *in, const rb_result *res,
                     rb_verdict *out)
{
    memset(out, 0, sizeof *out);
    if (ref->op != RB_OP_HISTOGRAM) {
        reference_format_value(out->result_text, sizeof out->result_text, ref->dtype, res->i, res->f);
        reference_format_value(out->expected_text, sizeof out->expected_text, ref->dtype, ref->i, ref->f);
    }
    switch (ref->op) {
    case RB_OP_SUM: judge_sum(ref, res, out); break;
    case RB_OP_MIN:
    case RB_OP_MAX: judge_value(ref, res, out); break;
    case RB_OP_ARGMAX:
        judge_argmax(ref, in, res, out);
        snprintf(out->result_text + strlen(out->result_text),
                 sizeof out->result_text - strlen(out->result_text), " at %" PRIu64, res->index);
        snprintf(out->expected_text + strlen(out->expected_text),
                 sizeof out->expected_text - strlen(out->expected_text), " at %" PRIu64,
                 ref->index);
        break;
    case RB_OP_HISTOGRAM: judge_histogram(ref, res, out); break;
    default:
        snprintf(out->why, sizeof out->why, "unknown op %d", ref->op);
        break;
    }
}
