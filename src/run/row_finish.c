/* src/run/row_finish.c: what a row works out once it is measured: its
 * bandwidth and share of the device's peaks, its ranks and elements in
 * total, its bus bandwidth for a collective (as nccl-tests reports it);
 * the one row of a configuration run as several ranks, merged from the
 * ranks' rows (the slowest rank's time per call, the slowest and fastest
 * rank, the ranks judged wrong, the energy and power summed over the
 * ranks' devices with each rank's share); and, after the run, each multi-rank row's
 * scaling efficiency against the one-rank row of the same configuration,
 * and every row's reproducibility level (its bits against its own repeated
 * runs and against the other layouts of its plugin on the same data). */
#include "run/row_finish.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/stats.h"
#include "base/util.h"
#include "procs/rank_group.h"
#include "run/rank_slice.h"
#include "run/rules.h"

/* The row's bandwidth and share of the peak, from its median and the device
 * record (-1: none). */
static void bandwidth_and_peaks(const runner *r, rb_row *row, int device_index)
{
    const rb_configuration *cfg = row->config;
    if (row->stats.count == 0 || row->stats.median <= 0)
        return;
    uint64_t offset;
    uint64_t n = sweep_is_shaped(cfg) ? sweep_elements(cfg)
                                      : ranks_count(r->exp, cfg->n, 0, cfg->ranks, &offset);
    double bytes = (double)n * (double)rb_dtype_size(cfg->dtype);
    row->bandwidth_gbs = bytes / row->stats.median; /* bytes per ns = GB/s */
    if (device_index >= 0 && (size_t)device_index < r->res->info.n_devices) {
        const rb_device_record *rec = &r->res->info.devices[device_index];
        if (rec->info.peak_gbs > 0)
            row->pct_peak = 100.0 * row->bandwidth_gbs / rec->info.peak_gbs;
        if (rec->measured_peak_gbs > 0)
            row->pct_measured_peak = 100.0 * row->bandwidth_gbs / rec->measured_peak_gbs;
    }
}

/* The bus bandwidth factor of a collective over `ranks` ranks, as
 * nccl-tests defines it: 2(r-1)/r for an all-reduce, 1 for a reduce. */
static double bus_factor(int collective, uint32_t ranks)
{
    if (collective == RB_COLLECTIVE_REDUCE)
        return 1.0;
    return ranks ? 2.0 * (double)(ranks - 1) / (double)ranks : 0.0;
}

/* The row's ranks, elements in total and bus bandwidth (after its
 * bandwidth is known). A shape (one rank) holds rows x n elements: ragged
 * rows too, whose lengths add up to that (run/shape.c, ragged_offsets). */
static void ranks_and_busbw(const runner *r, const rb_configuration *cfg, rb_row *row)
{
    uint32_t ranks = cfg->ranks ? cfg->ranks : 1;
    row->ranks = ranks;
    uint64_t offset;
    row->n_total = 0;
    if (sweep_is_shaped(cfg))
        row->n_total = sweep_elements(cfg);
    else
        for (uint32_t k = 0; k < ranks; k++)
            row->n_total += ranks_count(r->exp, cfg->n, k, ranks, &offset);
    if (cfg->plugin && cfg->plugin->desc->collective != RB_COLLECTIVE_NONE && row->bandwidth_gbs > 0)
        row->busbw_gbs = row->bandwidth_gbs * bus_factor((int)cfg->plugin->desc->collective, ranks);
}

void row_finish(const runner *r, rb_row *row, int device_index)
{
    bandwidth_and_peaks(r, row, device_index);
    ranks_and_busbw(r, row->config, row);
}

/* Which rank's status the merged row takes: the worst, a rank that failed
 * before one that only stopped because another did (skipped). */
static int severity(int status)
{
    switch (status) {
    case RB_ROW_FAILED: return 4;
    case RB_ROW_WRONG: return 3;
    case RB_ROW_UNSUPPORTED: return 2;
    case RB_ROW_SKIPPED: return 1;
    default: return 0;
    }
}

/* The merged row's energy: the sum of the ranks' energy per call and
 * power, each rank's share, the lowest and highest SM clock of any, the
 * source where every rank has the same (else none, saying which rank
 * lacks it). */
