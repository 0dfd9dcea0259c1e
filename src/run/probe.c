/* src/run/probe.c: the judge's probe inputs: their plans, writing them where
 * the input lives, and the verdict on a plugin's result with what was
 * found (probe.h says what each probe holds and why). */
#include "run/probe.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/random.h"
#include "base/util.h"
#include "run/reference.h"

#include <redbench/half.h>

#define DENSE_WINDOWS 64
#define F32_EXACT_COUNT ((uint64_t)1 << 24) /* f32 counts 0..2^24 exactly */

/* ---- values of a dtype ---- */

/* The element with value v as the dtype stores it. */
static void encode(int dtype, long double v, unsigned char out[8])
{
    memset(out, 0, 8);
    switch (dtype) {
    case RB_DTYPE_I32: { int32_t x = (int32_t)v; memcpy(out, &x, sizeof x); break; }
    case RB_DTYPE_I64: { int64_t x = (int64_t)v; memcpy(out, &x, sizeof x); break; }
    case RB_DTYPE_F32: { float x = (float)v; memcpy(out, &x, sizeof x); break; }
    case RB_DTYPE_F64: { double x = (double)v; memcpy(out, &x, sizeof x); break; }
    case RB_DTYPE_U8: out[0] = (unsigned char)v; break;
    case RB_DTYPE_F16: { uint16_t x = rb_f16_from_f32((float)v); memcpy(out, &x, sizeof x); break; }
    case RB_DTYPE_BF16: { uint16_t x = rb_bf16_from_f32((float)v); memcpy(out, &x, sizeof x); break; }
    default: break;
    }
}

/* ---- places ---- */

typedef struct places {
    uint64_t at[RB_PROBE_MAX_PLANTS];
    size_t count, cap;
    uint64_t n;
} places;

static void place(places *p, uint64_t index)
{
    if (p->count == p->cap || index >= p->n)
        return;
    for (size_t k = 0; k < p->count; k++)
        if (p->at[k] == index)
            return;
    p->at[p->count++] = index;
}

static void place_random(places *p, uint64_t *rng)
{
    for (int tries = 0; p->count < p->cap && p->count < p->n && tries < 4 * RB_PROBE_MAX_PLANTS;
         tries++)
        place(p, rb_splitmix64(rng) % p->n);
}

/* The first, middle and last elements, the largest power of two before the
 * last, the start of the last partial vector, warp, block and chunk, and
 * the boundaries of vectors, warps and blocks. */
/* The largest power of two below n - 1 (a boundary that is not the last
 * element), or 0. */
static uint64_t inner_boundary(uint64_t n)
{
    return n >= 3 ? (uint64_t)1 << (63 - __builtin_clzll(n - 2)) : 0;
}

static void place_structural(places *p)
{
    uint64_t n = p->n;
    static const uint64_t masks[] = {3, 31, 255, 1023};
    static const int powers[] = {2, 5, 8, 10};
    uint64_t inner = inner_boundary(n);
    place(p, n - 1);
    place(p, 0);
    place(p, n / 2);
    place(p, n - 2);
    place(p, inner); /* the largest power of two before the last element */
    place(p, inner - 1);
    for (size_t k = 0; k < RB_ARRAY_LEN(masks); k++)
        place(p, n & ~masks[k]);
    for (size_t k = 0; k < RB_ARRAY_LEN(powers); k++) {
        place(p, ((uint64_t)1 << powers[k]) - 1);
        place(p, (uint64_t)1 << powers[k]);
    }
}

/* The last element again, and the boundaries of larger chunks. */
static void place_chunks(places *p)
{
    uint64_t n = p->n;
    static const int powers[] = {12, 16, 20, 24, 28, 30, 31, 32};
    place(p, n - 1);
    place(p, 1);
    place(p, n - 3);
    for (size_t k = 0; k < RB_ARRAY_LEN(powers); k++) {
        place(p, ((uint64_t)1 << powers[k]) - 1);
        place(p, (uint64_t)1 << powers[k]);
    }
}

