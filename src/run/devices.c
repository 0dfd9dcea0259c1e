/* src/run/devices.c: the backends a run opens, once per run (or per worker):
 * the device, its record in the results and its measured peak, from the
 * peak cache or measured once; and recovery after a failure, which may
 * leave a device unusable in this process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/peak_cache.h"
#include "run/isolate.h"
#include "run/runner_state.h"

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
open_backend *runner_backend_for(runner *r, const char *name, rb_row *row)
{
    for (size_t k = 0; k < r->n_backends; k++)
        if (strcmp(r->backends[k].loaded->desc->name, name) == 0)
            return &r->backends[k];
    const rb_loaded_backend *loaded = registry_backend(r->reg, name);
    if (!loaded) {
        runner_set_reason(row, RB_ROW_SKIPPED, "backend '%s' not found (its pack's backend "
                          "module is not installed in the plugin path)", name);
        return NULL;
    }
    if (r->n_backends == RB_ARRAY_LEN(r->backends)) {
        runner_set_reason(row, RB_ROW_SKIPPED, "too many backends in one run");
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
