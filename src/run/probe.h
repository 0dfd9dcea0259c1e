/* src/run/probe.h: the judge's probes. After a configuration's timed calls the
 * host judges the strategy again on probe inputs whose answer is exact in
 * any order of operations, written into the configuration's own input
 * buffer (same address, same n) between calls of the initialised plugin,
 * and once more after a fresh init:
 *
 * - sum: zeros with distinct powers of two planted at the first and last
 *   element, at alignment, vector, warp, block and chunk boundaries and at
 *   random places (every partial sum is a whole number the dtype holds
 *   exactly, and the missing or doubled value names the element); and a
 *   dense probe of ones (on every element where the dtype counts that far
 *   exactly, else in 64 windows spread over the input), where every
 *   dropped or repeated element changes the count;
 * - min, max, argmax: a constant background with one unique extreme,
 *   planted at the last element, at a power-of-two boundary, at a random
 *   place and (after the fresh init) at the first;
 * - histogram: a constant byte with distinct bytes planted at such places.
 *
 * Each probe has its own answer, so a result remembered from an earlier
 * call, accumulated across calls or computed from part of the input shows.
 * This file makes the plans, writes them through the backend (fill and
 * write of ABI 1.2, or uploads where a backend lacks them) and judges the
 * results, saying what was found. */
#ifndef RB_PROBE_H
#define RB_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>

#define RB_PROBE_MAX 4          /* probes per configuration */
#define RB_PROBE_MAX_PLANTS 24  /* planted elements per probe */
#define RB_PROBE_MAX_REGIONS 64 /* windows of ones in a dense sum probe */

/* One planted element. */
typedef struct rb_plant {
    uint64_t index;
    long double value;
} rb_plant;

/* A run of elements set to the probe's region value. */
typedef struct rb_region {
    uint64_t first, count;
} rb_region;

typedef struct rb_probe {
    int fresh_init;              /* runs after teardown and a new init */
    int dense;                   /* a sum probe of ones (the count is checked) */
    long double background;      /* every element not planted or in a region */
    long double region_value;
    size_t n_regions;
    rb_region regions[RB_PROBE_MAX_REGIONS];
    size_t n_plants;
    rb_plant plants[RB_PROBE_MAX_PLANTS];
    /* the exact answer */
    int64_t i;                   /* integer sum (wrapped like the dtype), min, max */
    long double f;               /* floating sum, min, max */
    uint64_t index;              /* argmax: the one index of the maximum */
    uint64_t *bins;              /* histogram counts (n_bins of them) */
} rb_probe;

typedef struct rb_probe_set {
    int op, dtype;
    uint64_t n;
    uint32_t n_bins;
    size_t count;
    rb_probe probes[RB_PROBE_MAX];
} rb_probe_set;

/* Plans the probes of a configuration; `seed` picks the random places. */
void probe_plan(rb_probe_set *set, int op, int dtype, uint64_t n, uint32_t bins, uint64_t seed);
void probe_set_free(rb_probe_set *set);

/* Across ranks (procs/ranks.h): probe k of a rank that does not plant it is
 * its background alone (0 for sums), so that the whole data set's answer
 * is the planting rank's, exactly. */
void probe_keep_background(rb_probe_set *set, size_t k);

/* Writes probe k into `buffer` (the configuration's input, from the
 * backend's alloc). `previous` is the probe written there last (NULL when
 * the buffer holds anything else): when both share a plain background, only
 * the planted elements are rewritten. Returns 0, or -1 with the backend's
 * error in its host table. */
int probe_write(const rb_probe_set *set, size_t k, const rb_probe *previous, const rb_backend *b,
                void *ctx, void *buffer);

/* Probe k's answer as the result a right plugin returns. */
rb_result probe_answer(const rb_probe_set *set, size_t k);

/* Judges the result of probe k. `earlier` holds the results of this
 * configuration's earlier calls (the timed input's, then earlier probes'),
 * so that a returned or accumulated earlier answer is named. Returns 1 when
 * the result is exact; otherwise 0 with what was found in `why`. */
int probe_judge(const rb_probe_set *set, size_t k, const rb_result *res,
                const rb_result *earlier, size_t n_earlier, char *why, size_t len);

#endif