/* How to name an element in a reason. */
static void describe_index(uint64_t index, uint64_t n, char *buf, size_t len)
{
    const char *what = "";
    char power[48] = "";
    if (index == n - 1)
        what = " (the last)";
    else if (index == 0)
        what = " (the first)";
    else if ((index & (index - 1)) == 0) {
        snprintf(power, sizeof power, " (2^%d)", __builtin_ctzll(index));
        what = power;
    } else if (((index + 1) & index) == 0) {
        snprintf(power, sizeof power, " (just below 2^%d)", __builtin_ctzll(index + 1));
        what = power;
    }
    snprintf(buf, len, "%" PRIu64 "%s", index, what);
}

/* ---- plans ---- */

/* How many distinct powers of two from 2^shift on a sum can carry
 * exactly: 24 bits (f32's significand; every partial sum is then a whole
 * number f32 holds), and for u8 what a byte holds. f16 holds powers of two
 * up to 2^15 (its largest value is 65504) and bf16 is kept to 2^22, so
 * that every partial sum of an f32 accumulator stays below 2^24. */
static size_t marker_cap(int dtype, int shift)
{
    switch (dtype) {
    case RB_DTYPE_U8: return (size_t)(8 - shift);
    case RB_DTYPE_F16: return (size_t)(16 - shift);
    case RB_DTYPE_BF16: return (size_t)(23 - shift);
    default: return RB_PROBE_MAX_PLANTS;
    }
}

/* Zeros, with 2^shift, 2^(shift+1), ... planted at the places. Probes
 * with different shifts have different answers even where n is 1. */
static void plan_markers(rb_probe *pr, int dtype, const places *p, int shift)
{
    pr->background = 0;
    size_t cap = marker_cap(dtype, shift);
    for (size_t k = 0; k < p->count && k < cap; k++) {
        pr->plants[pr->n_plants].index = p->at[k];
        pr->plants[pr->n_plants].value = ldexpl(1.0L, shift + (int)k);
        pr->n_plants++;
    }
}

/* Ones on every element, or (f32, and f16 and bf16, which accumulate in
 * f32, beyond 2^24 elements) in windows of 2^18 spread from the first
 * element to the last on a background of zeros. */
static void plan_dense(rb_probe *pr, int dtype, uint64_t n)
{
    pr->dense = 1;
    int counts_in_f32 = dtype == RB_DTYPE_F32 || reference_is_half(dtype);
    if (!counts_in_f32 || n <= F32_EXACT_COUNT) {
        pr->background = 1;
        return;
    }
    uint64_t width = F32_EXACT_COUNT / DENSE_WINDOWS;
    pr->background = 0;
    pr->region_value = 1;
    for (uint64_t w = 0; w < DENSE_WINDOWS; w++) {
        pr->regions[w].first = (n - width) / (DENSE_WINDOWS - 1) * w;
        pr->regions[w].count = width;
    }
    pr->regions[DENSE_WINDOWS - 1].first = n - width;
    pr->n_regions = DENSE_WINDOWS;
}

/* One unique extreme on a constant background; each probe's differs. */
static void plan_extreme(rb_probe *pr, int op, int dtype, uint64_t index, int k)
{
    int want_min = op == RB_OP_MIN;
    long double background = dtype == RB_DTYPE_U8 ? (want_min ? 200 : 10) : (want_min ? 100 : -100);
    pr->background = background;
    pr->plants[0].index = index;
    pr->plants[0].value = want_min ? background - 1 - k : background + 1 + k;
    pr->n_plants = 1;
}

static void plan_bytes(rb_probe *pr, const places *p, long double background, int first, int step)
{
    pr->background = background;
    for (size_t k = 0; k < p->count; k++) {
        pr->plants[pr->n_plants].index = p->at[k];
        pr->plants[pr->n_plants].value = (first + step * (int)k) & 0xff;
        pr->n_plants++;
    }
}

static uint32_t bin_of(long double byte, uint32_t bins)
{
    return (uint32_t)(((uint32_t)byte * bins) / 256u);
}

static uint64_t region_elements(const rb_probe *pr)
{
    uint64_t total = 0;
    for (size_t k = 0; k < pr->n_regions; k++)
        total += pr->regions[k].count;
    return total;
}

