/* src/plot/speedup.c: the speedup figure: for each (op, dtype, n) the
 * baseline's fastest time divided by each configuration's time, as grouped
 * bars (the rows the baseline names: plot/baseline.c). Cases
 * are found through a hash index and sorted, and the speedups of the
 * configurations drawn only are kept, so that time and memory grow linearly
 * with the rows. */
#include "plot/data.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text_index.h"
#include "base/util.h"

/* At most this many groups of bars; a note says how many more there were. */
#define MAX_CASES 256

/* The data a row read (its data fields and n): "f32 16M". */
static char *case_label(const plot_builder *b, const plot_row *r)
{
    strbuf sb = {0};
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        if (b->field_varies[f])
            plot_field_words(&sb, f, r->field[f]);
    char n[32];
    plot_format(r->n, PLOT_UNIT_SIZE, n, sizeof n);
    sb_printf(&sb, " %s", n);
    char *label = xstrdup(sb.data + 1); /* without the first space */
    sb_free(&sb);
    return label;
}

/* What identifies a row's case: its data fields and n. */
static char *case_id(const plot_row *r)
{
    strbuf sb = {0};
    sb_printf(&sb, "%.17g", r->n);
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        sb_printf(&sb, "\x1f%s", r->field[f]);
    return sb.data;
}

/* What identifies a case's group: its data fields. */
static char *data_id(const plot_row *r)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        sb_printf(&sb, "\x1f%s", r->field[f]);
    return sb.data;
}

typedef struct speedup_case {
    const plot_row *row; /* the first baseline row of the case */
    double base;         /* the baseline's fastest time there */
    size_t group;        /* its data fields, in the order they first appear */
    size_t position;     /* after sorting */
} speedup_case;

static int by_group_then_n(const void *pa, const void *pb)
{
    const speedup_case *a = *(const speedup_case *const *)pa;
    const speedup_case *b = *(const speedup_case *const *)pb;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->row->n != b->row->n)
        return a->row->n < b->row->n ? -1 : 1;
    return a < b ? -1 : a > b;
}

