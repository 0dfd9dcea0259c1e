/* src/run/timing.c: how a configuration is timed on its backend: the timing
 * plan (single calls timed in launch or device mode, replays of a captured
 * batch, or eager batches: calls launched back to back), the warm-up, the
 * timed repetitions until the stop rule of run/rules.c says so, and the
 * device's clocks sampled around them; with `energy = on`, the energy
 * meter's edges around each repetition and its region around them all
 * (run/energy_row.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/stats.h"
#include "base/util.h"
#include "procs/rank_link.h"
#include "run/energy.h"
#include "run/plugin_gate.h"
#include "run/rules.h"
#include "run/runner_state.h"

/* Measuring stops before the configuration has used this share of its
 * timeout, leaving the rest for verify and teardown: a worker still busy at
 * the timeout is killed. */
#define RUNNER_MEASURE_SHARE 0.8

/* How a configuration is timed on its backend. */
typedef struct timing_plan {
    int graph;          /* replayed batches (timing = graph) */
    int eager;          /* batches of calls launched back to back in launch
                           mode (timing = eager) */
    const char *single; /* what a single timed call measures: "launch",
                           "device", or "backend" (a 1.0 backend's own) */
} timing_plan;

/* The mode the experiment asks for: its `timing`, or launch under
 * --profile (one call, and no hold kernel in the profile). */
int runner_wanted_timing(const rb_experiment *exp)
{
    return exp->profile ? RB_TIMING_LAUNCH : exp->timing;
}

/* Whether backend b can time as `want` asks: graph timing needs batch
 * replays, eager timing launch timing (the host makes its calls); the
 * other modes every backend serves (or times its own way). If not, says
 * why in the row. */
int runner_timing_offered(const rb_backend *b, int want, rb_row *row)
{
    const char *lacks;
    if (want == RB_TIMING_GRAPH && !((b->timing_modes & RB_TIMING_BIT(RB_TIMING_GRAPH)) &&
                                     b->batch_prepare && b->batch_time && b->batch_release))
        lacks = "replay batches of calls";
    else if (want == RB_TIMING_EAGER && !(b->timing_modes & RB_TIMING_BIT(RB_TIMING_LAUNCH)))
        lacks = "time calls in launch mode";
    else
        return 1;
    row_set_status(row, RB_ROW_UNSUPPORTED, "timing = %s: the %s backend (ABI %u.%u) cannot "
                   "%s; use timing = launch or device", timing_mode_name(want), b->name,
                   (unsigned)b->abi_major, (unsigned)b->abi_minor, lacks);
    return 0;
}

/* Tells the backend how to time single calls: `device` where it offers it
 * (also to estimate a graph batch's size), else `launch` (a backend with no
 * queue to hold: a call returns when its work is done); a backend of ABI 1.0
 * times its own way. Eager batches are timed in launch mode. */
static void choose_timing(const rb_backend *b, void *ctx, int want, timing_plan *plan)
{
    plan->graph = want == RB_TIMING_GRAPH;
    plan->eager = want == RB_TIMING_EAGER;
    int single = plan->graph ? RB_TIMING_DEVICE : plan->eager ? RB_TIMING_LAUNCH : want;
    uint32_t offered = b->timing_modes;
    if (single == RB_TIMING_DEVICE && !(offered & RB_TIMING_BIT(RB_TIMING_DEVICE)))
        single = RB_TIMING_LAUNCH;
    if (b->set_timing && (offered & RB_TIMING_BIT(single)) &&
        b->set_timing(ctx, single) == RB_OK)
        plan->single = timing_mode_name(single);
    else if (!b->set_timing && (offered & RB_TIMING_BIT(RB_TIMING_LAUNCH)))
        plan->single = "launch";
    else
        plan->single = "backend";
}

/* `calls` calls launched one after the other, timed together between
 * time_begin and time_end. */
static int time_calls(const rb_backend *b, void *ctx, const rb_plugin *p, void *state,
                      uint32_t calls, double *ns)
{
    if (b->time_begin(ctx) != RB_OK)
        return RB_ERROR;
    for (uint32_t k = 0; k < calls; k++)
        if (p->run(state) != RB_OK)
            return RB_ERROR;
    return b->time_end(ctx, ns);
}

/* A sample as it is kept: whole nanoseconds, whatever the timer (the cpu
 * backend's seconds times 1e9, CUDA's milliseconds times 1e6, a batch's
 * time over its calls), so that 1039219.0000000001 is 1039219; a positive
 * time under half a nanosecond is 1, not 0. */
static double whole_ns(double ns)
{
    if (!(ns > 0))
        return ns;
    double whole = nearbyint(ns);
    return whole < 1 ? 1 : whole;
}

