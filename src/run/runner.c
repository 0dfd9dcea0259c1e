/* src/run/runner.c: runs a sweep and fills one row per configuration; one
 * configuration is run by run/on_device.c, whose steps are in
 * run/devices.c, run/dataset.c, run/timing.c and run/judge.c
 * (run/runner_state.h).
 *
 * Configurations that read the same data (same run section, op, dtype, n and
 * distribution) are consecutive in a sweep: a data group. Its input is
 * generated and its reference computed once, uploaded once through the
 * backend, and handed read-only to each of them. Each configuration then goes
 * through describe, init, warm-up, timed repetitions (in the experiment's
 * timing mode: single calls, or replays of a captured batch), verify, the
 * verdict, repeated runs compared bit for bit, and teardown, inside a
 * profiler range named after it, with the device's clocks sampled around
 * the timed repetitions. Each device's measured peak comes from the peak
 * cache or is measured once. Every outcome ends as a row with a status and
 * a reason.
 *
 * By default plugins run in a worker process (isolate.c), so that a plugin
 * that crashes, exits or hangs costs one `failed` row and nothing else; a
 * fresh worker goes on with the next configuration, and this process never
 * opens a device. A worker keeps going across data groups (opening a device
 * again, a CUDA context, costs more than most configurations) unless a fresh
 * worker per group is asked for. Rows that need no plugin code (absent
 * plugin or backend, an op or dtype the plugin lacks) are made here. With
 * isolation off everything runs in this process.
 *
 * Every configuration is measured in `rounds` rounds (experiment_rounds).
 * Each round runs in an order of its own, shuffled from the experiment's
 * seed and recorded in the results (rb_run_info.round_order), and in fresh
 * workers (a single round keeps the sweep's order): the order of the worker spans, of the data groups within a span
 * and of the configurations within a group is shuffled, so that a data
 * group is still made once per round. A row keeps each round's samples and
 * median; its median is the median of the rounds' medians, and its noise
 * the relative half-width of that median's interval over the rounds. A
 * configuration that ends wrong, failed, unsupported or skipped in a round
 * is final: the row says which round, and later rounds leave it out. A run
 * interrupted in a later round keeps every round's rows that finished, and
 * the interrupted round's recorded order holds the configurations it began,
 * the one in progress last (rounds_run counts that round). */
#include "run/runner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/random.h"
#include "base/util.h"
#include "procs/isolate.h"
#include "procs/ranks.h"
#include "run/energy.h"
#include "run/progress.h"
#include "run/rank_entry.h"
#include "run/row_finish.h"
#include "run/rules.h"
#include "run/runner_state.h"


static void progress(const runner *r, size_t k, const rb_row *row)
{
    if (r->opt->progress)
        progress_finished(k, row);
}


static void run_config(runner *r, const rb_configuration *cfg, rb_row *row)
{
    if (runner_settle(r, cfg, row))
        return;
    if (ranks_wanted(cfg))
        ranks_run(&r->serve, cfg, row, r->n_backends > 0);
    else
        runner_run_on_device(r, cfg, row);
    row_finish(r, row, row->device_index);
}

/* The configuration at place k of the round's order. */
static const rb_configuration *config_at(const runner *r, size_t k)
{
    return &r->sweep->configs[r->order[k]];
}

static int run_in_worker(void *user, size_t index)
{
    runner *r = user;
    run_config(r, config_at(r, index), &r->res->rows[index]);
    return r->must_end;
}

static void worker_end(void *user)
{
    (void)user;
    ranks_end_kept();
}

static void unfinished_row(void *user, size_t index, int status, const char *reason)
{
    runner *r = user;
    rb_row *row = &r->res->rows[index];
    const rb_configuration *cfg = config_at(r, index);
    row_release(row);
    memset(row, 0, sizeof *row);
    runner_settle(r, cfg, row);
    row_set_status(row, status, "%s", reason);
    row_finish(r, row, row->device_index); /* its ranks and elements, timed or not */
    const rb_run_info *info = &r->res->info;
    for (size_t k = 0; row->backend && k < info->n_devices; k++)
        if (strcmp(info->devices[k].backend, row->backend) == 0 &&
            info->devices[k].device == r->exp->device)
            row->device_index = (int)k;
}

static void finished_row(void *user, size_t index)
{
    runner *r = user;
    progress(r, index, &r->res->rows[index]);
}

static void running_row(void *user, size_t index)
{
    (void)user;
    progress_running(index);
}

static void progress_ticks(void *user)
{
    (void)user;
    progress_tick();
}

