/* core/runner.c: runs a sweep and fills one row per configuration.
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
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend_cpu.h"
#include "host.h"
#include "isolate.h"
#include "input.h"
#include "measure.h"
#include "names.h"
#include "peak_cache.h"
#include "probe.h"
#include "reference.h"
#include "stats.h"
#include "units.h"
#include "util.h"

volatile sig_atomic_t runner_stop_requested;
volatile sig_atomic_t runner_stop_now;

/* A backend opened during the run. */
typedef struct open_backend {
    const rb_loaded_backend *loaded;
    void *ctx;          /* NULL when it could not be opened */
    char error[512];    /* why it could not */
    size_t record;      /* index into res->info.devices */
    int unusable;       /* recover() failed: no more work on this device */
    rb_host_state host; /* handed to the backend's device_count and open */
} open_backend;

typedef struct runner {
    const rb_experiment *exp;
    const rb_registry *reg;
    const rb_sweep *sweep;
    const rb_runner_options *opt;
    rb_results *res;
    open_backend backends[8];
    size_t n_backends;
    /* the data set in use */
    rb_input input;
    int have_input;
    rb_reference ref;
    int have_ref;
    void *device_input;
    const open_backend *device_input_owner;
    int device_input_shared; /* device_input is input.data (cpu, no probes) */
    void *device_backup;     /* a copy of the input on the device, from which
                                copy() restores it after probes; NULL: the
                                input is uploaded again */
    double config_started; /* when the configuration's input was ready */
    int must_end;          /* a device in this process is no longer usable */
} runner;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void set_reason(rb_row *row, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_reason(rb_row *row, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    row->status = status;
    vsnprintf(row->reason, sizeof row->reason, fmt, ap);
    va_end(ap);
}

/* A device property by key ("driver_version"), or "". */
static const char *device_property(const rb_device_info *info, const char *key)
{
    for (uint32_t k = 0; k < info->n_props && k < RB_DEVICE_MAX_PROPS; k++)
        if (strcmp(info->props[k].key, key) == 0)
            return info->props[k].value;
    return "";
}

/* The device's measured peak: from the peak cache when it holds one made
 * under the same key (backend, device, driver, redbench's version), unless
 * the experiment says `peak = measure` or the environment
 * REDBENCH_PEAK=measure; otherwise measured with the backend's calibration
 * and stored in the cache. */
static void find_peak(runner *r, open_backend *ob, rb_device_record *rec)
{
    const rb_backend *b = ob->loaded->desc;
    rb_host_state *host = &ob->host;
    rb_peak_key key = {
        .backend = b->name,
        .backend_version = b->version,
        .device = rec->info.name,
        .uuid = rec->info.uuid,
        .host = r->res->info.host,
        .driver = device_property(&rec->info, "driver_version"),
        .tool_version = r->res->info.tool_version,
    };
    char *dir = peak_cache_dir();
    char why[256] = "";
    const char *forced = getenv("REDBENCH_PEAK");
    if (r->exp->peak == RB_PEAK_USE_CACHE && !(forced && strcmp(forced, "measure") == 0)) {
        double gbs = 0;
        int found = peak_cache_load(dir, &key, &gbs, rec->measured_peak_at,
                                    sizeof rec->measured_peak_at, why, sizeof why);
        if (found == RB_PEAK_CACHED) {
            rec->measured_peak_gbs = gbs;
            rec->measured_peak_cached = 1;
            free(dir);
            return;
        }
        if (found == RB_PEAK_STALE && r->opt->verbosity > 1)
            fprintf(stderr, "redbench: %s: the cached peak is stale (%s); measuring again\n",
                    b->name, why);
    }
    double peak = 0;
    host_clear_error(host);
    if (b->measure_peak(ob->ctx, &peak) == RB_OK && peak > 0) {
        rec->measured_peak_gbs = peak;
        if (!dir || peak_cache_store(dir, &key, peak, rec->measured_peak_at,
                                     sizeof rec->measured_peak_at) != 0) {
            if (r->opt->verbosity > 1)
                fprintf(stderr, "redbench: %s: the peak is not cached (%s): %s\n", b->name,
                        dir ? dir : "no cache folder: neither XDG_CACHE_HOME nor HOME is set",
                        dir ? strerror(errno) : "");
        }
    } else {
        fprintf(stderr, "redbench: warning: %s: could not measure the peak bandwidth: %s\n",
                b->name, host->error[0] ? host->error : "no reason given");
    }
    free(dir);
}

/* Opens the backend a plugin names (once per run). NULL if it is absent. */
static open_backend *backend_for(runner *r, const char *name, rb_row *row)
{
    for (size_t k = 0; k < r->n_backends; k++)
        if (strcmp(r->backends[k].loaded->desc->name, name) == 0)
            return &r->backends[k];
    const rb_loaded_backend *loaded = registry_backend(r->reg, name);
    if (!loaded) {
        set_reason(row, RB_ROW_SKIPPED, "backend '%s' not found (its pack's backend module is "
                   "not installed in the plugin path)", name);
        return NULL;
    }
    if (r->n_backends == RB_ARRAY_LEN(r->backends)) {
        set_reason(row, RB_ROW_SKIPPED, "too many backends in one run");
        return NULL;
    }
    open_backend *ob = &r->backends[r->n_backends++];
    memset(ob, 0, sizeof *ob);
    ob->loaded = loaded;
    const rb_backend *b = loaded->desc;
    rb_host_state *host = &ob->host; /* the backend may keep it until close */
    host_init(host, b->name, r->opt->verbosity);

    isolate_step(RB_STEP_OPEN);
    int count = 0;
    if (b->device_count(&host->table, &count) != RB_OK) {
        snprintf(ob->error, sizeof ob->error, "no %s device: %s", b->name,
                 host->error[0] ? host->error : "the backend found none");
        return ob;
    }
    int device = r->exp->device;
    if (device >= count) {
        snprintf(ob->error, sizeof ob->error, "no %s device %d (%d found)", b->name, device,
                 count);
        return ob;
    }
    /* An earlier worker process may have opened this device already: its
     * record (and measured peak) is kept and not measured again. */
    rb_run_info *info = &r->res->info;
    size_t known = 0;
    while (known < info->n_devices && !(strcmp(info->devices[known].backend, b->name) == 0 &&
                                        info->devices[known].device == device))
        known++;
    if (known == info->n_devices && info->n_devices == RB_ARRAY_LEN(info->devices)) {
        snprintf(ob->error, sizeof ob->error, "too many devices in one run");
        return ob;
    }
    rb_device_record fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.info.size = sizeof fresh.info;
    host_clear_error(host);
    if (b->open(&host->table, device, &ob->ctx, &fresh.info) != RB_OK) {
        ob->ctx = NULL;
        snprintf(ob->error, sizeof ob->error, "cannot open %s device %d: %s", b->name, device,
                 host->error[0] ? host->error : "no reason given");
        return ob;
    }
    ob->record = known;
    if (known < info->n_devices)
        return ob;
    rb_device_record *rec = &info->devices[info->n_devices];
    *rec = fresh;
    snprintf(rec->backend, sizeof rec->backend, "%s", b->name);
    rec->device = device;
    isolate_step(RB_STEP_PEAK);
    find_peak(r, ob, rec);
    info->n_devices++;
    return ob;
}

static void drop_device_input(runner *r)
{
    if (r->device_input && r->device_input_owner) {
        const rb_backend *b = r->device_input_owner->loaded->desc;
        if (!r->device_input_shared)
            b->release(r->device_input_owner->ctx, r->device_input);
        if (r->device_backup)
            b->release(r->device_input_owner->ctx, r->device_backup);
    }
    r->device_input = NULL;
    r->device_backup = NULL;
    r->device_input_shared = 0;
    r->device_input_owner = NULL;
}

static void drop_data(runner *r)
{
    drop_device_input(r);
    if (r->have_ref)
        reference_free(&r->ref);
    if (r->have_input)
        input_free(&r->input);
    r->have_ref = r->have_input = 0;
}

/* Makes the input, its reference and its device copy current for `cfg`.
 * Reuses what matches. Returns 0, or -1 with the row's reason set. */
static int prepare_data(runner *r, const rb_configuration *cfg, open_backend *ob, uint64_t seed,
                        rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    const rb_device_info *dev = &r->res->info.devices[ob->record].info;
    size_t bytes = (size_t)cfg->n * rb_dtype_size(cfg->dtype);
    if (dev->memory_bytes && bytes > dev->memory_bytes) {
        set_reason(row, RB_ROW_UNSUPPORTED, "needs %.1f GiB, %s device has %.1f GiB",
                   (double)bytes / 1073741824.0, b->name,
                   (double)dev->memory_bytes / 1073741824.0);
        return -1;
    }
    int same_input = r->have_input && r->input.dtype == cfg->dtype && r->input.n == cfg->n &&
                     r->input.distribution == cfg->distribution && r->input.seed == seed;
    if (!same_input) {
        drop_data(r);
        char why[256] = "";
        if (input_generate(&r->input, cfg->dtype, cfg->distribution, cfg->n, seed, why,
                           sizeof why) != 0) {
            set_reason(row, RB_ROW_UNSUPPORTED, "%s", why);
            return -1;
        }
        r->have_input = 1;
    }
    if (!r->have_ref || r->ref.op != cfg->op ||
        (cfg->op == RB_OP_HISTOGRAM && r->ref.n_bins != cfg->bins)) {
        if (r->have_ref)
            reference_free(&r->ref);
        reference_compute(&r->ref, &r->input, cfg->op, cfg->bins);
        r->have_ref = 1;
    }
    if (r->device_input && r->device_input_owner == ob)
        return 0;
    drop_device_input(r);
    if (b == backend_cpu() && !r->exp->probes) {
        r->device_input = r->input.data; /* the cpu backend's memory is host memory */
        r->device_input_shared = 1;
    } else {
        rb_host_state host;
        host_init(&host, b->name, r->opt->verbosity);
        void *ptr = NULL;
        if (b->alloc(ob->ctx, r->input.bytes, &ptr) != RB_OK) {
            set_reason(row, RB_ROW_UNSUPPORTED, "cannot allocate %.2f GiB on the %s device",
                       (double)r->input.bytes / 1073741824.0, b->name);
            return -1;
        }
        if (b->upload(ob->ctx, ptr, r->input.data, r->input.bytes) != RB_OK) {
            b->release(ob->ctx, ptr);
            set_reason(row, RB_ROW_FAILED, "uploading the input to the %s device failed",
                       b->name);
            return -1;
        }
        r->device_input = ptr;
    }
    r->device_input_owner = ob;
    return 0;
}

/* Why a step failed: the plugin's text, else the backend's (a failed
 * synchronization or timer), else that none was given. */
static const char *failure_text(const rb_host_state *plugin, const open_backend *ob)
{
    return plugin->error[0] ? plugin->error : ob->host.error[0] ? ob->host.error
                                                                : "no reason given";
}

/* Measuring stops before the configuration has used this share of its
 * timeout, leaving the rest for verify and teardown: a worker still busy at
 * the timeout is killed. */
#define RUNNER_MEASURE_SHARE 0.8

/* How a configuration is timed on its backend. */
typedef struct timing_plan {
    int graph;          /* replayed batches (timing = graph) */
    const char *single; /* what a single timed call measures: "launch",
                           "device", or "backend" (a 1.0 backend's own) */
} timing_plan;

/* The mode the experiment asks for: its `timing`, or launch under
 * --profile (one call, and no hold kernel in the profile). */
static int wanted_timing(const rb_experiment *exp)
{
    return exp->profile ? RB_TIMING_LAUNCH : exp->timing;
}

/* Whether backend b can replay batches; if not, says why in the row. */
static int graph_offered(const rb_backend *b, rb_row *row)
{
    if ((b->timing_modes & RB_TIMING_BIT(RB_TIMING_GRAPH)) && b->batch_prepare &&
        b->batch_time && b->batch_release)
        return 1;
    set_reason(row, RB_ROW_UNSUPPORTED, "timing = graph: the %s backend (ABI %u.%u) cannot "
               "replay batches of calls; use timing = launch or device", b->name,
               (unsigned)b->abi_major, (unsigned)b->abi_minor);
    return 0;
}

/* Tells the backend how to time single calls: `device` where it offers it
 * (also to estimate a graph batch's size), else `launch` (a backend with no
 * queue to hold: a call returns when its work is done); a backend of ABI 1.0
 * times its own way. */
static void choose_timing(const rb_backend *b, void *ctx, int want, timing_plan *plan)
{
    plan->graph = want == RB_TIMING_GRAPH;
    int single = plan->graph ? RB_TIMING_DEVICE : want;
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

/* One call, timed between time_begin and time_end. */
static int time_one_call(const rb_backend *b, void *ctx, const rb_plugin *p, void *state,
                         double *ns)
{
    if (b->time_begin(ctx) != RB_OK || p->run(state) != RB_OK || b->time_end(ctx, ns) != RB_OK)
        return RB_ERROR;
    return RB_OK;
}

/* Timed repetitions, each one call (or, with batch_calls > 0, one replay of
 * the prepared batch, recorded as its time per call), until the stop rule
 * of measure.c says so: the noise target met after min_reps and min_time,
 * max_reps, or the share of the timeout. --profile: one repetition. */
static int measure(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                   rb_host_state *host, rb_row *row, uint32_t batch_calls)
{
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
    isolate_step(RB_STEP_RUN);
    while (!stop) {
        double rep_started = now_seconds();
        host_clear_error(host);
        host_clear_error(&ob->host);
        if (exp->cache == RB_CACHE_COLD && b->flush_cache(ob->ctx) != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "cache flush failed: %s", failure_text(host, ob));
            status = RB_ERROR;
            break;
        }
        double ns = 0;
        int st = batch_calls ? b->batch_time(ob->ctx, &ns)
                             : time_one_call(b, ob->ctx, p, state, &ns);
        if (st != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "run failed: %s", failure_text(host, ob));
            status = RB_ERROR;
            break;
        }
        total_ns += ns;
        if (batch_calls)
            ns /= batch_calls;
        if (count == cap) {
            cap *= 2;
            samples = xrealloc(samples, cap * sizeof *samples);
        }
        samples[count++] = ns;
        double now = now_seconds();
        stop = measure_should_stop(&rule, samples, count, total_ns, now - r->config_started,
                                   now - rep_started);
    }
    if (stop) {
        row->stopped_by = exp->profile ? "profile" : stop;
        if (strcmp(stop, "timeout") == 0)
            snprintf(row->reason, sizeof row->reason,
                     "stopped after %zu repetitions, near the %g s timeout", count,
                     exp->timeout);
    }
    row->samples_ns = samples;
    stats_compute(samples, count, &row->stats);
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

/* Graph timing: sizes a batch from the warm-up's fastest call, captures it,
 * measures replays and releases it. A run that cannot be captured makes the
 * row `unsupported`, with the backend's and the plugin's reasons. */
static int measure_graph(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                         rb_host_state *host, rb_row *row, double call_ns)
{
    const rb_backend *b = ob->loaded->desc;
    uint32_t calls = measure_batch_calls(r->exp->graph_calls, call_ns);
    host_clear_error(host);
    host_clear_error(&ob->host);
    isolate_step(RB_STEP_RUN);
    int st = b->batch_prepare(ob->ctx, p->run, state, calls);
    if (st == RB_UNSUPPORTED) {
        set_reason(row, RB_ROW_UNSUPPORTED, "timing = graph: %s%s%s",
                   ob->host.error[0] ? ob->host.error : "the batch cannot be recorded",
                   host->error[0] ? "; the plugin said: " : "", host->error);
        return RB_UNSUPPORTED;
    }
    if (st != RB_OK) {
        set_reason(row, RB_ROW_FAILED, "preparing a batch of %u calls failed: %s", calls,
                   failure_text(host, ob));
        return RB_ERROR;
    }
    row->batch_calls = calls;
    st = measure(r, p, state, ob, host, row, calls);
    b->batch_release(ob->ctx);
    return st;
}

/* Warm-up runs. With `timed`, each is timed as a single call and the
 * fastest is stored in *call_ns (for sizing a graph batch); with no warm-up
 * then, one timed call is made anyway. */
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
        isolate_step(RB_STEP_WARMUP);
        double ns = 0;
        int st = timed ? time_one_call(b, ob->ctx, p, state, &ns) : p->run(state);
        if (st == RB_OK && !timed)
            st = b->synchronize(ob->ctx);
        if (st != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "warm-up run failed: %s", failure_text(host, ob));
            return RB_ERROR;
        }
        if (timed && (*call_ns == 0 || ns < *call_ns))
            *call_ns = ns;
    }
    return RB_OK;
}

