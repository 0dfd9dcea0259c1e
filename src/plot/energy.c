/* src/plot/energy.c: the energy figures: joules per gigabyte read against
 * n (log2), one line per configuration, one figure per op and dtype, drawn
 * only from rows that measured energy (energy = on); none when no row has.
 * J/GB is energy per call over the bytes a call must read
 * (results_row_bytes), as the results' j_per_gb field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "plot/data.h"

/* Energies per gigabyte spanning this ratio or more are drawn on a log
 * axis, as bandwidths are (plot/data.c). */
#define ENERGY_DECADES_RATIO 100.0
/* The largest J/GB drawn: a row beyond it is left out. */
#define ENERGY_MAX_J_PER_GB 1e12

/* A row's J/GB, or 0 when it has no energy (or an absurd one). */
static double row_j_per_gb(const plot_row *r)
{
    const rb_row *row = r->row;
    if (row->energy_source == RB_ENERGY_NONE || !(row->energy_j > 0))
        return 0;
    double v = energy_j_per_gb(row->energy_j, results_row_bytes(row));
    return isfinite(v) && v > 0 && v <= ENERGY_MAX_J_PER_GB ? v : 0;
}

static int by_x(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The line of configuration c over the rows of (op, dtype) with energy. */
static void add_line(plot_figure *fig, const plot_builder *b, size_t c, const char *op,
                     const char *dtype)
{
    double *pts = xcalloc(2 * (b->n_rows ? b->n_rows : 1), sizeof *pts);
    size_t n = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        double y = row_j_per_gb(r);
        if (r->config != c || !(y > 0) || strcmp(r->field[0], op) != 0 ||
            strcmp(r->field[1], dtype) != 0)
            continue;
        pts[2 * n] = r->n;
        pts[2 * n + 1] = y;
        n++;
    }
    if (n) {
        qsort(pts, n, 2 * sizeof *pts, by_x);
        size_t cap = fig->n_series;
        plot_series *s = grow(&fig->series, &fig->n_series, &cap, sizeof *s);
        s->label = xstrdup(b->configs[c].label);
        s->x = xcalloc(n, sizeof *s->x);
        s->y = xcalloc(n, sizeof *s->y);
        s->lo = xcalloc(n, sizeof *s->lo);
        s->hi = xcalloc(n, sizeof *s->hi);
        for (size_t p = 0; p < n; p++) {
            s->x[p] = pts[2 * p];
            s->y[p] = s->lo[p] = s->hi[p] = pts[2 * p + 1];
        }
        s->n = n;
    }
    free(pts);
}

/* One figure of the (op, dtype) of row `first`; `combos` is how many
 * there are in the file (one: the figure is named "energy"). */
static void energy_figure(const plot_builder *b, plot_set *set, const plot_row *first,
                          size_t combos, int *eligible, int *chosen, double *score)
{
    const char *op = first->field[0], *dtype = first->field[1];
    for (size_t c = 0; c < b->n_configs; c++) {
        eligible[c] = 0;
        score[c] = -INFINITY;
    }
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        double y = row_j_per_gb(r);
        if (!(y > 0) || strcmp(r->field[0], op) != 0 || strcmp(r->field[1], dtype) != 0)
            continue;
        eligible[r->config] = 1;
        if (-y > score[r->config])
            score[r->config] = -y; /* the lowest J/GB first */
    }
    size_t n_eligible = plot_choose(b, eligible, score, chosen);
    plot_figure *fig = plot_add_figure(set);
    fig->kind = PLOT_LINES;
    if (combos == 1) {
        fig->name = xstrdup("energy");
    } else {
        char *safe_op = plot_file_name(op), *safe_dtype = plot_file_name(dtype);
        fig->name = xasprintf("energy-%s-%s", safe_op, safe_dtype);
        free(safe_op);
        free(safe_dtype);
    }
    fig->title = xasprintf("Energy per GB read against n (%s %s)", op, dtype);
    fig->subtitle = n_eligible > PLOT_MAX_SERIES
                        ? xasprintf("the %d with the least energy of %zu configurations",
                                    PLOT_MAX_SERIES, n_eligible)
                        : NULL;
    fig->x_label = xstrdup("n (elements)");
    fig->y_label = xstrdup("energy (J/GB)");
    fig->value_label = xstrdup("J/GB"); /* the points' tooltips */
    fig->x_unit = PLOT_UNIT_SIZE;
    fig->y_unit = PLOT_UNIT_NUMBER;
    fig->x_log2 = 1;
    for (size_t c = 0; c < b->n_configs; c++)
        if (chosen[c])
            add_line(fig, b, c, op, dtype);
    double lo = INFINITY, hi = 0;
    for (size_t s = 0; s < fig->n_series; s++)
        for (size_t p = 0; p < fig->series[s].n; p++) {
            lo = fmin(lo, fig->series[s].y[p]);
            hi = fmax(hi, fig->series[s].y[p]);
        }
    fig->y_log10 = lo > 0 && hi / lo >= ENERGY_DECADES_RATIO;
    if (fig->y_log10) {
        free(fig->y_label);
        fig->y_label = xstrdup("energy (J/GB, log scale)");
    }
}

void plot_energy_figures(plot_builder *b, plot_set *set)
{
    /* the (op, dtype) pairs with energy, in the order they first appear */
    size_t *firsts = xcalloc(b->n_rows ? b->n_rows : 1, sizeof *firsts);
    size_t combos = 0;
    for (size_t k = 0; k < b->n_rows; k++) {
        if (!(row_j_per_gb(&b->rows[k]) > 0))
            continue;
        size_t f = 0;
        while (f < combos && (strcmp(b->rows[firsts[f]].field[0], b->rows[k].field[0]) != 0 ||
                              strcmp(b->rows[firsts[f]].field[1], b->rows[k].field[1]) != 0))
            f++;
        if (f == combos)
            firsts[combos++] = k;
    }
    int *eligible = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *eligible);
    int *chosen = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *chosen);
    double *score = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *score);
    for (size_t f = 0; f < combos; f++)
        energy_figure(b, set, &b->rows[firsts[f]], combos, eligible, chosen, score);
    free(eligible);
    free(chosen);
    free(score);
    free(firsts);
}
