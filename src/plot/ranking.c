/* src/plot/ranking.c: the bandwidth figure of a sweep at a single n (one
 * size, many configurations): GB/s against n would be a vertical stack of
 * dots, so it is drawn as horizontal bars instead, one per configuration,
 * fastest on top, with the device's peaks as vertical lines. */
#include "plot/data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The n of every row with a bandwidth on `device`, or NaN when they hold
 * none or several. */
double plot_single_n(const plot_builder *b, int device)
{
    double n = NAN;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        if (r->device != device || !(r->gbs > 0))
            continue;
        if (isnan(n))
            n = r->n;
        else if (r->n != n)
            return NAN;
    }
    return n;
}

typedef struct ranked {
    size_t config;
    double gbs;
} ranked;

static int faster_first(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->gbs != b->gbs)
        return a->gbs > b->gbs ? -1 : 1;
    return a->config < b->config ? -1 : a->config > b->config;
}

plot_figure *plot_ranking_figure(const plot_builder *b, plot_set *set, int device, char *name,
                                 const char *device_name, double n)
{
    /* Each configuration's best GB/s on the device, in one pass. */
    double *best = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *best);
    for (size_t c = 0; c < b->n_configs; c++)
        best[c] = NAN;
    for (size_t k = 0; k < b->n_rows; k++) {
        const plot_row *r = &b->rows[k];
        if (r->device == device && r->gbs > 0 && !(r->gbs <= best[r->config]))
            best[r->config] = r->gbs;
    }
    ranked *bars = xcalloc(b->n_configs ? b->n_configs : 1, sizeof *bars);
    size_t count = 0;
    for (size_t c = 0; c < b->n_configs; c++)
        if (best[c] > 0)
            bars[count++] = (ranked){c, best[c]};
    free(best);
    qsort(bars, count, sizeof *bars, faster_first);
    size_t shown = count < PLOT_MAX_BARS ? count : PLOT_MAX_BARS;
    plot_figure *fig = plot_add_figure(set);
    char size[32];
    plot_format(n, PLOT_UNIT_SIZE, size, sizeof size);
    fig->kind = PLOT_HBARS;
    fig->name = name;
    fig->title = xasprintf("Bandwidth of each configuration at n = %s%s%s", size,
                           device_name ? " on " : "", device_name ? device_name : "");
    fig->subtitle = count > shown
                        ? xasprintf("the %zu fastest of %zu configurations", shown, count)
                        : xstrdup("fastest first");
    fig->x_label = xstrdup("bandwidth (GB/s)");
    fig->y_label = xstrdup("configuration");
    fig->value_label = xstrdup("GB/s");
    fig->columns = xcalloc(shown ? shown : 1, sizeof *fig->columns);
    fig->series = xcalloc(1, sizeof *fig->series);
    fig->n_series = 1;
    fig->series[0].label = xstrdup("bandwidth");
    fig->series[0].y = xcalloc(shown ? shown : 1, sizeof *fig->series[0].y);
    fig->series[0].n = shown;
    for (size_t k = 0; k < shown; k++) {
        fig->columns[k] = xstrdup(b->configs[bars[k].config].label);
        fig->series[0].y[k] = bars[k].gbs;
    }
    fig->n_columns = shown;
    free(bars);
    return fig;
}
