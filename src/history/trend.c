/* src/history/trend.c: the runs a filter keeps, in order, and each
 * configuration's series over them (history/trend.h), read with two
 * queries (the runs, then every ok row of theirs by configuration), the
 * steps of its medians and of its energies, and the trend written as a
 * table, CSV, Markdown or JSON. */
#include "history/trend.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json_writer.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "report/columns.h"
#include "report/output.h"

void history_filter_sql(const rb_history_filter *f, char *sql, size_t cap)
{
    size_t len = strlen(sql);
#define ADD(text) (len += (size_t)snprintf(sql + len, len < cap ? cap - len : 0, "%s", text))
    if (f->experiment)
        ADD(" AND u.experiment GLOB ?");
    if (f->device)
        ADD(" AND EXISTS (SELECT 1 FROM rows d WHERE d.run_id = u.id AND "
            "instr(lower(d.device), lower(?)) > 0)");
    if (f->plugin)
        ADD(" AND EXISTS (SELECT 1 FROM rows p WHERE p.run_id = u.id AND p.plugin GLOB ?)");
    if (f->since)
        ADD(" AND coalesce(u.started, u.added) >= ?");
    if (f->until)
        ADD(" AND substr(coalesce(u.started, u.added), 1, length(?)) <= ?");
#undef ADD
}

void history_filter_bind(const rb_history_filter *f, sqlite3_stmt *st, int *k)
{
    const char *texts[] = {f->experiment, f->device, f->plugin, f->since, f->until, f->until};
    for (size_t j = 0; j < RB_ARRAY_LEN(texts); j++)
        if (texts[j])
            sqlite3_bind_text(st, (*k)++, texts[j], -1, SQLITE_STATIC);
}

static char *column_text(sqlite3_stmt *st, int k)
{
    const unsigned char *t = sqlite3_column_text(st, k);
    return xstrdup(t ? (const char *)t : "");
}

static int load_runs(rb_history *h, const rb_history_filter *f, rb_trend *t)
{
    char sql[2048] = "SELECT u.id, coalesce(u.started, u.added), coalesce(u.git_revision, ''), "
                     "trim(coalesce(u.backend, '') || ' ' || coalesce(u.device, '')), "
                     "coalesce(u.experiment, '') FROM runs u WHERE 1";
    history_filter_sql(f, sql, sizeof sql);
    strcat(sql, f->by_revision ? " ORDER BY (SELECT min(coalesce(v.started, v.added)) FROM runs "
                                 "v WHERE coalesce(v.git_revision, '') = "
                                 "coalesce(u.git_revision, '')), 2, u.id"
                               : " ORDER BY 2, u.id");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return history_error(h, "cannot read the history's runs");
    int k = 1;
    history_filter_bind(f, st, &k);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rb_trend_run *r = grow(&t->runs, &t->n_runs, &cap, sizeof *t->runs);
        r->id = sqlite3_column_int64(st, 0);
        r->started = column_text(st, 1);
        r->revision = column_text(st, 2);
        r->device = column_text(st, 3);
        r->experiment = column_text(st, 4);
        if (f->last_id && r->id == f->last_id)
            break; /* the runs up to this one */
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return history_error(h, "cannot read the history's runs");
    return 0;
}

static int cmp_point(const void *a, const void *b)
{
    const rb_trend_point *x = a, *y = b;
    return x->run < y->run ? -1 : x->run > y->run;
}

/* The steps of one metric of the series, over the points that have it:
 * each step's `at` made an index into all the points. Returns the count. */
static size_t metric_steps(const rb_trend_series *s, int metric, const rb_step_criteria *c,
                           rb_step **steps, double *noise)
{
    double *y = xmalloc((s->n_points + 1) * sizeof *y);
    size_t *at = xmalloc((s->n_points + 1) * sizeof *at), n = 0, n_steps = 0;
    for (size_t k = 0; k < s->n_points; k++)
        if (trend_value(&s->points[k], metric) > 0) {
            at[n] = k;
            y[n++] = trend_value(&s->points[k], metric);
        }
    *steps = NULL;
    if (c)
        n_steps = steps_find(y, n, c, steps, noise);
    else
        *noise = steps_noise(y, n);
    for (size_t k = 0; k < n_steps; k++)
        (*steps)[k].at = at[(*steps)[k].at];
    free(y);
    free(at);
    return n_steps;
}