/* The exact answer of a planned probe. */
static void answer(const rb_probe_set *set, rb_probe *pr)
{
    uint64_t planted = pr->n_plants, regions = region_elements(pr);
    uint64_t plain = set->n - planted - regions;
    switch (set->op) {
    case RB_OP_SUM:
        if (reference_is_float(set->dtype)) {
            long double s = pr->background * (long double)plain +
                            pr->region_value * (long double)regions;
            for (size_t k = 0; k < pr->n_plants; k++)
                s += pr->plants[k].value;
            pr->f = s;
        } else {
            uint64_t s = (uint64_t)pr->background * plain + (uint64_t)pr->region_value * regions;
            for (size_t k = 0; k < pr->n_plants; k++)
                s += (uint64_t)pr->plants[k].value;
            pr->i = reference_wrap(s, set->dtype);
        }
        break;
    case RB_OP_MIN:
    case RB_OP_MAX:
    case RB_OP_ARGMAX:
        pr->f = pr->plants[0].value;
        pr->i = (int64_t)pr->plants[0].value;
        pr->index = pr->plants[0].index;
        break;
    case RB_OP_HISTOGRAM:
        pr->bins = xcalloc(set->n_bins ? set->n_bins : 1, sizeof *pr->bins);
        pr->bins[bin_of(pr->background, set->n_bins)] += plain;
        for (size_t k = 0; k < pr->n_plants; k++)
            pr->bins[bin_of(pr->plants[k].value, set->n_bins)]++;
        break;
    default:
        break;
    }
}


void probe_plan(rb_probe_set *set, int op, int dtype, uint64_t n, uint32_t bins, uint64_t seed)
{
    memset(set, 0, sizeof *set);
    set->op = op;
    set->dtype = dtype;
    set->n = n;
    set->n_bins = bins;
    uint64_t rng = seed ^ 0x70726f6265ull; /* "probe" */
    places a = {.cap = marker_cap(dtype, 1), .n = n}, b = {.cap = marker_cap(dtype, 2), .n = n};
    switch (op) {
    case RB_OP_SUM:
        place_structural(&a);
        place_random(&a, &rng);
        place_chunks(&b);
        place_random(&b, &rng);
        plan_markers(&set->probes[0], dtype, &a, 1);
        plan_dense(&set->probes[1], dtype, n);
        plan_markers(&set->probes[2], dtype, &b, 2);
        set->probes[2].fresh_init = 1;
        set->count = 3;
        break;
    case RB_OP_MIN:
    case RB_OP_MAX:
    case RB_OP_ARGMAX:
        plan_extreme(&set->probes[0], op, dtype, n - 1, 0);
        plan_extreme(&set->probes[1], op, dtype, inner_boundary(n), 1);
        plan_extreme(&set->probes[2], op, dtype, rb_splitmix64(&rng) % n, 2);
        plan_extreme(&set->probes[3], op, dtype, 0, 3);
        set->probes[3].fresh_init = 1;
        set->count = 4;
        break;
    case RB_OP_HISTOGRAM:
        a.cap = b.cap = RB_PROBE_MAX_PLANTS;
        a.count = b.count = 0;
        place_structural(&a);
        place_random(&a, &rng);
        place_chunks(&b);
        place_random(&b, &rng);
        plan_bytes(&set->probes[0], &a, 0, 255, -10);
        plan_bytes(&set->probes[1], &b, 0, 1, 10);
        plan_bytes(&set->probes[2], &a, 255, 0, 7);
        set->probes[2].fresh_init = 1;
        set->count = 3;
        break;
    default:
        break;
    }
    for (size_t k = 0; k < set->count; k++)
        answer(set, &set->probes[k]);
}

void probe_keep_background(rb_probe_set *set, size_t k)
{
    rb_probe *pr = &set->probes[k];
    pr->n_plants = 0;
    pr->n_regions = 0;
    pr->dense = 0;
    if (set->op == RB_OP_SUM)
        pr->background = 0;
    answer(set, pr);
}

void probe_set_free(rb_probe_set *set)
{
    for (size_t k = 0; k < set->count; k++)
        free(set->probes[k].bins);
    set->count = 0;
}