/* Whether two configurations read the same data. */
static int same_data(const rb_configuration *a, const rb_configuration *b)
{
    return a->run == b->run && a->op == b->op && a->dtype == b->dtype && a->n == b->n &&
           a->distribution == b->distribution && a->ranks == b->ranks;
}

/* The end of the data group that starts at place `first` of the round's
 * `count` places. */
static size_t group_end(const runner *r, size_t first, size_t count)
{
    size_t k = first + 1;
    while (k < count && same_data(config_at(r, k), config_at(r, first)))
        k++;
    return k;
}

/* Where one worker's span from `first` ends: the last configuration of the
 * data groups of the same plugin that need one in a row (a group settled
 * without plugin code ends it). Each plugin gets a fresh worker: nothing one
 * plugin left behind can reach another's configurations. */
static size_t worker_span_end(runner *r, size_t first, size_t count)
{
    size_t end = group_end(r, first, count);
    int ranked = ranks_wanted(config_at(r, first));
    while (end < count && config_at(r, end)->plugin == config_at(r, first)->plugin &&
           ranks_wanted(config_at(r, end)) == ranked) {
        rb_row probe;
        memset(&probe, 0, sizeof probe);
        int settled = runner_settle(r, config_at(r, end), &probe);
        row_release(&probe); /* the reason it may have been given */
        if (settled)
            break;
        end = group_end(r, end, count);
    }
    return end;
}

/* Runs places [first, last) here. Returns where it stopped. */
static size_t run_in_process(runner *r, size_t first, size_t last)
{
    size_t k = first;
    for (; k < last && !runner_stop_requested && !runner_stop_now; k++) {
        run_config(r, config_at(r, k), &r->res->rows[k]);
        progress(r, k, &r->res->rows[k]);
    }
    ranks_end_kept();
    return k;
}

/* Runs the round's `count` places in r->res. Returns where it stopped. */
static size_t run_round(runner *r, const rb_isolation *iso, size_t count)
{
    size_t k = 0;
    while (k < count && !runner_stop_requested && !runner_stop_now) {
        size_t end = group_end(r, k, count);
        if (runner_settle(r, config_at(r, k), &r->res->rows[k])) {
            for (size_t j = k; j < end; j++) {
                runner_settle(r, config_at(r, j), &r->res->rows[j]);
                progress(r, j, &r->res->rows[j]);
            }
            k = end;
            continue;
        }
        size_t done = r->opt->isolation == RB_ISOLATION_NONE ? run_in_process(r, k, end)
                      : r->opt->isolation == RB_ISOLATION_GROUP ? isolate_run(iso, k, end)
                      : isolate_run(iso, k, worker_span_end(r, k, count));
        k = done;
        if (done < end)
            break;
    }
    return k;
}

/* ---- the rounds' order ---- */

/* The sweep's data groups and worker spans (consecutive groups of one
 * plugin), as ranges of sweep indices, from which each round's order is
 * shuffled. */
typedef struct round_plan {
    size_t *group_first; /* n_groups + 1 bounds */
    size_t n_groups;
    size_t *span_first;  /* n_spans + 1 bounds, in groups */
    size_t n_spans;
} round_plan;

static void plan_rounds(const rb_sweep *sweep, round_plan *plan)
{
    size_t n = sweep->n_configs;
    plan->group_first = xcalloc(n + 1, sizeof *plan->group_first);
    plan->span_first = xcalloc(n + 1, sizeof *plan->span_first);
    plan->n_groups = plan->n_spans = 0;
    for (size_t k = 0; k < n; k++) {
        const rb_configuration *c = &sweep->configs[k];
        if (k > 0 && same_data(c, &sweep->configs[k - 1]))
            continue;
        if (k == 0 || c->plugin != sweep->configs[k - 1].plugin)
            plan->span_first[plan->n_spans++] = plan->n_groups;
        plan->group_first[plan->n_groups++] = k;
    }
    plan->group_first[plan->n_groups] = n;
    plan->span_first[plan->n_spans] = plan->n_groups;
}

