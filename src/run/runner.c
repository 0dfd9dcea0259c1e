/* src/run/runner.c: runs a sweep and fills one row per configuration; the
 * steps of one configuration are in run/devices.c, run/dataset.c,
 * run/timing.c and run/judge.c (run/runner_state.h).
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
 * isolation off everything runs in this process. */
#include "run/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "run/isolate.h"
#include "run/progress.h"
#include "run/ranks.h"
#include "run/rules.h"
#include "run/runner_state.h"

volatile sig_atomic_t runner_stop_requested;

volatile sig_atomic_t runner_stop_now;

static int stopped_by_a_rank(runner *r, int failed, rb_row *row, const char *step);

static void fill_config(rb_config *c, const runner *r, const rb_configuration *cfg,
                        void *queue, const void *input, const rb_host *host)
{
    const rb_experiment *exp = r->exp;
    uint32_t r_rank = r->rank, r_ranks = r->n_ranks;
    uint64_t r_n_total = r->n_total, r_offset = r->rank_offset;
    memset(c, 0, sizeof *c);
    c->size = sizeof *c;
    c->op = cfg->op;
    c->dtype = cfg->dtype;
    c->n = cfg->n;
    c->bins = cfg->bins;
    c->device = r->n_ranks > 1 ? r->rank_device : exp->device;
    c->queue = queue;
    c->input = input;
    c->params = cfg->params;
    c->n_params = cfg->n_params;
    c->host = host;
    c->rank = r_rank;
    c->n_ranks = r_ranks ? r_ranks : 1;
    c->n_total = r_n_total ? r_n_total : cfg->n;
    c->rank_offset = r_offset;
}

/* Asks the plugin whether it takes this configuration, before any data is
 * made for it. Returns 0 when it does; otherwise the row says why not. */
static int describe_one(runner *r, const rb_configuration *cfg, open_backend *ob, rb_row *row)
{
    const rb_plugin *p = cfg->plugin->desc;
    if (!p->describe)
        return 0;
    const rb_backend *b = ob->loaded->desc;
    rb_host_state host;
    host_init(&host, p->name, r->opt->verbosity);
    rb_config c;
    fill_config(&c, r, cfg, b->queue(ob->ctx), NULL, &host.table);
    rb_description d;
    memset(&d, 0, sizeof d);
    isolate_step(RB_STEP_DESCRIBE);
    int st = p->describe(&c, &d);
    d.label[sizeof d.label - 1] = '\0';
    snprintf(row->label, sizeof row->label, "%s", d.label);
    if (st == RB_UNSUPPORTED) {
        runner_set_reason(row, RB_ROW_UNSUPPORTED, "%s",
                          host.error[0] ? host.error : "the plugin declined this configuration");
        return -1;
    }
    if (st != RB_OK) {
        runner_set_reason(row, RB_ROW_FAILED, "describe failed: %s",
                          host.error[0] ? host.error : "no reason given");
        return -1;
    }
    return 0;
}

/* Runs one configuration whose data is ready: init, warm-up, the timed
 * repetitions in the experiment's timing mode with the clocks sampled
 * around them, verify and the verdict, the determinism check, teardown;
 * all inside the backend's profiler range named after the configuration. */
static void run_one(runner *r, const rb_configuration *cfg, open_backend *ob, rb_row *row)
{
    const rb_plugin *p = cfg->plugin->desc;
    const rb_backend *b = ob->loaded->desc;
    rb_host_state host;
    host_init(&host, p->name, r->opt->verbosity);
    rb_config c;
    fill_config(&c, r, cfg, b->queue(ob->ctx), r->device_input, &host.table);

    char range[320];
    rules_range_name(cfg, range, sizeof range);
    int ranged = b->range_push && b->range_pop;
    if (ranged)
        b->range_push(ob->ctx, range);

    void *state = NULL;
    host_clear_error(&host);
    isolate_step(RB_STEP_INIT);
    int st = p->init(&c, &state);
    if (st != RB_OK)
        runner_set_reason(row, st == RB_UNSUPPORTED ? RB_ROW_UNSUPPORTED : RB_ROW_FAILED, "%s%s",
                          st == RB_UNSUPPORTED ? "" : "init failed: ",
                          host.error[0] ? host.error : "no reason given");
    if (stopped_by_a_rank(r, st != RB_OK, row, "init")) {
        if (st == RB_OK) {
            isolate_step(RB_STEP_TEARDOWN);
            p->teardown(state);
        }
        if (ranged)
            b->range_pop(ob->ctx);
        if (st != RB_OK)
            runner_recover(r, ob, row);
        return;
    }
    int inited = 1;
    st = runner_time_config(r, p, state, ob, &host, row);
    if (st == RB_OK) {
        rb_result first;
        uint64_t *bins = NULL;
        if (runner_verify_and_judge(r, cfg, p, state, &host, row, &first, &bins) == RB_OK)
            runner_check_determinism(r, cfg, p, state, ob, &host, &first, row);
        if (row->status == RB_ROW_OK && runner_probes_wanted(r->exp) && r->n_ranks <= 1)
            runner_run_probes(r, cfg, p, &state, &inited, ob, &host, &c, &first, row);
        else if (row->status == RB_ROW_OK)
            row->probes = r->n_ranks > 1 ? RB_PROBES_NOT_RUN : RB_PROBES_OFF;
        free(bins);
    }
    isolate_step(RB_STEP_TEARDOWN);
    if (inited)
        p->teardown(state);
    if (ranged)
        b->range_pop(ob->ctx);
    if (row->status == RB_ROW_FAILED)
        runner_recover(r, ob, row);
}

