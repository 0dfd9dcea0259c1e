/* core/runner.c: runs a sweep and fills one row per configuration.
 *
 * Configurations that read the same data (same run section, op, dtype, n and
 * distribution) are consecutive in a sweep: a data group. Its input is
 * generated and its reference computed once, uploaded once through the
 * backend, and handed read-only to each of them. Each configuration then goes
 * through describe, init, warm-up, timed repetitions, verify, the verdict and
 * teardown. Every outcome ends as a row with a status and a reason.
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
#include "names.h"
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
    double peak = 0;
    host_clear_error(host);
    isolate_step(RB_STEP_PEAK);
    if (b->measure_peak(ob->ctx, &peak) == RB_OK && peak > 0)
        rec->measured_peak_gbs = peak;
    else
        fprintf(stderr, "redbench: warning: %s: could not measure the peak bandwidth: %s\n",
                b->name, host->error[0] ? host->error : "no reason given");
    info->n_devices++;
    return ob;
}

static void drop_device_input(runner *r)
{
    if (r->device_input && r->device_input_owner) {
        const rb_backend *b = r->device_input_owner->loaded->desc;
        if (b != backend_cpu())
            b->release(r->device_input_owner->ctx, r->device_input);
    }
    r->device_input = NULL;
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
    if (b == backend_cpu()) {
        r->device_input = r->input.data; /* the cpu backend's memory is host memory */
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

/* Timed repetitions: until min_reps and min_time are reached and the noise of
 * the median is under target, or max_reps, or the share of the timeout. */
static int measure(runner *r, const rb_plugin *p, void *state, open_backend *ob,
                   rb_host_state *host, rb_row *row)
{
    const rb_experiment *exp = r->exp;
    const rb_backend *b = ob->loaded->desc;
    size_t cap = 64, count = 0;
    double *samples = xmalloc(cap * sizeof *samples);
    double total_ns = 0, last_rep = 0;
    double budget = RUNNER_MEASURE_SHARE * exp->timeout;
    int status = RB_OK;
    isolate_step(RB_STEP_RUN);
    for (;;) {
        double rep_started = now_seconds();
        host_clear_error(host);
        host_clear_error(&ob->host);
        if (exp->cache == RB_CACHE_COLD && b->flush_cache(ob->ctx) != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "cache flush failed: %s", failure_text(host, ob));
            status = RB_ERROR;
            break;
        }
        double ns = 0;
        if (b->time_begin(ob->ctx) != RB_OK || p->run(state) != RB_OK ||
            b->time_end(ob->ctx, &ns) != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "run failed: %s", failure_text(host, ob));
            status = RB_ERROR;
            break;
        }
        if (count == cap) {
            cap *= 2;
            samples = xrealloc(samples, cap * sizeof *samples);
        }
        samples[count++] = ns;
        total_ns += ns;
        if ((long)count >= exp->max_reps) {
            rb_stats s;
            stats_compute(samples, count, &s);
            row->hit_max_reps = s.noise > exp->noise || total_ns < exp->min_time * 1e9;
            break;
        }
        if ((long)count >= exp->min_reps && total_ns >= exp->min_time * 1e9 &&
            (count < 64 || count % 16 == 0)) {
            rb_stats s;
            stats_compute(samples, count, &s);
            if (s.noise <= exp->noise)
                break;
        }
        double now = now_seconds();
        last_rep = now - rep_started;
        if (now - r->config_started + last_rep > budget) {
            row->hit_max_reps = 1;
            snprintf(row->reason, sizeof row->reason,
                     "stopped after %zu repetitions, near the %g s timeout", count,
                     exp->timeout);
            break;
        }
    }
    row->samples_ns = samples;
    stats_compute(samples, count, &row->stats);
    return status;
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

/* Runs one configuration whose data is ready. */
static void run_one(runner *r, const rb_configuration *cfg, open_backend *ob, rb_row *row)
{
    const rb_plugin *p = cfg->plugin->desc;
    const rb_backend *b = ob->loaded->desc;
    rb_host_state host;
    host_init(&host, p->name, r->opt->verbosity);
    rb_config c;
    fill_config(&c, cfg, r->exp, b->queue(ob->ctx), r->device_input, &host.table);

    void *state = NULL;
    host_clear_error(&host);
    isolate_step(RB_STEP_INIT);
    int st = p->init(&c, &state);
    if (st != RB_OK) {
        set_reason(row, st == RB_UNSUPPORTED ? RB_ROW_UNSUPPORTED : RB_ROW_FAILED, "%s%s",
                   st == RB_UNSUPPORTED ? "" : "init failed: ",
                   host.error[0] ? host.error : "no reason given");
        recover(r, ob, row);
        return;
    }
    for (int k = 0; k < r->exp->warmup && st == RB_OK; k++) {
        host_clear_error(&host);
        host_clear_error(&ob->host);
        isolate_step(RB_STEP_WARMUP);
        st = p->run(state);
        if (st == RB_OK)
            st = b->synchronize(ob->ctx);
        if (st != RB_OK)
            set_reason(row, RB_ROW_FAILED, "warm-up run failed: %s", failure_text(&host, ob));
    }
    if (st == RB_OK)
        st = measure(r, p, state, ob, &host, row);
    if (st == RB_OK) {
        rb_result result;
        memset(&result, 0, sizeof result);
        result.size = sizeof result;
        uint64_t *bins = NULL;
        if (cfg->op == RB_OP_HISTOGRAM) {
            bins = xcalloc(cfg->bins, sizeof *bins);
            result.bins = bins;
            result.n_bins = cfg->bins;
        }
        host_clear_error(&host);
        isolate_step(RB_STEP_VERIFY);
        if (p->verify(state, &result) != RB_OK) {
            set_reason(row, RB_ROW_FAILED, "verify failed: %s",
                       host.error[0] ? host.error : "no reason given");
        } else {
            rb_verdict v;
            reference_judge(&r->ref, &r->input, &result, &v);
            row->error = v.error;
            row->tolerance = v.tolerance;
            snprintf(row->result_text, sizeof row->result_text, "%s", v.result_text);
            snprintf(row->expected_text, sizeof row->expected_text, "%s", v.expected_text);
            if (v.ok)
                row->status = RB_ROW_OK;
            else
                set_reason(row, RB_ROW_WRONG, "%s", v.why);
        }
        free(bins);
    }
    isolate_step(RB_STEP_TEARDOWN);
    p->teardown(state);
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
 * data groups that need one in a row (a group settled without plugin code
 * ends it). */
static size_t worker_span_end(runner *r, size_t first)
{
    const rb_sweep *sweep = r->sweep;
    size_t end = group_end(sweep, first);
    while (end < sweep->n_configs) {
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
