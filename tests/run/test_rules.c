/* tests/run/test_rules.c: the rules of measuring one configuration
 * (src/run/rules.c) on samples with known answers: which of noise, max_reps
 * and the timeout stops the repetitions; the noise of the median and the
 * bimodality check on synthetic samples of one and two groups; the size of a graph batch; bit
 * comparison of results; the error in units of the tolerance; the
 * reproducibility levels (a row alone, whether an answer can round, and a
 * run's rows judged together, src/run/row_finish.c); the names of timing
 * modes and throttle reasons (src/base/names.c) and of profiler ranges. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/random.h"
#include "base/stats.h"
#include "config/sweep.h"
#include "run/row_finish.h"
#include "run/rules.h"
#include "tap.h"

/* Whether the stop rule's answer is `want` (NULL: go on). */
static int stops(const char *got, const char *want)
{
    if (got == want || (got && want && strcmp(got, want) == 0))
        return 1;
    diag("  got: %s, want: %s", got ? got : "go on", want ? want : "go on");
    return 0;
}

static const rb_stop_rule rule = {
    .min_reps = 5, .max_reps = 100, .min_time_ns = 1000, .noise = 0.01, .budget_s = 10};

static void test_stop_rule(void)
{
    double steady[100], spread[100];
    for (int k = 0; k < 100; k++) {
        steady[k] = 1000; /* no noise at all */
        spread[k] = k % 2 ? 500 : 1500; /* noise far above 1% */
    }
    ok(stops(rules_should_stop(&rule, steady, 4, 4000, 0.1, 0.001), NULL),
           "below min_reps: go on, though min_time is reached");
    ok(stops(rules_should_stop(&rule, steady, 5, 5000, 0.1, 0.001), "noise"),
           "min_reps and min_time reached, no noise: stopped by noise");
    rb_stop_rule long_time = rule;
    long_time.min_time_ns = 1e9;
    ok(stops(rules_should_stop(&long_time, steady, 50, 50000, 0.1, 0.001), NULL),
           "before min_time: go on, however quiet");
    ok(stops(rules_should_stop(&rule, spread, 50, 50000, 0.1, 0.001), NULL),
           "noisy samples: go on");
    ok(stops(rules_should_stop(&rule, spread, 100, 100000, 0.1, 0.001), "max_reps"),
           "noisy samples at max_reps: stopped by max_reps");
    ok(stops(rules_should_stop(&long_time, steady, 100, 100000, 0.1, 0.001), "max_reps"),
           "quiet samples at max_reps but short of min_time: max_reps");
    ok(stops(rules_should_stop(&rule, steady, 100, 100000, 0.1, 0.001), "noise"),
           "the target met exactly at max_reps counts as noise");
    ok(stops(rules_should_stop(&rule, spread, 20, 20000, 9.5, 0.6), "timeout"),
           "one more repetition would pass the budget: timeout");
    ok(stops(rules_should_stop(&rule, spread, 20, 20000, 9.5, 0.4), NULL),
           "one more still fits: go on");
    rb_stop_rule one = rule;
    one.min_reps = 1;
    ok(stops(rules_should_stop(&one, steady, 1, 1000, 0.1, 0.001), NULL),
           "one sample says nothing about noise: go on");
    one.max_reps = 1;
    ok(stops(rules_should_stop(&one, steady, 1, 1000, 0.1, 0.001), "max_reps"),
           "max_reps = 1: one repetition, stopped by max_reps");
}

/* A uniform number in [0, 1) from a fixed sequence. */
static double uniform(rb_rng *r) { return (double)(rb_rng_next(r) >> 11) / 9007199254740992.0; }

/* About normal (mean 0, deviation 1): the sum of 12 uniforms less 6. */
static double about_normal(rb_rng *r)
{
    double sum = 0;
    for (int k = 0; k < 12; k++)
        sum += uniform(r);
    return sum - 6;
}

/* n samples, `upper` of every 100 of them from the group at 1000 * ratio,
 * the rest at 1000, each with a relative spread `spread`. */
static void two_groups(double *v, size_t n, size_t upper, double ratio, double spread)
{
    rb_rng r = {{1, 2, 3, 4}};
    for (size_t k = 0; k < n; k++) {
        double centre = k % 100 < upper ? 1000 * ratio : 1000;
        v[k] = centre * (1 + spread * about_normal(&r));
    }
}

