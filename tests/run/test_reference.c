/* tests/run/test_reference.c: reference results on small hand-made inputs
 * (sum, min, max, argmax, histogram; integer wraparound; compensated
 * sums), the verdicts on right and wrong results, and the tolerance on the
 * known case of 256M values near 0.75: a single float accumulator stalls at
 * 2^25 and is wrong, a blocked sum of the same data is right. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "run/input.h"
#include "run/reference.h"
#include "tap.h"

#include <redbench/half.h>

#define CHUNK (1u << 20) /* reference.c's chunk, to cross its boundaries */

/* An rb_input over the caller's array. */
static rb_input wrap(int dtype, void *data, uint64_t n)
{
    rb_input in = {dtype, RB_DIST_UNIFORM, n, 0, data, n * rb_dtype_size(dtype)};
    return in;
}

static rb_result int_result(int64_t i)
{
    rb_result res = {sizeof(rb_result), i, 0, 0, NULL, 0};
    return res;
}

static rb_result float_result(double f)
{
    rb_result res = {sizeof(rb_result), 0, f, 0, NULL, 0};
    return res;
}

static void test_integer_sums(void)
{
    rb_reference ref;
    rb_verdict v;

    int32_t small[] = {1, 2, 3, -4};
    rb_input in = wrap(RB_DTYPE_I32, small, 4);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    is_int(ref.i, 2, "i32 sum of 1, 2, 3, -4");

    int32_t high[] = {INT32_MAX, 1};
    in = wrap(RB_DTYPE_I32, high, 2);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    is_int(ref.i, INT32_MIN, "i32 sum wraps: INT32_MAX + 1 = INT32_MIN");
    rb_result res = int_result(INT32_MIN);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && v.error == 0 && v.tolerance == 0, "the wrapped sum is right");
    is_str(v.expected_text, "-2147483648", "expected_text is the exact integer");
    res = int_result((int64_t)INT32_MAX + 1);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok, "a sum carried in 64 bits is right once wrapped to 32");
    res = int_result(0);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && v.error == 2147483648.0 && strstr(v.why, "-2147483648"),
       "a wrong i32 sum is wrong: %s", v.why);

    int64_t big[] = {INT64_MAX, 1, 5};
    in = wrap(RB_DTYPE_I64, big, 3);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    ok(ref.i == INT64_MIN + 5, "i64 sum wraps modulo 2^64");

    uint8_t bytes[] = {255, 255, 255, 255, 4};
    in = wrap(RB_DTYPE_U8, bytes, 5);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    is_int(ref.i, 1024, "u8 sum is counted in 64 bits");
}

static void test_generated_sums(void)
{
    char why[128];
    rb_input in;
    rb_reference ref;
    input_generate(&in, RB_DTYPE_I32, RB_DIST_ONES, 3 * CHUNK + 7, 1, why, sizeof why);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    is_int(ref.i, 3 * CHUNK + 7, "i32 ones: the sum is n");
    input_free(&in);

    input_generate(&in, RB_DTYPE_I64, RB_DIST_SMALL, 2 * CHUNK + 11, 4, why, sizeof why);
    int64_t direct = 0;
    for (uint64_t k = 0; k < in.n; k++)
        direct += ((const int64_t *)in.data)[k];
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    is_int(ref.i, direct, "i64 small: the sum of every element");
    input_free(&in);

    input_generate(&in, RB_DTYPE_F64, RB_DIST_SMALL, 2 * CHUNK + 11, 4, why, sizeof why);
    double whole = 0; /* whole numbers: exact in double at this size */
    for (uint64_t k = 0; k < in.n; k++)
        whole += ((const double *)in.data)[k];
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    ok(ref.f == whole && ref.abs_sum == whole, "f64 small: the exact sum and sum|x|");
    input_free(&in);
}