/* Repeats run + verify determinism_runs times after the first verify and
 * compares each result's bits with the first; each is also judged against
 * the reference. Skipped when it would not fit in the timeout. */
static void check_determinism(runner *r, const rb_configuration *cfg, const rb_plugin *p,
                              void *state, open_backend *ob, rb_host_state *host,
                              const rb_result *first, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    int runs = r->exp->profile ? 0 : r->exp->determinism_runs;
    double per_run_s = 2 * row->stats.median * 1e-9 + 0.01; /* a run and its verify */
    double left = 0.95 * r->exp->timeout - (now_seconds() - r->config_started);
    if (runs == 0 || per_run_s * runs > left)
        return;
    uint64_t *bins = cfg->op == RB_OP_HISTOGRAM ? xcalloc(cfg->bins, sizeof *bins) : NULL;
    int same = 1;
    uint32_t compared = 1;
    for (int k = 0; k < runs; k++) {
        host_clear_error(host);
        host_clear_error(&ob->host);
        isolate_step(RB_STEP_RUN);
        if (p->run(state) != RB_OK || b->synchronize(ob->ctx) != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "a run after the timed repetitions failed: %s",
                       failure_text(host, ob));
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
        isolate_step(RB_STEP_VERIFY);
        if (p->verify(state, &again) != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "verify after a repeated run failed: %s",
                       host->error[0] ? host->error : "no reason given");
            free(bins);
            return;
        }
        compared++;
        same &= measure_same_result(first, &again, cfg->op, cfg->bins);
        rb_verdict v;
        reference_judge(&r->ref, &r->input, &again, &v);
        if (!v.ok && row->status == RB_ROW_OK)
            set_reason(row, RB_ROW_WRONG, "repeated run %d of %d: %s", k + 2, runs + 1, v.why);
    }
    free(bins);
    row->determinism = same ? RB_DETERMINISM_SAME : RB_DETERMINISM_DIFFERS;
    row->determinism_results = compared;
}