static void finish_series(rb_trend_series *s, const rb_step_criteria *c)
{
    qsort(s->points, s->n_points, sizeof *s->points, cmp_point);
    s->n_steps = metric_steps(s, RB_TREND_TIME, c, &s->steps, &s->noise);
    for (size_t k = 0; k < s->n_points; k++)
        s->n_energy += s->points[k].energy_j > 0;
    if (s->n_energy)
        s->n_energy_steps = metric_steps(s, RB_TREND_ENERGY, c, &s->energy_steps,
                                         &s->energy_noise);
}

int trend_load(rb_history *h, const rb_history_filter *f, const rb_step_criteria *c,
               rb_trend *t)
{
    memset(t, 0, sizeof *t);
    if (load_runs(h, f, t) != 0)
        return -1;
    if (t->n_runs == 0)
        return 0;
    long long max_id = 0;
    for (size_t k = 0; k < t->n_runs; k++)
        max_id = t->runs[k].id > max_id ? t->runs[k].id : max_id;
    size_t *index = xmalloc((size_t)(max_id + 1) * sizeof *index);
    for (long long k = 0; k <= max_id; k++)
        index[k] = SIZE_MAX;
    for (size_t k = 0; k < t->n_runs; k++)
        index[t->runs[k].id] = k;

    char sql[2048] = "SELECT r.config, r.run_id, r.median_ns, coalesce(r.bandwidth_gbs, 0), "
                     "coalesce(r.energy_j, 0) FROM rows r JOIN runs u ON u.id = r.run_id WHERE "
                     "r.status = 'ok' AND r.median_ns > 0";
    history_filter_sql(f, sql, sizeof sql);
    if (f->plugin)
        strcat(sql, " AND r.plugin GLOB ?");
    if (f->device)
        strcat(sql, " AND instr(lower(r.device), lower(?)) > 0");
    if (f->config)
        strcat(sql, " AND r.config GLOB ?");
    strcat(sql, " ORDER BY r.config");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        free(index);
        return history_error(h, "cannot read the history's rows");
    }
    int k = 1;
    history_filter_bind(f, st, &k);
    if (f->plugin)
        sqlite3_bind_text(st, k++, f->plugin, -1, SQLITE_STATIC);
    if (f->device)
        sqlite3_bind_text(st, k++, f->device, -1, SQLITE_STATIC);
    if (f->config)
        sqlite3_bind_text(st, k++, f->config, -1, SQLITE_STATIC);
    size_t cap_series = 0, cap_points = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 1);
        if (id < 0 || id > max_id || index[id] == SIZE_MAX)
            continue; /* after the last run asked for */
        const char *config = (const char *)sqlite3_column_text(st, 0);
        rb_trend_series *s = t->n_series ? &t->series[t->n_series - 1] : NULL;
        if (!s || strcmp(s->config, config ? config : "") != 0) {
            if (s)
                finish_series(s, c);
            s = grow(&t->series, &t->n_series, &cap_series, sizeof *t->series);
            s->config = xstrdup(config ? config : "");
            cap_points = 0;
        }
        rb_trend_point *p = grow(&s->points, &s->n_points, &cap_points, sizeof *s->points);
        p->run = index[id];
        p->median_ns = sqlite3_column_double(st, 2);
        p->bandwidth_gbs = sqlite3_column_double(st, 3);
        p->energy_j = sqlite3_column_double(st, 4);
    }
    sqlite3_finalize(st);
    free(index);
    if (t->n_series)
        finish_series(&t->series[t->n_series - 1], c);
    if (rc != SQLITE_DONE)
        return history_error(h, "cannot read the history's rows");
    return 0;
}

