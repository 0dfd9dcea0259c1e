/* src/run/judge.c: whether a configuration's result is right: verify and
 * the verdict against the reference (run/reference.c), repeated runs
 * compared bit for bit (determinism; the first result's bits kept in the
 * row for the layouts' comparison after the run), and the probes (run/probe.c): inputs
 * of exact answer written between calls of the initialised plugin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "procs/isolate.h"
#include "procs/rank_link.h"
#include "run/plugin_gate.h"
#include "run/probe.h"
#include "run/rank_slice.h"
#include "run/rules.h"
#include "run/runner_state.h"
#include "run/shape.h"
#include "run/vector_answer.h"

/* Whether this process's result is judged: every rank's for an all-reduce,
 * the root's for a reduce. */
static int judged_here(const runner *r, const rb_configuration *cfg)
{
    return r->place.ranks <= 1 || r->place.rank == 0 ||
           cfg->plugin->desc->collective != RB_COLLECTIVE_REDUCE;
}

/* Verifies the last run and judges it: the row becomes ok or wrong, with
 * the error in units of the tolerance. The result is kept in *result (its
 * bins in *bins, for the caller to free) for the determinism check. */
int runner_verify_and_judge(runner *r, const rb_configuration *cfg, const rb_plugin *p,
                            void *state, rb_host_state *host, rb_row *row, rb_result *result,
                            uint64_t **bins)
{
    memset(result, 0, sizeof *result);
    result->size = sizeof *result;
    *bins = NULL;
    if (cfg->op == RB_OP_HISTOGRAM) {
        *bins = xcalloc(cfg->bins, sizeof **bins);
        result->bins = *bins;
        result->n_bins = cfg->bins;
    }
    host_clear_error(host);
    vector_offer(r, cfg, p, result);
    shape_offer(r, cfg, result);
    char why[512];
    if (gate_verify(p, state, result) != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "verify failed: %s",
                       gate_reason(host, "no reason given"));
        return RB_ERROR;
    }
    if (sweep_is_shaped(cfg)) {
        int st = shape_judge(r, cfg, result, row);
        row->repro.bits = rules_result_bits(result, cfg->op, cfg->bins);
        row->repro.bits_known = st == RB_OK;
        row->repro.answer_elements = shape_longest_answer(&r->shape);
        return st;
    }
    if (vector_reduce(cfg, result, why, sizeof why) != 0) {
        row_set_status(row, RB_ROW_FAILED, "%s", why);
        return RB_ERROR;
    }
    int elements_right = vector_judge(r, cfg, result, why, sizeof why);
    result->elements = NULL; /* the determinism check keeps the one value */
    if (elements_right < 0) {
        row_set_status(row, RB_ROW_FAILED, "%s", why);
        return RB_ERROR;
    }
    if (!judged_here(r, cfg)) {
        row->status = RB_ROW_OK;
        snprintf(row->result_text, sizeof row->result_text, "(rank %u: not the root)",
                 r->place.rank);
        return RB_OK;
    }
    row->repro.bits = rules_result_bits(result, cfg->op, cfg->bins);
    row->repro.bits_known = 1;
    /* the reference is of every rank's slice */
    row->repro.answer_elements = r->place.ranks > 1 ? r->slice.n_total : cfg->n;
    rb_verdict v;
    reference_judge(&r->data.ref, &r->data.input, result, &v);
    row->error = v.error;
    row->tolerance = v.tolerance;
    row->error_ratio_known = rules_error_ratio(v.error, v.tolerance, &row->error_ratio);
    snprintf(row->result_text, sizeof row->result_text, "%s", v.result_text);
    snprintf(row->expected_text, sizeof row->expected_text, "%s", v.expected_text);
    if (!elements_right)
        row_set_status(row, RB_ROW_WRONG, "%s", why);
    else if (v.ok)
        row->status = RB_ROW_OK;
    else
        row_set_status(row, RB_ROW_WRONG, "%s", v.why);
    return RB_OK;
}

/* Repeats run + verify determinism_runs times after the first verify and
 * compares each result's bits with the first; each is also judged against
 * the reference. Skipped when it would not fit in the timeout. */