void runner_finish_row(runner *r, rb_row *row, int device_index)
{
    const rb_configuration *cfg = row->config;
    if (row->stats.count == 0 || row->stats.median <= 0)
        return;
    uint64_t offset;
    uint64_t n = ranks_count(r->exp, cfg->n, 0, cfg->ranks, &offset);
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

static void progress(const runner *r, size_t k, const rb_row *row)
{
    if (r->opt->progress)
        progress_finished(k, row);
}

/* Settles the rows that need no plugin code and no device: an absent plugin
 * or backend, an op or dtype the plugin does not declare. Returns 1 when the
 * row is final. The same for every configuration of a data group. */
static int settle_without_running(runner *r, const rb_configuration *cfg, rb_row *row)
{
    row->config = cfg;
    row->device_index = -1;
    row->status = RB_ROW_SKIPPED;
    if (!cfg->plugin) {
        runner_set_reason(row, RB_ROW_SKIPPED, "%s",
                          cfg->skip_reason ? cfg->skip_reason : "plugin not found");
        return 1;
    }
    const rb_plugin *p = cfg->plugin->desc;
    row->backend = p->backend;
    row->seed = input_seed_for(r->exp->seed, p->name);
    if (!(p->ops & RB_OP_BIT(cfg->op)) || !(p->dtypes & RB_DTYPE_BIT(cfg->dtype))) {
        char *ops = op_mask_text(p->ops), *dtypes = dtype_mask_text(p->dtypes);
        runner_set_reason(row, RB_ROW_UNSUPPORTED,
                          "%s does not support %s on %s (ops: %s; dtypes: %s)", p->name,
                          op_name(cfg->op), dtype_name(cfg->dtype), ops, dtypes);
        free(ops);
        free(dtypes);
        return 1;
    }
    if (!registry_backend(r->reg, p->backend)) {
        runner_set_reason(row, RB_ROW_SKIPPED, "backend '%s' not found (its pack's backend "
                          "module is not installed in the plugin path)", p->backend);
        return 1;
    }
    return 0;
}

/* Runs one configuration on this process's device: as the only rank, or
 * as one of several (run/ranks.c), agreeing with the others after each
 * step that can fail on one rank alone. */
/* Opens the device and asks the plugin; 0 when the configuration can run. */
static int open_and_describe(runner *r, const rb_configuration *cfg, rb_row *row,
                             open_backend **out)
{
    if (settle_without_running(r, cfg, row))
        return -1;
    const rb_plugin *p = cfg->plugin->desc;
    if (r->n_ranks > 1)
        row->seed = ranks_seed(row->seed, r->rank);
    open_backend *ob = runner_backend_for(r, p->backend, row);
    if (!ob)
        return -1;
    if (!ob->ctx) {
        runner_set_reason(row, RB_ROW_SKIPPED, "%s", ob->error);
        return -1;
    }
    row->device_index = (int)ob->record;
    if (ob->unusable) {
        runner_set_reason(row, RB_ROW_SKIPPED, "the %s device is no longer usable after an earlier "
                          "failure in this process (without --no-isolation, the next configuration "
                          "gets a fresh process)", p->backend);
        return -1;
    }
    if (runner_wanted_timing(r->exp) == RB_TIMING_GRAPH &&
        !runner_graph_offered(ob->loaded->desc, row))
        return -1;
    if (describe_one(r, cfg, ob, row) != 0)
        return -1;
    *out = ob;
    return 0;
}

/* After a step that failed on some rank: this rank's row says so when the
 * failure was another's. Returns 1 when the configuration stops here. */
static int stopped_by_a_rank(runner *r, int failed, rb_row *row, const char *step)
{
    if (!ranks_agree(r, failed))
        return 0;
    if (!failed)
        runner_set_reason(row, RB_ROW_SKIPPED, "another rank did not get through %s", step);
    return 1;
}

static void run_on_device(runner *r, const rb_configuration *cfg, rb_row *row)
{
    open_backend *ob = NULL;
    int failed = open_and_describe(r, cfg, row, &ob) != 0;
    if (stopped_by_a_rank(r, failed, row, "opening its device and describe"))
        return;
    isolate_step(RB_STEP_INPUT);
    failed = runner_prepare_data(r, cfg, ob, row->seed, row) != 0;
    if (stopped_by_a_rank(r, failed, row, "making its input"))
        return;
    if (ranks_combine_reference(r) != 0) {
        runner_set_reason(row, RB_ROW_FAILED, "the ranks could not combine their references");
        return;
    }
    r->config_started = runner_now();
    run_one(r, cfg, ob, row);
    runner_finish_row(r, row, (int)ob->record);
}

void runner_run_one_rank(runner *r, const rb_configuration *cfg, rb_row *row)
{
    run_on_device(r, cfg, row);
}

static void run_config(runner *r, const rb_configuration *cfg, rb_row *row)
{
    if (settle_without_running(r, cfg, row))
        return;
    if (ranks_wanted(cfg)) {
        ranks_run(r, cfg, row);
        return;
    }
    run_on_device(r, cfg, row);
    ranks_finish_row(r, cfg, row);
}

static int run_in_worker(void *user, size_t index)
{
    runner *r = user;
    run_config(r, &r->sweep->configs[index], &r->res->rows[index]);
    return r->must_end;
}

static void unfinished_row(void *user, size_t index, int status, const char *reason)
{
    runner *r = user;
    rb_row *row = &r->res->rows[index];
    const rb_configuration *cfg = &r->sweep->configs[index];
    free(row->samples_ns);
    memset(row, 0, sizeof *row);
    settle_without_running(r, cfg, row);
    runner_set_reason(row, status, "%s", reason);
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

/* The end of the data group that starts at `first`. */
static size_t group_end(const rb_sweep *sweep, size_t first)
{
    const rb_configuration *a = &sweep->configs[first];
    size_t k = first + 1;
    for (; k < sweep->n_configs; k++) {
        const rb_configuration *b = &sweep->configs[k];
        if (b->run != a->run || b->op != a->op || b->dtype != a->dtype || b->n != a->n ||
            b->distribution != a->distribution || b->ranks != a->ranks)
            break;
    }
    return k;
}

/* Where one worker's span from `first` ends: the last configuration of the
 * data groups of the same plugin that need one in a row (a group settled
 * without plugin code ends it). Each plugin gets a fresh worker: nothing one
 * plugin left behind can reach another's configurations. */
static size_t worker_span_end(runner *r, size_t first)
{
    const rb_sweep *sweep = r->sweep;
    size_t end = group_end(sweep, first);
    int ranked = ranks_wanted(&sweep->configs[first]);
    while (end < sweep->n_configs && sweep->configs[end].plugin == sweep->configs[first].plugin &&
           ranks_wanted(&sweep->configs[end]) == ranked) {
        rb_row probe;
        memset(&probe, 0, sizeof probe);
        if (settle_without_running(r, &sweep->configs[end], &probe))
            break;
        end = group_end(sweep, end);
    }
    return end;
}

/* Runs [first, last) here. Returns where it stopped. */
static size_t run_in_process(runner *r, size_t first, size_t last)
{
    for (size_t k = first; k < last; k++) {
        if (runner_stop_requested || runner_stop_now)
            return k;
        run_config(r, &r->sweep->configs[k], &r->res->rows[k]);
        progress(r, k, &r->res->rows[k]);
    }
    return last;
}

int runner_run(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
               const rb_runner_options *opt, rb_results *res)
{
    ranks_serve_if_asked(exp, reg, sweep, opt);
    runner r;
    memset(&r, 0, sizeof r);
    r.exp = exp;
    r.reg = reg;
    r.sweep = sweep;
    r.opt = opt;
    r.res = res;
    res->info.experiment = exp;
    res->n_rows = sweep->n_configs;
    res->rows = xcalloc(sweep->n_configs ? sweep->n_configs : 1, sizeof *res->rows);
    rb_isolation iso = {
        .res = res,
        .timeout = exp->timeout,
        .run = run_in_worker,
        .unfinished = unfinished_row,
        .finished = finished_row,
        .user = &r,
        .stop = &runner_stop_requested,
        .stop_now = &runner_stop_now,
    };
    double started = runner_now();
    size_t k = 0;
    while (k < sweep->n_configs && !runner_stop_requested && !runner_stop_now) {
        size_t end = group_end(sweep, k);
        if (settle_without_running(&r, &sweep->configs[k], &res->rows[k])) {
            for (size_t j = k; j < end; j++) {
                settle_without_running(&r, &sweep->configs[j], &res->rows[j]);
                progress(&r, j, &res->rows[j]);
            }
            k = end;
            continue;
        }
        size_t done = opt->isolation == RB_ISOLATION_NONE ? run_in_process(&r, k, end)
                      : opt->isolation == RB_ISOLATION_GROUP ? isolate_run(&iso, k, end)
                      : isolate_run(&iso, k, worker_span_end(&r, k));
        k = done;
        if (done < end)
            break;
    }
    for (; k < sweep->n_configs; k++) {
        rb_row *row = &res->rows[k];
        free(row->samples_ns);
        memset(row, 0, sizeof *row);
        row->config = &sweep->configs[k];
        row->device_index = -1;
        runner_set_reason(row, RB_ROW_SKIPPED, "interrupted before it ran");
    }
    runner_drop_data(&r);
    for (size_t j = 0; j < r.n_backends; j++)
        if (r.backends[j].ctx && !r.backends[j].unusable)
            r.backends[j].loaded->desc->close(r.backends[j].ctx);
    ranks_scaling(res);
    res->info.wall_seconds = runner_now() - started;
    return 0;
}
