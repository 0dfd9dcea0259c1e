/* src/plot/heatmap.c: heat maps for runs that sweep two or more
 * parameters (seed 003's values per thread x block size): bandwidth per
 * value of two parameters, one map per value of everything else (data,
 * size and the other swept parameters). The two axes are the swept
 * parameters with numeric values first, then the ones with the most values.
 * Values and groups are found through hash indexes, so that the time grows
 * linearly with the rows. */
#include "plot/data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text_index.h"
#include "base/util.h"

/* A map with more values than this on an axis is not drawn (it could not
 * be read); a warning says so. */
#define MAX_AXIS_VALUES 256

typedef struct axis_value {
    const char *text;
    double number; /* NaN unless the value is a JSON number */
} axis_value;

typedef struct axis {
    axis_value *values;
    size_t count, cap;
    text_index index; /* text -> position in values */
} axis;

/* A row's parameter's text. */
static const char *param(const plot_row *r, const char *name)
{
    int is_number;
    return plot_param(r, name, &is_number);
}

static size_t axis_add(axis *a, const plot_row *r, const char *name)
{
    int is_number;
    const char *text = plot_param(r, name, &is_number);
    int added;
    size_t *slot = text_index_put(&a->index, text, a->count, &added);
    if (!added)
        return *slot;
    axis_value *value = grow(&a->values, &a->count, &a->cap, sizeof *value);
    value->text = text;
    value->number = is_number ? strtod(text, NULL) : NAN;
    if (!isfinite(value->number))
        value->number = NAN;
    return a->count - 1;
}

static void axis_free(axis *a)
{
    free(a->values);
    text_index_free(&a->index);
}

static int axis_numeric(const axis *a)
{
    for (size_t k = 0; k < a->count; k++)
        if (isnan(a->values[k].number))
            return 0;
    return 1;
}

static int by_number(const void *pa, const void *pb)
{
    const axis_value *a = pa, *b = pb;
    return a->number < b->number ? -1 : a->number > b->number;
}

/* Sorts a numeric axis; the index follows the values. */
static void axis_sort(axis *a)
{
    if (!axis_numeric(a))
        return;
    qsort(a->values, a->count, sizeof *a->values, by_number);
    for (size_t k = 0; k < a->count; k++)
        *text_index_find(&a->index, a->values[k].text) = k;
}

static size_t axis_find(const axis *a, const char *text)
{
    size_t *slot = text_index_find(&a->index, text);
    return slot ? *slot : a->count;
}

/* Picks the two axes among the run's swept parameters. */
static void choose_axes(const plot_builder *b, const plot_run *run, const char **x,
                        const char **y)
{
    int best_score[2] = {-1, -1};
    for (size_t p = 0; p < run->n_varying; p++) {
        axis a = {0};
        for (size_t j = 0; j < run->n_rows; j++)
            axis_add(&a, &b->rows[run->rows[j]], run->varying[p]);
        int score = (axis_numeric(&a) ? 100000 : 0) + (int)(a.count < 99999 ? a.count : 99999);
        axis_free(&a);
        if (score > best_score[0]) {
            best_score[1] = best_score[0];
            *y = *x;
            best_score[0] = score;
            *x = run->varying[p];
        } else if (score > best_score[1]) {
            best_score[1] = score;
            *y = run->varying[p];
        }
    }
}

/* What a row's map is for: device, data, n and the other swept parameters. */
static char *group_id(const plot_row *r, const char **names, size_t n_names, const char *x,
                      const char *y)
{
    strbuf sb = {0};
    sb_printf(&sb, "%d\x1f%.17g", r->device, r->n);
    for (int f = 0; f < PLOT_N_FIELDS; f++)
        sb_printf(&sb, "\x1f%s", r->field[f]);
    for (size_t p = 0; p < n_names; p++)
        if (names[p] != x && names[p] != y)
            sb_printf(&sb, "\x1f%s", param(r, names[p]));
    return sb.data;
}

static char *group_subtitle(const plot_builder *b, const plot_row *r, const char **names,
                            size_t n_names, const char *x, const char *y)
{
    strbuf sb = {0};
    char n[32];
    plot_format(r->n, PLOT_UNIT_SIZE, n, sizeof n);
    sb_printf(&sb, "%s %s, n = %s", r->field[0], r->field[1], n);
    for (int f = 2; f < PLOT_N_FIELDS; f++)
        if (b->field_varies[f])
            sb_printf(&sb, ", %s = %s", plot_data_fields[f], r->field[f]);
    for (size_t p = 0; p < n_names; p++)
        if (names[p] != x && names[p] != y)
            sb_printf(&sb, ", %s = %s", names[p], param(r, names[p]));
    return sb.data;
}

static char **axis_words(const axis *a)
{
    char **words = xcalloc(a->count, sizeof *words);
    for (size_t k = 0; k < a->count; k++)
        words[k] = xstrdup(a->values[k].text);
    return words;
}

