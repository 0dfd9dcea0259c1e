/* src/report/html_map.c: the HTML report's strategy x n heat maps
 * (report/html_map.h): which strategy is fastest at which size, at a
 * glance, one map for each shape (rows, axis, lengths) of the results. It
 * is a plot figure (plot/figures.h) drawn by plot/svg.c like the others;
 * only the choice of its rows and cells is made here. */
#include "report/html_map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "config/sweep.h"
#include "results/fields.h"

/* At most this many strategies (rows) in the map; the first ones, in the
 * order of the results. */
#define MAP_MAX_STRATEGIES 40
/* At most this many maps: one for each shape (rows, axis, lengths) of the
 * ok rows, the first ones in the order of the results. */
#define MAP_MAX_SHAPES 12

static size_t find_word(char **words, size_t n, const char *word)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(words[k], word) == 0)
            return k;
    return n;
}

static int by_size(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int row_mapped(const rb_row *row)
{
    return row->status == RB_ROW_OK && row->config && isfinite(row->bandwidth_gbs) &&
           row->bandwidth_gbs > 0;
}

/* The strategy of a row: its run's name, with its op and dtype when the
 * results hold several; newly allocated. */
static char *strategy_of(const rb_results *res, const rb_row *row, int with_data)
{
    rb_row_ref ref = {res, row};
    char *run = field_text(row_field("run"), &ref);
    if (!with_data)
        return run;
    char *op = field_text(row_field("op"), &ref), *dtype = field_text(row_field("dtype"), &ref);
    char *text = xasprintf("%s %s %s", run, op, dtype);
    free(run);
    free(op);
    free(dtype);
    return text;
}

/* Whether a row has the shape (rows, axis, lengths) of `like`. */
static int same_shape(const rb_row *row, const rb_row *like)
{
    const rb_configuration *a = row->config, *b = like->config;
    return a->rows == b->rows && a->axis == b->axis && a->lengths == b->lengths;
}

/* The map of the ok rows shaped as `like` into *fig, when they hold two
 * sizes or more: returns 1, else 0 (fig untouched). `shapes` says whether
 * the results hold several shapes (the title names this one). */
static int map_of_shape(const rb_results *res, const rb_row *like, int shapes, size_t index,
                        plot_figure *fig)
{
    uint64_t *sizes = xcalloc(res->n_rows + 1, sizeof *sizes);
    size_t n_sizes = 0, first = res->n_rows;
    int with_data = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        if (!row_mapped(row) || !same_shape(row, like))
            continue;
        if (first == res->n_rows)
            first = k;
        else if (row->config->op != res->rows[first].config->op ||
                 row->config->dtype != res->rows[first].config->dtype)
            with_data = 1;
        sizes[n_sizes++] = row->config->n;
    }
    /* each size once, in order: sorted, then the repeats dropped */
    qsort(sizes, n_sizes, sizeof *sizes, by_size);
    size_t distinct = 0;
    for (size_t s = 0; s < n_sizes; s++)
        if (s == 0 || sizes[s] != sizes[s - 1])
            sizes[distinct++] = sizes[s];
    n_sizes = distinct;
    if (n_sizes < 2) {
        free(sizes);
        return 0;
    }

    fig->kind = PLOT_HEATMAP;
    char shape[160] = "";
    if (shapes)
        sweep_shape_text(like->config, shape, sizeof shape);
    fig->name = index ? xasprintf("strategy-map-%zu", index + 1) : xstrdup("strategy-map");
    fig->title = shape[0] ? xasprintf("Best bandwidth of each strategy at each n (%s)", shape + 1)
                          : xstrdup("Best bandwidth of each strategy at each n");
    fig->x_label = xstrdup(sweep_is_shaped(like->config) ? "n (elements of each row)" : "n");
    fig->y_label = xstrdup("strategy");
    fig->value_label = xstrdup("GB/s");
    fig->x_unit = PLOT_UNIT_SIZE;
    fig->columns = xcalloc(n_sizes, sizeof *fig->columns);
    for (size_t s = 0; s < n_sizes; s++) {
        char text[32];
        format_size(sizes[s], text, sizeof text);
        fig->columns[s] = xstrdup(text);
    }
    fig->n_columns = n_sizes;
    fig->rows = xcalloc(MAP_MAX_STRATEGIES, sizeof *fig->rows);
    fig->cells = xcalloc(MAP_MAX_STRATEGIES * n_sizes, sizeof *fig->cells);
    for (size_t k = 0; k < MAP_MAX_STRATEGIES * n_sizes; k++)
        fig->cells[k] = NAN;
    size_t left_out = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        if (!row_mapped(row) || !same_shape(row, like))
            continue;
        char *name = strategy_of(res, row, with_data);
        size_t r = find_word(fig->rows, fig->n_rows, name);
        if (r == fig->n_rows) {
            if (fig->n_rows == MAP_MAX_STRATEGIES) {
                left_out++;
                free(name);
                continue;
            }
            fig->rows[fig->n_rows++] = name;
        } else {
            free(name);
        }
        const uint64_t *at = bsearch(&row->config->n, sizes, n_sizes, sizeof *sizes, by_size);
        size_t c = (size_t)(at - sizes);
        double *cell = &fig->cells[r * n_sizes + c];
        if (isnan(*cell) || row->bandwidth_gbs > *cell)
            *cell = row->bandwidth_gbs;
    }
    fig->subtitle = left_out ? xasprintf("%zu rows of further strategies left out", left_out)
                             : xstrdup("each cell: the best GB/s of the strategy's ok rows");
    free(sizes);
    return 1;
}

size_t html_strategy_map(const rb_results *res, plot_set *set)
{
    memset(set, 0, sizeof *set);
    /* the shapes of the ok rows, each once, in the order of the results */
    const rb_row **shapes = xcalloc(MAP_MAX_SHAPES, sizeof *shapes);
    size_t n_shapes = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        if (!row_mapped(row))
            continue;
        size_t s = 0;
        while (s < n_shapes && !same_shape(row, shapes[s]))
            s++;
        if (s < n_shapes)
            continue;
        if (n_shapes < MAP_MAX_SHAPES) /* further shapes: in the plots only */
            shapes[n_shapes++] = row;
    }
    set->figures = xcalloc(n_shapes ? n_shapes : 1, sizeof *set->figures);
    for (size_t s = 0; s < n_shapes; s++)
        set->n_figures += map_of_shape(res, shapes[s], n_shapes > 1, set->n_figures,
                                       &set->figures[set->n_figures]);
    free(shapes);
    if (set->n_figures == 0) {
        free(set->figures);
        set->figures = NULL;
    }
    return set->n_figures;
}
