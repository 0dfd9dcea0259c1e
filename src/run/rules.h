/* src/run/rules.h: the rules of measuring one configuration that need no
 * plugin and no device, kept apart from the runner so that they are tested
 * on their own: when the timed repetitions stop (and which cap stopped
 * them), how many calls a graph batch holds, whether two results have the
 * same bits (and a digest of them), the reproducibility level a row has
 * on its own, the error in units of the tolerance, and the profiler range
 * name of a configuration. */
#ifndef RB_RULES_H
#define RB_RULES_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>

#include "config/sweep.h"

/* A graph batch is sized to take about this long, within 1..BATCH_MAX_CALLS
 * calls (graph_calls = auto). */
#define RB_BATCH_TARGET_NS 2e6
#define RB_BATCH_MAX_CALLS 1000

/* When timed repetitions stop. */
typedef struct rb_stop_rule {
    long min_reps, max_reps;
    double min_time_ns; /* measured time at least */
    double noise;       /* target relative noise of the median */
    double budget_s;    /* seconds the configuration may spend measuring */
} rb_stop_rule;

/* The relative noise of the median of `count` samples: the half-width of
 * the distribution-free interval of the median at about 68% (the order
 * statistics n/2 -+ sqrt(n)/2, as a bootstrap of the median would find)
 * over the median, or the MAD's estimate (base/stats.h) where that is
 * larger. Unlike the MAD alone it is honest for samples in two groups: the
 * median of such samples jumps between them, and the interval spans the
 * gap. 0 for fewer than 2 samples or a median of 0. */
double rules_noise(const double *samples, size_t count);

/* Whether the samples fall into two groups apart (a bimodality check):
 * the split of the sorted samples into two groups, each at least a tenth
 * of them, with the least squares within them; bimodal when their means
 * are more than RB_MULTIMODAL_SEPARATION pooled deviations apart (Ashman's
 * D) and at least 2% of the median apart. Returns 1 bimodal, 0 not, -1
 * when it cannot tell: fewer than RB_MULTIMODAL_MIN_SAMPLES samples, or
 * fewer than 8 distinct values (a coarse timer's steps). */
#define RB_MULTIMODAL_MIN_SAMPLES 20
#define RB_MULTIMODAL_SEPARATION 4.0
int rules_multimodal(const double *samples, size_t count);

/* Decides after a repetition whether to stop. `samples` holds the `count`
 * samples so far (their sum is total_ns); elapsed_s is the time since the
 * configuration started and next_s what one more repetition is expected to
 * take. Returns NULL to go on, or why to stop: "noise" (min_reps and
 * min_time reached and the noise under target), "max_reps" (the cap came
 * first) or "timeout" (one more repetition would pass the budget). The noise
 * (rules_noise) is computed only where rules_checks_noise_at says, so that the host's
 * sorting leaves the device idle between few of the timed calls. */
const char *rules_should_stop(const rb_stop_rule *rule, const double *samples, size_t count,
                              double total_ns, double elapsed_s, double next_s);

/* Whether the noise is computed after repetition `count`: after each one up
 * to 64, after every 16th below 512, every 32nd below 1024, every 64th below
 * 2048, and so on: the step doubles with the count, so a run of n samples
 * has about 16 pauses for sorting per doubling instead of n/16, and few
 * timed calls follow an idle device. */
int rules_checks_noise_at(size_t count);

/* Calls per graph batch: `requested` when it is not 0, otherwise enough
 * calls of call_ns each for RB_BATCH_TARGET_NS, rounded up to an even
 * count, within 2..RB_BATCH_MAX_CALLS (RB_BATCH_MAX_CALLS, which is even,
 * when call_ns is unknown, 0 or less). */
uint32_t rules_batch_calls(long requested, double call_ns);

/* Whether two results of op have the same bits: the value (integer and
 * floating), the index of argmax and the first `bins` bins of a histogram. */
int rules_same_result(const rb_result *a, const rb_result *b, int op, uint32_t bins);

/* A digest of a result's bits, as rules_same_result compares them: equal
 * digests for results that compare the same (FNV-1a, 64 bits), so that
 * rows can be compared after their results are gone. */
uint64_t rules_result_bits(const rb_result *r, int op, uint32_t bins);

/* The level (enum rb_repro, base/names.h) of one row on its own, before
 * its layouts are compared (rows_reproducibility): unknown unless ok and
 * checked (`determinism`, enum rb_determinism), varies where its runs
 * differed, exact where its answer cannot round (`exact_answer`) and its
 * error is 0, else run-to-run. */
int rules_repro_alone(int ok, int determinism, int exact_answer, double error);

/* Whether the exact answer of op over n elements of dtype drawn from
 * distribution is what any order of reduction returns: integer dtypes
 * (their sums wrap alike), histograms, min, max and argmax, and floating
 * sums of whole numbers (small, ones) whose every partial sum is a whole
 * number the dtype holds exactly (n x the largest element at most 2^p,
 * p the dtype's significand bits). */
int rules_exact_answer(int op, int dtype, int distribution, uint64_t n);

/* The error in units of the tolerance: error / tolerance. For an exact
 * comparison (tolerance 0) it is 0 when the error is 0 and unknown
 * otherwise. Returns 1 and sets *ratio when known, else 0. */
int rules_error_ratio(double error, double tolerance, double *ratio);

/* The name of a configuration's profiler range: "RUN PARAMS OP DTYPE n=N"
 * with N as reports write it ("1K"), the parameters left out when there
 * are none, for example "cub variant=cub sum f32 n=1M". Characters that
 * profiler filters treat as separators ('/', '@') become '_'. */
void rules_range_name(const rb_configuration *cfg, char *buf, size_t len);

#endif
