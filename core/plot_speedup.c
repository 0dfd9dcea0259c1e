/* core/plot_speedup.c: the speedup figure: for each (op, dtype, n) the
 * baseline's fastest time divided by each configuration's time, as grouped
 * bars; and which rows the baseline names (a run, else a plugin). */
#include "plot_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"

/* Does row r belong to the baseline (a run name, else a plugin name)? */
static int in_baseline(const plot_row *r, const char *baseline, int by_run)
{
    const char *name = by_run ? r->run : r->plugin;
    return name && strcmp(name, baseline) == 0;
}

/* The data a row read (its data fields and n): "f32 16M". */
static char *case_label(const plot_builder *b, const plot_row *r)
{
    strbuf sb = {0};
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        if (b->field_varies[f])
            sb_printf(&sb, "%s ", r->field[f]);
    char n[32];
    plot_format(r->n, PLOT_UNIT_SIZE, n, sizeof n);
    sb_append(&sb, n);
    return sb.data;
}

static int same_data(const plot_row *a, const plot_row *b)
{
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        if (strcmp(a->field[f], b->field[f]) != 0)
            return 0;
    return 1;
}

/* The index of r's case (its data fields and n) among `cases`, or -1. */
static int case_of(const plot_row *r, const plot_row **cases, size_t n_cases)
{
    for (size_t k = 0; k < n_cases; k++)
        if (cases[k]->n == r->n && same_data(cases[k], r))
            return (int)k;
    return -1;
}

void plot_speedup(const plot_builder *b, plot_set *set, const char *baseline, int by_run)
{
    /* The cases with a baseline time, and the baseline's fastest time there. */
    const plot_row **cases = xcalloc(b->n_rows, sizeof *cases);
    double *base = xcalloc(b->n_rows, sizeof *base);
    size_t n_cases = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        if (!in_baseline(r, baseline, by_run))
            continue;
        int c = case_of(r, cases, n_cases);
        if (c < 0) {
            c = (int)n_cases++;
            cases[c] = r;
            base[c] = r->median_ns;
        } else if (r->median_ns < base[c]) {
            base[c] = r->median_ns;
        }
    }
    if (n_cases == 0) {
        diag_warn("the baseline %s has no ok rows with a time; no speedup figure", baseline);
        free(cases);
        free(base);
        return;
    }
    /* Order: by the data fields as they first appear, then by n. */
    size_t *group = xcalloc(n_cases, sizeof *group);
    for (size_t k = 0; k < n_cases; k++) {
        group[k] = k;
        for (size_t g = 0; g < k && group[k] == k; g++)
            if (same_data(cases[g], cases[k]))
                group[k] = group[g];
    }
    for (size_t i = 1; i < n_cases; i++)
        for (size_t j = i; j > 0 && (group[j] < group[j - 1] ||
                                     (group[j] == group[j - 1] && cases[j]->n < cases[j - 1]->n));
             j--) {
            const plot_row *t = cases[j];
            cases[j] = cases[j - 1];
            cases[j - 1] = t;
            double tb = base[j];
            base[j] = base[j - 1];
            base[j - 1] = tb;
            size_t tg = group[j];
            group[j] = group[j - 1];
            group[j - 1] = tg;
        }
    free(group);
    /* speedup[config][case] */
    double *speedup = xcalloc(b->n_configs * n_cases, sizeof *speedup);
    for (size_t k = 0; k < b->n_configs * n_cases; k++)
        speedup[k] = NAN;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        int c = case_of(r, cases, n_cases);
        if (c < 0)
            continue;
        double s = base[c] / r->median_ns;
        double *cell = &speedup[r->config * n_cases + (size_t)c];
        if (isnan(*cell) || s > *cell)
            *cell = s;
    }
    int *eligible = xcalloc(b->n_configs, sizeof *eligible);
    int *chosen = xcalloc(b->n_configs, sizeof *chosen);
    double *score = xcalloc(b->n_configs, sizeof *score);
    double lo = INFINITY, hi = 0;
    for (size_t c = 0; c < b->n_configs; c++) {
        score[c] = NAN;
        for (size_t k = 0; k < n_cases; k++) {
            double s = speedup[c * n_cases + k];
            if (isnan(s))
                continue;
            eligible[c] = 1;
            if (isnan(score[c]) || s > score[c])
                score[c] = s;
        }
    }
    size_t n_eligible = plot_choose(b, eligible, score, chosen);
    if (n_eligible >= 2) {
        plot_figure *fig = plot_add_figure(set);
        fig->kind = PLOT_BARS;
        fig->name = xstrdup("speedup");
        fig->title = xasprintf("Speedup against %s", baseline);
        char *note = plot_left_out_note(n_eligible);
        fig->subtitle = xasprintf("%s%s%s's fastest configuration's time / each configuration's "
                                  "time; above 1 is faster",
                                  note ? note : "", note ? "; " : "", baseline);
        free(note);
        fig->x_label = xstrdup("data");
        fig->y_label = xasprintf("speedup against %s", baseline);
        fig->y_unit = PLOT_UNIT_TIMES;
        fig->n_columns = n_cases;
        fig->columns = xcalloc(n_cases, sizeof *fig->columns);
        for (size_t k = 0; k < n_cases; k++)
            fig->columns[k] = case_label(b, cases[k]);
        size_t cap = 0;
        for (size_t c = 0; c < b->n_configs; c++) {
            if (!chosen[c])
                continue;
            plot_series *s = grow(&fig->series, &fig->n_series, &cap, sizeof *s);
            s->label = xstrdup(b->configs[c].label);
            s->n = n_cases;
            s->y = xcalloc(n_cases, sizeof *s->y);
            for (size_t k = 0; k < n_cases; k++) {
                s->y[k] = speedup[c * n_cases + k];
                if (s->y[k] > 0) {
                    lo = s->y[k] < lo ? s->y[k] : lo;
                    hi = s->y[k] > hi ? s->y[k] : hi;
                }
            }
        }
        fig->y_log10 = hi / lo > 20;
        plot_add_hline(fig, 1, "baseline");
    }
    free(eligible);
    free(chosen);
    free(score);
    free(speedup);
    free(cases);
    free(base);
}