/* ---- writing ---- */

/* A few bytes at `offset`: through write, or (a backend of pointers
 * without it) an upload to buffer + offset. */
static int write_bytes(const rb_backend *b, void *ctx, void *buffer, uint64_t offset,
                       const void *src, size_t bytes)
{
    if (b->write)
        return b->write(ctx, buffer, offset, src, bytes) == RB_OK ? 0 : -1;
    return b->upload(ctx, (unsigned char *)buffer + offset, src, bytes) == RB_OK ? 0 : -1;
}

/* A backend without fill: the probe input is made in host memory and
 * uploaded whole. */
static int upload_whole(const rb_probe_set *set, const rb_probe *pr, const rb_backend *b,
                        void *ctx, void *buffer)
{
    size_t size = rb_dtype_size(set->dtype);
    unsigned char value[8];
    unsigned char *host = malloc((size_t)set->n * size);
    if (!host)
        return -1;
    encode(set->dtype, pr->background, value);
    for (uint64_t k = 0; k < set->n; k++)
        memcpy(host + k * size, value, size);
    encode(set->dtype, pr->region_value, value);
    for (size_t r = 0; r < pr->n_regions; r++)
        for (uint64_t k = 0; k < pr->regions[r].count; k++)
            memcpy(host + (pr->regions[r].first + k) * size, value, size);
    for (size_t k = 0; k < pr->n_plants; k++) {
        encode(set->dtype, pr->plants[k].value, value);
        memcpy(host + pr->plants[k].index * size, value, size);
    }
    int st = b->upload(ctx, buffer, host, (size_t)set->n * size) == RB_OK ? 0 : -1;
    free(host);
    return st;
}

int probe_write(const rb_probe_set *set, size_t k, const rb_probe *previous, const rb_backend *b,
                void *ctx, void *buffer)
{
    const rb_probe *pr = &set->probes[k];
    /* without fill, or without write where buffer is a handle (no
     * buffer + offset to upload to), the probe input is uploaded whole */
    if (!b->fill || (!b->write && b->memory_kind == RB_MEMORY_HANDLE))
        return upload_whole(set, pr, b, ctx, buffer);
    uint32_t size = (uint32_t)rb_dtype_size(set->dtype);
    unsigned char value[8];
    encode(set->dtype, pr->background, value);
    int whole = !previous || previous->background != pr->background ||
                previous->n_regions > 0 || pr->n_regions > 0;
    if (whole) {
        if (b->fill(ctx, buffer, 0, value, size, set->n) != RB_OK)
            return -1;
    } else {
        for (size_t j = 0; j < previous->n_plants; j++)
            if (write_bytes(b, ctx, buffer, previous->plants[j].index * size, value, size) != 0)
                return -1;
    }
    encode(set->dtype, pr->region_value, value);
    for (size_t r = 0; r < pr->n_regions; r++)
        if (b->fill(ctx, buffer, pr->regions[r].first * size, value, size,
                    pr->regions[r].count) != RB_OK)
            return -1;
    for (size_t j = 0; j < pr->n_plants; j++) {
        encode(set->dtype, pr->plants[j].value, value);
        if (write_bytes(b, ctx, buffer, pr->plants[j].index * size, value, size) != 0)
            return -1;
    }
    return 0;
}

/* ---- judging ---- */

/* Two results of this configuration's op: the same answer? */
static int same_answer(const rb_probe_set *set, const rb_result *a, const rb_result *b)
{
    switch (set->op) {
    case RB_OP_SUM:
        return reference_is_float(set->dtype) ? a->f == b->f
                                    : reference_wrap((uint64_t)a->i, set->dtype) ==
                                          reference_wrap((uint64_t)b->i, set->dtype);
    case RB_OP_MIN:
    case RB_OP_MAX:
        return reference_is_float(set->dtype) ? a->f == b->f : a->i == b->i;
    case RB_OP_ARGMAX:
        return (reference_is_float(set->dtype) ? a->f == b->f : a->i == b->i) && a->index == b->index;
    case RB_OP_HISTOGRAM:
        return a->bins && b->bins && a->n_bins == b->n_bins &&
               memcmp(a->bins, b->bins, a->n_bins * sizeof *a->bins) == 0;
    default:
        return 0;
    }
}

