/* tests/history/make_v1_history.c: a history of schema version 1, the
 * first, made by hand with sqlite3's C API as that version's redbench made
 * it, for the migration test (test_history_migrate.sh). The version-1
 * schema and its inserts are frozen here, as they were; nothing of
 * src/history/ writes the file, so that what an older redbench left is
 * what the upgrade is given.
 *
 *   make-v1-history [--sql SQL] DB RESULTS.json...
 * SQL is run after the schema (what a user may have added to the file).
 * Each results file is one run, added in order: its document byte for
 * byte, its counts and its rows (each row's configuration key as version
 * 1 wrote it, history_config_key's).
 *   make-v1-history --query DB SQL
 * prints the first column of each row SQL gives, one a line (the file
 * opened read-only), so that the test needs no sqlite3 program. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "history/append.h"
#include "results/read.h"

static const char v1_schema[] =
    "CREATE TABLE redbench_history (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, added TEXT NOT NULL, "
    "source TEXT, started TEXT, version TEXT, git_revision TEXT, host TEXT, "
    "command_line TEXT, experiment TEXT, experiment_path TEXT, backend TEXT, device TEXT, "
    "driver TEXT, devices INTEGER NOT NULL, wall_seconds REAL, rows INTEGER NOT NULL, "
    "ok INTEGER NOT NULL, wrong INTEGER NOT NULL, failed INTEGER NOT NULL, "
    "unsupported INTEGER NOT NULL, skipped INTEGER NOT NULL, document TEXT NOT NULL);\n"
    "CREATE INDEX runs_by_order ON runs(started, id);\n"
    "CREATE TABLE rows (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, "
    "position INTEGER NOT NULL, config TEXT NOT NULL, run TEXT NOT NULL, "
    "plugin TEXT NOT NULL, params TEXT NOT NULL, op TEXT NOT NULL, dtype TEXT NOT NULL, "
    "n INTEGER NOT NULL, distribution TEXT NOT NULL, device TEXT NOT NULL, "
    "status TEXT NOT NULL, reason TEXT NOT NULL, timing TEXT, samples INTEGER NOT NULL, "
    "median_ns REAL, noise REAL, bandwidth_gbs REAL, energy_j REAL, "
    "PRIMARY KEY (run_id, position)) WITHOUT ROWID;\n"
    "CREATE INDEX rows_by_config ON rows(config, run_id);\n"
    "INSERT INTO redbench_history VALUES ('schema_version', '1');\n"
    "INSERT INTO redbench_history VALUES ('created', '2026-01-01T00:00:00Z');\n"
    "PRAGMA application_id = 1380075593;\n" /* "RBHI" */
    "PRAGMA user_version = 1;\n";

static const char insert_run[] =
    "INSERT INTO runs (added, source, started, version, git_revision, host, command_line, "
    "experiment, backend, device, devices, wall_seconds, rows, ok, wrong, failed, "
    "unsupported, skipped, document) VALUES ('2026-01-01T00:00:00Z', ?, ?, ?, ?, ?, ?, ?, "
    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static const char insert_row[] =
    "INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/* The whole file, newly allocated (its length in *len); NULL when unread. */
static char *read_all(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return NULL;
    strbuf sb = {0};
    char buf[65536];
    size_t got;
    sb_append(&sb, "");
    while ((got = fread(buf, 1, sizeof buf, in)) > 0) {
        char *part = xstrndup(buf, got);
        sb_append(&sb, part);
        free(part);
    }
    fclose(in);
    *len = sb.len;
    return sb.data;
}

static void text_or_null(sqlite3_stmt *st, int k, const char *text)
{
    if (text && *text)
        sqlite3_bind_text(st, k, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, k);
}

static void number_or_null(sqlite3_stmt *st, int k, double x)
{
    if (x > 0)
        sqlite3_bind_double(st, k, x);
    else
        sqlite3_bind_null(st, k);
}