static void test_noise_of_two_groups(void)
{
    double v[400];
    two_groups(v, 400, 0, 1, 0.001);
    rb_stats s;
    stats_compute(v, 400, &s);
    double noise = rules_noise(v, 400);
    ok(noise >= s.noise && noise < 3 * s.noise && noise < 0.001,
       "one group of 0.1%% spread: the noise is about the MAD's (%.2g against %.2g)", noise,
       s.noise);
    two_groups(v, 400, 48, 1.2, 0.001);
    stats_compute(v, 400, &s);
    noise = rules_noise(v, 400);
    ok(s.noise < 0.001, "52%% at 1000 and 48%% at 1200: the MAD sees %.2g noise", s.noise);
    ok(noise > 0.05, "the median's interval spans the gap: noise %.2g, %.0f times the MAD's",
       noise, noise / s.noise);
    rb_stop_rule loose = {.min_reps = 5, .max_reps = 1000, .min_time_ns = 0, .noise = 0.01,
                          .budget_s = 10};
    ok(stops(rules_should_stop(&loose, v, 400, 400 * 1100, 0.1, 0.001), NULL),
       "so the stop rule goes on at a 1%% target where the MAD would have stopped");
    ok(rules_noise(v, 1) == 0 && rules_noise(NULL, 0) == 0, "fewer than 2 samples: 0");
}

static void test_multimodal(void)
{
    double v[400];
    two_groups(v, 400, 30, 1.1, 0.005);
    is_int(rules_multimodal(v, 400), 1, "70%% at 1000 and 30%% at 1100, 0.5%% spread: bimodal");
    two_groups(v, 400, 50, 1.05, 0.003);
    is_int(rules_multimodal(v, 400), 1, "half at 1000, half at 1050, 0.3%% spread: bimodal");
    two_groups(v, 400, 0, 1, 0.01);
    is_int(rules_multimodal(v, 400), 0, "one normal group: not bimodal");
    rb_rng r = {{5, 6, 7, 8}};
    for (size_t k = 0; k < 400; k++)
        v[k] = 1000 + 30 * -log(1 - uniform(&r));
    is_int(rules_multimodal(v, 400), 0, "one skewed group (an exponential tail): not bimodal");
    two_groups(v, 400, 5, 2, 0.001);
    is_int(rules_multimodal(v, 400), 0, "5%% outliers at twice the time: not a group of their own");
    two_groups(v, 400, 50, 1.01, 0.0005);
    is_int(rules_multimodal(v, 400), 0, "groups 1%% apart: too close to matter");
    for (size_t k = 0; k < 400; k++)
        v[k] = 1000 + 500 * (double)(k % 3);
    is_int(rules_multimodal(v, 400), -1, "three distinct values (a coarse timer): cannot tell");
    two_groups(v, 19, 50, 1.2, 0.001);
    is_int(rules_multimodal(v, 19), -1, "19 samples: too few to tell");
}

static void test_noise_cadence(void)
{
    ok(rules_checks_noise_at(1) && rules_checks_noise_at(63) && rules_checks_noise_at(64),
       "the noise is checked after every repetition up to 64");
    ok(!rules_checks_noise_at(65) && rules_checks_noise_at(80) && !rules_checks_noise_at(88),
       "then after every 16th");
    ok(rules_checks_noise_at(496) && !rules_checks_noise_at(528) &&
           rules_checks_noise_at(544),
       "every 32nd from 512");
    ok(!rules_checks_noise_at(8000) && rules_checks_noise_at(8192) &&
           !rules_checks_noise_at(8448) && rules_checks_noise_at(8704),
       "every 512th from 8192");
    int checks = 0;
    for (size_t count = 1; count <= 10000; count++)
        checks += rules_checks_noise_at(count);
    ok(checks >= 64 + 16 * 5 && checks <= 64 + 20 * 6, "10000 repetitions: %d checks, not 685",
       checks);
}

static void test_batch_calls(void)
{
    is_int(rules_batch_calls(7, 1e3), 7, "graph_calls = 7 is taken as is");
    is_int(rules_batch_calls(0, 2e3), 1000, "2 us calls: 1000 (the 2 ms target, capped)");
    is_int(rules_batch_calls(0, 4e4), 50, "40 us calls: 50 make 2 ms");
    is_int(rules_batch_calls(0, 3e4), 68, "30 us calls: 68 (67 rounded up to an even count)");
    is_int(rules_batch_calls(0, 5e6), 2, "5 ms calls: 2 (at least two: call parity alternates)");
    is_int(rules_batch_calls(0, 0), RB_BATCH_MAX_CALLS, "unknown call time: the cap");
}