static void fill_config(rb_config *c, const rb_configuration *cfg, const rb_experiment *exp,
                        void *queue, const void *input, const rb_host *host)
{
    memset(c, 0, sizeof *c);
    c->size = sizeof *c;
    c->op = cfg->op;
    c->dtype = cfg->dtype;
    c->n = cfg->n;
    c->bins = cfg->bins;
    c->device = exp->device;
    c->queue = queue;
    c->input = input;
    c->params = cfg->params;
    c->n_params = cfg->n_params;
    c->host = host;
}

/* After a failure: asks the backend to clear what it can. A device that is
 * no longer usable (a sticky CUDA error) takes no more work in this process;
 * a worker process then ends, and the next configuration gets a fresh one. */
static void recover(runner *r, open_backend *ob, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(&ob->host);
    isolate_step(RB_STEP_RECOVER);
    if (b->recover(ob->ctx) == RB_OK)
        return;
    size_t len = strlen(row->reason);
    if (row->status == RB_ROW_FAILED)
        snprintf(row->reason + len, sizeof row->reason - len,
                 "; the %s device is no longer usable in this process%s%s", b->name,
                 ob->host.error[0] ? ": " : "", ob->host.error);
    ob->unusable = 1;
    r->must_end = 1;
    r->device_input = NULL; /* not released: the device is gone */
    r->device_backup = NULL;
    r->device_input_owner = NULL;
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
    fill_config(&c, cfg, r->exp, b->queue(ob->ctx), NULL, &host.table);
    rb_description d;
    memset(&d, 0, sizeof d);
    isolate_step(RB_STEP_DESCRIBE);
    int st = p->describe(&c, &d);
    d.label[sizeof d.label - 1] = '\0';
    snprintf(row->label, sizeof row->label, "%s", d.label);
    if (st == RB_UNSUPPORTED) {
        set_reason(row, RB_ROW_UNSUPPORTED, "%s",
                   host.error[0] ? host.error : "the plugin declined this configuration");
        return -1;
    }
    if (st != RB_OK) {
        set_reason(row, RB_ROW_FAILED, "describe failed: %s",
                   host.error[0] ? host.error : "no reason given");
        return -1;
    }
    return 0;
}

