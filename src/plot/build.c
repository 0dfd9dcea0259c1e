/* src/plot/build.c: plot_build: a result set's rows grouped into
 * configurations (plot/data.c), then every figure: bandwidth and time
 * (plot/data.c), energy where rows have it (plot/energy.c), speedup
 * (plot/speedup.c), winner maps where rows have shapes (plot/winners.c)
 * and heat maps (plot/heatmap.c), with names kept unique. */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text_index.h"
#include "base/util.h"
#include "plot/data.h"

/* Figure names are file names: two that are the same once made fit for a
 * file name (runs "a/b" and "a_b") are told apart by a short hash of the
 * figure's title (which holds the run's name as it is), and a number if
 * that is not enough. */
static void unique_names(plot_set *set)
{
    text_index names = {0};
    for (size_t f = 0; f < set->n_figures; f++) {
        plot_figure *fig = &set->figures[f];
        for (int attempt = 0; text_index_find(&names, fig->name); attempt++) {
            char *name = attempt == 0
                             ? xasprintf("%s-%08zx", fig->name,
                                         text_hash(fig->title, 0) & 0xffffffffu)
                             : xasprintf("%s-%d", fig->name, attempt + 1);
            free(fig->name);
            fig->name = name;
        }
        text_index_put(&names, fig->name, f, NULL);
    }
    text_index_free(&names);
}

int plot_build(const rb_results *res, const char *path, const char *baseline, plot_set *set)
{
    memset(set, 0, sizeof *set);
    plot_builder b = {.path = path, .res = res};
    plot_read_rows(&b);
    int by = PLOT_BY_RUN;
    int status = baseline ? plot_resolve_baseline(&b, baseline, &by) : 0;
    if (status == 0) {
        set->n_rows = res->n_rows;
        set->n_plotted = b.n_rows;
        plot_group_configs(&b);
        if (b.n_rows > 0) {
            /* the winner maps': the one named, else CUB's where it ran, else none */
            int map_by = by;
            const char *map_baseline = baseline ? baseline : plot_default_baseline(&b, &map_by);
            if (!baseline)
                baseline = b.rows[0].run;
            set->baseline = xstrdup(baseline);
            plot_bandwidth_figures(&b, set);
            plot_time_figure(&b, set);
            plot_energy_figures(&b, set);
            plot_speedup(&b, set, baseline, by);
            plot_winner_maps(&b, set, map_baseline, map_by);
            plot_heatmaps(&b, set);
            unique_names(set);
        }
    }
    for (size_t c = 0; c < b.n_configs; c++) {
        free(b.configs[c].id);
        free(b.configs[c].label);
    }
    free(b.configs);
    free(b.runs);
    free(b.run_rows);
    free(b.rows);
    if (status != 0)
        plot_set_free(set);
    return status;
}