/* Timed repetitions, each `calls` calls (with `replay`, one replay of the
 * prepared batch of that many; else calls launched back to back, one
 * outside eager timing), recorded as the time per call, until the stop
 * rule of run/rules.c says so: the noise target met after min_reps and
 * min_time, max_reps, or the share of the timeout. --profile: one
 * repetition. */
static int time_repetitions(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                            rb_host_state *host, rb_row *row, uint32_t calls, int replay)
{
    rb_energy_meter *meter = runner_energy_meter(r, ob);
    rb_energy_reading energy;
    const rb_experiment *exp = r->exp;
    const rb_backend *b = ob->loaded->desc;
    rb_stop_rule rule = {
        .min_reps = exp->min_reps,
        .max_reps = exp->max_reps,
        .min_time_ns = exp->min_time * 1e9,
        .noise = exp->noise,
        .budget_s = RUNNER_MEASURE_SHARE * exp->timeout,
    };
    if (exp->profile) {
        rule.min_reps = rule.max_reps = 1;
        rule.min_time_ns = 0;
    }
    size_t cap = 64, count = 0;
    double *samples = xmalloc(cap * sizeof *samples);
    double total_ns = 0;
    int status = RB_OK;
    const char *stop = NULL;
    gate_enter(RB_STEP_RUN);
    if (meter)
        energy_region_begin(meter, &energy);
    while (!stop) {
        double rep_started = runner_now();
        host_clear_error(host);
        host_clear_error(&ob->host);
        if (exp->cache == RB_CACHE_COLD && b->flush_cache(ob->ctx) != RB_OK) {
            row_set_status(row, RB_ROW_FAILED, "cache flush failed: %s",
                           runner_failure_text(host, ob));
            status = RB_ERROR;
            ranks_agree_stop(&r->place, 1, 1, &(int){0});
            break;
        }
        double ns = 0;
        if (meter)
            energy_edge_begin(meter);
        int st = replay ? b->batch_time(ob->ctx, &ns)
                        : time_calls(b, ob->ctx, p, state, calls, &ns);
        if (meter && st == RB_OK)
            energy_edge_end(meter, &energy, calls);
        if (st != RB_OK) {
            row_set_status(row, RB_ROW_FAILED, "run failed: %s", runner_failure_text(host, ob));
            status = RB_ERROR;
            ranks_agree_stop(&r->place, 1, 1, &(int){0});
            break;
        }
        total_ns += ns;
        ns = whole_ns(ns / calls);
        if (count == cap) {
            cap *= 2;
            samples = xrealloc(samples, cap * sizeof *samples);
        }
        samples[count++] = ns;
        double now = runner_now();
        stop = rules_should_stop(&rule, samples, count, total_ns, now - r->config_started,
                                 now - rep_started);
        if (r->place.ranks > 1) {
            /* every rank makes the same calls: they stop together, when
             * every one of them would */
            int other_failed = 0;
            int all_stop = ranks_agree_stop(&r->place, stop != NULL, 0, &other_failed);
            if (other_failed) {
                row_set_status(row, RB_ROW_SKIPPED, "another rank failed while timed");
                status = RB_ERROR;
                break;
            }
            stop = all_stop ? (stop ? stop : "ranks") : NULL;
        }
    }
    if (meter)
        energy_region_end(meter, &energy);
    if (stop) {
        row->stopped_by = exp->profile ? "profile" : stop;
        if (strcmp(stop, "timeout") == 0)
            row_set_reason(row, "stopped after %zu repetitions, near the %g s timeout", count,
                           exp->timeout);
    }
    row->samples_ns = samples;
    stats_compute(samples, count, &row->stats);
    row->stats.noise = rules_noise(samples, count);
    int multimodal = rules_multimodal(samples, count);
    row->multimodal_known = multimodal >= 0;
    row->multimodal = multimodal == 1;
    if (meter && status == RB_OK && count &&
        runner_energy_finish(r, p, state, ob, row, &energy, replay ? calls : 0, calls) != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "a call of the energy batch failed: %s",
                       runner_failure_text(host, ob));
        status = RB_ERROR;
    }
    return status;
}

/* Samples the clocks into *out; 0 when the backend cannot read them. */
static int sample_clocks(const rb_backend *b, open_backend *ob, rb_clock_sample *out)
{
    memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    if (!b->sample_clocks)
        return 0;
    host_clear_error(&ob->host);
    return b->sample_clocks(ob->ctx, out) == RB_OK;
}

/* The calls of a graph or eager batch: graph_calls, or enough calls of
 * call_ns for about 2 ms (run/rules.c); rank 0's for every rank. */
static uint32_t batch_size(runner *r, double call_ns)
{
    return ranks_rank0_value(&r->place, rules_batch_calls(r->exp->graph_calls, call_ns));
}

/* Graph timing: sizes a batch from the warm-up's fastest call, captures it,
 * measures replays and releases it. A run that cannot be captured makes the
 * row `unsupported`, with the backend's and the plugin's reasons. */