/* Verifies the last run and judges it: the row becomes ok or wrong, with
 * the error in units of the tolerance. The result is kept in *result (its
 * bins in *bins, for the caller to free) for the determinism check. */
static int verify_and_judge(runner *r, const rb_configuration *cfg, const rb_plugin *p,
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
    isolate_step(RB_STEP_VERIFY);
    if (p->verify(state, result) != RB_OK) {
        set_reason(row, RB_ROW_FAILED, "verify failed: %s",
                   host->error[0] ? host->error : "no reason given");
        return RB_ERROR;
    }
    rb_verdict v;
    reference_judge(&r->ref, &r->input, result, &v);
    row->error = v.error;
    row->tolerance = v.tolerance;
    row->error_ratio_known = measure_error_ratio(v.error, v.tolerance, &row->error_ratio);
    snprintf(row->result_text, sizeof row->result_text, "%s", v.result_text);
    snprintf(row->expected_text, sizeof row->expected_text, "%s", v.expected_text);
    if (v.ok)
        row->status = RB_ROW_OK;
    else
        set_reason(row, RB_ROW_WRONG, "%s", v.why);
    return RB_OK;
}

/* ---- the probes (probe.h) ---- */

/* Probes run unless the experiment turns them off; --profile makes one
 * call per configuration and runs none. */