static void merge_energy(const rank_proc *procs, uint32_t n, rb_row *row)
{
    const rb_row *first = &procs[0].row;
    row->energy_source = first->energy_source;
    row->energy_j = row->power_w = 0;
    row->energy_calls = first->energy_calls;
    row->energy_s = 0;
    row->sm_clock_min_mhz = row->sm_clock_max_mhz = 0;
    row_clear_rank_energy(row);
    row_set_energy_note(row, "%s", row_energy_note(first));
    for (uint32_t k = 0; k < n; k++) {
        const rb_row *rk = &procs[k].row;
        if (rk->energy_source != row->energy_source || (rk->energy_j <= 0 && first->energy_j > 0)) {
            row->energy_source = RB_ENERGY_NONE;
            row_set_energy_note(row, "rank %u measured no energy like rank 0's: %.200s", k,
                                *row_energy_note(rk) ? row_energy_note(rk) : "no reason given");
        }
        row->energy_j += rk->energy_j;
        row->power_w += rk->power_w;
        if (rk->energy_s > row->energy_s)
            row->energy_s = rk->energy_s;
        row_add_rank_energy(row, rk->energy_j); /* the first RB_ENERGY_RANKS_MAX */
        if (rk->sm_clock_min_mhz &&
            (!row->sm_clock_min_mhz || rk->sm_clock_min_mhz < row->sm_clock_min_mhz))
            row->sm_clock_min_mhz = rk->sm_clock_min_mhz;
        if (rk->sm_clock_max_mhz > row->sm_clock_max_mhz)
            row->sm_clock_max_mhz = rk->sm_clock_max_mhz;
        row->throttle_reasons |= rk->throttle_reasons;
    }
    if (row->energy_source == RB_ENERGY_NONE) {
        row->energy_j = row->power_w = 0;
        row_clear_rank_energy(row);
    }
    row->throttled = row->throttle_reasons != 0;
}

/* The merged row: the slowest rank's time per call, and who was slowest. */
void row_merge_ranks(const rb_configuration *cfg, const rank_proc *procs, uint32_t n,
                     rb_row *row)
{
    const rb_plugin *p = cfg->plugin->desc;
    size_t count = SIZE_MAX;
    uint32_t chosen = 0; /* whose result the row shows: the worst rank's */
    row->status = RB_ROW_OK;
    row_set_reason(row, "%s", "");
    uint32_t wrong = 0;
    for (uint32_t k = 0; k < n; k++) {
        const rb_row *rk = &procs[k].row;
        if (rk->stats.count < count)
            count = rk->stats.count;
        if (rk->status == RB_ROW_WRONG)
            wrong++;
        if (severity(rk->status) > severity(row->status)) {
            chosen = k;
            row->status = rk->status;
            row_set_reason(row, "rank %u: %.480s", k, row_reason(rk));
        }
    }
    const rank_proc *first = &procs[chosen];
    snprintf(row->label, sizeof row->label, "%s", first->row.label);
    snprintf(row->result_text, sizeof row->result_text, "%s", first->row.result_text);
    snprintf(row->expected_text, sizeof row->expected_text, "%s", first->row.expected_text);
    row->error = first->row.error;
    row->tolerance = first->row.tolerance;
    row->error_ratio = first->row.error_ratio;
    row->error_ratio_known = first->row.error_ratio_known;
    row->determinism = first->row.determinism;
    row->determinism_results = first->row.determinism_results;
    row->probes = first->row.probes;
    row->probes_passed = first->row.probes_passed;
    row->repro = first->row.repro;
    row->batch_calls = first->row.batch_calls;
    row->clocks_known = first->row.clocks_known;
    row->clocks_before = first->row.clocks_before;
    row->clocks_after = first->row.clocks_after;
    row->throttle_reasons = first->row.throttle_reasons;
    row->throttled = first->row.throttled;
    row->timing = first->row.timing;
    row->stopped_by = first->row.stopped_by;
    merge_energy(procs, n, row);
    for (uint32_t k = 0; k < n; k++) {
        const rb_row *rk = &procs[k].row;
        if (rk->status == RB_ROW_WRONG && !(p->collective == RB_COLLECTIVE_REDUCE && k))
            continue;
        if (rk->determinism == RB_DETERMINISM_DIFFERS)
            row->determinism = RB_DETERMINISM_DIFFERS;
    }
    row->wrong_ranks = wrong;
    row->ranks = n;
    if (count == SIZE_MAX || count == 0 || row->status == RB_ROW_FAILED)
        return;
    double *merged = xmalloc(count * sizeof *merged);
    for (size_t s = 0; s < count; s++) {
        merged[s] = 0;
        for (uint32_t k = 0; k < n; k++)
            if (procs[k].samples[s] > merged[s])
                merged[s] = procs[k].samples[s];
    }
    row->samples_ns = merged;
    stats_compute(merged, count, &row->stats);
    row->slowest_rank = row->fastest_rank = 0;
    for (uint32_t k = 0; k < n; k++) {
        double m = procs[k].row.stats.median;
        if (m > procs[row->slowest_rank].row.stats.median)
            row->slowest_rank = (int)k;
        if (m < procs[row->fastest_rank].row.stats.median)
            row->fastest_rank = (int)k;
    }
    row->slowest_rank_ns = procs[row->slowest_rank].row.stats.median;
    row->fastest_rank_ns = procs[row->fastest_rank].row.stats.median;
}