rb_result probe_answer(const rb_probe_set *set, size_t k)
{
    const rb_probe *pr = &set->probes[k];
    rb_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.i = pr->i;
    r.f = (double)pr->f;
    r.index = pr->index;
    r.bins = pr->bins;
    r.n_bins = set->n_bins;
    return r;
}

/* The value of a sum result and of the probe's answer, as long doubles. */
static long double sum_value(const rb_probe_set *set, const rb_result *res)
{
    return reference_is_float(set->dtype) ? (long double)res->f
                                : (long double)reference_wrap((uint64_t)res->i, set->dtype);
}

/* When `diff` is a sum of distinct planted values (distinct powers of two,
 * so the largest first decides), names those elements. */
static int name_plants(const rb_probe_set *set, const rb_probe *pr, long double diff, char *buf,
                       size_t len)
{
    int counted[RB_PROBE_MAX_PLANTS] = {0};
    long double left = diff;
    if (diff <= 0)
        return 0;
    for (size_t k = pr->n_plants; k-- > 0;)
        if (left >= pr->plants[k].value) {
            left -= pr->plants[k].value;
            counted[k] = 1;
        }
    if (left != 0)
        return 0;
    size_t used = 0, named = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < pr->n_plants; k++) {
        if (!counted[k])
            continue;
        char where[64];
        describe_index(pr->plants[k].index, set->n, where, sizeof where);
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", named ? ", " : "", where);
        named++;
    }
    return (int)named;
}

static void judge_sum(const rb_probe_set *set, const rb_probe *pr, const rb_result *res,
                      const rb_result *earlier, size_t n_earlier, char *why, size_t len)
{
    long double got = sum_value(set, res), want = reference_is_float(set->dtype) ? pr->f : (long double)pr->i;
    char got_text[64], want_text[64], where[192];
    reference_format_value(got_text, sizeof got_text, set->dtype, (int64_t)got, got);
    reference_format_value(want_text, sizeof want_text, set->dtype, pr->i, pr->f);
    if (reference_is_float(set->dtype) && !isfinite(res->f)) {
        snprintf(why, len, "the sum is %s, expected %s", got_text, want_text);
        return;
    }
    for (size_t k = 0; k < n_earlier; k++) {
        long double before = sum_value(set, &earlier[k]);
        long double both = want + before;
        if (fabsl(got - both) <= 1e-5L * (fabsl(before) + 1) && before != 0) {
            snprintf(why, len, "the sum %s is this probe's %s plus an earlier call's answer: "
                     "the plugin accumulates across calls", got_text, want_text);
            return;
        }
    }
    int named;
    if (got == 0 && want != 0) {
        snprintf(why, len, "the sum is 0, expected %s: nothing was counted", want_text);
    } else if (pr->dense) {
        long double ones = want;
        if (got < ones && got == floorl(got))
            snprintf(why, len, "%.0Lf of the %.0Lf elements set to 1 were not counted (the sum "
                     "is %s)", ones - got, ones, got_text);
        else if (got > ones && got == floorl(got))
            snprintf(why, len, "%.0Lf elements were counted more than once (the sum of %.0Lf "
                     "ones is %s)", got - ones, ones, got_text);
        else
            snprintf(why, len, "the sum of %s ones is %s", want_text, got_text);
    } else if ((named = name_plants(set, pr, want - got, where, sizeof where)) > 0) {
        snprintf(why, len, "the element%s at index %s %s not counted (expected %s, got %s)",
                 named > 1 ? "s" : "", where, named > 1 ? "were" : "was", want_text, got_text);
    } else if ((named = name_plants(set, pr, got - want, where, sizeof where)) > 0) {
        snprintf(why, len, "the element%s at index %s %s counted twice (expected %s, got %s)",
                 named > 1 ? "s" : "", where, named > 1 ? "were" : "was", want_text, got_text);
    } else {
        snprintf(why, len, "expected the exact sum %s, got %s", want_text, got_text);
    }
}

