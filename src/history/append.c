/* src/history/append.c: a run added to a history (history/append.h): one
 * transaction begun with the write lock (BEGIN IMMEDIATE, waiting for other
 * writers up to the busy timeout), the run's row with its document, then
 * its rows; a failure anywhere (a full disk, a lock held too long) rolls
 * all of it back, and SQLite's journal keeps the earlier runs whole. */
#include "history/append.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/util.h"
#include "report/reporters.h"

static const char insert_run_sql[] =
    "INSERT INTO runs (added, source, started, version, git_revision, host, command_line, "
    "experiment, experiment_path, backend, device, driver, devices, wall_seconds, rows, ok, "
    "wrong, failed, unsupported, skipped, document) VALUES "
    "(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
    "?, ?, ?)";

static const char insert_row_sql[] =
    "INSERT INTO rows (run_id, position, config, run, plugin, params, op, dtype, n, "
    "distribution, device, status, reason, timing, samples, median_ns, noise, bandwidth_gbs, "
    "energy_j, deterministic, repro) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
    "?, ?, ?, ?)";

static void bind_text(sqlite3_stmt *st, int k, const char *text)
{
    if (text && *text)
        sqlite3_bind_text(st, k, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, k);
}

/* A positive number, else NULL (unknown). */
static void bind_measured(sqlite3_stmt *st, int k, double x)
{
    if (x > 0)
        sqlite3_bind_double(st, k, x);
    else
        sqlite3_bind_null(st, k);
}

static const char *device_property(const rb_device_info *info, const char *key)
{
    for (uint32_t k = 0; k < info->n_props && k < RB_DEVICE_MAX_PROPS; k++)
        if (strcmp(info->props[k].key, key) == 0)
            return info->props[k].value;
    return NULL;
}

static const char *row_plugin(const rb_row *row)
{
    const rb_configuration *c = row->config;
    return c->plugin ? c->plugin->desc->name : c->run->plugin;
}

/* "backend NAME" of the row's device, "" without one. */
static char *row_device(const rb_results *res, const rb_row *row)
{
    int d = row->device_index;
    if (d < 0 || (size_t)d >= res->info.n_devices)
        return xstrdup(row->backend ? row->backend : "");
    const rb_device_record *rec = &res->info.devices[d];
    return xasprintf("%s %s", rec->backend, rec->info.name);
}

char *history_config_key(const rb_results *res, const rb_row *row)
{
    const rb_configuration *c = row->config;
    char *device = row_device(res, row);
    char extra[128] = "";
    if (c->op == RB_OP_HISTOGRAM)
        snprintf(extra, sizeof extra, " bins=%u", (unsigned)c->bins);
    if (c->ranks > 1)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " ranks=%u",
                 (unsigned)c->ranks);
    sweep_shape_text(c, extra + strlen(extra), sizeof extra - strlen(extra));
    char *key = xasprintf("%s | %s | %s | %s %s n=%llu %s%s | %s", c->run->name, row_plugin(row),
                          c->params_text ? c->params_text : "", op_name(c->op),
                          dtype_name(c->dtype), (unsigned long long)c->n,
                          distribution_name(c->distribution), extra, device);
    free(device);
    return key;
}

static int insert_run(rb_history *h, const char *document, size_t len, const rb_results *res,
                      const char *source, long long *id)
{
    const rb_run_info *info = &res->info;
    size_t counts[RB_ROW_COUNT_] = {0};
    results_count(res, counts);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, insert_run_sql, -1, &st, NULL) != SQLITE_OK)
        return history_error(h, "cannot add the run");
    const rb_device_record *dev = info->n_devices ? &info->devices[0] : NULL;
    int k = 1;
    bind_text(st, k++, source);
    bind_text(st, k++, info->started);
    bind_text(st, k++, info->tool_version);
    bind_text(st, k++, info->git_revision);
    bind_text(st, k++, info->host);
    bind_text(st, k++, info->command_line);
    bind_text(st, k++, info->experiment ? info->experiment->name : NULL);
    bind_text(st, k++, info->experiment ? info->experiment->path : NULL);
    bind_text(st, k++, dev ? dev->backend : NULL);
    bind_text(st, k++, dev ? dev->info.name : NULL);
    bind_text(st, k++, dev ? device_property(&dev->info, "driver_version") : NULL);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)info->n_devices);
    sqlite3_bind_double(st, k++, info->wall_seconds);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)res->n_rows);
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        sqlite3_bind_int64(st, k++, (sqlite3_int64)counts[s]);
    sqlite3_bind_text(st, k++, document, (int)len, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return history_error(h, "cannot add the run");
    *id = sqlite3_last_insert_rowid(h->db);
    return 0;
}