static void test_float_sums(void)
{
    rb_reference ref;
    rb_verdict v;
    float f[] = {0.5f, 0.25f, -1.0f, 2.0f};
    rb_input in = wrap(RB_DTYPE_F32, f, 4);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    ok(ref.f == 1.75L && ref.abs_sum == 3.75L, "f32 sum 1.75 and sum|x| 3.75");
    rb_result res = float_result(1.75);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && v.error == 0, "the exact f32 sum is right");
    is_str(v.result_text, "1.75", "result_text of an f32");

    /* a plain long double sum loses the 1; a compensated one does not */
    double d[] = {1e20, 1.0, -1e20};
    in = wrap(RB_DTYPE_F64, d, 3);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    ok(ref.f == 1.0L, "compensated sum: 1e20 + 1 - 1e20 = 1");
    res = float_result(0.1);
    reference_judge(&ref, &in, &res, &v);
    is_str(v.result_text, "0.10000000000000001", "result_text of an f64 has 17 digits");

    res = float_result(NAN);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && strcmp(v.why, "result is nan") == 0, "nan is wrong: %s", v.why);
    res = float_result(INFINITY);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && strcmp(v.why, "result is inf") == 0, "inf is wrong: %s", v.why);

    double zeros[] = {0.0, -0.0, 0.0};
    in = wrap(RB_DTYPE_F64, zeros, 3);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    res = float_result(0.0);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && v.tolerance > 0, "a sum of zeros: 0 is right (tolerance %g)", v.tolerance);
    res = float_result(1e-9);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok, "a sum of zeros: 1e-9 is wrong");
}

static void test_tolerance(void)
{
    double t = reference_tolerance(RB_DTYPE_F32, 1u << 20, 1000.0L);
    is_double(t, RB_TOLERANCE_K * 1024 * FLT_EPSILON * 1000.0 + FLT_MIN, 1e-12,
              "f32 tolerance: K sqrt(n) FLT_EPSILON sum|x|");
    t = reference_tolerance(RB_DTYPE_F64, 4, 2.0L);
    is_double(t, RB_TOLERANCE_K * 2 * DBL_EPSILON * 2.0 + DBL_MIN, 1e-24,
              "f64 tolerance: K sqrt(n) DBL_EPSILON sum|x|");
    ok(reference_tolerance(RB_DTYPE_I32, 100, 100.0L) == 0, "integers have no tolerance");
}

/* The design's case, without a 1 GiB buffer: 2^28 values U[0, 1.5) (mean
 * 0.75) from a small generator, summed three ways at once. */
static void test_stalled_accumulator(void)
{
    const uint64_t n = (uint64_t)1 << 28;
    const uint64_t block = 4096;
    uint64_t state = 0x2545f4914f6cdd1dull;
    float serial = 0.0f, block_sum = 0.0f;
    float *blocks = malloc((n / block) * sizeof *blocks);
    long double exact = 0;
    for (uint64_t k = 0; k < n; k++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        float x = (float)(state >> 40) * 0x1p-24f * 1.5f;
        serial += x;
        block_sum += x;
        exact += x; /* long double: 64-bit mantissa, an error of ~1e-11 here */
        if ((k + 1) % block == 0) {
            blocks[k / block] = block_sum;
            block_sum = 0.0f;
        }
    }
    /* the block sums, pairwise in float */
    for (uint64_t width = n / block; width > 1; width /= 2)
        for (uint64_t k = 0; k < width / 2; k++)
            blocks[k] = blocks[2 * k] + blocks[2 * k + 1];

    is_double(serial, 33554432.0, 0, "one float accumulator stalls at 2^25");
    is_double((double)exact, 2.013e8, 0.001e8, "the true sum is about 2.0e8");

    rb_reference ref = {0};
    ref.op = RB_OP_SUM;
    ref.dtype = RB_DTYPE_F32;
    ref.n = n;
    ref.f = exact;
    ref.abs_sum = exact;
    rb_verdict v;
    rb_result res = float_result(serial);
    reference_judge(&ref, NULL, &res, &v);
    ok(!v.ok && strstr(v.why, "tolerance"), "the stalled sum is wrong: %s", v.why);
    res = float_result(blocks[0]);
    reference_judge(&ref, NULL, &res, &v);
    ok(v.ok, "the blocked sum %.9g is right (error %.3g, tolerance %.3g)", blocks[0], v.error,
       v.tolerance);
    ok(v.tolerance < 0.01 * (double)exact, "the tolerance is under 1%% of the sum");
    free(blocks);
}