static int probes_wanted(const rb_experiment *exp)
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

/* Keeps a copy of the input on the device before the probes overwrite it,
 * where the backend can copy and the device has room; otherwise the input
 * is uploaded again afterwards. The cpu backend always uploads (a copy in
 * host memory). */
static void back_up_input(runner *r, open_backend *ob)
{
    const rb_backend *b = ob->loaded->desc;
    const rb_device_info *dev = &r->res->info.devices[ob->record].info;
    if (r->device_backup || !b->copy || b == backend_cpu())
        return;
    if (dev->memory_bytes && 3 * r->input.bytes > dev->memory_bytes)
        return;
    void *backup = NULL;
    if (b->alloc(ob->ctx, r->input.bytes, &backup) != RB_OK)
        return;
    if (b->copy(ob->ctx, backup, r->device_input, r->input.bytes) != RB_OK) {
        b->release(ob->ctx, backup);
        return;
    }
    r->device_backup = backup;
}

/* Puts the data set's input back after the probes; when that fails, the
 * next configuration uploads it afresh. */
static void restore_input(runner *r, open_backend *ob)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(&ob->host);
    int st = r->device_backup
                 ? b->copy(ob->ctx, r->device_input, r->device_backup, r->input.bytes)
                 : b->upload(ob->ctx, r->device_input, r->input.data, r->input.bytes);
    if (st != RB_OK)
        drop_device_input(r);
}