void trend_free(rb_trend *t)
{
    for (size_t k = 0; k < t->n_runs; k++) {
        free(t->runs[k].started);
        free(t->runs[k].revision);
        free(t->runs[k].device);
        free(t->runs[k].experiment);
    }
    free(t->runs);
    for (size_t k = 0; k < t->n_series; k++) {
        free(t->series[k].config);
        free(t->series[k].points);
        free(t->series[k].steps);
        free(t->series[k].energy_steps);
    }
    free(t->series);
    memset(t, 0, sizeof *t);
}

/* "run 12 (2026-12-01, abc123): 2.00x slower" for each step of the
 * metric, "; " between; `none` where the metric has no step, "" where it
 * was not measured. */
static char *steps_text(const rb_trend *t, const rb_trend_series *s, int metric,
                        const char *none)
{
    size_t n;
    const rb_step *steps = trend_steps(s, metric, &n);
    if (metric == RB_TREND_ENERGY && s->n_energy == 0)
        return xstrdup("");
    if (n == 0)
        return xstrdup(none);
    strbuf sb = {0};
    for (size_t k = 0; k < n; k++) {
        const rb_step *st = &steps[k];
        const rb_trend_run *r = &t->runs[s->points[st->at].run];
        sb_printf(&sb, "%srun %lld (%.10s%s%s): %.2fx %s", k ? "; " : "", r->id, r->started,
                  *r->revision ? ", " : "", r->revision,
                  st->ratio >= 1 ? st->ratio : 1 / st->ratio, trend_step_word(metric, st->ratio));
    }
    return sb.data;
}

/* A metric's steps as JSON members: "steps" (the medians': before_ns,
 * after_ns, verdict slower or faster) or "energy_steps" (before_j,
 * after_j, verdict more or less). */
static void json_steps(json_writer *w, const rb_trend *t, const rb_trend_series *s, int metric)
{
    size_t n;
    const rb_step *steps = trend_steps(s, metric, &n);
    int energy = metric == RB_TREND_ENERGY;
    jw_key(w, energy ? "energy_steps" : "steps");
    jw_begin_array(w);
    for (size_t j = 0; j < n; j++) {
        const rb_step *st = &steps[j];
        jw_begin_object(w);
        json_member_int(w, "run", t->runs[s->points[st->at].run].id);
        json_member_number(w, energy ? "before_j" : "before_ns", st->before);
        json_member_number(w, energy ? "after_j" : "after_ns", st->after);
        json_member_number(w, "ratio", st->ratio);
        json_member_string(w, "verdict", energy ? (st->ratio >= 1 ? "more" : "less")
                                                : (st->ratio >= 1 ? "slower" : "faster"));
        jw_end_object(w);
    }
    jw_end_array(w);
}

static int report_json_trend(FILE *out, const rb_trend *t)
{
    json_writer w;
    jw_init(&w, out, 2);
    jw_begin_object(&w);
    json_member_string(&w, "tool", "redbench");
    json_member_string(&w, "kind", "history trend");
    jw_key(&w, "runs");
    jw_begin_array(&w);
    for (size_t k = 0; k < t->n_runs; k++) {
        const rb_trend_run *r = &t->runs[k];
        jw_begin_object(&w);
        json_member_int(&w, "id", r->id);
        json_member_string(&w, "started", r->started);
        json_member_string(&w, "git_revision", r->revision);
        json_member_string(&w, "device", r->device);
        json_member_string(&w, "experiment", r->experiment);
        jw_end_object(&w);
    }
    jw_end_array(&w);
    jw_key(&w, "configurations");
    jw_begin_array(&w);
    for (size_t k = 0; k < t->n_series; k++) {
        const rb_trend_series *s = &t->series[k];
        jw_begin_object(&w);
        json_member_string(&w, "config", s->config);
        json_member_number(&w, "noise", s->noise);
        jw_key(&w, "points");
        jw_begin_array(&w);
        for (size_t j = 0; j < s->n_points; j++) {
            const rb_trend_point *p = &s->points[j];
            jw_begin_object(&w);
            json_member_int(&w, "run", t->runs[p->run].id);
            json_member_number(&w, "median_ns", p->median_ns);
            json_member_number(&w, "bandwidth_gbs", p->bandwidth_gbs);
            if (p->energy_j > 0)
                json_member_number(&w, "energy_j", p->energy_j);
            jw_end_object(&w);
        }
        jw_end_array(&w);
        json_steps(&w, t, s, RB_TREND_TIME);
        if (s->n_energy) {
            json_member_number(&w, "energy_noise", s->energy_noise);
            json_steps(&w, t, s, RB_TREND_ENERGY);
        }
        jw_end_object(&w);
    }
    jw_end_array(&w);
    jw_end_object(&w);
    return jw_finish(&w);
}

