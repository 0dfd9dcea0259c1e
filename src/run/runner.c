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
 * the one in progress last (rounds_run counts that round). The rounds'
 * orders and the merge of their rows are run/rounds.c's. */
#include "run/runner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"
#include "procs/isolate.h"
#include "procs/ranks.h"
#include "run/energy.h"
#include "run/progress.h"
#include "run/rank_entry.h"
#include "run/rounds.h"
#include "run/row_finish.h"
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
        ranks_run(&r->serve, cfg, row, r->devices.count > 0);
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
    return r->devices.must_end;
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


/* The end of the data group that starts at place `first` of the round's
 * `count` places. */
static size_t group_end(const runner *r, size_t first, size_t count)
{
    size_t k = first + 1;
    while (k < count && rounds_same_data(config_at(r, k), config_at(r, first)))
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
    rounds_plan(sweep, &plan);

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
        size_t count = rounds_order(&plan, exp->seed, r.rounds, res, r.round, order);
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
            rounds_merge(&res->rows[order[k]], &round_res.rows[k], r.round, r.rounds, k);
        for (size_t k = 0; k < count; k++)
            row_release(&round_res.rows[k]);
        free(round_res.rows);
        res->info.rounds_run = r.round + 1;
        if (done < count) {
            rounds_end_order(order, done, count);
            break;
        }
    }
    r.res = res;
    for (size_t k = 0; k < n; k++) {
        rb_row *row = &res->rows[k];
        if (row->config) {
            if (rounds_finish(row))
                row_finish(&r, row, row->device_index);
            continue;
        }
        row->config = &sweep->configs[k];
        row->device_index = -1;
        row_set_status(row, RB_ROW_SKIPPED, "interrupted before it ran");
    }
    rounds_free_plan(&plan);
    runner_drop_data(&r);
    for (size_t j = 0; j < r.devices.count; j++) {
        if (r.devices.open[j].ctx && !r.devices.open[j].unusable)
            r.devices.open[j].loaded->desc->close(r.devices.open[j].ctx);
        energy_meter_close(r.devices.open[j].energy);
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