/* One call on the probe input in place: run, verify, the verdict. Returns
 * RB_OK with *exact set, or RB_ERROR with the row failed. */
static int run_probe(const rb_configuration *cfg, const rb_plugin *p, void *state,
                     open_backend *ob, rb_host_state *host, const rb_probe_set *set, size_t k,
                     rb_result *res, rb_row *row, int *exact, char *why, size_t len)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(host);
    host_clear_error(&ob->host);
    isolate_step(RB_STEP_RUN);
    if (p->run(state) != RB_OK || b->synchronize(ob->ctx) != RB_OK) {
        set_reason(row, RB_ROW_FAILED, "the run on probe %zu failed: %s", k + 1,
                   failure_text(host, ob));
        return RB_ERROR;
    }
    memset(res, 0, sizeof *res);
    res->size = sizeof *res;
    if (cfg->op == RB_OP_HISTOGRAM) {
        res->bins = xcalloc(cfg->bins, sizeof *res->bins);
        res->n_bins = cfg->bins;
    }
    isolate_step(RB_STEP_VERIFY);
    if (p->verify(state, res) != RB_OK) {
        set_reason(row, RB_ROW_FAILED, "verify on probe %zu failed: %s", k + 1,
                   host->error[0] ? host->error : "no reason given");
        free(res->bins);
        res->bins = NULL;
        return RB_ERROR;
    }
    *exact = probe_judge(set, k, res, NULL, 0, why, len);
    return RB_OK;
}

/* Judges the configuration again on the probe inputs of probe.h, each
 * written into the input between calls of the initialised plugin; before
 * the last one the plugin is torn down, and initialised again after the
 * probe input is written (so an answer computed in init is caught by the
 * probes before it). *inited says afterwards whether the plugin holds an
 * init to tear down. A probe whose result is not exact makes the row
 * wrong and says what was found. The data set's input is put back after. */
