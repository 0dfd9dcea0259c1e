/* src/history/report_trends.c: the trends of an HTML report of a history's
 * run (history/report_trends.h): the run and every run of its history read
 * through one open of the file, each row of the run matched with its
 * configuration's series by the key the history keeps for it (rows.config
 * of the run's rows), and the section written with trend_figure.c's
 * figures, one block for each configuration, in the order of the rows. */
#include "history/report_trends.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "history/read.h"

static int cmp_series(const void *key, const void *item)
{
    return strcmp(key, ((const rb_trend_series *)item)->config);
}

/* Each row's series, from the keys the history holds for the run's rows. */
static int match_rows(rb_history *h, rb_run_trends *rt, size_t n_rows)
{
    rt->n_rows = n_rows;
    rt->row_series = xmalloc((n_rows + 1) * sizeof *rt->row_series);
    for (size_t k = 0; k < n_rows; k++)
        rt->row_series[k] = SIZE_MAX;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, "SELECT position, config FROM rows WHERE run_id = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return history_error(h, "cannot read the run's rows");
    sqlite3_bind_int64(st, 1, rt->run_id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long position = sqlite3_column_int64(st, 0);
        const char *config = (const char *)sqlite3_column_text(st, 1);
        const rb_trend_series *s = bsearch(config ? config : "", rt->trend.series,
                                           rt->trend.n_series, sizeof *rt->trend.series,
                                           cmp_series);
        if (s && position >= 0 && (size_t)position < n_rows)
            rt->row_series[position] = (size_t)(s - rt->trend.series);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : history_error(h, "cannot read the run's rows");
}

int run_trends_read(const char *spec, rb_results_file *file, rb_run_trends *rt)
{
    memset(rt, 0, sizeof *rt);
    char *which;
    int kind = history_spec_parse(spec, &rt->db, &which);
    if (kind <= 0)
        return kind;
    rb_history h;
    int status = history_open(&h, rt->db, RB_HISTORY_READ);
    if (status == 0) {
        rb_history_filter every = {0};
        rb_step_criteria c;
        steps_criteria_default(&c);
        int read = 0;
        status = history_select_run(&h, spec, which, &rt->run_id);
        if (status == 0)
            status = history_run_results(&h, spec, rt->run_id, file);
        read = status == 0;
        if (status == 0)
            status = trend_load(&h, &every, &c, &rt->trend);
        if (status == 0)
            status = match_rows(&h, rt, file->res.n_rows);
        for (rt->run = 0; rt->run < rt->trend.n_runs; rt->run++)
            if (rt->trend.runs[rt->run].id == rt->run_id)
                break;
        history_close(&h);
        if (status != 0 && read)
            results_file_free(file);
    }
    free(which);
    if (status != 0) {
        run_trends_free(rt);
        return -1;
    }
    return 1;
}

void run_trends_free(rb_run_trends *rt)
{
    free(rt->db);
    trend_free(&rt->trend);
    free(rt->row_series);
    memset(rt, 0, sizeof *rt);
}

static int row_anchor(const void *data, size_t row, char *buf, size_t cap)
{
    const rb_run_trends *rt = data;
    if (row >= rt->n_rows || rt->row_series[row] == SIZE_MAX)
        return 0;
    snprintf(buf, cap, "trend-%zu", rt->row_series[row] + 1);
    return 1;
}

static int write_section(FILE *out, const void *data)
{
    const rb_run_trends *rt = data;
    const rb_trend *t = &rt->trend;
    const rb_trend_run *run = &t->runs[rt->run];
    int *shown = xcalloc(t->n_series + 1, sizeof *shown);
    size_t n_shown = 0;
    for (size_t k = 0; k < rt->n_rows; k++)
        if (rt->row_series[k] != SIZE_MAX && !shown[rt->row_series[k]]++)
            n_shown++;
    fprintf(out, "<p class=\"meta\">%zu configuration%s of this run (run %lld, ", n_shown,
            n_shown == 1 ? "" : "s", run->id);
    put_markup(out, run->started);
    if (*run->revision) {
        fputs(", revision ", out);
        put_markup(out, run->revision);
    }
    fprintf(out, ") over the %zu run%s of the history <code>", t->n_runs,
            t->n_runs == 1 ? "" : "s");
    put_markup(out, rt->db);
    fputs("</code>: the median, and the energy per call where it was measured, in each run "
          "where the configuration was ok, with the steps that <code>redbench history "
          "trend</code> finds (a level of two runs or more, beyond 5% and the series' own "
          "noise) marked; this run's point is the larger, red one. Hover a point for its "
          "run, date and revision.</p>\n", out);
    /* each series once, in the order of the rows that follow it */
    memset(shown, 0, (t->n_series + 1) * sizeof *shown);
    for (size_t k = 0; k < rt->n_rows; k++) {
        size_t j = rt->row_series[k];
        if (j == SIZE_MAX || shown[j])
            continue;
        shown[j] = 1;
        fprintf(out, "<div class=\"trend\" id=\"trend-%zu\">\n<h3>", j + 1);
        put_markup(out, t->series[j].config);
        fputs("</h3>\n", out);
        trend_series_block(out, t, &t->series[j], rt->run);
        fputs("</div>\n", out);
    }
    free(shown);
    return ferror(out) ? -1 : 0;
}

void run_trends_section(const rb_run_trends *rt, rb_html_extra *extra)
{
    memset(extra, 0, sizeof *extra);
    extra->id = "trends";
    extra->title = "Trends";
    extra->summary = "each configuration's median and energy over the history's runs, with "
                     "their steps";
    extra->link_text = "trend";
    extra->write = write_section;
    extra->row_anchor = row_anchor;
    extra->data = rt;
}
