/* src/run/devices.c: the backends a run opens, once per run (or per worker):
 * the device, its record in the results and its measured peak, from the
 * peak cache or measured once; and recovery after a failure, which may
 * leave a device unusable in this process. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"
#include "host/peak_cache.h"
#include "procs/isolate.h"
#include "run/plugin_gate.h"
#include "run/rank_slice.h"
#include "run/runner_state.h"

/* A device property by key ("driver_version"), or "". */
static const char *device_property(const rb_device_info *info, const char *key)
{
    for (uint32_t k = 0; k < info->n_props && k < RB_DEVICE_MAX_PROPS; k++)
        if (strcmp(info->props[k].key, key) == 0)
            return info->props[k].value;
    return "";
}

/* One measurement with the backend's calibration (host/peak_cache.h). */
typedef struct peak_probe {
    const rb_backend *backend;
    open_backend *ob;
} peak_probe;

static int measure_once(void *ctx, double *gbs)
{
    peak_probe *p = ctx;
    host_clear_error(&p->ob->host);
    *gbs = 0;
    return p->backend->measure_peak(p->ob->ctx, gbs) == RB_OK && *gbs > 0 ? 0 : -1;
}

/* The device's measured peak: from the peak cache when it holds one made
 * under the same key (backend, device, driver, the device's `clocks`
 * property, redbench's version) and younger than the device's
 * `peak_max_age_s` property where it has one, unless
 * the experiment says `peak = measure` or the environment
 * REDBENCH_PEAK=measure; otherwise measured with the backend's calibration
 * and stored in the cache. A measurement more than 20% away from the figure
 * the cache held (under this key or an older one) is taken again, and the
 * disagreement is said on standard error and kept in the device's record.
 * The key is the same whichever command opens the device (run, tune): the
 * host's name and redbench's version are filled in here when the caller's
 * run information lacks them. */
static void find_peak(runner *r, open_backend *ob, rb_device_record *rec)
{
    const rb_backend *b = ob->loaded->desc;
    rb_host_state *host = &ob->host;
    char hostname[sizeof r->res->info.host] = "";
    if (*r->res->info.host)
        snprintf(hostname, sizeof hostname, "%s", r->res->info.host);
    else if (gethostname(hostname, sizeof hostname - 1) != 0)
        hostname[0] = '\0';
    rb_peak_key key = {
        .backend = b->name,
        .backend_version = b->version,
        .device = rec->info.name,
        .uuid = rec->info.uuid,
        .host = hostname,
        .driver = device_property(&rec->info, "driver_version"),
        .clocks = device_property(&rec->info, "clocks"),
        .tool_version = r->res->info.tool_version ? r->res->info.tool_version : PACKAGE_VERSION,
        .max_age_s = strtol(device_property(&rec->info, "peak_max_age_s"), NULL, 10),
    };
    char *dir = peak_cache_dir();
    char why[256] = "", cached_at[40] = "";
    const char *forced = getenv("REDBENCH_PEAK");
    int use_cache = r->exp->peak == RB_PEAK_USE_CACHE && !(forced && strcmp(forced, "measure") == 0);
    double cached = 0;
    rb_peak_load load;
    char load_text[64];
    int found = peak_cache_load(dir, &key, &cached, cached_at, sizeof cached_at, why, sizeof why,
                                &load);
    if (use_cache && found == RB_PEAK_CACHED) {
        rec->measured_peak_gbs = cached;
        rec->measured_peak_cached = 1;
        snprintf(rec->measured_peak_at, sizeof rec->measured_peak_at, "%s", cached_at);
        peak_load_text(&load, load_text, sizeof load_text);
        rb_device_add_property(&rec->info, "peak_load", "%s", load_text);
        free(dir);
        return;
    }
    if (r->place.ranks > 1) {
        /* ranks measuring at once would share the memory they measure, and
         * cache what none of them alone would see: the cached figure or none */
        if (found == RB_PEAK_CACHED) {
            rec->measured_peak_gbs = cached;
            rec->measured_peak_cached = 1;
            snprintf(rec->measured_peak_at, sizeof rec->measured_peak_at, "%s", cached_at);
        }
        free(dir);
        return;
    }
    if (use_cache && found == RB_PEAK_STALE && r->opt->verbosity > 1)
        diag_say("%s: the cached peak is stale (%s); measuring again",
                b->name, why);
    double peak = 0;
    peak_probe probe = {b, ob};
    /* what else runs on the host, read before measuring: a figure of a busy
     * host is cached briefly, and the run says so */
    peak_load_read(NULL, 0, &load);
    peak_load_text(&load, load_text, sizeof load_text);
    if (peak_measure_checked(cached, measure_once, &probe, &peak, rec->measured_peak_note,
                             sizeof rec->measured_peak_note) > 0) {
        rec->measured_peak_gbs = peak;
        rb_device_add_property(&rec->info, "peak_load", "%s", load_text);
        if (key.max_age_s > 0 && peak_load_busy(&load) && r->opt->verbosity > 0) {
            char kept[32];
            peak_cache_age_text(RB_PEAK_BUSY_MAX_AGE_S, kept, sizeof kept);
            diag_warn("%s device %d: the peak bandwidth (%.1f GB/s) was "
                    "measured under %s, so others took part of it; it is cached for %s only, "
                    "and %%meas is against it",
                    b->name, rec->device, peak, load_text, kept);
        }
        if (*rec->measured_peak_note && r->opt->verbosity > 0)
            diag_warn("%s device %d: peak bandwidth: %s%s%s%s",
                    b->name, rec->device, rec->measured_peak_note,
                    *cached_at ? " (the cached figure was measured " : "", cached_at,
                    *cached_at ? ")" : "");
        if (!dir || peak_cache_store_under(dir, &key, peak, &load, rec->measured_peak_at,
                                           sizeof rec->measured_peak_at) != 0) {
            if (r->opt->verbosity > 1)
                diag_say("%s: the peak is not cached (%s): %s", b->name,
                        dir ? dir : "no cache folder: neither XDG_CACHE_HOME nor HOME is set",
                        dir ? strerror(errno) : "");
        }
    } else {
        diag_warn("%s: could not measure the peak bandwidth: %s",
                b->name, gate_reason(host, "no reason given"));
    }
    free(dir);
}

