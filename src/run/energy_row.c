/* src/run/energy_row.c: a row's energy (run/energy.h) as the timing loop
 * measures it: the meter of the row's device, the region around the timed
 * repetitions, the longer energy-only batch where those repetitions are
 * too short for the counter (in graph timing, replays of a longer
 * batch), and the row's fields made from the readings:
 * energy_source and energy_note, energy_j per call, power_w, the SM
 * clock's minimum and maximum, and the throttle reasons seen during the
 * calls (added to the row's). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "procs/rank_link.h"
#include "run/energy.h"
#include "run/plugin_gate.h"
#include "run/rules.h"
#include "run/runner_state.h"

/* The share of the configuration's timeout that measuring may use, as the
 * timed repetitions do (run/timing.c). */
#define ENERGY_MEASURE_SHARE 0.8

/* Graph timing: the energy batch replays a batch of at least this long
 * (and at most ENERGY_REPLAY_MAX_CALLS calls), so that the host's part
 * between two replays (a submission, a wait) is a small share of the time
 * the counter charges to the calls. The timed batches (about 2 ms) leave
 * the device idle between them for long enough to add 6-8% to a Vulkan
 * row's energy per call on an H200. */
#define ENERGY_REPLAY_NS 100e6
#define ENERGY_REPLAY_MAX_CALLS 16384u

rb_energy_meter *runner_energy_meter(runner *r, open_backend *ob)
{
    if (!r->exp->energy)
        return NULL;
    if (!ob->energy) {
        const rb_device_info *info = ob->record < r->res->info.n_devices
                                         ? &r->res->info.devices[ob->record].info
                                         : NULL;
        ob->energy = energy_meter_open(ob->loaded->desc->name, info);
        if (energy_meter_source(ob->energy, NULL) != RB_ENERGY_NONE)
            energy_meter_resolution(ob->energy);
    }
    return ob->energy;
}