static void free_plan(round_plan *plan)
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
static size_t order_round(const runner *r, const round_plan *plan, const rb_results *res,
                          int round, size_t *order)
{
    rb_rng rng;
    rng_seed(&rng, r->exp->seed ^ (0x726f756e64ull * (uint64_t)(round + 1)));
    size_t *spans = xcalloc(plan->n_spans + 1, sizeof *spans);
    size_t *groups = xcalloc(plan->n_groups + 1, sizeof *groups);
    for (size_t k = 0; k < plan->n_spans; k++)
        spans[k] = k;
    int shuffled = r->rounds > 1;
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
static void merge_round(rb_row *row, rb_row *got, int round, int rounds, size_t position)
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
static void end_order(size_t *order, size_t done, size_t count)
{
    for (size_t k = done; k < count; k++)
        order[k] = SIZE_MAX;
}

/* After the last round: the row's figures from its rounds. */
static void finish_rounds(runner *r, rb_row *row)
{
    if (row->n_rounds < 2 || !row->samples_ns || row->stats.count == 0)
        return;
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
    row_finish(r, row, row->device_index);
}

int runner_run(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
               const rb_runner_options *opt, rb_results *res)
{
    ranks_start_hub(rank_entry_fresh(exp, reg, sweep, opt));
    runner r;
    memset(&r, 0, sizeof r);
    r.exp = exp;
    r.reg = reg;
    r.sweep = sweep;
    r.opt = opt;
    rank_entry_fill(&r, &r.serve);
    size_t n = sweep->n_configs;
    res->info.experiment = exp;
    res->n_rows = n;
    res->rows = xcalloc(n ? n : 1, sizeof *res->rows);
    r.rounds = experiment_rounds(exp, n);
    if (exp->rounds == 0 && r.rounds == 1 && !exp->profile)
        diag_warn("rounds = auto: one round, since the %zu configurations are estimated to take "
                  "more than %d minutes (each at least min_time); rounds = %d (or -D rounds=%d) "
                  "measures each %d times, in shuffled orders", n,
                  (int)(RB_AUTO_ROUNDS_LIMIT_S / 60), RB_AUTO_ROUNDS, RB_AUTO_ROUNDS,
                  RB_AUTO_ROUNDS);
    res->info.rounds = r.rounds;
    res->info.round_order = xmalloc((n ? n : 1) * (size_t)r.rounds * sizeof(size_t));
    memset(res->info.round_order, 0xff, (n ? n : 1) * (size_t)r.rounds * sizeof(size_t));
    round_plan plan;
    plan_rounds(sweep, &plan);

    rb_results round_res;
    rb_isolation iso = {
        .res = &round_res,
        .timeout = exp->timeout,
        .run = run_in_worker,
        .unfinished = unfinished_row,
        .finished = finished_row,
        .running = running_row,
        .tick = progress_ticks,
        .user = &r,
        .stop = &runner_stop_requested,
        .stop_now = &runner_stop_now,
        .worker_end = worker_end,
    };
    double started = runner_now();
    for (r.round = 0; r.round < r.rounds && !runner_stop_requested && !runner_stop_now;
         r.round++) {
        size_t *order = res->info.round_order + (size_t)r.round * n;
        size_t count = order_round(&r, &plan, res, r.round, order);
        if (count == 0)
            break;
        memset(&round_res, 0, sizeof round_res);
        round_res.info = res->info;
        round_res.n_rows = count;
        round_res.rows = xcalloc(count, sizeof *round_res.rows);
        for (size_t k = 0; k < count; k++)
            round_res.rows[k].config = &sweep->configs[order[k]];
        r.order = order;
        r.res = &round_res;
        progress_round(order, count, r.round, r.rounds);
        size_t done = run_round(&r, &iso, count);
        memcpy(res->info.devices, round_res.info.devices, sizeof res->info.devices);
        res->info.n_devices = round_res.info.n_devices;
        for (size_t k = 0; k < done; k++)
            merge_round(&res->rows[order[k]], &round_res.rows[k], r.round, r.rounds, k);
        for (size_t k = 0; k < count; k++)
            row_release(&round_res.rows[k]);
        free(round_res.rows);
        res->info.rounds_run = r.round + 1;
        if (done < count) {
            end_order(order, done, count);
            break;
        }
    }
    r.res = res;
    for (size_t k = 0; k < n; k++) {
        rb_row *row = &res->rows[k];
        if (row->config) {
            finish_rounds(&r, row);
            continue;
        }
        row->config = &sweep->configs[k];
        row->device_index = -1;
        row_set_status(row, RB_ROW_SKIPPED, "interrupted before it ran");
    }
    free_plan(&plan);
    runner_drop_data(&r);
    for (size_t j = 0; j < r.n_backends; j++) {
        if (r.backends[j].ctx && !r.backends[j].unusable)
            r.backends[j].loaded->desc->close(r.backends[j].ctx);
        energy_meter_close(r.backends[j].energy);
    }
    ranks_stop_hub();
    rows_scaling(res);
    rows_reproducibility(res);
    res->info.wall_seconds = runner_now() - started;
    return 0;
}

void runner_serve(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                  const rb_runner_options *opt, int role)
{
    const rank_service *s = rank_entry_fresh(exp, reg, sweep, opt);
    if (role == RB_ROLE_RANK)
        ranks_serve_asked(s);
    ranks_start_hub(s); /* a launcher's process k > 0 serves process 0 there */
    _exit(2);
}