void runner_check_determinism(runner *r, const rb_configuration *cfg, const rb_plugin *p,
                              void *state, open_backend *ob, rb_host_state *host,
                              const rb_result *first, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    int runs = r->exp->profile ? 0 : r->exp->determinism_runs;
    double per_run_s = 2 * row->stats.median * 1e-9 + 0.01; /* a run and its verify */
    double left = 0.95 * r->exp->timeout - (runner_now() - r->config_started);
    int skip = runs == 0 || per_run_s * runs > left;
    if (r->place.ranks > 1)
        skip = ranks_agree(&r->place, skip); /* every rank makes the same calls */
    if (skip)
        return;
    uint64_t *bins = cfg->op == RB_OP_HISTOGRAM ? xcalloc(cfg->bins, sizeof *bins) : NULL;
    int same = 1;
    uint32_t compared = 1;
    for (int k = 0; k < runs; k++) {
        host_clear_error(host);
        host_clear_error(&ob->host);
        if (gate_run(p, state) != RB_OK || b->synchronize(ob->ctx) != RB_OK) {
            row_set_status(row, RB_ROW_FAILED, "a run after the timed repetitions failed: %s",
                           runner_failure_text(host, ob));
            free(bins);
            return;
        }
        rb_result again;
        memset(&again, 0, sizeof again);
        again.size = sizeof again;
        again.bins = bins;
        again.n_bins = bins ? cfg->bins : 0;
        if (bins)
            memset(bins, 0, cfg->bins * sizeof *bins);
        vector_offer(r, cfg, p, &again);
        shape_offer(r, cfg, &again);
        char why[512] = "no reason given";
        if (gate_verify(p, state, &again) != RB_OK ||
            (!sweep_is_shaped(cfg) && vector_reduce(cfg, &again, why, sizeof why) != 0)) {
            row_set_status(row, RB_ROW_FAILED, "verify after a repeated run failed: %s",
                           gate_reason(host, why));
            free(bins);
            return;
        }
        if (sweep_is_shaped(cfg)) {
            /* every answer judged again; the digest of their bits compared
             * (on a copy of the row that owns nothing but its reason) */
            rb_row judged = *row;
            row_disown(&judged);
            int judged_ok = shape_judge(r, cfg, &again, &judged) == RB_OK;
            if (!judged_ok)
                row_set_status(row, RB_ROW_FAILED, "verify after a repeated run: %s",
                               row_reason(&judged));
            else if (judged.status != RB_ROW_OK && row->status == RB_ROW_OK)
                row_set_status(row, RB_ROW_WRONG, "repeated run %d of %d: %s", k + 2,
                               runs + 1, row_reason(&judged));
            row_release(&judged);
            if (!judged_ok) {
                free(bins);
                return;
            }
            compared++;
            same &= rules_same_result(first, &again, cfg->op, cfg->bins);
            continue;
        }
        compared++;
        same &= rules_same_result(first, &again, cfg->op, cfg->bins);
        if (!judged_here(r, cfg))
            continue;
        rb_verdict v;
        reference_judge(&r->data.ref, &r->data.input, &again, &v);
        if (!v.ok && row->status == RB_ROW_OK)
            row_set_status(row, RB_ROW_WRONG, "repeated run %d of %d: %s", k + 2, runs + 1,
                           v.why);
    }
    free(bins);
    row->determinism = same ? RB_DETERMINISM_SAME : RB_DETERMINISM_DIFFERS;
    row->determinism_results = compared;
}

/* Probes run unless the experiment turns them off; --profile makes one
 * call per configuration and runs none. */
int runner_probes_wanted(const rb_experiment *exp)
{
    return exp->probes && !exp->profile;
}

/* A copy of a result that outlives the plugin's call (its bins too). */
static void keep_result(rb_result *kept, const rb_result *res)
{
    *kept = *res;
    if (res->bins) {
        kept->bins = xmalloc(res->n_bins * sizeof *kept->bins);
        memcpy(kept->bins, res->bins, res->n_bins * sizeof *kept->bins);
    }
}

/* One call on the probe input in place: run and verify into *res (its
 * bins for the caller to free). Returns RB_OK, or RB_ERROR with the row
 * failed. */