/* Adds the map of the rows of `run` in one group: `members` holds the
 * positions j of its rows in run->rows, `count` of them. Returns 1 when
 * drawn, 0 when an axis has too many values. */
static int add_map(const plot_builder *b, plot_set *set, const plot_run *run,
                   const size_t *members, size_t count, const char *x, const char *y, int number)
{
    const char **names = (const char **)run->varying;
    size_t n_names = run->n_varying;
    axis cols = {0}, rows = {0};
    const plot_row *first = NULL;
    for (size_t m = 0; m < count; m++) {
        const plot_row *r = &b->rows[run->rows[members[m]]];
        first = first ? first : r;
        axis_add(&cols, r, x);
        axis_add(&rows, r, y);
    }
    int drawn = cols.count <= MAX_AXIS_VALUES && rows.count <= MAX_AXIS_VALUES;
    if (!drawn) {
        char *name = printable_text(run->name);
        diag_warn("the heat map %d of run %s is not drawn: %zu x %zu values, more than %d on "
                  "an axis",
                  number, name, cols.count, rows.count, MAX_AXIS_VALUES);
        free(name);
    }
    axis_sort(&cols);
    axis_sort(&rows);
    if (drawn && cols.count * rows.count >= 2) {
        double *cells = xcalloc(cols.count * rows.count, sizeof *cells);
        for (size_t k = 0; k < cols.count * rows.count; k++)
            cells[k] = NAN;
        for (size_t m = 0; m < count; m++) {
            const plot_row *r = &b->rows[run->rows[members[m]]];
            if (!(r->gbs > 0))
                continue;
            size_t c = axis_find(&cols, param(r, x));
            size_t w = axis_find(&rows, param(r, y));
            double *cell = &cells[w * cols.count + c];
            if (isnan(*cell) || r->gbs > *cell)
                *cell = r->gbs;
        }
        plot_figure *fig = plot_add_figure(set);
        char *safe = plot_file_name(run->name);
        fig->kind = PLOT_HEATMAP;
        fig->name = xasprintf("heatmap-%s-%d", safe, number);
        free(safe);
        fig->title = xasprintf("%s: bandwidth (GB/s) by %s and %s", run->name, x, y);
        fig->subtitle = group_subtitle(b, first, names, n_names, x, y);
        fig->x_label = xstrdup(x);
        fig->y_label = xstrdup(y);
        fig->value_label = xstrdup("GB/s");
        fig->columns = axis_words(&cols);
        fig->n_columns = cols.count;
        fig->rows = axis_words(&rows);
        fig->n_rows = rows.count;
        fig->cells = cells;
    }
    axis_free(&cols);
    axis_free(&rows);
    return drawn;
}

void plot_heatmaps(const plot_builder *b, plot_set *set)
{
    size_t n_maps = 0, n_wanted = 0;
    for (size_t ri = 0; ri < b->n_runs; ri++) {
        const plot_run *run = &b->runs[ri];
        if (run->n_varying < 2)
            continue;
        const char **names = (const char **)run->varying;
        const char *x = NULL, *y = NULL;
        choose_axes(b, run, &x, &y);
        /* One map per group, in the order the groups first appear. */
        text_index groups = {0};
        char **ids = NULL;
        size_t n_ids = 0, cap = 0;
        size_t *group = xcalloc(run->n_rows ? run->n_rows : 1, sizeof *group);
        for (size_t j = 0; j < run->n_rows; j++) {
            char *id = group_id(&b->rows[run->rows[j]], names, run->n_varying, x, y);
            int added;
            group[j] = *text_index_put(&groups, id, n_ids, &added);
            if (added)
                *(char **)grow(&ids, &n_ids, &cap, sizeof *ids) = id;
            else
                free(id);
        }
        /* Each group's rows together (a counting sort), so that a map
         * reads its own rows only. */
        size_t *start = xcalloc(n_ids + 1, sizeof *start);
        size_t *members = xcalloc(run->n_rows ? run->n_rows : 1, sizeof *members);
        for (size_t j = 0; j < run->n_rows; j++)
            start[group[j] + 1]++;
        for (size_t g = 0; g < n_ids; g++)
            start[g + 1] += start[g];
        size_t *at = xcalloc(n_ids ? n_ids : 1, sizeof *at);
        for (size_t j = 0; j < run->n_rows; j++)
            members[start[group[j]] + at[group[j]]++] = j;
        free(at);
        for (size_t g = 0; g < n_ids; g++) {
            n_wanted++;
            if (n_maps < PLOT_MAX_HEATMAPS) {
                size_t before = set->n_figures;
                add_map(b, set, run, members + start[g], start[g + 1] - start[g], x, y,
                        (int)g + 1);
                n_maps += set->n_figures - before;
            }
        }
        free(start);
        free(members);
        free(group);
        free_list(ids, n_ids);
        text_index_free(&groups);
    }
    if (n_wanted > n_maps && n_maps == PLOT_MAX_HEATMAPS)
        diag_warn("%zu heat maps were possible; the first %d are drawn", n_wanted,
                  PLOT_MAX_HEATMAPS);
}