/* A real input, through generation, reference and judgment. */
static void test_generated_float_input(int dtype)
{
    char why[128];
    rb_input in;
    rb_reference ref;
    rb_verdict v;
    uint64_t n = 100000;
    input_generate(&in, dtype, RB_DIST_SIGNED, n, 11, why, sizeof why);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    float serial = 0.0f;
    double wide = 0.0;
    for (uint64_t k = 0; k < n; k++) {
        double x = dtype == RB_DTYPE_F32 ? ((const float *)in.data)[k]
                                         : ((const double *)in.data)[k];
        serial += (float)x;
        wide += x;
    }
    rb_result res = float_result(dtype == RB_DTYPE_F32 ? serial : wide);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok, "%s signed, n = 100000: a plain sum is right (error %.3g, tolerance %.3g)",
       dtype_name(dtype), v.error, v.tolerance);
    res = float_result((double)ref.f + 0.01 * (double)ref.abs_sum);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok, "%s signed: off by 1%% of sum|x| is wrong: %s", dtype_name(dtype), v.why);
    input_free(&in);
}

/* f16 and bf16: the reference is the exact sum of the elements' values
 * (every one an f32 value), judged with f32's tolerance; a sum kept in
 * f16 stalls at 2048 and is wrong, an f32 sum of the same data is right;
 * min and max are the exact values. */
static void test_half(void)
{
    /* 1, 2^-24 (f16's smallest subnormal), 65504, -65504, 0.5, 1 + 2^-10 */
    uint16_t h[] = {0x3c00, 0x0001, 0x7bff, 0xfbff, 0x3800, 0x3c01};
    rb_input in = wrap(RB_DTYPE_F16, h, 6);
    rb_reference ref;
    rb_verdict v;
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    ok(ref.f == 2.5L + 0x1p-24L + 0x1p-10L && ref.abs_sum == 131010.5L + 0x1p-24L + 0x1p-10L,
       "f16: the sum is exact, subnormal and extremes included (%.20Lg)", ref.f);
    is_double(reference_tolerance(RB_DTYPE_F16, 1000, 10), reference_tolerance(RB_DTYPE_F32, 1000, 10),
              0, "f16 sums are judged with f32's tolerance (f32 accumulation)");
    is_double(reference_tolerance(RB_DTYPE_BF16, 1000, 10), reference_tolerance(RB_DTYPE_F32, 1000, 10),
              0, "bf16 sums too");
    reference_compute(&ref, &in, RB_OP_MAX, 0);
    rb_result res = float_result(65504);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok, "f16 max 65504 is exact");
    reference_compute(&ref, &in, RB_OP_MIN, 0);
    res = float_result(-65504);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && ref.f == -65504, "f16 min -65504 is exact");
    res = float_result(-65472); /* the next f16 value up */
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok, "f16 min one step off is wrong: %s", v.why);
    uint16_t b[] = {0x3f80, 0x7f7f, 0x0080, 0xc040};
    in = wrap(RB_DTYPE_BF16, b, 4);
    reference_compute(&ref, &in, RB_OP_ARGMAX, 0);
    res = float_result((double)rb_bf16_to_f32(0x7f7f));
    res.index = 1;
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && ref.index == 1 && ref.f == (long double)0x1.fep127,
       "bf16 argmax: its largest finite value (0x1.fep127) at index 1");

    /* 1M f16 values in [0, 1): kept in f16 the sum stalls at 2048 */
    char why[128];
    uint64_t n = (uint64_t)1 << 20;
    input_generate(&in, RB_DTYPE_F16, RB_DIST_UNIFORM, n, 3, why, sizeof why);
    reference_compute(&ref, &in, RB_OP_SUM, 0);
    const uint16_t *x = in.data;
    float in_f32 = 0, blocks = 0, block = 0;
    uint16_t in_f16 = 0;
    for (uint64_t k = 0; k < n; k++) {
        float v16 = rb_f16_to_f32(x[k]);
        in_f32 += v16;
        in_f16 = rb_f16_from_f32(rb_f16_to_f32(in_f16) + v16);
        block += v16;
        if ((k + 1) % 1024 == 0) {
            blocks += block;
            block = 0;
        }
    }
    is_double(rb_f16_to_f32(in_f16), 2048, 0, "an f16 accumulator stalls at 2048");
    res = float_result(rb_f16_to_f32(in_f16));
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok, "... and is wrong against the true %.6Lg: %s", ref.f, v.why);
    res = float_result(in_f32);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok, "one f32 accumulator over the same f16 data is right (error %.3g, tolerance %.3g)",
       v.error, v.tolerance);
    res = float_result(blocks);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok, "a blocked f32 sum is right (error %.3g)", v.error);
    input_free(&in);
}