static void judge_extreme(const rb_probe_set *set, const rb_probe *pr, const rb_result *res,
                          char *why, size_t len)
{
    int floats = reference_is_float(set->dtype);
    long double got = floats ? (long double)res->f : (long double)res->i;
    char got_text[64], want_text[64], where[64];
    reference_format_value(got_text, sizeof got_text, set->dtype, res->i, res->f);
    reference_format_value(want_text, sizeof want_text, set->dtype, pr->i, pr->f);
    describe_index(pr->index, set->n, where, sizeof where);
    const char *what = set->op == RB_OP_MIN ? "minimum" : "maximum";
    int value_ok = floats ? res->f == (double)pr->f : res->i == pr->i;
    if (!value_ok && got == pr->background)
        snprintf(why, len, "the one %s, %s at index %s, was not seen (got %s, the value of "
                 "every other element)", what, want_text, where, got_text);
    else if (!value_ok)
        snprintf(why, len, "expected the %s %s (at index %s), got %s", what, want_text, where,
                 got_text);
    else
        snprintf(why, len, "the one maximum is at index %s, not at %" PRIu64, where, res->index);
}

static void judge_histogram(const rb_probe_set *set, const rb_probe *pr, const rb_result *res,
                            char *why, size_t len)
{
    if (!res->bins || res->n_bins != set->n_bins) {
        snprintf(why, len, "%u bins returned, expected %u", res->bins ? res->n_bins : 0,
                 set->n_bins);
        return;
    }
    uint64_t total = 0;
    uint32_t first_bad = set->n_bins, bad = 0;
    for (uint32_t b = 0; b < set->n_bins; b++) {
        total += res->bins[b];
        if (res->bins[b] != pr->bins[b]) {
            bad++;
            if (first_bad == set->n_bins)
                first_bad = b;
        }
    }
    /* One element missing: which one, if its bin says so. */
    if (bad == 1 && total + 1 == set->n && res->bins[first_bad] + 1 == pr->bins[first_bad]) {
        size_t in_bin = 0, which = 0;
        for (size_t k = 0; k < pr->n_plants; k++)
            if (bin_of(pr->plants[k].value, set->n_bins) == first_bad) {
                in_bin++;
                which = k;
            }
        if (in_bin == 1 && bin_of(pr->background, set->n_bins) != first_bad) {
            char where[64];
            describe_index(pr->plants[which].index, set->n, where, sizeof where);
            snprintf(why, len, "the byte at index %s was not counted (bin %u holds %" PRIu64
                     ", expected %" PRIu64 ")", where, first_bad, res->bins[first_bad],
                     pr->bins[first_bad]);
            return;
        }
    }
    snprintf(why, len, "%" PRIu64 " of %" PRIu64 " bytes counted; bin %u holds %" PRIu64
             ", expected %" PRIu64, total, set->n, first_bad, res->bins[first_bad],
             pr->bins[first_bad]);
}

int probe_judge(const rb_probe_set *set, size_t k, const rb_result *res,
                const rb_result *earlier, size_t n_earlier, char *why, size_t len)
{
    const rb_probe *pr = &set->probes[k];
    rb_result want = probe_answer(set, k);
    if (same_answer(set, res, &want))
        return 1;
    /* a sum of 0 says more than "as before" */
    int zero_sum = set->op == RB_OP_SUM && (reference_is_float(set->dtype) ? res->f == 0 : res->i == 0);
    for (size_t j = 0; j < n_earlier && !zero_sum; j++)
        if (same_answer(set, res, &earlier[j])) {
            snprintf(why, len, "the answer of an earlier call was returned");
            return 0;
        }
    switch (set->op) {
    case RB_OP_SUM: judge_sum(set, pr, res, earlier, n_earlier, why, len); break;
    case RB_OP_MIN:
    case RB_OP_MAX:
    case RB_OP_ARGMAX: judge_extreme(set, pr, res, why, len); break;
    case RB_OP_HISTOGRAM: judge_histogram(set, pr, res, why, len); break;
    default: snprintf(why, len, "unknown op %d", set->op); break;
    }
    return 0;
}