static int time_batches(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                        rb_host_state *host, rb_row *row, double call_ns)
{
    const rb_backend *b = ob->loaded->desc;
    uint32_t calls = batch_size(r, call_ns);
    host_clear_error(host);
    host_clear_error(&ob->host);
    gate_enter(RB_STEP_RUN);
    int st = b->batch_prepare(ob->ctx, p->run, state, calls);
    if (st == RB_UNSUPPORTED) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "timing = graph: %s%s%s",
                       gate_reason(&ob->host, "the batch cannot be recorded"),
                       host->error[0] ? "; the plugin said: " : "", host->error);
        return RB_UNSUPPORTED;
    }
    if (st != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "preparing a batch of %u calls failed: %s", calls,
                       runner_failure_text(host, ob));
        return RB_ERROR;
    }
    row->batch_calls = calls;
    ob->batch_prepared = 1;
    st = time_repetitions(r, p, state, ob, host, row, calls, 1);
    if (ob->batch_prepared) /* the energy batch may have prepared another */
        b->batch_release(ob->ctx);
    ob->batch_prepared = 0;
    return st;
}

/* Eager timing: batches sized as a graph batch is, from the warm-up's
 * fastest call (launch timed), each launched call after call and timed as
 * a whole. */
static int time_eager(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                      rb_host_state *host, rb_row *row, double call_ns)
{
    row->batch_calls = batch_size(r, call_ns);
    return time_repetitions(r, p, state, ob, host, row, row->batch_calls, 0);
}

/* Warm-up runs. With `timed`, each is timed as a single call and the
 * fastest is stored in *call_ns (for sizing a graph or eager batch); with
 * no warm-up then, one timed call is made anyway. */
static int warm_up(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                   rb_host_state *host, rb_row *row, int timed, double *call_ns)
{
    const rb_backend *b = ob->loaded->desc;
    int runs = r->exp->profile ? 0 : r->exp->warmup;
    if (timed && runs == 0 && !r->exp->profile)
        runs = 1;
    *call_ns = 0;
    for (int k = 0; k < runs; k++) {
        host_clear_error(host);
        host_clear_error(&ob->host);
        gate_enter(RB_STEP_WARMUP);
        double ns = 0;
        int st = timed ? time_calls(b, ob->ctx, p, state, 1, &ns) : p->run(state);
        if (st == RB_OK && !timed)
            st = b->synchronize(ob->ctx);
        if (st != RB_OK) {
            row_set_status(row, RB_ROW_FAILED, "warm-up run failed: %s",
                           runner_failure_text(host, ob));
            return RB_ERROR;
        }
        if (timed && (*call_ns == 0 || ns < *call_ns))
            *call_ns = ns;
    }
    return RB_OK;
}

/* Times an initialised configuration in the experiment's timing mode: the
 * warm-up, then the timed repetitions with the device's clocks sampled
 * around them. Returns RB_OK, or another status with the row's reason set. */
int runner_time_config(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                       rb_host_state *host, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    timing_plan plan;
    choose_timing(b, ob->ctx, runner_wanted_timing(r->exp), &plan);
    double call_ns = 0;
    int st = warm_up(r, p, state, ob, host, row, plan.graph || plan.eager, &call_ns);
    if (r->place.ranks > 1 && ranks_agree(&r->place, st != RB_OK) && st == RB_OK) {
        row_set_status(row, RB_ROW_SKIPPED, "another rank failed in its warm-up");
        st = RB_ERROR;
    }
    rb_clock_sample before, after;
    int clocks = st == RB_OK && sample_clocks(b, ob, &before);
    if (st == RB_OK) {
        row->timing = plan.graph ? "graph" : plan.eager ? "eager" : plan.single;
        st = plan.graph   ? time_batches(r, p, state, ob, host, row, call_ns)
             : plan.eager ? time_eager(r, p, state, ob, host, row, call_ns)
                          : time_repetitions(r, p, state, ob, host, row, 1, 0);
    }
    if (st == RB_OK && clocks && sample_clocks(b, ob, &after)) {
        row->clocks_known = 1;
        row->clocks_before = before;
        row->clocks_after = after;
        row->throttle_reasons |=
            (before.throttle_reasons | after.throttle_reasons) & RB_THROTTLE_SLOWDOWN;
        row->throttled = row->throttle_reasons != 0;
        if (r->exp->energy && !row->sm_clock_min_mhz) {
            /* no clock sampled during the calls: the edges' */
            for (int k = 0; k < 2; k++) {
                uint32_t mhz = k ? after.core_mhz : before.core_mhz;
                if (mhz && (!row->sm_clock_min_mhz || mhz < row->sm_clock_min_mhz))
                    row->sm_clock_min_mhz = mhz;
                if (mhz > row->sm_clock_max_mhz)
                    row->sm_clock_max_mhz = mhz;
            }
        }
    }
    return st;
}