/* Appends a sentence to the row's energy note. */
static void note(rb_row *row, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(rb_row *row, const char *fmt, ...)
{
    char sentence[RB_ROW_ENERGY_NOTE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, ap);
    va_end(ap);
    size_t used = strlen(row_energy_note(row));
    row_set_energy_note(row, "%s%s%s", row_energy_note(row),
                        used && used + 2 < RB_ROW_ENERGY_NOTE_MAX ? "; " : "", sentence);
}

/* One energy-only batch: `count` repetitions (replays of the prepared
 * batch of batch_calls calls, or single calls) back to back, waiting for
 * the device every so often, and more until `min_s` seconds have passed
 * (0 for ranks, which must make the same calls), with the counter read at
 * its edges. */
static int energy_batch(const rb_plugin *p, void *state, open_backend *ob, rb_energy_meter *m,
                        rb_energy_reading *reading, uint32_t batch_calls, uint32_t count,
                        double min_s)
{
    const rb_backend *b = ob->loaded->desc;
    energy_edge_begin(m);
    double begun = runner_now();
    uint32_t done = 0, chunk = 1;
    while (done < count || runner_now() - begun < min_s) {
        double started = runner_now();
        uint32_t take = done < count && count - done < chunk ? count - done : chunk;
        for (uint32_t k = 0; k < take; k++) {
            double ns;
            int st = batch_calls ? b->batch_time(ob->ctx, &ns) : p->run(state);
            if (st != RB_OK)
                return RB_ERROR;
        }
        if (!batch_calls && b->synchronize(ob->ctx) != RB_OK)
            return RB_ERROR;
        done += take;
        if (runner_now() - started < 0.01 && chunk < (1u << 20))
            chunk *= 2;
    }
    energy_edge_end(m, reading, (uint64_t)count * (batch_calls ? batch_calls : 1));
    return RB_OK;
}

/* The repetitions of an energy batch: enough for `target_s` seconds at
 * the timed median, every rank alike (rank 0's count); 0 for none. */
static uint32_t batch_count(runner *r, const rb_row *row, uint32_t batch_calls, int want,
                            double target_s)
{
    double rep_s = row->stats.median * 1e-9 * (batch_calls ? batch_calls : 1);
    uint32_t count = 0;
    if (want && rep_s > 0) {
        double c = ceil(target_s / rep_s);
        count = c > 1e9 ? 1000000000u : (uint32_t)c;
    }
    return r->place.ranks > 1 ? ranks_rank0_value(&r->place, count) : count;
}

/* Graph timing, one rank: the prepared batch made longer for the energy
 * batch (ENERGY_REPLAY_NS, an even count), in place of the timed one: the
 * timed batch is released first, as the backend ABI asks, and
 * ob->batch_prepared says whether one is prepared at the end for the host
 * to release. batch_calls > 0. Returns the calls of the batch now
 * prepared: the longer one, or batch_calls where it needs none or cannot
 * be made (then prepared again as it was; 0 if even that fails, with the
 * backend's reason in its host state). */
static uint32_t longer_replays(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                               const rb_row *row, uint32_t batch_calls)
{
    const rb_backend *b = ob->loaded->desc;
    double call_ns = row->stats.median;
    if (r->place.ranks > 1 || !(call_ns > 0))
        return batch_calls;
    double want = ceil(ENERGY_REPLAY_NS / call_ns);
    uint32_t calls = want > ENERGY_REPLAY_MAX_CALLS ? ENERGY_REPLAY_MAX_CALLS : (uint32_t)want;
    calls += calls & 1u; /* call parity alternates across replays */
    if (calls <= batch_calls)
        return batch_calls;
    gate_enter(RB_STEP_RUN);
    b->batch_release(ob->ctx);
    ob->batch_prepared = 0;
    uint32_t tries[2] = {calls, batch_calls};
    for (int k = 0; k < 2; k++) {
        host_clear_error(&ob->host);
        if (b->batch_prepare(ob->ctx, p->run, state, tries[k]) == RB_OK) {
            ob->batch_prepared = 1;
            return tries[k];
        }
    }
    return 0;
}

int runner_energy_finish(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                         rb_row *row, rb_energy_reading *timed, uint32_t batch_calls,
                         uint32_t rep_calls)
{
    rb_energy_meter *m = ob->energy;
    const char *why;
    row->energy_source = energy_meter_source(m, &why);
    if (row->energy_source == RB_ENERGY_NONE)
        note(row, "%s", why);
    row->sm_clock_min_mhz = timed->clock_min_mhz;
    row->sm_clock_max_mhz = timed->clock_max_mhz;
    row->throttle_reasons |= timed->throttle & RB_THROTTLE_SLOWDOWN;
    row->throttled = row->throttle_reasons != 0;

    double res = row->energy_source != RB_ENERGY_NONE ? energy_meter_resolution(m) : 0;
    double rep_s = row->stats.median * 1e-9 * (rep_calls ? rep_calls : 1);
    int short_batches = row->energy_source != RB_ENERGY_NONE &&
                        energy_batch_too_short(rep_s, res);
    if (row->energy_source == RB_ENERGY_SAMPLED)
        short_batches = energy_batch_too_short(timed->seconds, res);
    double target = r->exp->energy_min_time;
    if (target < ENERGY_RESOLUTIONS * res)
        target = ENERGY_RESOLUTIONS * res;
    double left = ENERGY_MEASURE_SHARE * r->exp->timeout - (runner_now() - r->config_started);
    int fits = left > target;
    uint32_t replay = batch_calls;
    if (batch_calls && short_batches && fits &&
        !(replay = longer_replays(r, p, state, ob, row, batch_calls))) {
        note(row, "no energy: the batch could not be prepared again for the energy batch: %.200s",
             gate_reason(&ob->host, "no reason given"));
        row->energy_source = RB_ENERGY_NONE;
        return RB_OK;
    }
    uint32_t count = batch_count(r, row, replay, short_batches && fits, target);

    rb_energy_reading reading = *timed;
    if (count) {
        energy_region_begin(m, &reading);
        int st = energy_batch(p, state, ob, m, &reading, replay, count,
                              r->place.ranks > 1 ? 0 : target);
        energy_region_end(m, &reading);
        if (st != RB_OK)
            return RB_ERROR;
        if (reading.clock_min_mhz && reading.clock_min_mhz < row->sm_clock_min_mhz)
            row->sm_clock_min_mhz = reading.clock_min_mhz;
        if (reading.clock_max_mhz > row->sm_clock_max_mhz)
            row->sm_clock_max_mhz = reading.clock_max_mhz;
        row->throttle_reasons |= reading.throttle & RB_THROTTLE_SLOWDOWN;
        row->throttled = row->throttle_reasons != 0;
        note(row, "energy over a longer batch of %llu calls (%.0f ms): the timed %s of %.3g ms "
             "shorter than %d updates of the %s (every %.3g ms)",
             (unsigned long long)reading.calls, reading.seconds * 1e3,
             rep_calls > 1 ? "batches" : "calls", rep_s * 1e3, ENERGY_RESOLUTIONS,
             row->energy_source == RB_ENERGY_SAMPLED ? "power samples" : "energy counter",
             res * 1e3);
        if (replay != batch_calls)
            note(row, "the energy batch replays batches of %u calls (the timed ones: %u)",
                 replay, batch_calls);
        if (r->exp->cache == RB_CACHE_COLD)
            note(row, "the energy batch runs without cache flushes");
    } else if (short_batches) {
        note(row, "no energy: the timed repetitions are shorter than %d updates of the counter "
             "(every %.3g ms), and a longer batch does not fit in the timeout",
             ENERGY_RESOLUTIONS, res * 1e3);
        row->energy_source = RB_ENERGY_NONE;
        return RB_OK;
    }
    if (row->energy_source == RB_ENERGY_NONE || reading.calls == 0 || reading.seconds <= 0)
        return RB_OK;
    row->energy_calls = reading.calls;
    row->energy_s = reading.seconds;
    row->energy_j = reading.joules / (double)reading.calls;
    row->power_w = reading.joules / reading.seconds;
    if (row->energy_source == RB_ENERGY_SAMPLED)
        note(row, "energy from %zu power samples (no energy counter)", reading.power_samples);
    if (row->throttled) {
        char reasons[160];
        throttle_reason_text(row->throttle_reasons, reasons, sizeof reasons);
        note(row, "throttled during the calls: %s", reasons);
    }
    return RB_OK;
}