static void run_probes(runner *r, const rb_configuration *cfg, const rb_plugin *p, void **state,
                       int *inited, open_backend *ob, rb_host_state *host, const rb_config *c,
                       const rb_result *first, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    rb_probe_set set;
    probe_plan(&set, cfg->op, cfg->dtype, cfg->n, cfg->bins, row->seed);
    rb_result earlier[RB_PROBE_MAX + 1];
    size_t n_earlier = 0;
    keep_result(&earlier[n_earlier++], first);
    back_up_input(r, ob);
    const rb_probe *previous = NULL;
    int passed = 1;
    for (size_t k = 0; k < set.count && passed; k++) {
        const rb_probe *pr = &set.probes[k];
        if (pr->fresh_init) {
            isolate_step(RB_STEP_TEARDOWN);
            p->teardown(*state);
            *state = NULL;
            *inited = 0;
        }
        host_clear_error(&ob->host);
        isolate_step(RB_STEP_INPUT);
        if (probe_write(&set, k, previous, b, ob->ctx, r->device_input) != 0) {
            set_reason(row, RB_ROW_FAILED, "writing probe %zu's input failed: %s", k + 1,
                       ob->host.error[0] ? ob->host.error : "no reason given");
            break;
        }
        previous = pr;
        if (pr->fresh_init) {
            host_clear_error(host);
            isolate_step(RB_STEP_INIT);
            if (p->init(c, state) != RB_OK) {
                set_reason(row, RB_ROW_FAILED, "init again for probe %zu failed: %s", k + 1,
                           host->error[0] ? host->error : "no reason given");
                break;
            }
            *inited = 1;
        }
        rb_result res;
        char why[400] = "";
        int exact = 0;
        if (run_probe(cfg, p, *state, ob, host, &set, k, &res, row, &exact, why, sizeof why) !=
            RB_OK)
            break;
        if (exact) {
            row->probes_passed++;
        } else {
            /* names an earlier call's answer if that is what came back */
            probe_judge(&set, k, &res, earlier, n_earlier, why, sizeof why);
            set_reason(row, RB_ROW_WRONG, "probe %zu%s: %s", k + 1,
                       pr->fresh_init ? " (after a fresh init)" : "", why);
            row->probes = RB_PROBES_FAILED;
            passed = 0;
        }
        if (n_earlier < RB_ARRAY_LEN(earlier))
            keep_result(&earlier[n_earlier++], &res);
        free(res.bins);
    }
    if (passed && row->status == RB_ROW_OK)
        row->probes = RB_PROBES_PASSED;
    for (size_t k = 0; k < n_earlier; k++)
        free(earlier[k].bins);
    probe_set_free(&set);
    if (r->device_input)
        restore_input(r, ob);
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
    fill_config(&c, cfg, r->exp, b->queue(ob->ctx), r->device_input, &host.table);

    char range[320];
    measure_range_name(cfg, range, sizeof range);
    int ranged = b->range_push && b->range_pop;
    if (ranged)
        b->range_push(ob->ctx, range);

    void *state = NULL;
    host_clear_error(&host);
    isolate_step(RB_STEP_INIT);
    int st = p->init(&c, &state);
    if (st != RB_OK) {
        set_reason(row, st == RB_UNSUPPORTED ? RB_ROW_UNSUPPORTED : RB_ROW_FAILED, "%s%s",
                   st == RB_UNSUPPORTED ? "" : "init failed: ",
                   host.error[0] ? host.error : "no reason given");
        if (ranged)
            b->range_pop(ob->ctx);
        recover(r, ob, row);
        return;
    }
    int inited = 1;
    timing_plan plan;
    choose_timing(b, ob->ctx, wanted_timing(r->exp), &plan);
    double call_ns = 0;
    st = warm_up(r, p, state, ob, &host, row, plan.graph, &call_ns);
    rb_clock_sample before, after;
    int clocks = st == RB_OK && sample_clocks(b, ob, &before);
    if (st == RB_OK) {
        row->timing = plan.graph ? "graph" : plan.single;
        st = plan.graph ? measure_graph(r, p, state, ob, &host, row, call_ns)
                        : measure(r, p, state, ob, &host, row, 0);
    }
    if (st == RB_OK && clocks && sample_clocks(b, ob, &after)) {
        row->clocks_known = 1;
        row->clocks_before = before;
        row->clocks_after = after;
        row->throttle_reasons =
            (before.throttle_reasons | after.throttle_reasons) & RB_THROTTLE_SLOWDOWN;
        row->throttled = row->throttle_reasons != 0;
    }
    if (st == RB_OK) {
        rb_result first;
        uint64_t *bins = NULL;
        if (verify_and_judge(r, cfg, p, state, &host, row, &first, &bins) == RB_OK)
            check_determinism(r, cfg, p, state, ob, &host, &first, row);
        if (row->status == RB_ROW_OK && probes_wanted(r->exp))
            run_probes(r, cfg, p, &state, &inited, ob, &host, &c, &first, row);
        else if (row->status == RB_ROW_OK)
            row->probes = RB_PROBES_OFF;
        free(bins);
    }
    isolate_step(RB_STEP_TEARDOWN);
    if (inited)
        p->teardown(state);
    if (ranged)
        b->range_pop(ob->ctx);
    if (row->status == RB_ROW_FAILED)
        recover(r, ob, row);
}

static void finish_row(runner *r, rb_row *row, open_backend *ob)
{
    const rb_configuration *cfg = row->config;
    if (row->stats.count == 0 || row->stats.median <= 0)
        return;
    double bytes = (double)cfg->n * (double)rb_dtype_size(cfg->dtype);
    row->bandwidth_gbs = bytes / row->stats.median; /* bytes per ns = GB/s */
    if (ob) {
        const rb_device_record *rec = &r->res->info.devices[ob->record];
        if (rec->info.peak_gbs > 0)
            row->pct_peak = 100.0 * row->bandwidth_gbs / rec->info.peak_gbs;
        if (rec->measured_peak_gbs > 0)
            row->pct_measured_peak = 100.0 * row->bandwidth_gbs / rec->measured_peak_gbs;
    }
}

