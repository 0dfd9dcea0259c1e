/* tests/run/test_probe.c: the judge's probes (src/run/probe.c). Each probe written
 * through the cpu backend is checked against the reference computed from
 * the written memory (so every planned answer is the true one), a rewrite
 * of only the planted elements leaves the same memory as a whole write,
 * the dense f32 probe stays exact beyond 2^24 elements, and the verdicts
 * name what was found for results of known fault. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "host/backend_cpu.h"
#include "run/probe.h"
#include "run/reference.h"
#include "tap.h"

#include <redbench/half.h>

static void ignore_log(const rb_host *h, int level, const char *fmt, ...)
{
    (void)h; (void)level; (void)fmt;
}
static void ignore_error(const rb_host *h, const char *fmt, ...)
{
    (void)h; (void)fmt;
}

static const rb_backend *b;
static void *ctx;

/* The reference of `bytes` of memory holding n elements of dtype. */
static void reference_of(void *data, int dtype, uint64_t n, int op, uint32_t bins,
                         rb_reference *ref)
{
    rb_input in = {.dtype = dtype, .n = n, .data = data, .bytes = n * rb_dtype_size(dtype)};
    reference_compute(ref, &in, op, bins);
}

/* Every probe of (op, dtype, n), written in turn into one buffer, has the
 * answer the reference finds in that buffer. */
static void check_answers(int op, int dtype, uint64_t n)
{
    rb_probe_set set;
    uint32_t bins = op == RB_OP_HISTOGRAM ? 16 : 0;
    probe_plan(&set, op, dtype, n, bins, 99);
    size_t bytes = n * rb_dtype_size(dtype);
    void *buf = NULL;
    b->alloc(ctx, bytes, &buf);
    memset(buf, 0x5a, bytes);
    int all = set.count >= 3, fresh = 0;
    const rb_probe *previous = NULL;
    for (size_t k = 0; k < set.count; k++) {
        all &= probe_write(&set, k, previous, b, ctx, buf) == 0;
        previous = &set.probes[k];
        fresh += set.probes[k].fresh_init;
        rb_reference ref;
        reference_of(buf, dtype, n, op, bins, &ref);
        rb_result res = probe_answer(&set, k);
        rb_verdict v;
        rb_input in = {.dtype = dtype, .n = n, .data = buf, .bytes = bytes};
        reference_judge(&ref, &in, &res, &v);
        char why[256];
        all &= v.ok && probe_judge(&set, k, &res, NULL, 0, why, sizeof why);
        if (op == RB_OP_ARGMAX)
            all &= ref.index == set.probes[k].index;
        if (op != RB_OP_HISTOGRAM)
            all &= reference_is_float(dtype) ? ref.f == set.probes[k].f
                                                                  : ref.i == set.probes[k].i;
        if (!v.ok)
            diag("  probe %zu: %s", k + 1, v.why);
        reference_free(&ref);
    }
    ok(all && fresh == 1, "%s %s n=%" PRIu64 ": %zu probes, one after a fresh init, each answer "
       "the reference of the written input", op_name(op), dtype_name(dtype), n, set.count);
    b->release(ctx, buf);
    probe_set_free(&set);
}

/* A sum probe of f16 or bf16: every planted value is a whole number the
 * format holds, and every partial sum of the plants stays below 2^24, so
 * that an f32 accumulator is exact in any order. */
static void check_half_sums(void)
{
    for (int dtype = RB_DTYPE_F16; dtype <= RB_DTYPE_BF16; dtype++) {
        rb_probe_set set;
        probe_plan(&set, RB_OP_SUM, dtype, 1048579, 0, 3);
        int exact = 1;
        long double total = 0;
        size_t plants = 0;
        for (size_t k = 0; k < set.count; k++) {
            const rb_probe *pr = &set.probes[k];
            long double sum = 0;
            for (size_t j = 0; j < pr->n_plants; j++) {
                float v = (float)pr->plants[j].value;
                float back = dtype == RB_DTYPE_F16 ? rb_f16_to_f32(rb_f16_from_f32(v))
                                                   : rb_bf16_to_f32(rb_bf16_from_f32(v));
                exact &= back == v && v == floorf(v);
                sum += v;
                plants++;
            }
            exact &= sum < 0x1p24L;
            total += sum;
        }
        ok(exact && plants >= 20, "%s sum probes: %zu planted whole numbers the format holds, "
           "partial sums below 2^24 (%.0Lf in all)", dtype_name(dtype), plants, total);
        probe_set_free(&set);
    }
}