static void test_same_result(void)
{
    rb_result a = {.size = sizeof a, .i = 5, .f = 1.5}, b = a;
    ok(rules_same_result(&a, &b, RB_OP_SUM, 0), "equal sums are the same");
    b.f = nextafter(1.5, 2.0);
    ok(!rules_same_result(&a, &b, RB_OP_SUM, 0), "one ulp apart is not the same");
    b = a;
    b.f = -0.0;
    a.f = 0.0;
    ok(!rules_same_result(&a, &b, RB_OP_SUM, 0), "0.0 and -0.0 differ in their bits");
    a.f = b.f = NAN;
    ok(rules_same_result(&a, &b, RB_OP_MAX, 0), "the same NaN is the same");
    a = (rb_result){.size = sizeof a, .f = 9, .index = 3};
    b = a;
    b.index = 4;
    ok(rules_same_result(&a, &b, RB_OP_MAX, 0), "max: the index does not count");
    ok(!rules_same_result(&a, &b, RB_OP_ARGMAX, 0), "argmax: another index differs");
    uint64_t x[4] = {1, 2, 3, 4}, y[4] = {1, 2, 3, 4};
    a = (rb_result){.size = sizeof a, .bins = x, .n_bins = 4};
    b = (rb_result){.size = sizeof b, .bins = y, .n_bins = 4};
    ok(rules_same_result(&a, &b, RB_OP_HISTOGRAM, 4), "equal bins are the same");
    y[3] = 5;
    ok(!rules_same_result(&a, &b, RB_OP_HISTOGRAM, 4), "one bin off differs");
    ok(rules_same_result(&a, &b, RB_OP_HISTOGRAM, 3), "only the first `bins` bins count");
}

static void test_error_ratio(void)
{
    double r = -1;
    ok(rules_error_ratio(0.5, 2, &r) && r == 0.25, "error 0.5, tolerance 2: 0.25");
    ok(rules_error_ratio(3, 2, &r) && r == 1.5, "outside the tolerance: 1.5");
    ok(rules_error_ratio(0, 0, &r) && r == 0, "exact and equal: 0");
    ok(!rules_error_ratio(1, 0, &r), "exact and unequal: unknown");
    ok(!rules_error_ratio(NAN, 1, &r), "a NaN error: unknown");
}

static void test_repro_alone(void)
{
    is_int(rules_repro_alone(0, RB_DETERMINISM_SAME, 1, 0), RB_REPRO_UNKNOWN, "not ok: no level");
    is_int(rules_repro_alone(1, RB_DETERMINISM_UNKNOWN, 1, 0), RB_REPRO_UNKNOWN,
           "no repeated run compared: no level");
    is_int(rules_repro_alone(1, RB_DETERMINISM_DIFFERS, 1, 0), RB_REPRO_VARIES,
           "repeated runs differed: varies, even where the answer cannot round");
    is_int(rules_repro_alone(1, RB_DETERMINISM_SAME, 1, 0), RB_REPRO_EXACT,
           "the same bits, an answer that cannot round, found: exact");
    is_int(rules_repro_alone(1, RB_DETERMINISM_SAME, 1, 0.5), RB_REPRO_RUN_TO_RUN,
           "... but an error of 0.5: run-to-run");
    is_int(rules_repro_alone(1, RB_DETERMINISM_SAME, 0, 0), RB_REPRO_RUN_TO_RUN,
           "an answer that can round, error 0: run-to-run");

    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_F32, RB_DIST_ONES, 1u << 24), 1,
           "2^24 ones in f32: exact");
    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_F32, RB_DIST_ONES, (1u << 24) + 1), 0,
           "2^24 + 1 ones in f32: can round");
    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_F32, RB_DIST_SMALL, (1u << 24) / 15), 1,
           "2^24 / 15 small elements (up to 15) in f32: exact");
    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_F32, RB_DIST_SMALL, (1u << 24) / 15 + 1), 0,
           "one more: can round");
    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_F16, RB_DIST_ONES, 2049), 0,
           "2049 ones in f16: can round");
    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_F64, RB_DIST_UNIFORM, 2), 0,
           "uniform data: can round at any n");
    is_int(rules_exact_answer(RB_OP_SUM, RB_DTYPE_I32, RB_DIST_UNIFORM, UINT64_C(1) << 40), 1,
           "integer sums: exact at any n");
    is_int(rules_exact_answer(RB_OP_MAX, RB_DTYPE_F32, RB_DIST_UNIFORM, UINT64_C(1) << 40), 1,
           "max: exact at any n");
}

/* A run's rows judged together: a column and a ragged row judged at their
 * longest answer, not at n; layouts of one plugin on the same data. */
