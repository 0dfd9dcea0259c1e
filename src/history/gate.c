/* src/history/gate.c: the newest run judged against the history before it
 * (history/gate.h): for each of its rows, the configuration's series up to
 * it, its steps found with and without the run, and the verdict. */
#include "history/gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json_writer.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "compare/significance.h"
#include "report/columns.h"
#include "report/output.h"

/* Earlier runs a configuration needs before it is judged. */
#define GATE_MIN_HISTORY 3

typedef struct gate_line {
    char *config;
    char *status;         /* the row's status in the run judged */
    int verdict;          /* enum rb_verdict; -1: became bad */
    double ratio;         /* newest (or new level) / level before; NaN unknown */
    double before, newest;
    size_t history;       /* earlier runs with an ok row */
    char note[192];
} gate_line;

static int cmp_series(const void *key, const void *item)
{
    return strcmp(key, ((const rb_trend_series *)item)->config);
}

/* Whether `steps` has one within a run of `s` in the same direction. */
static int has_step(const rb_step *steps, size_t n, const rb_step *s)
{
    for (size_t k = 0; k < n; k++)
        if ((steps[k].at + 1 >= s->at && steps[k].at <= s->at + 1) &&
            (steps[k].ratio > 1) == (s->ratio > 1))
            return 1;
    return 0;
}

static void judge(const rb_trend *t, const rb_trend_series *s, const rb_step_criteria *c,
                  gate_line *g)
{
    size_t n = s->n_points;
    g->history = n - 1;
    g->newest = s->points[n - 1].median_ns;
    g->ratio = NAN;
    g->before = NAN;
    if (n - 1 < GATE_MIN_HISTORY) {
        g->verdict = RB_VERDICT_UNCLEAR;
        snprintf(g->note, sizeof g->note, "too little history: %zu earlier run%s (%d judge)",
                 n - 1, n - 1 == 1 ? "" : "s", GATE_MIN_HISTORY);
        return;
    }
    double *y = xmalloc(n * sizeof *y);
    for (size_t k = 0; k < n; k++)
        y[k] = s->points[k].median_ns;
    rb_step *now, *prev;
    size_t n_now = steps_find(y, n, c, &now, NULL), n_prev = steps_find(y, n - 1, c, &prev, NULL);
    size_t level_from = n_prev ? prev[n_prev - 1].at : 0;
    g->before = steps_median(y + level_from, n - 1 - level_from);
    if (n_now && !has_step(prev, n_prev, &now[n_now - 1])) {
        const rb_step *st = &now[n_now - 1];
        const rb_trend_run *r = &t->runs[s->points[st->at].run];
        g->verdict = st->ratio > 1 ? RB_VERDICT_SLOWER : RB_VERDICT_FASTER;
        g->ratio = st->ratio;
        g->before = st->before;
        snprintf(g->note, sizeof g->note, "a step at run %lld (%.10s%s%.12s), %zu run%s at the "
                 "new level", r->id, r->started, *r->revision ? ", " : "", r->revision,
                 n - st->at, n - st->at == 1 ? "" : "s");
    } else {
        g->ratio = g->newest / g->before;
        if (fabs(log(g->ratio)) <= log1p(c->threshold)) {
            g->verdict = RB_VERDICT_SAME;
        } else {
            g->verdict = RB_VERDICT_UNCLEAR;
            snprintf(g->note, sizeof g->note, "beyond the threshold, not a step: one run off "
                     "(the next run confirms a step or not)");
        }
    }
    free(y);
    free(now);
    free(prev);
}

static const char *line_word(const gate_line *g)
{
    return g->verdict < 0 ? "worse" : verdict_name(g->verdict);
}

