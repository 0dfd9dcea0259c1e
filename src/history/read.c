/* src/history/read.c: a history's run named and read back (history/read.h):
 * the spelling DB@WHICH told from a results file's path, the run it names
 * found, and its document parsed and read as a results file is. */
#include "history/read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/util.h"

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int history_spec_parse(const char *text, char **db, char **which)
{
    *db = *which = NULL;
    if (history_is_database_file(text)) {
        *db = xstrdup(text);
        *which = xstrdup("latest");
        return 1;
    }
    if (is_file(text))
        return 0; /* a file of that name, '@' or not: a results file */
    const char *at = strrchr(text, '@');
    if (!at || at == text)
        return 0;
    char *path = xstrndup(text, (size_t)(at - text));
    if (history_is_database_file(path)) {
        *db = path;
        *which = xstrdup(at + 1);
        return 1;
    }
    int there = is_file(path);
    if (there)
        diag_error("%s: not a history (an SQLite database made by -o FILE.db), so %s names no "
                   "run", path, text);
    free(path);
    return there ? -1 : 0;
}

static long long count_runs(rb_history *h)
{
    sqlite3_stmt *st;
    long long n = -1;
    if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM runs", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* "latest" 0, "-N" N; -1 for anything else. */
static long long back_of(const char *which)
{
    if (strcmp(which, "latest") == 0)
        return 0;
    if (which[0] != '-' || !which[1] || strspn(which + 1, "0123456789") != strlen(which + 1) ||
        strlen(which) > 12)
        return -1;
    return strtoll(which + 1, NULL, 10);
}

int history_select_run(rb_history *h, const char *spec, const char *which, long long *id)
{
    long long runs = count_runs(h);
    if (runs < 0)
        return history_error(h, "cannot read the history's runs");
    if (runs == 0) {
        diag_error("%s: the history has no run yet", h->path);
        return -1;
    }
    long long back = back_of(which);
    int by_id = back < 0 && *which && strspn(which, "0123456789") == strlen(which) &&
                strlen(which) <= 18;
    if (back < 0 && !by_id) {
        diag_error("%s: '%s' names no run; valid after '@': latest, -N (the run N before the "
                   "newest), or a run's id (redbench history %s lists them)",
                   spec, which, h->path);
        return -1;
    }
    sqlite3_stmt *st;
    const char *sql = by_id ? "SELECT id FROM runs WHERE id = ?"
                            : "SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1 "
                              "OFFSET ?";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return history_error(h, "cannot read the history's runs");
    sqlite3_bind_int64(st, 1, by_id ? strtoll(which, NULL, 10) : back);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    if (rc != SQLITE_DONE)
        return history_error(h, "cannot read the history's runs");
    if (by_id)
        diag_error("%s: the history has no run of id %s (redbench history %s lists them)", spec,
                   which, h->path);
    else
        diag_error("%s: the history has %lld run%s: @-%lld names none (valid: @-0 to @-%lld)",
                   spec, runs, runs == 1 ? "" : "s", back, runs - 1);
    return -1;
}

char *history_run_document(rb_history *h, long long id, size_t *len)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, "SELECT document FROM runs WHERE id = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        history_error(h, "cannot read the run");
        return NULL;
    }
    sqlite3_bind_int64(st, 1, id);
    char *text = NULL;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        *len = (size_t)sqlite3_column_bytes(st, 0);
        text = xmalloc(*len + 1);
        memcpy(text, t ? (const char *)t : "", *len);
        text[*len] = '\0';
    } else {
        history_error(h, "cannot read the run");
    }
    sqlite3_finalize(st);
    return text;
}

/* The parsed document of run `id`, `text` naming it; NULL after saying why. */
static json_value *run_document(rb_history *h, const char *text, long long id)
{
    size_t len = 0;
    char *doc_text = history_run_document(h, id, &len);
    if (!doc_text)
        return NULL;
    json_error err;
    json_value *doc = json_parse(doc_text, len, &err);
    if (!doc)
        diag_at(text, err.line, "the run's stored document is not JSON: %s", err.message);
    free(doc_text);
    return doc;
}

/* The parsed document of the run `text` names; NULL after saying why. */
static json_value *read_run(const char *text, const char *db, const char *which)
{
    rb_history h;
    if (history_open(&h, db, RB_HISTORY_READ) != 0)
        return NULL;
    long long id;
    json_value *doc = history_select_run(&h, text, which, &id) == 0
                          ? run_document(&h, text, id)
                          : NULL;
    history_close(&h);
    return doc;
}

/* The results of a run's parsed document (which it frees). */
static int results_of(const char *text, json_value *doc, rb_results_file *out)
{
    if (!doc)
        return -1;
    int status = json_check_results(doc, text) == 0 ? results_from_doc(text, doc, out) : -1;
    json_free(doc);
    return status;
}

int history_run_results(rb_history *h, const char *spec, long long id, rb_results_file *out)
{
    memset(out, 0, sizeof *out);
    return results_of(spec, run_document(h, spec, id), out);
}

json_value *history_json_read(const char *path)
{
    char *db, *which;
    int kind = history_spec_parse(path, &db, &which);
    if (kind <= 0)
        return kind < 0 ? NULL : json_read_file(path);
    json_value *doc = read_run(path, db, which);
    free(db);
    free(which);
    return doc;
}

int history_results_read(const char *path, rb_results_file *out)
{
    memset(out, 0, sizeof *out);
    char *db, *which;
    int kind = history_spec_parse(path, &db, &which);
    if (kind <= 0)
        return kind < 0 ? -1 : results_read(path, out);
    json_value *doc = read_run(path, db, which);
    free(db);
    free(which);
    return results_of(path, doc, out);
}

int history_compare_file_load(const char *path, rb_compare_file *file)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    char *db, *which;
    int kind = history_spec_parse(path, &db, &which);
    if (kind == 0) /* a results file: its rows read one at a time */
        return compare_file_load(path, file);
    if (kind < 0)
        return -1;
    free(db);
    free(which);
    rb_results_file results;
    if (history_results_read(path, &results) != 0)
        return -1;
    int status = compare_file_from_results(path, &results.res, file);
    results_file_free(&results);
    return status;
}
