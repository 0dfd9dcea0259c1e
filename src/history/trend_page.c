/* src/history/trend_page.c: the trend page (history/trend.h's trend_page):
 * one self-contained HTML page, for each configuration its figures over
 * the runs (history/trend_figure.c: its median, and its energy where it
 * was measured, the steps marked, each run's id, date and revision in a
 * point's tooltip). Configurations with a step come first. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "history/trend.h"

static const char page_style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "h2{font-size:1em;font-family:monospace;margin:1.6em 0 .3em}"
    "p.steps{margin:.2em 0;font-size:.9em}"
    "svg{border:1px solid #ddd;display:block;margin:.2em 0 .6em}";

int trend_page(FILE *out, const rb_trend *t, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", out);
    put_markup(out, title);
    fprintf(out, "</title><style>%s</style></head><body>\n<h1>", page_style);
    put_markup(out, title);
    size_t with_steps = 0;
    for (size_t k = 0; k < t->n_series; k++)
        with_steps += t->series[k].n_steps + t->series[k].n_energy_steps > 0;
    fprintf(out, "</h1>\n<p>%zu configuration%s over %zu run%s; %zu with a step (the noise-aware "
                 "steps of redbench history: a level needs two runs or more, and a step lies "
                 "beyond the threshold and the series' own noise). Each point is a run's "
                 "median, or its energy per call where that was measured; hover for its run, "
                 "date and revision.</p>\n",
            t->n_series, t->n_series == 1 ? "" : "s", t->n_runs, t->n_runs == 1 ? "" : "s",
            with_steps);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < t->n_series; k++) {
            const rb_trend_series *s = &t->series[k];
            if ((s->n_steps + s->n_energy_steps > 0) != (pass == 0))
                continue;
            fputs("<section><h2>", out);
            put_markup(out, s->config);
            fputs("</h2>\n", out);
            trend_series_block(out, t, s, SIZE_MAX);
            fputs("</section>\n", out);
        }
    }
    fputs("</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}