/* Rewriting only the plants leaves the memory a whole write leaves. */
static void check_incremental(void)
{
    rb_probe_set set;
    uint64_t n = 100003;
    probe_plan(&set, RB_OP_HISTOGRAM, RB_DTYPE_U8, n, 8, 5);
    void *a = NULL, *c = NULL;
    b->alloc(ctx, n, &a);
    b->alloc(ctx, n, &c);
    probe_write(&set, 0, NULL, b, ctx, a);
    probe_write(&set, 1, &set.probes[0], b, ctx, a); /* same background: plants only */
    probe_write(&set, 1, NULL, b, ctx, c);           /* whole */
    ok(memcmp(a, c, n) == 0, "a probe written over the one before equals one written whole");
    b->release(ctx, a);
    b->release(ctx, c);
    probe_set_free(&set);
}

/* Beyond 2^24 elements f32 counts ones in windows: still exact. */
static void check_dense_f32(void)
{
    rb_probe_set set;
    uint64_t n = ((uint64_t)1 << 25) + 3;
    probe_plan(&set, RB_OP_SUM, RB_DTYPE_F32, n, 0, 1);
    const rb_probe *dense = &set.probes[1];
    float *x = NULL;
    b->alloc(ctx, n * 4, (void **)&x);
    probe_write(&set, 1, NULL, b, ctx, x);
    uint64_t ones = 0;
    for (uint64_t k = 0; k < n; k++)
        ones += x[k] == 1.0f;
    ok(dense->dense && dense->n_regions == 64 && ones == (uint64_t)1 << 24 &&
           dense->f == (long double)(1 << 24) && x[0] == 1.0f && x[n - 1] == 1.0f,
       "f32 at 2^25 + 3: 2^24 ones in 64 windows from the first element to the last");
    /* a float accumulator adding them one by one is exact */
    float s = 0;
    for (uint64_t k = 0; k < n; k++)
        s += x[k];
    ok(s == 16777216.0f, "a serial f32 sum of the dense probe is exact (%.1f)", (double)s);
    b->release(ctx, x);
    probe_set_free(&set);
}

/* A result with probe k's answer changed by `delta` (sums). */
static const char *judged(const rb_probe_set *set, size_t k, long double delta,
                          const rb_result *earlier, size_t n_earlier)
{
    static char why[400];
    rb_result r = probe_answer(set, k);
    r.f = (double)(set->probes[k].f + delta);
    r.i = set->probes[k].i + (int64_t)delta;
    why[0] = '\0';
    if (probe_judge(set, k, &r, earlier, n_earlier, why, sizeof why))
        return "(exact)";
    return why;
}