/* The baseline: a run named so, else a plugin named so, among all rows. */
int plot_resolve_baseline(const plot_builder *b, const json_value *results,
                          const char *baseline, int *by_run)
{
    int plugin_match = 0;
    for (size_t k = 0; k < json_count(results); k++) {
        const json_value *row = json_at(results, k);
        if (strcmp(plot_value_text(json_get(row, "run")), baseline) == 0) {
            *by_run = 1;
            return 0;
        }
        plugin_match |= strcmp(plot_value_text(json_get(row, "plugin")), baseline) == 0;
    }
    if (plugin_match) {
        *by_run = 0;
        return 0;
    }
    strbuf runs = {0}, plugins = {0};
    for (size_t k = 0; k < json_count(results); k++) {
        const json_value *row = json_at(results, k);
        const char *words[2] = {plot_value_text(json_get(row, "run")),
                                plot_value_text(json_get(row, "plugin"))};
        strbuf *lists[2] = {&runs, &plugins};
        for (int w = 0; w < 2; w++) {
            char *quoted = xasprintf(" %s,", words[w]);
            if (*words[w] && (!lists[w]->data || !strstr(lists[w]->data, quoted)))
                sb_append(lists[w], quoted);
            free(quoted);
        }
    }
    if (runs.len)
        runs.data[--runs.len] = '\0';
    if (plugins.len)
        plugins.data[--plugins.len] = '\0';
    diag_error("--baseline %s: %s has no run or plugin of that name; runs:%s; plugins:%s",
               baseline, b->path, runs.data ? runs.data : " none",
               plugins.data ? plugins.data : " none");
    sb_free(&runs);
    sb_free(&plugins);
    return -1;
}