static void write_lines(FILE *out, const gate_line *lines, size_t n, int format, long long id,
                        const rb_trend_run *run, const size_t *counts, size_t n_bad)
{
    if (format == RB_FORMAT_JSON) {
        json_writer w;
        jw_init(&w, out, 2);
        jw_begin_object(&w);
        json_member_string(&w, "tool", "redbench");
        json_member_string(&w, "kind", "history check");
        json_member_int(&w, "run", id);
        json_member_string(&w, "started", run->started);
        json_member_string(&w, "git_revision", run->revision);
        jw_key(&w, "configurations");
        jw_begin_array(&w);
        for (size_t k = 0; k < n; k++) {
            const gate_line *g = &lines[k];
            jw_begin_object(&w);
            json_member_string(&w, "config", g->config);
            json_member_string(&w, "status", g->status);
            json_member_string(&w, "verdict", line_word(g));
            json_member_number(&w, "ratio", g->ratio);
            json_member_number(&w, "before_ns", g->before);
            json_member_number(&w, "newest_ns", g->newest);
            json_member_int(&w, "history", (int64_t)g->history);
            json_member_string(&w, "note", g->note);
            jw_end_object(&w);
        }
        jw_end_array(&w);
        jw_key(&w, "counts");
        jw_begin_object(&w);
        for (int v = 0; v < RB_VERDICT_COUNT_; v++)
            json_member_int(&w, verdict_name(v), (int64_t)counts[v]);
        json_member_int(&w, "worse", (int64_t)n_bad);
        jw_end_object(&w);
        jw_end_object(&w);
        jw_finish(&w);
        return;
    }
    static const rb_column columns[] = {{"configuration", 0}, {"verdict", 0}, {"ratio", 1},
                                        {"before", 1},        {"newest", 1},  {"runs", 1},
                                        {"note", 0}};
    enum { N_COLUMNS = RB_ARRAY_LEN(columns) };
    char **cells = xcalloc(n * N_COLUMNS + 1, sizeof *cells);
    for (size_t k = 0; k < n; k++) {
        const gate_line *g = &lines[k];
        char **c = cells + k * N_COLUMNS;
        char before[32] = "", newest[32] = "";
        if (isfinite(g->before))
            format_duration_ns(g->before, before, sizeof before);
        if (isfinite(g->newest))
            format_duration_ns(g->newest, newest, sizeof newest);
        c[0] = xstrdup(g->config);
        c[1] = xstrdup(line_word(g));
        c[2] = isfinite(g->ratio) ? xasprintf("%.3f", g->ratio) : xstrdup("");
        c[3] = xstrdup(before);
        c[4] = xstrdup(newest);
        c[5] = xasprintf("%zu", g->history);
        c[6] = xstrdup(g->note);
    }
    if (format == RB_FORMAT_CSV) {
        fputs("config,verdict,ratio,before,newest,runs,note\n", out);
        for (size_t k = 0; k < n; k++) {
            for (int j = 0; j < N_COLUMNS; j++)
                csv_field(out, cells[k * N_COLUMNS + j], j == 0);
            fputc('\n', out);
        }
    } else if (format == RB_FORMAT_MD) {
        md_table_head(out, columns, NULL, N_COLUMNS, "--:");
        for (size_t k = 0; k < n; k++)
            md_table_row(out, cells + k * N_COLUMNS, NULL, N_COLUMNS);
    } else {
        text_table(out, columns, NULL, N_COLUMNS, cells, n);
        fprintf(out, "run %lld (%s%s%s): %zu configuration%s: %zu same, %zu faster, %zu slower, "
                "%zu unclear, %zu worse (ok before, not now)\n",
                id, run->started, *run->revision ? ", " : "", run->revision, n,
                n == 1 ? "" : "s", counts[RB_VERDICT_SAME], counts[RB_VERDICT_FASTER],
                counts[RB_VERDICT_SLOWER], counts[RB_VERDICT_UNCLEAR], n_bad);
    }
    for (size_t k = 0; k < n * N_COLUMNS; k++)
        free(cells[k]);
    free(cells);
}

int history_gate(FILE *out, rb_history *h, long long id, rb_history_filter *f,
                 const rb_step_criteria *c, int format)
{
    f->last_id = id;
    rb_trend t;
    if (trend_load(h, f, NULL, &t) != 0)
        return 2;
    if (t.n_runs == 0 || t.runs[t.n_runs - 1].id != id) {
        diag_error("%s: run %lld is not among the runs the filters keep", h->path, id);
        trend_free(&t);
        return 2;
    }
    size_t last = t.n_runs - 1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, "SELECT config, status FROM rows WHERE run_id = ? ORDER BY "
                                  "position", -1, &st, NULL) != SQLITE_OK) {
        trend_free(&t);
        history_error(h, "cannot read the run's rows");
        return 2;
    }
    sqlite3_bind_int64(st, 1, id);
    gate_line *lines = NULL;
    size_t n = 0, cap = 0, counts[RB_VERDICT_COUNT_] = {0}, n_bad = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *config = (const char *)sqlite3_column_text(st, 0);
        const char *status = (const char *)sqlite3_column_text(st, 1);
        const rb_trend_series *s = bsearch(config ? config : "", t.series, t.n_series,
                                           sizeof *t.series, cmp_series);
        int ok = status && strcmp(status, "ok") == 0;
        int judged = ok && s && s->n_points && s->points[s->n_points - 1].run == last;
        size_t earlier = s ? s->n_points - (judged ? 1 : 0) : 0;
        if (!judged && earlier == 0)
            continue; /* not ok now, never ok before (or not timed): nothing to judge */
        gate_line *g = grow(&lines, &n, &cap, sizeof *lines);
        g->config = xstrdup(config ? config : "");
        g->status = xstrdup(status ? status : "?");
        if (judged) {
            judge(&t, s, c, g);
            counts[g->verdict]++;
        } else {
            g->verdict = -1;
            g->ratio = g->before = g->newest = NAN;
            g->history = earlier;
            snprintf(g->note, sizeof g->note, "%s now, ok in %zu earlier run%s",
                     status ? status : "?", earlier, earlier == 1 ? "" : "s");
            n_bad++;
        }
    }
    sqlite3_finalize(st);
    int status = 2;
    if (rc != SQLITE_DONE) {
        history_error(h, "cannot read the run's rows");
    } else {
        write_lines(out, lines, n, format, id, &t.runs[last], counts, n_bad);
        status = counts[RB_VERDICT_SLOWER] || n_bad ? 1 : 0;
    }
    for (size_t k = 0; k < n; k++) {
        free(lines[k].config);
        free(lines[k].status);
    }
    free(lines);
    trend_free(&t);
    return status;
}