void rows_scaling(rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++) {
        rb_row *row = &res->rows[k];
        const rb_configuration *a = row->config;
        if (!a || row->ranks <= 1 || row->status != RB_ROW_OK || row->stats.median <= 0)
            continue;
        for (size_t j = 0; j < res->n_rows; j++) {
            const rb_row *one = &res->rows[j];
            const rb_configuration *b = one->config;
            if (!b || one->ranks != 1 || one->status != RB_ROW_OK || one->stats.median <= 0 ||
                b->run != a->run || b->op != a->op || b->dtype != a->dtype || b->n != a->n ||
                b->distribution != a->distribution ||
                strcmp(b->params_text ? b->params_text : "", a->params_text ? a->params_text : ""))
                continue;
            /* n per rank: the same time is perfect; n in total: 1/r of it. */
            const rb_experiment *exp = res->info.experiment;
            double ideal = exp && exp->n_total ? one->stats.median / row->ranks
                                               : one->stats.median;
            row->scaling = ideal / row->stats.median;
            break;
        }
    }
}

/* Whether `other` is another layout of `row`'s plugin on the same data:
 * the same plugin, op, dtype, distribution, bins, ranks and n, and the
 * same input seed; ok with its first result's bits known. */
static int same_data_layout(const rb_row *row, const rb_row *other)
{
    const rb_configuration *a = row->config, *b = other->config;
    return other != row && b && b->plugin == a->plugin && other->status == RB_ROW_OK &&
           other->repro.bits_known && other->seed == row->seed && sweep_data_order(a, b) == 0;
}

void rows_reproducibility(rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++) {
        rb_row *row = &res->rows[k];
        const rb_configuration *c = row->config;
        int ok = c && c->plugin && row->status == RB_ROW_OK && row->repro.bits_known;
        /* judged at the longest answer's elements, not n: a column's
         * answer adds rows elements, a ragged row up to about 8n */
        int exact = ok && rules_exact_answer(c->op, c->dtype, c->distribution,
                                             row->repro.answer_elements);
        row->repro.level = rules_repro_alone(ok, row->determinism, exact, row->error);
    }
    for (size_t k = 0; k < res->n_rows; k++) {
        rb_row *row = &res->rows[k];
        if (row->repro.level != RB_REPRO_RUN_TO_RUN && row->repro.level != RB_REPRO_EXACT)
            continue;
        size_t layouts = 1;
        int same = 1;
        for (size_t j = 0; j < res->n_rows; j++) {
            const rb_row *other = &res->rows[j];
            if (!same_data_layout(row, other))
                continue;
            layouts++;
            if (other->repro.bits != row->repro.bits ||
                other->determinism == RB_DETERMINISM_DIFFERS)
                same = 0;
        }
        if (!same)
            row->repro.level = RB_REPRO_RUN_TO_RUN; /* an exact row too: its layouts disagree */
        else if (row->repro.level == RB_REPRO_RUN_TO_RUN && layouts >= 2)
            row->repro.level = RB_REPRO_LAYOUT;
    }
}