static void progress(const runner *r, size_t k, const rb_row *row)
{
    if (!r->opt->progress)
        return;
    const rb_configuration *cfg = row->config;
    char n[32], t[32];
    format_size(cfg->n, n, sizeof n);
    format_duration_ns(row->stats.median, t, sizeof t);
    fprintf(stderr, "[%zu/%zu] %s %s %s %s n=%s: %s", k + 1, r->res->n_rows, cfg->run->name,
            cfg->params_text, op_name(cfg->op), dtype_name(cfg->dtype), n,
            row_status_name(row->status));
    if (row->status == RB_ROW_OK || row->status == RB_ROW_WRONG)
        fprintf(stderr, " %s %.1f GB/s", t, row->bandwidth_gbs);
    fputc('\n', stderr);
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
        set_reason(row, RB_ROW_SKIPPED, "%s",
                   cfg->skip_reason ? cfg->skip_reason : "plugin not found");
        return 1;
    }
    const rb_plugin *p = cfg->plugin->desc;
    row->backend = p->backend;
    row->seed = input_seed_for(r->exp->seed, p->name);
    if (!(p->ops & RB_OP_BIT(cfg->op)) || !(p->dtypes & RB_DTYPE_BIT(cfg->dtype))) {
        char *ops = op_mask_text(p->ops), *dtypes = dtype_mask_text(p->dtypes);
        set_reason(row, RB_ROW_UNSUPPORTED, "%s does not support %s on %s (ops: %s; dtypes: %s)",
                   p->name, op_name(cfg->op), dtype_name(cfg->dtype), ops, dtypes);
        free(ops);
        free(dtypes);
        return 1;
    }
    if (!registry_backend(r->reg, p->backend)) {
        set_reason(row, RB_ROW_SKIPPED, "backend '%s' not found (its pack's backend module is "
                   "not installed in the plugin path)", p->backend);
        return 1;
    }
    return 0;
}

static void run_config(runner *r, const rb_configuration *cfg, rb_row *row)
{
    if (settle_without_running(r, cfg, row))
        return;
    const rb_plugin *p = cfg->plugin->desc;
    open_backend *ob = backend_for(r, p->backend, row);
    if (!ob)
        return;
    if (!ob->ctx) {
        set_reason(row, RB_ROW_SKIPPED, "%s", ob->error);
        return;
    }
    row->device_index = (int)ob->record;
    if (ob->unusable) {
        set_reason(row, RB_ROW_SKIPPED, "the %s device is no longer usable after an earlier "
                   "failure in this process (without --no-isolation, the next configuration "
                   "gets a fresh process)", p->backend);
        return;
    }
    if (wanted_timing(r->exp) == RB_TIMING_GRAPH && !graph_offered(ob->loaded->desc, row))
        return;
    if (describe_one(r, cfg, ob, row) != 0)
        return;
    isolate_step(RB_STEP_INPUT);
    if (prepare_data(r, cfg, ob, row->seed, row) != 0)
        return;
    r->config_started = now_seconds();
    run_one(r, cfg, ob, row);
    finish_row(r, row, ob);
}

/* ---- the callbacks of isolate.c ---- */

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
    set_reason(row, status, "%s", reason);
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

/* ---- the sweep ---- */

/* The end of the data group that starts at `first`. */
static size_t group_end(const rb_sweep *sweep, size_t first)
{
    const rb_configuration *a = &sweep->configs[first];
    size_t k = first + 1;
    for (; k < sweep->n_configs; k++) {
        const rb_configuration *b = &sweep->configs[k];
        if (b->run != a->run || b->op != a->op || b->dtype != a->dtype || b->n != a->n ||
            b->distribution != a->distribution)
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
    while (end < sweep->n_configs && sweep->configs[end].plugin == sweep->configs[first].plugin) {
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
    double started = now_seconds();
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
        set_reason(row, RB_ROW_SKIPPED, "interrupted before it ran");
    }
    drop_data(&r);
    for (size_t j = 0; j < r.n_backends; j++)
        if (r.backends[j].ctx && !r.backends[j].unusable)
            r.backends[j].loaded->desc->close(r.backends[j].ctx);
    res->info.wall_seconds = now_seconds() - started;
    return 0;
}
