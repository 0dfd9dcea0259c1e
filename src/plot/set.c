/* src/plot/set.c: a set of figures as it is built and freed: a new figure
 * at its end, a reference line in a figure, and the set freed. What every
 * file that lays out figures (data, ranking, energy, speedup, heatmap)
 * adds to, and which calls none of them. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "plot/data.h"

plot_figure *plot_add_figure(plot_set *set)
{
    size_t cap = set->n_figures;
    return grow(&set->figures, &set->n_figures, &cap, sizeof(plot_figure));
}

void plot_add_hline(plot_figure *fig, double y, const char *label)
{
    size_t cap = fig->n_hlines;
    plot_hline *h = grow(&fig->hlines, &fig->n_hlines, &cap, sizeof *h);
    h->y = y;
    h->label = xstrdup(label);
}

static void free_words(char **words, size_t count)
{
    for (size_t k = 0; k < count; k++)
        free(words[k]);
    free(words);
}

void plot_set_free(plot_set *set)
{
    for (size_t f = 0; f < set->n_figures; f++) {
        plot_figure *fig = &set->figures[f];
        for (size_t s = 0; s < fig->n_series; s++) {
            free(fig->series[s].label);
            free(fig->series[s].x);
            free(fig->series[s].y);
            free(fig->series[s].lo);
            free(fig->series[s].hi);
        }
        free(fig->series);
        for (size_t h = 0; h < fig->n_hlines; h++)
            free(fig->hlines[h].label);
        free(fig->hlines);
        free_words(fig->columns, fig->n_columns);
        free_words(fig->rows, fig->n_rows);
        free(fig->cells);
        size_t n_cells = fig->n_rows * fig->n_columns;
        if (fig->cell_texts)
            free_words(fig->cell_texts, n_cells);
        if (fig->cell_notes)
            free_words(fig->cell_notes, n_cells);
        free(fig->winners);
        free(fig->name);
        free(fig->title);
        free(fig->subtitle);
        free(fig->x_label);
        free(fig->y_label);
        free(fig->value_label);
    }
    free(set->figures);
    free(set->baseline);
    memset(set, 0, sizeof *set);
}
