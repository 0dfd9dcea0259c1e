/* tests/run/test_input.c: seeded input generation: determinism (same seed, other
 * seed, any thread count), the range of every distribution, page alignment,
 * the seed of a plugin, and a clear refusal when memory is short. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "run/input.h"
#include "tap.h"

#include <redbench/half.h>

#define CHUNK (1u << 20) /* input.c's chunk, to cross its boundaries */

static rb_input make(int dtype, int dist, uint64_t n, uint64_t seed)
{
    rb_input in;
    char why[128] = "";
    if (input_generate(&in, dtype, dist, n, seed, why, sizeof why) != 0) {
        bail("input_generate(%s, %s, %llu) failed: %s", dtype_name(dtype),
             distribution_name(dist), (unsigned long long)n, why);
    }
    return in;
}

static int same_data(const rb_input *a, const rb_input *b)
{
    return a->bytes == b->bytes && memcmp(a->data, b->data, a->bytes) == 0;
}

/* The value of element k as a double, whatever the dtype. */
static double element(const rb_input *in, uint64_t k)
{
    switch (in->dtype) {
    case RB_DTYPE_I32: return ((const int32_t *)in->data)[k];
    case RB_DTYPE_I64: return (double)((const int64_t *)in->data)[k];
    case RB_DTYPE_F32: return ((const float *)in->data)[k];
    case RB_DTYPE_F64: return ((const double *)in->data)[k];
    case RB_DTYPE_F16: return rb_f16_to_f32(((const uint16_t *)in->data)[k]);
    case RB_DTYPE_BF16: return rb_bf16_to_f32(((const uint16_t *)in->data)[k]);
    default: return ((const uint8_t *)in->data)[k];
    }
}

/* Checks that every element lies in [lo, hi] (hi_open: [lo, hi)), that the
 * integers are whole, and that both ends are approached: the smallest seen
 * is within `reach` of lo and the largest within `reach` of hi. */
static void check_range(int dtype, int dist, double lo, double hi, int hi_open, double reach,
                        int whole)
{
    uint64_t n = 2 * CHUNK + 1001;
    rb_input in = make(dtype, dist, n, 7);
    double seen_lo = INFINITY, seen_hi = -INFINITY;
    uint64_t bad = 0;
    for (uint64_t k = 0; k < n; k++) {
        double v = element(&in, k);
        if (v < lo || v > hi || (hi_open && v == hi) || (whole && v != floor(v)))
            bad++;
        seen_lo = v < seen_lo ? v : seen_lo;
        seen_hi = v > seen_hi ? v : seen_hi;
    }
    ok(bad == 0 && seen_lo <= lo + reach && seen_hi >= hi - reach,
       "%s %s: %llu values in [%g, %g%s, seen %g .. %g", dtype_name(dtype),
       distribution_name(dist), (unsigned long long)n, lo, hi, hi_open ? ")" : "]", seen_lo,
       seen_hi);
    if (bad)
        diag("  %llu values out of range", (unsigned long long)bad);
    input_free(&in);
}

static void test_determinism(void)
{
    uint64_t n = 3 * CHUNK + 17;
    rb_input a = make(RB_DTYPE_F32, RB_DIST_UNIFORM, n, 42);
    rb_input b = make(RB_DTYPE_F32, RB_DIST_UNIFORM, n, 42);
    rb_input c = make(RB_DTYPE_F32, RB_DIST_UNIFORM, n, 43);
    ok(same_data(&a, &b), "same seed, same data");
    ok(!same_data(&a, &c), "another seed, other data");
    ok(memcmp(a.data, (const float *)a.data + CHUNK, 4096) != 0,
       "two chunks of one input differ");

    /* a shorter input is the beginning of a longer one */
    rb_input shorter = make(RB_DTYPE_F32, RB_DIST_UNIFORM, CHUNK + 5, 42);
    ok(memcmp(shorter.data, a.data, shorter.bytes) == 0, "a shorter input is a prefix");

    int all_same = 1;
    for (const char *threads = "1\0" "2\0" "3\0" "8\0"; *threads; threads += 2) {
        setenv("REDBENCH_THREADS", threads, 1);
        rb_input t = make(RB_DTYPE_F32, RB_DIST_UNIFORM, n, 42);
        all_same &= same_data(&a, &t);
        input_free(&t);
    }
    unsetenv("REDBENCH_THREADS");
    ok(all_same, "the same data with 1, 2, 3 and 8 threads");

    ok(((uintptr_t)a.data & 4095) == 0, "data is page-aligned");
    ok(a.n == n && a.bytes == n * sizeof(float) && a.seed == 42 && a.dtype == RB_DTYPE_F32 &&
           a.distribution == RB_DIST_UNIFORM,
       "the input records n, bytes, seed, dtype and distribution");
    input_free(&a);
    input_free(&b);
    input_free(&c);
    input_free(&shorter);
    ok(a.data == NULL && a.bytes == 0, "input_free clears the input");
}

