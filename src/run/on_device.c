/* src/run/on_device.c: one configuration on this process's device
 * (runner_run_on_device, run/runner_state.h), as the only rank or as one
 * of several: the rows settled without plugin code, the device opened and
 * the plugin's describe, the data set made (run/dataset.c), the rank
 * group's set-up (run/group_state.c), then init, the timed repetitions
 * (run/timing.c), verify and the verdict, the repeated runs and the probes
 * (run/judge.c) and teardown, inside the backend's profiler range named
 * after the configuration; across ranks, every rank agreeing after each
 * step that can fail on one rank alone (procs/rank_link.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "procs/isolate.h"
#include "procs/rank_link.h"
#include "run/group_state.h"
#include "run/input.h"
#include "run/plugin_gate.h"
#include "run/rank_slice.h"
#include "run/rules.h"
#include "run/runner_state.h"
#include "run/shape.h"

static int stopped_by_a_rank(runner *r, int failed, rb_row *row, const char *step);

static void fill_config(rb_config *c, const runner *r, const rb_configuration *cfg,
                        void *queue, const void *input, const rb_host *host)
{
    const rb_experiment *exp = r->exp;
    uint32_t r_rank = r->place.rank, r_ranks = r->place.ranks;
    uint64_t r_n_total = r->slice.n_total, r_offset = r->slice.offset;
    memset(c, 0, sizeof *c);
    c->size = sizeof *c;
    c->op = cfg->op;
    c->dtype = cfg->dtype;
    c->n = cfg->n;
    c->bins = cfg->bins;
    c->device = r->place.ranks > 1 ? r->slice.device : exp->device;
    c->queue = queue;
    c->input = input;
    c->params = cfg->params;
    c->n_params = cfg->n_params;
    c->host = host;
    c->rank = r_rank;
    c->n_ranks = r_ranks ? r_ranks : 1;
    c->n_total = r_n_total ? r_n_total : cfg->n;
    c->rank_offset = r_offset;
    c->group = r->place.ranks > 1 ? r->group.state : NULL;
    shape_fill_config(r, cfg, c);
    if (sweep_is_shaped(cfg))
        c->n_total = c->n; /* a shape runs on one rank */
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
    int st = gate_describe(p, &c, &d);
    d.label[sizeof d.label - 1] = '\0';
    snprintf(row->label, sizeof row->label, "%s", d.label);
    if (st == RB_UNSUPPORTED) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "%s",
                       gate_reason(&host, "the plugin declined this configuration"));
        return -1;
    }
    if (st != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "describe failed: %s",
                       gate_reason(&host, "no reason given"));
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
    fill_config(&c, r, cfg, b->queue(ob->ctx), r->data.device_input, &host.table);

    char range[320];
    rules_range_name(cfg, range, sizeof range);
    int ranged = b->range_push && b->range_pop;
    if (ranged)
        b->range_push(ob->ctx, range);

    void *state = NULL;
    host_clear_error(&host);
    int st = gate_init(p, &c, &state);
    if (st != RB_OK)
        row_set_status(row, st == RB_UNSUPPORTED ? RB_ROW_UNSUPPORTED : RB_ROW_FAILED, "%s%s",
                       st == RB_UNSUPPORTED ? "" : "init failed: ",
                       gate_reason(&host, "no reason given"));
    if (stopped_by_a_rank(r, st != RB_OK, row, "init")) {
        if (st == RB_OK)
            gate_teardown(p, state);
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
        int verified = runner_verify_and_judge(r, cfg, p, state, &host, row, &first, &bins) ==
                       RB_OK;
        /* across ranks, the repeated runs and the probes are calls every
         * rank makes or none does */
        if (r->place.ranks > 1 && ranks_agree(&r->place, !verified))
            verified = 0;
        if (verified)
            runner_check_determinism(r, cfg, p, state, ob, &host, &first, row);
        int probing = row->status == RB_ROW_OK && runner_probes_wanted(r->exp);
        if (r->place.ranks > 1 && ranks_agree(&r->place, !probing))
            probing = 0;
        if (probing)
            runner_run_probes(r, cfg, p, &state, &inited, ob, &host, &c, &first, row);
        else if (row->status == RB_ROW_OK)
            row->probes = runner_probes_wanted(r->exp) ? RB_PROBES_NOT_RUN : RB_PROBES_OFF;
        free(bins);
    }
    if (inited)
        gate_teardown(p, state);
    else
        gate_enter(RB_STEP_TEARDOWN);
    if (ranged)
        b->range_pop(ob->ctx);
    if (row->status == RB_ROW_FAILED)
        runner_recover(r, ob, row);
}