static void test_extremes(void)
{
    rb_reference ref;
    rb_verdict v;
    float f[] = {3, -2, 7, 7, 1};
    rb_input in = wrap(RB_DTYPE_F32, f, 5);
    reference_compute(&ref, &in, RB_OP_MIN, 0);
    ok(ref.f == -2, "f32 min");
    reference_compute(&ref, &in, RB_OP_MAX, 0);
    ok(ref.f == 7, "f32 max");
    rb_result res = float_result(7.0);
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && v.tolerance == 0, "f32 max 7 is right");
    res = float_result(7.0 + 1e-6);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && strstr(v.why, "expected max 7"), "f32 max 7.000001 is wrong: %s", v.why);

    int32_t i32[] = {-5, 9, -11, 9};
    in = wrap(RB_DTYPE_I32, i32, 4);
    reference_compute(&ref, &in, RB_OP_MIN, 0);
    is_int(ref.i, -11, "i32 min");
    reference_compute(&ref, &in, RB_OP_ARGMAX, 0);
    ok(ref.i == 9 && ref.index == 1, "i32 argmax: 9, first at 1");

    int64_t i64[] = {INT64_MIN, -1, INT64_MAX - 1};
    in = wrap(RB_DTYPE_I64, i64, 3);
    reference_compute(&ref, &in, RB_OP_MIN, 0);
    ok(ref.i == INT64_MIN, "i64 min");
    reference_compute(&ref, &in, RB_OP_MAX, 0);
    ok(ref.i == INT64_MAX - 1, "i64 max");

    uint8_t u8[] = {4, 200, 3};
    in = wrap(RB_DTYPE_U8, u8, 3);
    reference_compute(&ref, &in, RB_OP_MAX, 0);
    is_int(ref.i, 200, "u8 max");

    double f64[] = {-0.5, -0.25, -0.75};
    in = wrap(RB_DTYPE_F64, f64, 3);
    reference_compute(&ref, &in, RB_OP_MAX, 0);
    ok(ref.f == -0.25, "f64 max of negatives");
}

static void test_argmax_verdicts(void)
{
    rb_reference ref;
    rb_verdict v;
    float f[] = {3, -2, 7, 7, 1};
    rb_input in = wrap(RB_DTYPE_F32, f, 5);
    reference_compute(&ref, &in, RB_OP_ARGMAX, 0);
    ok(ref.f == 7 && ref.index == 2, "f32 argmax: 7, first at 2");

    rb_result res = float_result(7.0);
    res.index = 2;
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && strcmp(v.result_text, "7 at 2") == 0, "index 2 is right (%s)", v.result_text);
    res.index = 3;
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok, "index 3, another occurrence of the maximum, is right");
    res.index = 4;
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && strstr(v.why, "element 4 is 1"), "index 4 is wrong: %s", v.why);
    res.index = 5;
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && strstr(v.why, "outside"), "index 5 is wrong: %s", v.why);
    res = float_result(3.0);
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok, "a wrong maximum is wrong: %s", v.why);
}