/* The generator is part of what a recorded seed means: pin its first values
 * so that a change to it is seen. */
static void test_recorded_values(void)
{
    rb_input in = make(RB_DTYPE_I32, RB_DIST_SMALL, 8, 1);
    const int32_t *x = in.data;
    char text[64];
    snprintf(text, sizeof text, "%d %d %d %d %d %d %d %d", x[0], x[1], x[2], x[3], x[4], x[5],
             x[6], x[7]);
    is_str(text, "6 14 0 1 6 2 5 9", "i32 small, seed 1: the recorded first values");
    input_free(&in);
}

/* Integer inputs spread over enough of the dtype that the extreme is one
 * element, so that a min or max that skips it is seen. */
static void test_unique_extremes(void)
{
    for (int dtype = RB_DTYPE_I32; dtype <= RB_DTYPE_I64; dtype++)
        for (int dist = RB_DIST_UNIFORM; dist <= RB_DIST_SIGNED; dist++) {
            uint64_t n = 2 * CHUNK + 1001, at_max = 0, at_min = 0;
            rb_input in = make(dtype, dist, n, 11);
            double lo = INFINITY, hi = -INFINITY;
            for (uint64_t k = 0; k < n; k++) {
                double v = element(&in, k);
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            for (uint64_t k = 0; k < n; k++) {
                at_min += element(&in, k) == lo;
                at_max += element(&in, k) == hi;
            }
            ok(at_min == 1 && at_max == 1, "%s %s: the minimum and the maximum are each one "
               "element (%llu, %llu)", dtype_name(dtype), distribution_name(dist),
               (unsigned long long)at_min, (unsigned long long)at_max);
            input_free(&in);
        }
}

static void test_ranges(void)
{
    check_range(RB_DTYPE_F32, RB_DIST_UNIFORM, 0, 1, 1, 1e-3, 0);
    check_range(RB_DTYPE_F64, RB_DIST_UNIFORM, 0, 1, 1, 1e-3, 0);
    check_range(RB_DTYPE_F32, RB_DIST_SIGNED, -1, 1, 1, 1e-3, 0);
    check_range(RB_DTYPE_F64, RB_DIST_SIGNED, -1, 1, 1, 1e-3, 0);
    check_range(RB_DTYPE_I32, RB_DIST_UNIFORM, 0, 0x1p31, 1, 0x1p31 * 1e-4, 1);
    check_range(RB_DTYPE_I64, RB_DIST_UNIFORM, 0, 0x1p40, 1, 0x1p40 * 1e-4, 1);
    check_range(RB_DTYPE_I32, RB_DIST_SIGNED, -0x1p31, 0x1p31, 1, 0x1p31 * 1e-4, 1);
    check_range(RB_DTYPE_I64, RB_DIST_SIGNED, -0x1p40, 0x1p40, 1, 0x1p40 * 1e-4, 1);
    check_range(RB_DTYPE_U8, RB_DIST_UNIFORM, 0, 255, 0, 0, 1);
    check_range(RB_DTYPE_U8, RB_DIST_SIGNED, 0, 255, 0, 0, 1);
    for (int dtype = 0; dtype < RB_DTYPE_COUNT_; dtype++)
        check_range(dtype, RB_DIST_SMALL, 0, 15, 0, 0, 1);
    /* halves: rounded to the format, the ranges still strict */
    check_range(RB_DTYPE_F16, RB_DIST_UNIFORM, 0, 1, 1, 1e-3, 0);
    check_range(RB_DTYPE_BF16, RB_DIST_UNIFORM, 0, 1, 1, 1e-2, 0);
    check_range(RB_DTYPE_F16, RB_DIST_SIGNED, -1, 1, 1, 1e-3, 0);
    check_range(RB_DTYPE_BF16, RB_DIST_SIGNED, -1, 1, 1, 1e-2, 0);
}

/* f16 and bf16 data are the f32 draws rounded to nearest: they reach the
 * formats' small values (f16 subnormals), hold values rounded both ways,
 * and use many distinct patterns. */
static void test_half_values(void)
{
    uint64_t n = 2 * CHUNK;
    for (int dtype = RB_DTYPE_F16; dtype <= RB_DTYPE_BF16; dtype++) {
        rb_input in = make(dtype, RB_DIST_UNIFORM, n, 5);
        const uint16_t *h = in.data;
        uint64_t subnormal = 0, below_2_14 = 0, odd = 0;
        static unsigned char seen[65536];
        unsigned distinct = 0;
        memset(seen, 0, sizeof seen);
        for (uint64_t k = 0; k < n; k++) {
            double v = element(&in, k);
            subnormal += dtype == RB_DTYPE_F16 && (h[k] & 0x7c00u) == 0 && h[k] != 0;
            below_2_14 += v < 0x1p-14;
            odd += h[k] & 1u; /* an odd last bit: kept by rounding, not ties */
            distinct += !seen[h[k]];
            seen[h[k]] = 1;
        }
        if (dtype == RB_DTYPE_F16)
            ok(subnormal > 10 && subnormal <= below_2_14,
               "f16 uniform: %llu subnormal values (below 2^-14) among %llu",
               (unsigned long long)subnormal, (unsigned long long)n);
        else
            ok(below_2_14 > 10, "bf16 uniform: %llu values below 2^-14 (its range is f32's)",
               (unsigned long long)below_2_14);
        ok(odd > n / 4 && distinct > (dtype == RB_DTYPE_F16 ? 8000u : 1500u),
           "%s uniform: %u distinct patterns, %llu with an odd last bit", dtype_name(dtype),
           distinct, (unsigned long long)odd);
        input_free(&in);
    }
}

static void test_uniform_mean(void)
{
    uint64_t n = 4 * CHUNK;
    rb_input in = make(RB_DTYPE_F32, RB_DIST_UNIFORM, n, 3);
    double sum = 0;
    for (uint64_t k = 0; k < n; k++)
        sum += ((const float *)in.data)[k];
    is_double(sum / (double)n, 0.5, 2e-3, "f32 uniform: the mean is 1/2");
    input_free(&in);
}

static void test_ones(void)
{
    for (int dtype = 0; dtype < RB_DTYPE_COUNT_; dtype++) {
        uint64_t n = CHUNK + 3, not_one = 0;
        rb_input in = make(dtype, RB_DIST_ONES, n, 5);
        for (uint64_t k = 0; k < n; k++)
            not_one += element(&in, k) != 1.0;
        is_int((long long)not_one, 0, "%s ones: every element is 1", dtype_name(dtype));
        input_free(&in);
    }
}

static void test_float_bytes(void)
{
    uint64_t n = 2 * CHUNK + 7; /* ends with part of a float */
    rb_input in = make(RB_DTYPE_U8, RB_DIST_FLOAT_BYTES, n, 9);
    uint64_t bad = 0, high_bytes[256] = {0};
    for (uint64_t k = 0; k + 4 <= n; k += 4) {
        float f;
        memcpy(&f, (const uint8_t *)in.data + k, 4);
        bad += !(f >= 0.0f && f < 1.0f);
        high_bytes[((const uint8_t *)in.data)[k + 3]]++;
    }
    is_int((long long)bad, 0, "float-bytes: every 4 bytes are a float in [0,1)");
    /* floats in [0.5, 1) begin with byte 0x3f: about half of the high bytes */
    is_double((double)high_bytes[0x3f] / (double)(n / 4), 0.5, 0.01,
              "float-bytes: skewed, half of the high bytes are 0x3f");
    input_free(&in);
}

static void test_seed_for(void)
{
    uint64_t tree = input_seed_for(1, "tree");
    ok(tree == input_seed_for(1, "tree"), "input_seed_for is a function of its arguments");
    ok(tree != input_seed_for(1, "shuffle"), "other plugin, other seed");
    ok(tree != input_seed_for(2, "tree"), "other experiment seed, other seed");
    ok(tree != 1 && input_seed_for(1, "") != 1, "the seed is mixed, not passed through");
}

static void test_short_memory(void)
{
    rb_input in;
    char why[128] = "";
    int rc = input_generate(&in, RB_DTYPE_F64, RB_DIST_UNIFORM, (uint64_t)1 << 50, 1, why,
                            sizeof why);
    ok(rc == -1 && strstr(why, "needs 8388608.0 GiB of host memory") == why,
       "2^50 f64 is refused: %s", why);
    ok(in.data == NULL, "nothing is allocated when refused");
}

int main(void)
{
    plan(42 + 2 + 4 + 4 + 2);
    test_determinism();
    test_recorded_values();
    test_ranges();
    test_half_values();
    test_uniform_mean();
    test_unique_extremes();
    test_ones();
    test_float_bytes();
    test_seed_for();
    test_short_memory();
    return done();
}