static int insert_rows(rb_history *h, const rb_results *res, long long id)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, insert_row_sql, -1, &st, NULL) != SQLITE_OK)
        return history_error(h, "cannot add the run's rows");
    int status = 0;
    for (size_t r = 0; r < res->n_rows && status == 0; r++) {
        const rb_row *row = &res->rows[r];
        const rb_configuration *c = row->config;
        char *key = history_config_key(res, row), *device = row_device(res, row);
        int k = 1;
        sqlite3_bind_int64(st, k++, id);
        sqlite3_bind_int64(st, k++, (sqlite3_int64)r);
        sqlite3_bind_text(st, k++, key, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, c->run->name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, row_plugin(row), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, c->params_text ? c->params_text : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, op_name(c->op), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, dtype_name(c->dtype), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, k++, (sqlite3_int64)c->n);
        sqlite3_bind_text(st, k++, distribution_name(c->distribution), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, device, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, row_status_name(row->status), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, row_reason(row), -1, SQLITE_TRANSIENT);
        bind_text(st, k++, row->timing);
        sqlite3_bind_int64(st, k++, (sqlite3_int64)row->stats.count);
        int timed = row->stats.count > 0;
        bind_measured(st, k++, timed ? row->stats.median : 0);
        if (timed)
            sqlite3_bind_double(st, k++, row->stats.noise);
        else
            sqlite3_bind_null(st, k++);
        bind_measured(st, k++, timed ? row->bandwidth_gbs : 0);
        bind_measured(st, k++, row->energy_j);
        if (row->determinism == RB_DETERMINISM_UNKNOWN)
            sqlite3_bind_null(st, k++);
        else
            sqlite3_bind_int(st, k++, row->determinism == RB_DETERMINISM_SAME);
        bind_text(st, k++, repro_name(row->repro.level));
        if (sqlite3_step(st) != SQLITE_DONE)
            status = history_error(h, "cannot add the run's rows");
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        free(key);
        free(device);
    }
    sqlite3_finalize(st);
    return status;
}

int history_append(rb_history *h, const char *document, size_t len, const rb_results *res,
                   const char *source, long long *id)
{
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        int code = sqlite3_errcode(h->db);
        return history_error(h, code == SQLITE_BUSY ? "the history is locked by another "
                                                      "process; nothing was added"
                                                    : "cannot begin to add the run");
    }
    int status = insert_run(h, document, len, res, source, id);
    if (status == 0)
        status = insert_rows(h, res, *id);
    if (status == 0 && sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        status = history_error(h, "cannot add the run (nothing was added)");
    if (status != 0)
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

int history_output(const char *path, const rb_results *res, int exit_status)
{
    if (exit_status == 130) {
        diag_warn("%s: the interrupted run is not added to the history (a history keeps whole "
                  "runs; the other outputs hold what finished)", path);
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem || report_json(mem, res) != 0 || fclose(mem) != 0) {
        diag_error("%s: cannot make the run's results document; nothing was added", path);
        free(text);
        return -1;
    }
    rb_history h;
    long long id = 0;
    int status = history_open(&h, path, RB_HISTORY_WRITE);
    if (status == 0) {
        status = history_append(&h, text, len, res, NULL, &id);
        history_close(&h);
    }
    free(text);
    return status;
}

int history_outputs_check(const char *const *paths, const int *formats, size_t n,
                          int out_format)
{
    if (out_format == RB_FORMAT_SQLITE) {
        diag_error("standard output cannot take the sqlite format (a history is a database "
                   "file): give -o FILE.db; nothing was run");
        return 2;
    }
    for (size_t k = 0; k < n; k++) {
        if (formats[k] != RB_FORMAT_SQLITE)
            continue;
        rb_history h;
        if (history_open(&h, paths[k], RB_HISTORY_CHECK) != 0) {
            diag_say("nothing was run");
            return 2;
        }
        history_close(&h);
    }
    return 0;
}
