/* core/plot_heatmap.c: heat maps for runs that sweep two or more
 * parameters (seed 003's values per thread x block size): bandwidth per
 * value of two parameters, one map per value of everything else (data,
 * size and the other swept parameters). The two axes are the swept
 * parameters with numeric values first, then the ones with the most values. */
#include "plot_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"

typedef struct axis_value {
    const char *text;
    double number; /* NaN unless the value is a JSON number */
} axis_value;

typedef struct axis {
    axis_value *values;
    size_t count, cap;
    int numeric; /* every value is a number */
} axis;

static const json_value *param(const plot_row *r, const char *name)
{
    return json_get(json_get(r->json, "params"), name);
}

static size_t axis_add(axis *a, const json_value *v)
{
    const char *text = plot_value_text(v);
    for (size_t k = 0; k < a->count; k++)
        if (strcmp(a->values[k].text, text) == 0)
            return k;
    axis_value *slot = grow(&a->values, &a->count, &a->cap, sizeof *slot);
    slot->text = text;
    slot->number = v && v->type == JSON_NUMBER ? v->number : NAN;
    return a->count - 1;
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

static size_t axis_find(const axis *a, const char *text)
{
    for (size_t k = 0; k < a->count; k++)
        if (strcmp(a->values[k].text, text) == 0)
            return k;
    return a->count;
}

/* Picks the two axes among the run's swept parameters. */
static void choose_axes(const plot_builder *b, const char *run, const char **names, size_t n_names,
                        const char **x, const char **y)
{
    int best_score[2] = {-1, -1};
    for (size_t p = 0; p < n_names; p++) {
        axis a = {0};
        for (size_t k = 0; k < b->n_rows; k++)
            if (strcmp(b->rows[k].run, run) == 0)
                axis_add(&a, param(&b->rows[k], names[p]));
        int score = (axis_numeric(&a) ? 100000 : 0) + (int)(a.count < 99999 ? a.count : 99999);
        free(a.values);
        if (score > best_score[0]) {
            best_score[1] = best_score[0];
            *y = *x;
            best_score[0] = score;
            *x = names[p];
        } else if (score > best_score[1]) {
            best_score[1] = score;
            *y = names[p];
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
            sb_printf(&sb, "\x1f%s", plot_value_text(param(r, names[p])));
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
            sb_printf(&sb, ", %s = %s", names[p], plot_value_text(param(r, names[p])));
    return sb.data;
}

static char **axis_words(const axis *a)
{
    char **words = xcalloc(a->count, sizeof *words);
    for (size_t k = 0; k < a->count; k++)
        words[k] = xstrdup(a->values[k].text);
    return words;
}

/* Adds the map of the rows of `run` whose group is `id`. */
static void add_map(const plot_builder *b, plot_set *set, const char *run, const char *id,
                    const char **names, size_t n_names, const char *x, const char *y, int number)
{
    axis cols = {0}, rows = {0};
    const plot_row *first = NULL;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        if (strcmp(r->run, run) != 0)
            continue;
        char *gid = group_id(r, names, n_names, x, y);
        if (strcmp(gid, id) == 0) {
            first = first ? first : r;
            axis_add(&cols, param(r, x));
            axis_add(&rows, param(r, y));
        }
        free(gid);
    }
    if (axis_numeric(&cols))
        qsort(cols.values, cols.count, sizeof *cols.values, by_number);
    if (axis_numeric(&rows))
        qsort(rows.values, rows.count, sizeof *rows.values, by_number);
    if (cols.count * rows.count >= 2) {
        double *cells = xcalloc(cols.count * rows.count, sizeof *cells);
        for (size_t k = 0; k < cols.count * rows.count; k++)
            cells[k] = NAN;
        for (size_t k = 0; k < b->n_rows; k++) {
            const plot_row *r = &b->rows[k];
            if (strcmp(r->run, run) != 0 || !(r->gbs > 0))
                continue;
            char *gid = group_id(r, names, n_names, x, y);
            if (strcmp(gid, id) == 0) {
                size_t c = axis_find(&cols, plot_value_text(param(r, x)));
                size_t w = axis_find(&rows, plot_value_text(param(r, y)));
                double *cell = &cells[w * cols.count + c];
                if (isnan(*cell) || r->gbs > *cell)
                    *cell = r->gbs;
            }
            free(gid);
        }
        plot_figure *fig = plot_add_figure(set);
        char *safe = plot_file_name(run);
        fig->kind = PLOT_HEATMAP;
        fig->name = xasprintf("heatmap-%s-%d", safe, number);
        free(safe);
        fig->title = xasprintf("%s: bandwidth (GB/s) by %s and %s", run, x, y);
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
    free(cols.values);
    free(rows.values);
}

void plot_heatmaps(const plot_builder *b, plot_set *set)
{
    size_t n_maps = 0, n_wanted = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        const char *run = b->rows[k].run;
        size_t earlier = 0;
        while (earlier < k && strcmp(b->rows[earlier].run, run) != 0)
            earlier++;
        if (earlier < k)
            continue; /* this run was done */
        const char *names[32];
        size_t n_names = plot_varying_params(b, run, names, RB_ARRAY_LEN(names));
        if (n_names < 2)
            continue;
        const char *x = NULL, *y = NULL;
        choose_axes(b, run, names, n_names, &x, &y);
        /* One map per group, in the order the groups first appear. */
        char **ids = NULL;
        size_t n_ids = 0, cap = 0;
        for (size_t j = k; j < b->n_rows; j++) {
            if (strcmp(b->rows[j].run, run) != 0)
                continue;
            char *id = group_id(&b->rows[j], names, n_names, x, y);
            size_t seen = 0;
            while (seen < n_ids && strcmp(ids[seen], id) != 0)
                seen++;
            if (seen < n_ids) {
                free(id);
                continue;
            }
            *(char **)grow(&ids, &n_ids, &cap, sizeof *ids) = id;
        }
        for (size_t g = 0; g < n_ids; g++) {
            n_wanted++;
            if (n_maps < PLOT_MAX_HEATMAPS) {
                size_t before = set->n_figures;
                add_map(b, set, run, ids[g], names, n_names, x, y, (int)g + 1);
                n_maps += set->n_figures - before;
            }
            free(ids[g]);
        }
        free(ids);
    }
    if (n_wanted > n_maps && n_maps == PLOT_MAX_HEATMAPS)
        diag_warn("%zu heat maps were possible; the first %d are drawn", n_wanted,
                  PLOT_MAX_HEATMAPS);
}
