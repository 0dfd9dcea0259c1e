/* src/history/listing.c: the runs of a history listed (history/listing.h),
 * from the runs table alone (its counts were kept when each was added). */
#include "history/listing.h"

#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "base/util.h"
#include "report/columns.h"
#include "report/output.h"

static const rb_column columns[] = {
    {"id", 1},       {"started", 0},  {"revision", 0}, {"device", 0},
    {"experiment", 0}, {"rows", 1},   {"ok", 1},       {"wrong", 1},
    {"failed", 1},   {"unsupported", 1}, {"skipped", 1}};
enum { N_COLUMNS = RB_ARRAY_LEN(columns) };
static const char *const csv_names[N_COLUMNS] = {
    "id", "started", "git_revision", "device", "experiment", "rows",
    "ok", "wrong", "failed", "unsupported", "skipped"};

int history_list(FILE *out, rb_history *h, const rb_history_filter *f, int format)
{
    char sql[2048] = "SELECT u.id, coalesce(u.started, u.added), coalesce(u.git_revision, ''), "
                     "trim(coalesce(u.backend, '') || ' ' || coalesce(u.device, '')), "
                     "coalesce(u.experiment, ''), u.rows, u.ok, u.wrong, u.failed, "
                     "u.unsupported, u.skipped FROM runs u WHERE 1";
    history_filter_sql(f, sql, sizeof sql);
    strcat(sql, " ORDER BY 2, u.id");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return history_error(h, "cannot read the history's runs");
    int k = 1;
    history_filter_bind(f, st, &k);
    char **cells = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char **row = NULL;
        size_t len = n * N_COLUMNS;
        for (int c = 0; c < N_COLUMNS; c++) {
            const unsigned char *t = sqlite3_column_text(st, c);
            row = grow(&cells, &len, &cap, sizeof *cells);
            *row = xstrdup(t ? (const char *)t : "");
        }
        n++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        for (size_t j = 0; j < n * N_COLUMNS; j++)
            free(cells[j]);
        free(cells);
        return history_error(h, "cannot read the history's runs");
    }
    if (format == RB_FORMAT_JSON) {
        json_writer w;
        jw_init(&w, out, 2);
        jw_begin_object(&w);
        json_member_string(&w, "tool", "redbench");
        json_member_string(&w, "kind", "history runs");
        jw_key(&w, "runs");
        jw_begin_array(&w);
        for (size_t r = 0; r < n; r++) {
            jw_begin_object(&w);
            for (int c = 0; c < N_COLUMNS; c++) {
                const char *cell = cells[r * N_COLUMNS + c];
                if (columns[c].right)
                    json_member_int(&w, csv_names[c], strtoll(cell, NULL, 10));
                else
                    json_member_string(&w, csv_names[c], cell);
            }
            jw_end_object(&w);
        }
        jw_end_array(&w);
        jw_end_object(&w);
        jw_finish(&w);
    } else if (format == RB_FORMAT_CSV) {
        for (int c = 0; c < N_COLUMNS; c++)
            csv_field(out, csv_names[c], c == 0);
        fputc('\n', out);
        for (size_t r = 0; r < n; r++) {
            for (int c = 0; c < N_COLUMNS; c++)
                csv_field(out, cells[r * N_COLUMNS + c], c == 0);
            fputc('\n', out);
        }
    } else if (format == RB_FORMAT_MD) {
        md_table_head(out, columns, NULL, N_COLUMNS, "--:");
        for (size_t r = 0; r < n; r++)
            md_table_row(out, cells + r * N_COLUMNS, NULL, N_COLUMNS);
    } else {
        fprintf(out, "%s: %zu run%s\n", h->path, n, n == 1 ? "" : "s");
        if (n)
            text_table(out, columns, NULL, N_COLUMNS, cells, n);
    }
    for (size_t j = 0; j < n * N_COLUMNS; j++)
        free(cells[j]);
    free(cells);
    return ferror(out) ? 1 : 0;
}