int runner_settle(runner *r, const rb_configuration *cfg, rb_row *row)
{
    row->config = cfg;
    row->device_index = -1;
    row->status = RB_ROW_SKIPPED;
    if (!cfg->plugin) {
        row_set_status(row, RB_ROW_SKIPPED, "%s",
                       cfg->skip_reason ? cfg->skip_reason : "plugin not found");
        return 1;
    }
    const rb_plugin *p = cfg->plugin->desc;
    row->backend = p->backend;
    row->seed = input_seed_for(r->exp->seed, p->name);
    if (!(p->ops & RB_OP_BIT(cfg->op)) || !(p->dtypes & RB_DTYPE_BIT(cfg->dtype))) {
        char *ops = op_mask_text(p->ops), *dtypes = dtype_mask_text(p->dtypes);
        row_set_status(row, RB_ROW_UNSUPPORTED,
                       "%s does not support %s on %s (ops: %s; dtypes: %s)", p->name,
                       op_name(cfg->op), dtype_name(cfg->dtype), ops, dtypes);
        free(ops);
        free(dtypes);
        return 1;
    }
    char declined[256];
    if (sweep_shape_declined(p, cfg, declined, sizeof declined)) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "%s", declined);
        return 1;
    }
    if (!registry_backend(r->reg, p->backend)) {
        row_set_status(row, RB_ROW_SKIPPED, "backend '%s' not found (its pack's backend "
                       "module is not installed in the plugin path)", p->backend);
        return 1;
    }
    return 0;
}

/* Opens the device and asks the plugin; 0 when the configuration can run. */
static int open_and_describe(runner *r, const rb_configuration *cfg, rb_row *row,
                             open_backend **out)
{
    if (runner_settle(r, cfg, row))
        return -1;
    const rb_plugin *p = cfg->plugin->desc;
    if (r->place.ranks > 1)
        row->seed = ranks_seed(row->seed, r->place.rank);
    open_backend *ob = runner_backend_for(r, p->backend, row);
    if (!ob)
        return -1;
    if (!ob->ctx) {
        row_set_status(row, RB_ROW_SKIPPED, "%s", ob->error);
        return -1;
    }
    row->device_index = (int)ob->record;
    if (ob->unusable) {
        row_set_status(row, RB_ROW_SKIPPED, "the %s device is no longer usable after an earlier "
                       "failure in this process (without --no-isolation, the next configuration "
                       "gets a fresh process)", p->backend);
        return -1;
    }
    if (!runner_timing_offered(ob->loaded->desc, runner_wanted_timing(r->exp), row))
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
    if (!ranks_agree(&r->place, failed))
        return 0;
    if (!failed)
        row_set_status(row, RB_ROW_SKIPPED, "another rank did not get through %s", step);
    return 1;
}

void runner_run_on_device(runner *r, const rb_configuration *cfg, rb_row *row)
{
    open_backend *ob = NULL;
    int failed = open_and_describe(r, cfg, row, &ob) != 0;
    if (stopped_by_a_rank(r, failed, row, "opening its device and describe"))
        return;
    isolate_step(RB_STEP_INPUT);
    ranks_slice_reference(&r->slice, &r->data.ref, r->data.have_ref);
    failed = runner_prepare_data(r, cfg, ob, row->seed, row) != 0;
    if (stopped_by_a_rank(r, failed, row, "making its input"))
        return;
    if (ranks_combine_reference(&r->place, &r->slice, &r->data.ref) != 0) {
        row_set_status(row, RB_ROW_FAILED, "the ranks could not combine their references");
        return;
    }
    failed = group_state_open(&r->group, &r->place, r->slice.device, r->opt->verbosity,
                              cfg->plugin->desc, ob->loaded->desc->queue(ob->ctx), row) != 0;
    if (stopped_by_a_rank(r, failed, row, "the rank group's set-up"))
        return;
    r->config_started = runner_now();
    run_one(r, cfg, ob, row);
}