/* Opens the backend a plugin names (once per run). NULL if it is absent. */
open_backend *runner_backend_for(runner *r, const char *name, rb_row *row)
{
    for (size_t k = 0; k < r->devices.count; k++)
        if (strcmp(r->devices.open[k].loaded->desc->name, name) == 0)
            return &r->devices.open[k];
    const rb_loaded_backend *loaded = registry_backend(r->reg, name);
    if (!loaded) {
        row_set_status(row, RB_ROW_SKIPPED, "backend '%s' not found (its pack's backend "
                       "module is not installed in the plugin path)", name);
        return NULL;
    }
    if (r->devices.count == RB_ARRAY_LEN(r->devices.open)) {
        row_set_status(row, RB_ROW_SKIPPED, "too many backends in one run");
        return NULL;
    }
    open_backend *ob = &r->devices.open[r->devices.count++];
    memset(ob, 0, sizeof *ob);
    ob->loaded = loaded;
    const rb_backend *b = loaded->desc;
    rb_host_state *host = &ob->host; /* the backend may keep it until close */
    host_init(host, b->name, r->opt->verbosity);

    isolate_step(RB_STEP_OPEN);
    int count = 0;
    if (b->device_count(&host->table, &count) != RB_OK) {
        snprintf(ob->error, sizeof ob->error, "no %s device: %s", b->name,
                 gate_reason(host, "the backend found none"));
        return ob;
    }
    int device = r->place.ranks > 1 ? ranks_device(r->exp, r->place.rank, count) : r->exp->device;
    r->slice.device = device;
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
                 gate_reason(host, "no reason given"));
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

/* After a failure: asks the backend to clear what it can. A device that is
 * no longer usable (a sticky CUDA error) takes no more work in this process;
 * a worker process then ends, and the next configuration gets a fresh one. */
void runner_recover(runner *r, open_backend *ob, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(&ob->host);
    isolate_step(RB_STEP_RECOVER);
    if (b->recover(ob->ctx) == RB_OK)
        return;
    if (row->status == RB_ROW_FAILED)
        row_set_reason(row, "%s; the %s device is no longer usable in this process%s%s",
                       row_reason(row), b->name, ob->host.error[0] ? ": " : "",
                       ob->host.error);
    ob->unusable = 1;
    r->devices.must_end = 1;
    r->data.device_input = NULL; /* not released: the device is gone */
    r->data.device_backup = NULL;
    r->data.device_input_owner = NULL;
}
