/* src/run/rounds.c: a run measured in rounds (run/rounds.h): the sweep's
 * data groups and worker spans, each round's order shuffled from the
 * experiment's seed by span, by group within a span and within a group,
 * and each round's rows merged into the run's, then the row's figures from
 * its rounds. */
#include "run/rounds.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/random.h"
#include "base/stats.h"
#include "base/util.h"
#include "run/rules.h"

/* Whether two configurations read the same data. */
int rounds_same_data(const rb_configuration *a, const rb_configuration *b)
{
    return a->run == b->run && a->op == b->op && a->dtype == b->dtype && a->n == b->n &&
           a->distribution == b->distribution && a->ranks == b->ranks;
}

/* ---- the rounds' order ---- */

void rounds_plan(const rb_sweep *sweep, round_plan *plan)
{
    size_t n = sweep->n_configs;
    plan->group_first = xcalloc(n + 1, sizeof *plan->group_first);
    plan->span_first = xcalloc(n + 1, sizeof *plan->span_first);
    plan->n_groups = plan->n_spans = 0;
    for (size_t k = 0; k < n; k++) {
        const rb_configuration *c = &sweep->configs[k];
        if (k > 0 && rounds_same_data(c, &sweep->configs[k - 1]))
            continue;
        if (k == 0 || c->plugin != sweep->configs[k - 1].plugin)
            plan->span_first[plan->n_spans++] = plan->n_groups;
        plan->group_first[plan->n_groups++] = k;
    }
    plan->group_first[plan->n_groups] = n;
    plan->span_first[plan->n_spans] = plan->n_groups;
}

void rounds_free_plan(round_plan *plan)
{
    free(plan->group_first);
    free(plan->span_first);
}

static void rng_seed(rb_rng *rng, uint64_t seed)
{
    for (int k = 0; k < 4; k++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        rng->s[k] = z ^ (z >> 31);
    }
}

static void shuffle(rb_rng *rng, size_t *v, size_t n)
{
    for (size_t k = n; k > 1; k--) {
        size_t j = (size_t)(((rb_rng_next(rng) >> 32) * (uint64_t)k) >> 32);
        size_t t = v[k - 1];
        v[k - 1] = v[j];
        v[j] = t;
    }
}

/* Fills `order` with the sweep indices that round `round` measures (every
 * one in the first round, later the rows of `res` still ok), shuffled by
 * span, by group within a span and within each group; a single round keeps
 * the sweep's order. Returns how many. */
size_t rounds_order(const round_plan *plan, uint64_t seed, int rounds, const rb_results *res,
                    int round, size_t *order)
{
    rb_rng rng;
    rng_seed(&rng, seed ^ (0x726f756e64ull * (uint64_t)(round + 1)));
    size_t *spans = xcalloc(plan->n_spans + 1, sizeof *spans);
    size_t *groups = xcalloc(plan->n_groups + 1, sizeof *groups);
    for (size_t k = 0; k < plan->n_spans; k++)
        spans[k] = k;
    int shuffled = rounds > 1;
    if (shuffled)
        shuffle(&rng, spans, plan->n_spans);
    size_t count = 0;
    for (size_t s = 0; s < plan->n_spans; s++) {
        size_t first = plan->span_first[spans[s]], last = plan->span_first[spans[s] + 1];
        for (size_t g = first; g < last; g++)
            groups[g - first] = g;
        if (shuffled)
            shuffle(&rng, groups, last - first);
        for (size_t g = 0; g < last - first; g++) {
            size_t start = count;
            for (size_t c = plan->group_first[groups[g]]; c < plan->group_first[groups[g] + 1];
                 c++)
                if (round == 0 || res->rows[c].status == RB_ROW_OK)
                    order[count++] = c;
            if (shuffled)
                shuffle(&rng, order + start, count - start);
        }
    }
    free(spans);
    free(groups);
    return count;
}

/* ---- a round's rows into the run's ---- */

static void append_samples(rb_row *row, const rb_row *got)
{
    size_t have = row->samples_ns ? row->stats.count : 0, more = got->stats.count;
    if (!got->samples_ns || more == 0)
        return;
    row->samples_ns = xrealloc(row->samples_ns, (have + more) * sizeof *row->samples_ns);
    memcpy(row->samples_ns + have, got->samples_ns, more * sizeof *row->samples_ns);
    row->stats.count = have + more;
}

static void append_round(rb_row *row, const rb_row *got, size_t position)
{
    if (!got->samples_ns || got->stats.count == 0)
        return;
    row->rounds = xrealloc(row->rounds, (row->n_rounds + 1) * sizeof *row->rounds);
    row->rounds[row->n_rounds++] = (rb_round){
        .median_ns = got->stats.median,
        .reps = got->stats.count,
        .position = position,
        .stopped_by = got->stopped_by,
        .slowest_rank = got->slowest_rank,
        .fastest_rank = got->fastest_rank,
        .slowest_rank_ns = got->slowest_rank_ns,
        .fastest_rank_ns = got->fastest_rank_ns,
        .energy_j = got->energy_source != RB_ENERGY_NONE ? got->energy_j : 0,
    };
}

/* A later round's energy into the row's: per call weighted by the calls
 * each measured, power by the seconds; the SM clocks' extremes; the
 * throttle reasons of any round. */