/* Chunks and threads: the maximum deep in a later chunk, twice. */
static void test_large_inputs(void)
{
    uint64_t n = 3 * CHUNK + 5;
    float *f = calloc(n, sizeof *f);
    f[2 * CHUNK + 77] = 5.0f;
    f[3 * CHUNK + 1] = 5.0f;
    f[CHUNK / 2] = -3.0f;
    rb_input in = wrap(RB_DTYPE_F32, f, n);
    rb_reference ref;
    reference_compute(&ref, &in, RB_OP_ARGMAX, 0);
    ok(ref.f == 5 && ref.index == 2 * CHUNK + 77, "argmax across chunks: the first index");
    reference_compute(&ref, &in, RB_OP_MIN, 0);
    ok(ref.f == -3, "min across chunks");
    free(f);

    char why[128];
    input_generate(&in, RB_DTYPE_F32, RB_DIST_UNIFORM, 5 * CHUNK + 3, 8, why, sizeof why);
    rb_reference many, one;
    reference_compute(&many, &in, RB_OP_SUM, 0);
    setenv("REDBENCH_THREADS", "1", 1);
    reference_compute(&one, &in, RB_OP_SUM, 0);
    unsetenv("REDBENCH_THREADS");
    ok(many.f == one.f && many.abs_sum == one.abs_sum,
       "the same f32 reference with one thread and with all");
    input_free(&in);
}

static void test_histogram(void)
{
    uint8_t b[] = {0, 63, 64, 127, 128, 255, 255};
    rb_input in = wrap(RB_DTYPE_U8, b, 7);
    rb_reference ref;
    rb_verdict v;
    reference_compute(&ref, &in, RB_OP_HISTOGRAM, 4);
    ok(ref.n_bins == 4 && ref.bins[0] == 2 && ref.bins[1] == 2 && ref.bins[2] == 1 &&
           ref.bins[3] == 2,
       "4 bins of 0, 63, 64, 127, 128, 255, 255: 2 2 1 2");

    uint64_t counts[4] = {2, 2, 1, 2};
    rb_result res = {sizeof(rb_result), 0, 0, 0, counts, 4};
    reference_judge(&ref, &in, &res, &v);
    ok(v.ok && v.error == 0, "equal counts are right (%s)", v.result_text);
    counts[1] = 3;
    counts[2] = 0;
    reference_judge(&ref, &in, &res, &v);
    is_str(v.why, "bin 1 holds 3, expected 2 (7 counted in all, expected 7)",
           "the first differing bin is named");
    ok(!v.ok && v.error == 2, "differing counts are wrong, error 2");
    res.n_bins = 3;
    reference_judge(&ref, &in, &res, &v);
    ok(!v.ok && strcmp(v.why, "3 bins returned, expected 4") == 0, "a wrong bin count: %s",
       v.why);
    reference_free(&ref);
    ok(ref.bins == NULL, "reference_free frees the bins");

    reference_compute(&ref, &in, RB_OP_HISTOGRAM, 3);
    ok(ref.bins[0] == 3 && ref.bins[1] == 2 && ref.bins[2] == 2,
       "3 bins: b * 3 / 256 puts 0, 63, 64 | 127, 128 | 255, 255");
    reference_free(&ref);
    reference_compute(&ref, &in, RB_OP_HISTOGRAM, 256);
    ok(ref.bins[255] == 2 && ref.bins[64] == 1 && ref.bins[1] == 0, "256 bins: one per byte");
    reference_free(&ref);

    char why[128];
    input_generate(&in, RB_DTYPE_U8, RB_DIST_UNIFORM, 3 * CHUNK + 9, 2, why, sizeof why);
    reference_compute(&ref, &in, RB_OP_HISTOGRAM, 16);
    uint64_t direct[16] = {0}, total = 0;
    int same = 1;
    for (uint64_t k = 0; k < in.n; k++)
        direct[((const uint8_t *)in.data)[k] * 16 / 256]++;
    for (int k = 0; k < 16; k++) {
        same &= direct[k] == ref.bins[k];
        total += ref.bins[k];
    }
    ok(same && total == in.n, "16 bins of a generated input across chunks");
    reference_free(&ref);
    input_free(&in);
}

int main(void)
{
    plan(60 + 11);
    test_integer_sums();
    test_generated_sums();
    test_float_sums();
    test_tolerance();
    test_stalled_accumulator();
    test_generated_float_input(RB_DTYPE_F32);
    test_generated_float_input(RB_DTYPE_F64);
    test_half();
    test_extremes();
    test_argmax_verdicts();
    test_large_inputs();
    test_histogram();
    return done();
}