static void check_reasons(void)
{
    rb_probe_set set;
    uint64_t n = 1000001;
    probe_plan(&set, RB_OP_SUM, RB_DTYPE_F32, n, 0, 7);
    const rb_probe *p1 = &set.probes[0];
    ok(p1->plants[0].index == n - 1, "the first plant of the first probe is the last element");
    const char *why = judged(&set, 0, -p1->plants[0].value, NULL, 0);
    ok(strstr(why, "the element at index 1000000 (the last) was not counted") != NULL, "%s", why);
    why = judged(&set, 0, p1->plants[1].value, NULL, 0);
    ok(strstr(why, "the element at index 0 (the first) was counted twice") != NULL, "%s", why);
    why = judged(&set, 0, -(p1->plants[0].value + p1->plants[2].value), NULL, 0);
    ok(strstr(why, "the elements at index 1000000 (the last), 500000 were not counted") != NULL,
       "%s", why);
    why = judged(&set, 1, -3, NULL, 0);
    ok(strstr(why, "3 of the 1000001 elements set to 1 were not counted") != NULL, "%s", why);
    rb_result before = {.size = sizeof before, .f = 1234.5};
    why = judged(&set, 0, 1234.5L, &before, 1);
    ok(strstr(why, "accumulates across calls") != NULL, "%s", why);
    why = judged(&set, 0, 1234.5L - set.probes[0].f, &before, 1);
    ok(strcmp(why, "the answer of an earlier call was returned") == 0, "%s", why);
    why = judged(&set, 0, -set.probes[0].f, NULL, 0);
    ok(strstr(why, "the sum is 0") != NULL, "%s", why);
    ok(strcmp(judged(&set, 2, 0, NULL, 0), "(exact)") == 0 && set.probes[2].fresh_init,
       "the third probe runs after a fresh init and takes its own answer");
    probe_set_free(&set);

    probe_plan(&set, RB_OP_ARGMAX, RB_DTYPE_I32, n, 0, 7);
    rb_result r = probe_answer(&set, 0);
    char text[400];
    r.i = (int64_t)set.probes[0].background;
    probe_judge(&set, 0, &r, NULL, 0, text, sizeof text);
    ok(strstr(text, "the one maximum, -99 at index 1000000 (the last), was not seen") != NULL,
       "%s", text);
    r = probe_answer(&set, 1);
    r.index = 3;
    probe_judge(&set, 1, &r, NULL, 0, text, sizeof text);
    ok(strstr(text, "the one maximum is at index 524288 (2^19), not at 3") != NULL, "%s", text);
    probe_set_free(&set);

    probe_plan(&set, RB_OP_HISTOGRAM, RB_DTYPE_U8, n, 256, 7);
    uint64_t bins[256];
    memcpy(bins, set.probes[0].bins, sizeof bins);
    bins[255]--; /* the byte 255 planted at the last element */
    r = probe_answer(&set, 0);
    r.bins = bins;
    probe_judge(&set, 0, &r, NULL, 0, text, sizeof text);
    ok(strstr(text, "the byte at index 1000000 (the last) was not counted") != NULL, "%s", text);
    probe_set_free(&set);
}

int main(void)
{
    plan(1 + RB_DTYPE_COUNT_ * 4 + 4 + 4 + 2 + 1 + 2 + 12);
    rb_host host = {sizeof host, REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, ignore_log,
                    ignore_error, NULL, NULL};
    b = backend_cpu();
    rb_device_info info = {.size = sizeof info};
    ok(b->open(&host, 0, &ctx, &info) == RB_OK && b->fill && b->write && b->copy,
       "the cpu backend opens and offers fill, write and copy (ABI 1.2)");
    static const uint64_t sizes[] = {1, 2, 1001, 1048579};
    for (int dtype = 0; dtype < RB_DTYPE_COUNT_; dtype++)
        for (size_t s = 0; s < 4; s++)
            check_answers(RB_OP_SUM, dtype, sizes[s]);
    check_answers(RB_OP_MIN, RB_DTYPE_F32, 1001);
    check_answers(RB_OP_MAX, RB_DTYPE_U8, 1001);
    check_answers(RB_OP_ARGMAX, RB_DTYPE_I64, 2);
    check_answers(RB_OP_HISTOGRAM, RB_DTYPE_U8, 1001);
    /* halves: every probe exact in the format and in f32 accumulation */
    check_answers(RB_OP_MIN, RB_DTYPE_F16, 1001);
    check_answers(RB_OP_MAX, RB_DTYPE_BF16, 1048579);
    check_answers(RB_OP_ARGMAX, RB_DTYPE_F16, 1048579);
    check_answers(RB_OP_ARGMAX, RB_DTYPE_BF16, 2);
    check_half_sums();
    check_incremental();
    check_dense_f32();
    check_reasons();
    b->close(ctx);
    return done();
}
