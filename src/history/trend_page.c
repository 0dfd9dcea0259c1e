/* src/history/trend_page.c: the trend page (history/trend.h's trend_page):
 * one self-contained HTML page, a figure per configuration drawn as inline
 * SVG: the median of each run where the configuration was ok (a point
 * whose tooltip names the run's id, date and revision and its median and
 * bandwidth), the levels between steps as lines, each step marked with
 * its ratio. Configurations with a step come first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/util.h"
#include "history/trend.h"

#define FIG_W 720
#define FIG_H 220
#define PAD_L 70
#define PAD_R 20
#define PAD_T 14
#define PAD_B 28

static const char page_style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "h2{font-size:1em;font-family:monospace;margin:1.6em 0 .3em}"
    "p.steps{margin:.2em 0;font-size:.9em}.slower{color:#b00}.faster{color:#070}"
    "svg{border:1px solid #ddd;background:#fff}"
    ".pt{fill:#1f77b4}.lvl{stroke:#ff7f0e;stroke-width:2;fill:none}"
    ".line{stroke:#9ecae1;stroke-width:1;fill:none}.step{stroke:#b00;stroke-dasharray:4 3}"
    ".axis{stroke:#888}.lab{font-size:11px;fill:#555}";

static double x_of(size_t run, size_t n_runs)
{
    double span = n_runs > 1 ? (double)(n_runs - 1) : 1;
    return PAD_L + (FIG_W - PAD_L - PAD_R) * (double)run / span;
}

static double y_of(double v, double lo, double hi)
{
    return PAD_T + (FIG_H - PAD_T - PAD_B) * (1 - (v - lo) / (hi - lo));
}

static void figure(FILE *out, const rb_trend *t, const rb_trend_series *s)
{
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < s->n_points; k++) {
        lo = fmin(lo, s->points[k].median_ns);
        hi = fmax(hi, s->points[k].median_ns);
    }
    double pad = (hi - lo) * 0.08 + hi * 0.01;
    lo = fmax(0, lo - pad);
    hi += pad;
    fprintf(out, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", FIG_W,
            FIG_H, FIG_W, FIG_H);
    fprintf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", PAD_L,
            FIG_H - PAD_B, FIG_W - PAD_R, FIG_H - PAD_B);
    fprintf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", PAD_L, PAD_T,
            PAD_L, FIG_H - PAD_B);
    for (int k = 0; k <= 2; k++) {
        double v = lo + (hi - lo) * k / 2;
        char text[32];
        format_duration_ns(v, text, sizeof text);
        fprintf(out, "<text class=\"lab\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                PAD_L - 4, y_of(v, lo, hi) + 4, text);
    }
    const rb_trend_run *first = &t->runs[s->points[0].run],
                       *last = &t->runs[s->points[s->n_points - 1].run];
    fprintf(out, "<text class=\"lab\" x=\"%d\" y=\"%d\">run %lld</text>", PAD_L, FIG_H - 8,
            first->id);
    fprintf(out, "<text class=\"lab\" x=\"%d\" y=\"%d\" text-anchor=\"end\">run %lld</text>\n",
            FIG_W - PAD_R, FIG_H - 8, last->id);
    fputs("<polyline class=\"line\" points=\"", out);
    for (size_t k = 0; k < s->n_points; k++)
        fprintf(out, "%s%.1f,%.1f", k ? " " : "", x_of(s->points[k].run, t->n_runs),
                y_of(s->points[k].median_ns, lo, hi));
    fputs("\"/>\n", out);
    /* the levels between steps, and each step */
    for (size_t k = 0; k <= s->n_steps; k++) {
        size_t from = k ? s->steps[k - 1].at : 0,
               to = k < s->n_steps ? s->steps[k].at : s->n_points;
        double level = k < s->n_steps ? s->steps[k].before : s->n_steps ? s->steps[k - 1].after
                                                                          : NAN;
        if (!isfinite(level))
            break;
        fprintf(out, "<line class=\"lvl\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                x_of(s->points[from].run, t->n_runs), y_of(level, lo, hi),
                x_of(s->points[to - 1].run, t->n_runs), y_of(level, lo, hi));
    }
    for (size_t k = 0; k < s->n_steps; k++) {
        const rb_step *st = &s->steps[k];
        const rb_trend_run *r = &t->runs[s->points[st->at].run];
        double x = x_of(s->points[st->at].run, t->n_runs);
        fprintf(out, "<line class=\"step\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"><title>"
                     "step at run %lld (",
                x, PAD_T, x, FIG_H - PAD_B, r->id);
        put_markup(out, r->started);
        fputs(", ", out);
        put_markup(out, r->revision);
        fprintf(out, "): %.2fx %s</title></line>\n", st->ratio >= 1 ? st->ratio : 1 / st->ratio,
                st->ratio >= 1 ? "slower" : "faster");
    }
    for (size_t k = 0; k < s->n_points; k++) {
        const rb_trend_point *p = &s->points[k];
        const rb_trend_run *r = &t->runs[p->run];
        char median[32];
        format_duration_ns(p->median_ns, median, sizeof median);
        fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"><title>run %lld, ",
                x_of(p->run, t->n_runs), y_of(p->median_ns, lo, hi), r->id);
        put_markup(out, r->started);
        fputs(", revision ", out);
        put_markup(out, *r->revision ? r->revision : "unknown");
        fprintf(out, ": %s, %.1f GB/s</title></circle>\n", median, p->bandwidth_gbs);
    }
    fputs("</svg>\n", out);
}

int trend_page(FILE *out, const rb_trend *t, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", out);
    put_markup(out, title);
    fprintf(out, "</title><style>%s</style></head><body>\n<h1>", page_style);
    put_markup(out, title);
    size_t with_steps = 0;
    for (size_t k = 0; k < t->n_series; k++)
        with_steps += t->series[k].n_steps > 0;
    fprintf(out, "</h1>\n<p>%zu configuration%s over %zu run%s; %zu with a step (the noise-aware "
                 "steps of redbench history: a level needs two runs or more, and a step lies "
                 "beyond the threshold and the series' own noise). Each point is a run's "
                 "median; hover for its run, date and revision.</p>\n",
            t->n_series, t->n_series == 1 ? "" : "s", t->n_runs, t->n_runs == 1 ? "" : "s",
            with_steps);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < t->n_series; k++) {
            const rb_trend_series *s = &t->series[k];
            if ((s->n_steps > 0) != (pass == 0))
                continue;
            fputs("<section><h2>", out);
            put_markup(out, s->config);
            fputs("</h2>\n", out);
            fprintf(out, "<p class=\"steps\">%zu run%s, noise %.1f%%", s->n_points,
                    s->n_points == 1 ? "" : "s", 100 * s->noise);
            for (size_t j = 0; j < s->n_steps; j++) {
                const rb_step *st = &s->steps[j];
                const rb_trend_run *r = &t->runs[s->points[st->at].run];
                fprintf(out, "; <span class=\"%s\">%.2fx %s at run %lld (",
                        st->ratio >= 1 ? "slower" : "faster",
                        st->ratio >= 1 ? st->ratio : 1 / st->ratio,
                        st->ratio >= 1 ? "slower" : "faster", r->id);
                put_markup(out, r->started);
                if (*r->revision) {
                    fputs(", ", out);
                    put_markup(out, r->revision);
                }
                fputs(")</span>", out);
            }
            fputs("</p>\n", out);
            figure(out, t, s);
            fputs("</section>\n", out);
        }
    }
    fputs("</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}