static int add_run(sqlite3 *db, const char *path)
{
    size_t len;
    char *text = read_all(path, &len);
    rb_results_file file;
    if (!text || results_read(path, &file) != 0) {
        fprintf(stderr, "make-v1-history: %s: not results\n", path);
        free(text);
        return -1;
    }
    const rb_results *res = &file.res;
    const rb_run_info *info = &res->info;
    const rb_device_record *dev = info->n_devices ? &info->devices[0] : NULL;
    size_t counts[RB_ROW_COUNT_] = {0};
    results_count(res, counts);
    sqlite3_stmt *st;
    int k = 1, status = 0;
    sqlite3_prepare_v2(db, insert_run, -1, &st, NULL);
    text_or_null(st, k++, path);
    text_or_null(st, k++, info->started);
    text_or_null(st, k++, info->tool_version);
    text_or_null(st, k++, info->git_revision);
    text_or_null(st, k++, info->host);
    text_or_null(st, k++, info->command_line);
    text_or_null(st, k++, info->experiment ? info->experiment->name : NULL);
    text_or_null(st, k++, dev ? dev->backend : NULL);
    text_or_null(st, k++, dev ? dev->info.name : NULL);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)info->n_devices);
    sqlite3_bind_double(st, k++, info->wall_seconds);
    sqlite3_bind_int64(st, k++, (sqlite3_int64)res->n_rows);
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        sqlite3_bind_int64(st, k++, (sqlite3_int64)counts[s]);
    sqlite3_bind_text(st, k++, text, (int)len, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        status = -1;
    sqlite3_finalize(st);
    long long id = sqlite3_last_insert_rowid(db);
    sqlite3_prepare_v2(db, insert_row, -1, &st, NULL);
    for (size_t r = 0; r < res->n_rows && status == 0; r++) {
        const rb_row *row = &res->rows[r];
        const rb_configuration *c = row->config;
        int d = row->device_index;
        char *key = history_config_key(res, row);
        char *device = d >= 0 && (size_t)d < info->n_devices
                           ? xasprintf("%s %s", info->devices[d].backend,
                                       info->devices[d].info.name)
                           : xstrdup(row->backend ? row->backend : "");
        int timed = row->stats.count > 0;
        k = 1;
        sqlite3_bind_int64(st, k++, id);
        sqlite3_bind_int64(st, k++, (sqlite3_int64)r);
        sqlite3_bind_text(st, k++, key, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, c->run->name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, c->plugin ? c->plugin->desc->name : c->run->plugin, -1,
                          SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, c->params_text ? c->params_text : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, op_name(c->op), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, dtype_name(c->dtype), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, k++, (sqlite3_int64)c->n);
        sqlite3_bind_text(st, k++, distribution_name(c->distribution), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, device, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, row_status_name(row->status), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, row_reason(row), -1, SQLITE_TRANSIENT);
        text_or_null(st, k++, row->timing);
        sqlite3_bind_int64(st, k++, (sqlite3_int64)row->stats.count);
        number_or_null(st, k++, timed ? row->stats.median : 0);
        if (timed)
            sqlite3_bind_double(st, k++, row->stats.noise);
        else
            sqlite3_bind_null(st, k++);
        number_or_null(st, k++, timed ? row->bandwidth_gbs : 0);
        number_or_null(st, k++, row->energy_j);
        if (sqlite3_step(st) != SQLITE_DONE)
            status = -1;
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        free(key);
        free(device);
    }
    sqlite3_finalize(st);
    if (status != 0)
        fprintf(stderr, "make-v1-history: %s: %s\n", path, sqlite3_errmsg(db));
    results_file_free(&file);
    free(text);
    return status;
}

static int query(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        printf("%s\n", t ? (const char *)t : "");
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE)
        fprintf(stderr, "make-v1-history: %s: %s\n", path, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc == SQLITE_DONE ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--query") == 0)
        return query(argv[2], argv[3]);
    const char *extra = "";
    if (argc > 2 && strcmp(argv[1], "--sql") == 0) {
        extra = argv[2];
        argc -= 2;
        argv += 2;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: make-v1-history [--sql SQL] DB RESULTS.json... | --query DB "
                        "SQL\n");
        return 2;
    }
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, v1_schema, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, extra, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "make-v1-history: %s: %s\n", argv[1], sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    int status = 0;
    for (int k = 2; k < argc && status == 0; k++)
        status = add_run(db, argv[k]);
    if (status == 0 && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        status = -1;
    sqlite3_close(db);
    return status == 0 ? 0 : 1;
}