static void test_repro_rows(void)
{
    static const rb_plugin desc = {.name = "p"};
    rb_loaded_plugin plugin = {.desc = &desc};
    rb_configuration cfg[6];
    rb_row rows[6];
    memset(cfg, 0, sizeof cfg);
    memset(rows, 0, sizeof rows);
    for (int k = 0; k < 6; k++) {
        cfg[k] = (rb_configuration){.plugin = &plugin, .op = RB_OP_SUM, .dtype = RB_DTYPE_F32,
                                    .distribution = RB_DIST_SMALL, .n = 1, .rows = 1};
        rows[k] = (rb_row){.config = &cfg[k], .status = RB_ROW_OK, .seed = 7,
                           .determinism = RB_DETERMINISM_SAME};
        rows[k].repro = (rb_repro_judged){.bits_known = 1, .bits = 100 + (uint64_t)k,
                                          .answer_elements = 1};
    }
    /* 0: a column of 4M rows (n = 1): its answer adds 4M elements */
    cfg[0].rows = 4u << 20;
    cfg[0].axis = RB_AXIS_COLUMN;
    rows[0].repro.answer_elements = 4u << 20;
    /* 1: 4 ragged rows of n = 1M, the longest 2.5M long, error 0 */
    cfg[1].rows = 4;
    cfg[1].n = 1u << 20;
    cfg[1].lengths = RB_LENGTHS_RAGGED;
    rows[1].repro.answer_elements = 5u << 19;
    /* 2: 7 rows of 1000, one answer off by a little (within its tolerance) */
    cfg[2].rows = 7;
    cfg[2].n = 1000;
    rows[2].error = 0.25;
    /* 3: the same as 2 with every answer exact */
    cfg[3] = cfg[2];
    cfg[3].distribution = RB_DIST_ONES;
    /* 4 and 5: two layouts of one plugin on the same uniform data, the same
     * bits; 5's repeated runs differed */
    cfg[4].distribution = cfg[5].distribution = RB_DIST_UNIFORM;
    cfg[4].n = cfg[5].n = 1000;
    rows[4].repro.bits = rows[5].repro.bits = 42;
    rows[5].determinism = RB_DETERMINISM_DIFFERS;
    rb_results res = {.rows = rows, .n_rows = 6};
    rows_reproducibility(&res);
    is_int(rows[0].repro.level, RB_REPRO_RUN_TO_RUN,
           "a column of 4M small f32 elements (n = 1), error 0: not exact");
    is_int(rows[1].repro.level, RB_REPRO_RUN_TO_RUN,
           "ragged rows of n = 1M, the longest 2.5M, error 0: not exact");
    is_int(rows[2].repro.level, RB_REPRO_RUN_TO_RUN, "rows whose worst answer is off: not exact");
    is_int(rows[3].repro.level, RB_REPRO_EXACT, "rows of 1000 ones, every answer found: exact");
    is_int(rows[4].repro.level, RB_REPRO_RUN_TO_RUN,
           "its other layout on the same data varies: run-to-run");
    is_int(rows[5].repro.level, RB_REPRO_VARIES, "repeated runs differed: varies");
    rows[5].determinism = RB_DETERMINISM_SAME;
    rows_reproducibility(&res);
    is_int(rows[4].repro.level, RB_REPRO_LAYOUT,
           "two layouts, the same bits, neither varying: layout-independent");
    rows[5].repro.bits = 43;
    rows_reproducibility(&res);
    is_int(rows[4].repro.level, RB_REPRO_RUN_TO_RUN, "two layouts, other bits: run-to-run");
}

static void test_names(void)
{
    ok(strcmp(timing_mode_name(RB_TIMING_LAUNCH), "launch") == 0 &&
           strcmp(timing_mode_name(RB_TIMING_GRAPH), "graph") == 0 &&
           strcmp(timing_mode_name(RB_TIMING_DEVICE), "device") == 0 &&
           timing_mode_name(7) == NULL,
       "timing mode names");
    char text[160];
    throttle_reason_text(0, text, sizeof text);
    is_str(text, "", "no throttle reason: empty");
    throttle_reason_text(RB_THROTTLE_SW_POWER_CAP | RB_THROTTLE_HW_THERMAL, text, sizeof text);
    is_str(text, "sw_power_cap, hw_thermal", "two reasons, in bit order");
    throttle_reason_text(RB_THROTTLE_IDLE | 0x10000ull, text, sizeof text);
    is_str(text, "idle, other 0x10000", "an unknown bit is shown in hex");

    rb_run_section run = {.name = "cub"};
    rb_configuration cfg = {.run = &run, .op = RB_OP_SUM, .dtype = RB_DTYPE_F32,
                            .n = 1u << 20, .params_text = "variant=cub"};
    rules_range_name(&cfg, text, sizeof text);
    is_str(text, "cub variant=cub sum f32 n=1M", "range name: run, parameters, op, dtype, n");
    cfg.params_text = "";
    cfg.n = 1000;
    rules_range_name(&cfg, text, sizeof text);
    is_str(text, "cub sum f32 n=1000", "range name without parameters");
    cfg.params_text = "path=a/b@c";
    rules_range_name(&cfg, text, sizeof text);
    is_str(text, "cub path=a_b_c sum f32 n=1000", "'/' and '@' become '_'");
}

int main(void)
{
    plan(78);
    test_stop_rule();
    test_noise_of_two_groups();
    test_multimodal();
    test_noise_cadence();
    test_batch_calls();
    test_same_result();
    test_error_ratio();
    test_repro_alone();
    test_repro_rows();
    test_names();
    return done();
}