int trend_report(FILE *out, const rb_trend *t, int format)
{
    if (format == RB_FORMAT_JSON)
        return report_json_trend(out, t);
    static const rb_column columns[] = {
        {"configuration", 0}, {"runs", 1}, {"first", 1}, {"newest", 1},
        {"newest GB/s", 1},   {"noise", 1}, {"steps", 0}, {"energy steps", 0}};
    enum { N_COLUMNS = RB_ARRAY_LEN(columns) };
    char **cells = xcalloc(t->n_series * N_COLUMNS + 1, sizeof *cells);
    for (size_t k = 0; k < t->n_series; k++) {
        const rb_trend_series *s = &t->series[k];
        char **c = cells + k * N_COLUMNS;
        const rb_trend_point *first = &s->points[0], *last = &s->points[s->n_points - 1];
        char a[32], b[32];
        if (format == RB_FORMAT_CSV) {
            snprintf(a, sizeof a, "%.6g", first->median_ns);
            snprintf(b, sizeof b, "%.6g", last->median_ns);
        } else {
            format_duration_ns(first->median_ns, a, sizeof a);
            format_duration_ns(last->median_ns, b, sizeof b);
        }
        c[0] = xstrdup(s->config);
        c[1] = xasprintf("%zu", s->n_points);
        c[2] = xstrdup(a);
        c[3] = xstrdup(b);
        c[4] = xasprintf("%.1f", last->bandwidth_gbs);
        c[5] = xasprintf(format == RB_FORMAT_CSV ? "%.4f" : "%.1f%%",
                         format == RB_FORMAT_CSV ? s->noise : 100 * s->noise);
        const char *none = format == RB_FORMAT_CSV ? "" : "none";
        c[6] = steps_text(t, s, RB_TREND_TIME, none);
        c[7] = steps_text(t, s, RB_TREND_ENERGY, none);
        if (format != RB_FORMAT_CSV && s->n_energy == 0) {
            free(c[7]);
            c[7] = xstrdup("-"); /* not measured */
        }
    }
    if (format == RB_FORMAT_CSV) {
        fputs("config,runs,first_median_ns,newest_median_ns,newest_bandwidth_gbs,noise,steps,"
              "energy_steps\n",
              out);
        for (size_t k = 0; k < t->n_series; k++) {
            for (size_t j = 0; j < N_COLUMNS; j++)
                csv_field(out, cells[k * N_COLUMNS + j], j == 0);
            fputc('\n', out);
        }
    } else if (format == RB_FORMAT_MD) {
        md_table_head(out, columns, NULL, N_COLUMNS, "--:");
        for (size_t k = 0; k < t->n_series; k++)
            md_table_row(out, cells + k * N_COLUMNS, NULL, N_COLUMNS);
    } else {
        fprintf(out, "%zu configuration%s over %zu run%s\n", t->n_series,
                t->n_series == 1 ? "" : "s", t->n_runs, t->n_runs == 1 ? "" : "s");
        if (t->n_series)
            text_table(out, columns, NULL, N_COLUMNS, cells, t->n_series);
    }
    for (size_t k = 0; k < t->n_series * N_COLUMNS; k++)
        free(cells[k]);
    free(cells);
    return ferror(out) ? -1 : 0;
}