static void merge_round_energy(rb_row *row, const rb_row *got)
{
    if (got->sm_clock_min_mhz &&
        (!row->sm_clock_min_mhz || got->sm_clock_min_mhz < row->sm_clock_min_mhz))
        row->sm_clock_min_mhz = got->sm_clock_min_mhz;
    if (got->sm_clock_max_mhz > row->sm_clock_max_mhz)
        row->sm_clock_max_mhz = got->sm_clock_max_mhz;
    if (got->energy_source != row->energy_source || !got->energy_calls || !row->energy_calls)
        return;
    double a = (double)row->energy_calls, b = (double)got->energy_calls;
    row->energy_j = (row->energy_j * a + got->energy_j * b) / (a + b);
    for (uint32_t k = 0; k < row->energy_ranks && k < got->energy_ranks; k++)
        row->rank_energy_j[k] = (row->rank_energy_j[k] * a + got->rank_energy_j[k] * b) / (a + b);
    if (row->energy_s + got->energy_s > 0)
        row->power_w = (row->power_w * row->energy_s + got->power_w * got->energy_s) /
                       (row->energy_s + got->energy_s);
    row->energy_calls += got->energy_calls;
    row->energy_s += got->energy_s;
}

/* Takes round `round`'s row of a configuration (at `position` of its order)
 * into the run's row: the first round's as it is; a later round's samples
 * and median appended, or, when it ended wrong, failed or unsupported, its
 * status and reason, saying which round (a later round skipped, by an
 * interruption or a device lost in this process, is left out). `got` is
 * left without samples. */
void rounds_merge(rb_row *row, rb_row *got, int round, int rounds, size_t position)
{
    if (!row->config) {
        *row = *got; /* the row takes what `got` owns */
        row->rounds = NULL;
        row->n_rounds = 0;
        append_round(row, got, position);
        row_disown(got);
        return;
    }
    if (got->status == RB_ROW_SKIPPED)
        return; /* interrupted, or its device lost to an earlier failure: not
                   the configuration's doing; the rounds before stand */
    if (got->status != RB_ROW_OK) {
        row_set_reason(row, "round %d of %d: %s", round + 1, rounds, row_reason(got));
        row->status = got->status;
        if (got->status == RB_ROW_WRONG) {
            row->error = got->error;
            row->tolerance = got->tolerance;
            row->error_ratio = got->error_ratio;
            row->error_ratio_known = got->error_ratio_known;
            memcpy(row->result_text, got->result_text, sizeof row->result_text);
            memcpy(row->expected_text, got->expected_text, sizeof row->expected_text);
            row->probes = got->probes;
            row->probes_passed = got->probes_passed;
        }
        return;
    }
    append_round(row, got, position);
    append_samples(row, got);
    if (!*row_reason(row) && *row_reason(got))
        row_set_reason(row, "%s", row_reason(got));
    if (got->determinism == RB_DETERMINISM_DIFFERS ||
        (got->repro.bits_known && row->repro.bits_known && got->repro.bits != row->repro.bits))
        row->determinism = RB_DETERMINISM_DIFFERS; /* a later round's bits differ */
    if (got->clocks_known) {
        row->clocks_after = got->clocks_after;
        row->throttle_reasons |= got->throttle_reasons;
        row->throttled |= got->throttled;
    }
    merge_round_energy(row, got);
}

/* A round that stopped at place `done` of its `count` (interrupted)
 * records the configurations it began, the one in progress last, not
 * those it never reached. */
void rounds_end_order(size_t *order, size_t done, size_t count)
{
    for (size_t k = done; k < count; k++)
        order[k] = SIZE_MAX;
}

/* After the last round: the row's figures from its rounds. */
int rounds_finish(rb_row *row)
{
    if (row->n_rounds < 2 || !row->samples_ns || row->stats.count == 0)
        return 0;
    size_t count = row->stats.count;
    double *medians = xmalloc(row->n_rounds * sizeof *medians);
    const char *capped = NULL;
    for (size_t k = 0; k < row->n_rounds; k++) {
        medians[k] = row->rounds[k].median_ns;
        const char *why = row->rounds[k].stopped_by;
        if (!capped && why && strcmp(why, "noise") != 0)
            capped = why;
    }
    rb_stats over_rounds;
    stats_compute(medians, row->n_rounds, &over_rounds);
    stats_compute(row->samples_ns, count, &row->stats);
    row->stats.median = over_rounds.median;
    /* the ranks' extremes of the median round (the lower of the middle two) */
    const rb_round *middle = NULL;
    for (size_t k = 0; k < row->n_rounds; k++)
        if (row->rounds[k].median_ns <= over_rounds.median &&
            (!middle || row->rounds[k].median_ns > middle->median_ns))
            middle = &row->rounds[k];
    if (middle) {
        row->slowest_rank = middle->slowest_rank;
        row->fastest_rank = middle->fastest_rank;
        row->slowest_rank_ns = middle->slowest_rank_ns;
        row->fastest_rank_ns = middle->fastest_rank_ns;
    }
    row->stats.noise = rules_noise(medians, row->n_rounds);
    free(medians);
    int multimodal = rules_multimodal(row->samples_ns, count);
    row->multimodal_known = multimodal >= 0;
    row->multimodal = multimodal == 1;
    if (capped)
        row->stopped_by = capped;
    return 1;
}