static int run_probe(runner *r, const rb_configuration *cfg, const rb_plugin *p, void *state,
                     open_backend *ob, rb_host_state *host, size_t k, rb_result *res,
                     rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(host);
    host_clear_error(&ob->host);
    if (gate_run(p, state) != RB_OK || b->synchronize(ob->ctx) != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "the run on probe %zu failed: %s", k + 1,
                       runner_failure_text(host, ob));
        return RB_ERROR;
    }
    memset(res, 0, sizeof *res);
    res->size = sizeof *res;
    if (cfg->op == RB_OP_HISTOGRAM) {
        res->bins = xcalloc(cfg->bins, sizeof *res->bins);
        res->n_bins = cfg->bins;
    }
    vector_offer(r, cfg, p, res);
    char why[512] = "no reason given";
    if (gate_verify(p, state, res) != RB_OK || vector_reduce(cfg, res, why, sizeof why) != 0) {
        row_set_status(row, RB_ROW_FAILED, "verify on probe %zu failed: %s", k + 1,
                       gate_reason(host, why));
        free(res->bins);
        res->bins = NULL;
        return RB_ERROR;
    }
    return RB_OK;
}

/* Judges the configuration again on the probe inputs of probe.h, each
 * written into the input between calls of the initialised plugin; before
 * the last one the plugin is torn down, and initialised again after the
 * probe input is written (so an answer computed in init is caught by the
 * probes before it). *inited says afterwards whether the plugin holds an
 * init to tear down. A probe whose result is not exact makes the row
 * wrong and says what was found. The data set's input is put back after. */
void runner_run_probes(runner *r, const rb_configuration *cfg, const rb_plugin *p, void **state,
                       int *inited, open_backend *ob, rb_host_state *host, const rb_config *c,
                       const rb_result *first, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    if (sweep_is_shaped(cfg)) {
        runner_back_up_input(r, ob);
        shape_run_probes(r, cfg, p, state, inited, ob, host, c, row);
        if (r->data.device_input)
            runner_restore_input(r, ob);
        return;
    }
    rb_probe_set set;
    probe_plan(&set, cfg->op, cfg->dtype, cfg->n, cfg->bins, row->seed);
    if (ranks_share_probes(&r->place, &set) != 0) {
        row_set_status(row, RB_ROW_FAILED, "the ranks could not share their probes");
        probe_set_free(&set);
        return;
    }
    rb_result earlier[RB_PROBE_MAX + 1];
    size_t n_earlier = 0;
    keep_result(&earlier[n_earlier++], first);
    runner_back_up_input(r, ob);
    const rb_probe *previous = NULL;
    int passed = 1;
    for (size_t k = 0; k < set.count && passed > 0; k++) {
        const rb_probe *pr = &set.probes[k];
        if (pr->fresh_init) {
            gate_teardown(p, *state);
            *state = NULL;
            *inited = 0;
        }
        host_clear_error(&ob->host);
        isolate_step(RB_STEP_INPUT);
        if (probe_write(&set, k, previous, b, ob->ctx, r->data.device_input) != 0) {
            row_set_status(row, RB_ROW_FAILED, "writing probe %zu's input failed: %s", k + 1,
                           gate_reason(&ob->host, "no reason given"));
            ranks_agree(&r->place, 1);
            break;
        }
        previous = pr;
        if (pr->fresh_init) {
            host_clear_error(host);
            if (gate_init(p, c, state) != RB_OK) {
                row_set_status(row, RB_ROW_FAILED, "init again for probe %zu failed: %s", k + 1,
                               gate_reason(host, "no reason given"));
                ranks_agree(&r->place, 1);
                break;
            }
            *inited = 1;
        }
        rb_result res;
        char why[400] = "";
        if (run_probe(r, cfg, p, *state, ob, host, k, &res, row) != RB_OK) {
            ranks_agree(&r->place, 1);
            break;
        }
        if (!judged_here(r, cfg) || probe_judge(&set, k, &res, earlier, n_earlier, why,
                                                sizeof why)) {
            row->probes_passed++;
        } else {
            row_set_status(row, RB_ROW_WRONG, "probe %zu%s: %s", k + 1,
                           pr->fresh_init ? " (after a fresh init)" : "", why);
            row->probes = RB_PROBES_FAILED;
            passed = 0;
        }
        if (n_earlier < RB_ARRAY_LEN(earlier))
            keep_result(&earlier[n_earlier++], &res);
        free(res.bins);
        /* across ranks, every rank makes the next probe's calls or none */
        if (r->place.ranks > 1 && ranks_agree(&r->place, !passed))
            passed = passed ? -1 : 0;
    }
    if (passed < 0)
        passed = 0; /* another rank's probe failed: this rank's row is not proven */
    if (passed && row->status == RB_ROW_OK)
        row->probes = RB_PROBES_PASSED;
    for (size_t k = 0; k < n_earlier; k++)
        free(earlier[k].bins);
    probe_set_free(&set);
    if (r->data.device_input)
        runner_restore_input(r, ob);
}