void plot_speedup(const plot_builder *b, plot_set *set, const char *baseline, int by)
{
    /* The cases with a baseline time, and the baseline's fastest time there. */
    text_index cases_by_id = {0}, groups_by_id = {0};
    char **ids = NULL;
    size_t n_ids = 0, ids_cap = 0;
    speedup_case *cases = NULL;
    size_t n_cases = 0, cases_cap = 0, n_groups = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        if (!plot_in_baseline(r, baseline, by))
            continue;
        char *id = case_id(r);
        int added;
        size_t c = *text_index_put(&cases_by_id, id, n_cases, &added);
        if (!added) {
            free(id);
            if (r->median_ns < cases[c].base)
                cases[c].base = r->median_ns;
            continue;
        }
        *(char **)grow(&ids, &n_ids, &ids_cap, sizeof *ids) = id;
        speedup_case *sc = grow(&cases, &n_cases, &cases_cap, sizeof *cases);
        sc->row = r;
        sc->base = r->median_ns;
        char *group = data_id(r);
        sc->group = *text_index_put(&groups_by_id, group, n_groups, &added);
        if (added) {
            n_groups++;
            *(char **)grow(&ids, &n_ids, &ids_cap, sizeof *ids) = group;
        } else {
            free(group);
        }
    }
    if (n_cases == 0) {
        char *name = printable_text(baseline);
        diag_warn("the baseline %s has no ok rows with a time; no speedup figure", name);
        free(name);
        text_index_free(&cases_by_id);
        text_index_free(&groups_by_id);
        free_list(ids, n_ids);
        return;
    }
    /* Order: by the data fields as they first appear, then by n. */
    speedup_case **order = xcalloc(n_cases, sizeof *order);
    for (size_t k = 0; k < n_cases; k++)
        order[k] = &cases[k];
    qsort(order, n_cases, sizeof *order, by_group_then_n);
    for (size_t k = 0; k < n_cases; k++)
        order[k]->position = k;
    size_t n_shown = n_cases < MAX_CASES ? n_cases : MAX_CASES;

    /* Each configuration's best speedup among the cases shown, to choose. */
    size_t *row_case = xcalloc(b->n_rows ? b->n_rows : 1, sizeof *row_case);
    int *eligible = xcalloc(b->n_configs, sizeof *eligible);
    int *chosen = xcalloc(b->n_configs, sizeof *chosen);
    double *score = xcalloc(b->n_configs, sizeof *score);
    for (size_t c = 0; c < b->n_configs; c++)
        score[c] = NAN;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        char *id = case_id(r);
        size_t *c = text_index_find(&cases_by_id, id);
        free(id);
        row_case[k] = c && cases[*c].position < n_shown ? *c : n_cases;
        if (row_case[k] == n_cases)
            continue;
        double s = cases[*c].base / r->median_ns;
        eligible[r->config] = 1;
        if (isnan(score[r->config]) || s > score[r->config])
            score[r->config] = s;
    }
    size_t n_eligible = plot_choose(b, eligible, score, chosen);
    if (n_eligible >= 2) {
        plot_figure *fig = plot_add_figure(set);
        fig->kind = PLOT_BARS;
        fig->name = xstrdup("speedup");
        fig->title = xasprintf("Speedup against %s", baseline);
        char *note = plot_left_out_note(n_eligible);
        char *cut = n_cases > n_shown ? xasprintf("the first %zu of %zu sizes", n_shown, n_cases)
                                      : NULL;
        fig->subtitle = xasprintf("%s%s%s%s%s's fastest configuration's time / each "
                                  "configuration's time; above 1 is faster",
                                  note ? note : "", note ? "; " : "", cut ? cut : "",
                                  cut ? "; " : "", baseline);
        free(note);
        free(cut);
        fig->x_label = xstrdup("data");
        fig->y_label = xasprintf("speedup against %s", baseline);
        fig->y_unit = PLOT_UNIT_TIMES;
        fig->n_columns = n_shown;
        fig->columns = xcalloc(n_shown, sizeof *fig->columns);
        for (size_t k = 0; k < n_shown; k++)
            fig->columns[k] = case_label(b, order[k]->row);
        /* A series per chosen configuration, in configuration order. */
        size_t *series_of = xcalloc(b->n_configs, sizeof *series_of);
        size_t cap = 0;
        for (size_t c = 0; c < b->n_configs; c++) {
            series_of[c] = SIZE_MAX;
            if (!chosen[c])
                continue;
            series_of[c] = fig->n_series;
            plot_series *s = grow(&fig->series, &fig->n_series, &cap, sizeof *s);
            s->label = xstrdup(b->configs[c].label);
            s->n = n_shown;
            s->y = xcalloc(n_shown, sizeof *s->y);
            for (size_t k = 0; k < n_shown; k++)
                s->y[k] = NAN;
        }
        for (size_t k = 0; k < b->n_rows; k++) {
            const plot_row *r = &b->rows[k];
            if (row_case[k] == n_cases || series_of[r->config] == SIZE_MAX)
                continue;
            const speedup_case *sc = &cases[row_case[k]];
            double s = sc->base / r->median_ns;
            double *cell = &fig->series[series_of[r->config]].y[sc->position];
            if (isnan(*cell) || s > *cell)
                *cell = s;
        }
        free(series_of);
        double lo = INFINITY, hi = 0;
        for (size_t j = 0; j < fig->n_series; j++)
            for (size_t k = 0; k < n_shown; k++) {
                double v = fig->series[j].y[k];
                if (v > 0) {
                    lo = v < lo ? v : lo;
                    hi = v > hi ? v : hi;
                }
            }
        fig->y_log10 = hi / lo > 20;
        plot_add_hline(fig, 1, "baseline");
    }
    free(eligible);
    free(chosen);
    free(score);
    free(row_case);
    free(order);
    free(cases);
    free_list(ids, n_ids);
    text_index_free(&cases_by_id);
    text_index_free(&groups_by_id);
}
