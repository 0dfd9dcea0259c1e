/* src/run/reference.h: the reference result of an input, and the verdict on a
 * plugin's result. Integers are exact (sums wrap like the dtype); floating
 * sums are computed in long double with a compensated (Neumaier) sum and
 * judged with a tolerance that grows with sqrt(n) and sum|x|:
 *
 *     |result - reference| <= RB_TOLERANCE_K * sqrt(n) * eps(dtype) * sum|x|
 *
 * A serial float accumulator that stalls (256M values near 0.75 summed in
 * f32 stops at 2^25 against a true 2.0e8) is far outside; a tree or blocked
 * sum of the same data is far inside. Min, max and argmax are exact. f16
 * and bf16 sums are accumulated in f32 by every plugin (redbench/plugin.h)
 * and judged with f32's eps. */
#ifndef RB_REFERENCE_H
#define RB_REFERENCE_H

#include <stdint.h>

#include <redbench/plugin.h>

#include "run/input.h"

#define RB_TOLERANCE_K 4.0

typedef struct rb_reference {
    int op, dtype;
    uint64_t n;
    int64_t i;           /* integer sum (wrapped to the dtype), min, max */
    long double f;       /* floating sum, min, max */
    long double abs_sum; /* sum |x| (floats) */
    uint64_t index;      /* argmax: the first index of the maximum */
    uint64_t *bins;      /* histogram counts */
    uint32_t n_bins;
} rb_reference;

/* Whether dtype is a floating one: f32, f64, f16 or bf16. */
int reference_is_float(int dtype);
/* Whether dtype is f16 or bf16. */
int reference_is_half(int dtype);
/* An f16 or bf16 element's value (its bits), exactly. */
float reference_half(int dtype, uint16_t bits);
/* An integer sum modulo 2^64 as the dtype holds it (two's complement; u8
 * and i64 sums as 64-bit). */
int64_t reference_wrap(uint64_t u, int dtype);

/* Element k of the input as an integer (i32, i64, u8; else 0) or as a
 * floating value (f32, f64, f16, bf16; else 0). */
static inline int64_t reference_element_int(const rb_input *in, uint64_t k)
{
    switch (in->dtype) {
    case RB_DTYPE_I32: return ((const int32_t *)in->data)[k];
    case RB_DTYPE_I64: return ((const int64_t *)in->data)[k];
    case RB_DTYPE_U8: return ((const uint8_t *)in->data)[k];
    default: return 0;
    }
}

static inline long double reference_element_float(const rb_input *in, uint64_t k)
{
    switch (in->dtype) {
    case RB_DTYPE_F32: return ((const float *)in->data)[k];
    case RB_DTYPE_F64: return ((const double *)in->data)[k];
    case RB_DTYPE_F16:
    case RB_DTYPE_BF16: return reference_half(in->dtype, ((const uint16_t *)in->data)[k]);
    default: return 0;
    }
}
/* A value of the dtype as text: integers exactly, floats with the digits
 * that tell any two values of the dtype apart. */
void reference_format_value(char *buf, size_t len, int dtype, int64_t i, long double f);

/* Computes the reference of `in` for op (histogram: `bins` bins). */
void reference_compute(rb_reference *ref, const rb_input *in, int op, uint32_t bins);
void reference_free(rb_reference *ref);

/* The tolerance for a floating sum of n elements of dtype with sum|x|. */
double reference_tolerance(int dtype, uint64_t n, long double abs_sum);

typedef struct rb_verdict {
    int ok;               /* 1: within tolerance (exact where it must be) */
    double error;         /* |result - reference| (0 for exact matches) */
    double tolerance;     /* the bound applied (0 for exact comparisons) */
    char result_text[64]; /* the plugin's value as text */
    char expected_text[64];
    char why[256];        /* when not ok: what differed */
} rb_verdict;

/* Judges a plugin's result. For argmax the index must hold the maximum. */
void reference_judge(const rb_reference *ref, const rb_input *in, const rb_result *res,
                     rb_verdict *out);

#endif
