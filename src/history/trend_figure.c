/* src/history/trend_figure.c: one configuration's figures over the runs
 * (history/trend.h's trend_figure and trend_series_block), drawn as
 * inline SVG for the trend page (trend_page.c) and the trends of an HTML
 * report (report_trends.c): its median, or its energy per call, in each
 * run where it was ok (a point whose tooltip names the run's id, date and
 * revision and its value), the levels between steps as lines, each step
 * marked with its ratio. Colours are the elements' own attributes, so a
 * figure draws the same in any page. Every text of the database is
 * escaped (put_markup). */
#include <math.h>
#include <stdint.h>
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

/* What each metric is called and how its changes read. */
static const struct {
    const char *title;      /* above its figure */
    const char *step_title; /* a step's tooltip begins so */
    const char *up, *down;  /* a step to more, to less */
} metrics[RB_TREND_METRIC_COUNT_] = {
    [RB_TREND_TIME] = {"median time", "step", "slower", "faster"},
    [RB_TREND_ENERGY] = {"energy per call", "energy step", "more energy", "less energy"},
};

double trend_value(const rb_trend_point *p, int metric)
{
    return metric == RB_TREND_ENERGY ? p->energy_j : p->median_ns;
}

const rb_step *trend_steps(const rb_trend_series *s, int metric, size_t *n)
{
    *n = metric == RB_TREND_ENERGY ? s->n_energy_steps : s->n_steps;
    return metric == RB_TREND_ENERGY ? s->energy_steps : s->steps;
}

const char *trend_step_word(int metric, double ratio)
{
    return ratio >= 1 ? metrics[metric].up : metrics[metric].down;
}

void trend_value_text(double v, int metric, char *buf, unsigned len)
{
    if (metric == RB_TREND_TIME) {
        format_duration_ns(v, buf, len);
        return;
    }
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1, "J"}, {1e-3, "mJ"}, {1e-6, "uJ"}, {1e-9, "nJ"}};
    size_t k = 0;
    while (k + 1 < RB_ARRAY_LEN(units) && fabs(v) < units[k].scale)
        k++;
    snprintf(buf, len, "%.3g %s", v / units[k].scale, units[k].unit);
}

static double x_of(size_t run, size_t n_runs)
{
    double span = n_runs > 1 ? (double)(n_runs - 1) : 1;
    return PAD_L + (FIG_W - PAD_L - PAD_R) * (double)run / span;
}

static double y_of(double v, double lo, double hi)
{
    return PAD_T + (FIG_H - PAD_T - PAD_B) * (1 - (v - lo) / (hi - lo));
}

/* "run 12 (2026-12-01, abc123)": a run's id, date and revision, escaped. */
static void put_run(FILE *out, const rb_trend_run *r)
{
    fprintf(out, "run %lld (", r->id);
    put_markup(out, r->started);
    if (*r->revision) {
        fputs(", ", out);
        put_markup(out, r->revision);
    }
    fputc(')', out);
}

void trend_figure(FILE *out, const rb_trend *t, const rb_trend_series *s, int metric,
                  size_t mark)
{
    /* the points that have the value, in order */
    size_t *at = xmalloc((s->n_points + 1) * sizeof *at), n = 0;
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < s->n_points; k++) {
        double v = trend_value(&s->points[k], metric);
        if (!(v > 0))
            continue;
        at[n++] = k;
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    if (n == 0) {
        free(at);
        return;
    }
    double pad = (hi - lo) * 0.08 + hi * 0.01;
    lo = fmax(0, lo - pad);
    hi += pad;
    fprintf(out, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
                 "font-family=\"sans-serif\" style=\"background:#fff\"><title>%s</title>\n",
            FIG_W, FIG_H, FIG_W, FIG_H, metrics[metric].title);
    fprintf(out, "<g stroke=\"#888\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", PAD_L,
            FIG_H - PAD_B, FIG_W - PAD_R, FIG_H - PAD_B);
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/></g>\n", PAD_L, PAD_T, PAD_L,
            FIG_H - PAD_B);
    fputs("<g font-size=\"11\" fill=\"#555\">", out);
    for (int k = 0; k <= 2; k++) {
        double v = lo + (hi - lo) * k / 2;
        char text[32];
        trend_value_text(v, metric, text, sizeof text);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", PAD_L - 4,
                y_of(v, lo, hi) + 4, text);
    }
    const rb_trend_run *first = &t->runs[s->points[at[0]].run],
                       *last = &t->runs[s->points[at[n - 1]].run];
    fprintf(out, "<text x=\"%d\" y=\"%d\">run %lld</text>", PAD_L, FIG_H - 8, first->id);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">run %lld</text></g>\n",
            FIG_W - PAD_R, FIG_H - 8, last->id);
    fputs("<polyline stroke=\"#9ecae1\" stroke-width=\"1\" fill=\"none\" points=\"", out);
    for (size_t k = 0; k < n; k++) {
        const rb_trend_point *p = &s->points[at[k]];
        fprintf(out, "%s%.1f,%.1f", k ? " " : "", x_of(p->run, t->n_runs),
                y_of(trend_value(p, metric), lo, hi));
    }
    fputs("\"/>\n", out);
    /* the levels between steps (from the first point at a level to the
     * last before the next step), and each step */
    size_t n_steps;
    const rb_step *steps = trend_steps(s, metric, &n_steps);
    size_t from = 0;
    for (size_t k = 0; k <= n_steps; k++) {
        size_t to = from;
        while (to < n && (k == n_steps || at[to] < steps[k].at))
            to++;
        double level = k < n_steps ? steps[k].before : n_steps ? steps[k - 1].after : NAN;
        if (isfinite(level) && to > from)
            fprintf(out, "<line stroke=\"#ff7f0e\" stroke-width=\"2\" x1=\"%.1f\" y1=\"%.1f\" "
                         "x2=\"%.1f\" y2=\"%.1f\"/>",
                    x_of(s->points[at[from]].run, t->n_runs), y_of(level, lo, hi),
                    x_of(s->points[at[to - 1]].run, t->n_runs), y_of(level, lo, hi));
        from = to;
    }
    for (size_t k = 0; k < n_steps; k++) {
        const rb_step *st = &steps[k];
        const rb_trend_run *r = &t->runs[s->points[st->at].run];
        double x = x_of(s->points[st->at].run, t->n_runs);
        fprintf(out, "<line stroke=\"#b00\" stroke-dasharray=\"4 3\" x1=\"%.1f\" y1=\"%d\" "
                     "x2=\"%.1f\" y2=\"%d\"><title>%s at run %lld (",
                x, PAD_T, x, FIG_H - PAD_B, metrics[metric].step_title, r->id);
        put_markup(out, r->started);
        fputs(", ", out);
        put_markup(out, r->revision);
        fprintf(out, "): %.2fx %s</title></line>\n", st->ratio >= 1 ? st->ratio : 1 / st->ratio,
                trend_step_word(metric, st->ratio));
    }
    for (size_t k = 0; k < n; k++) {
        const rb_trend_point *p = &s->points[at[k]];
        const rb_trend_run *r = &t->runs[p->run];
        char value[32];
        trend_value_text(trend_value(p, metric), metric, value, sizeof value);
        int marked = p->run == mark;
        fprintf(out, "<circle fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>run %lld, ",
                marked ? "#d62728" : "#1f77b4", x_of(p->run, t->n_runs),
                y_of(trend_value(p, metric), lo, hi), marked ? "5" : "2.5", r->id);
        put_markup(out, r->started);
        fputs(", revision ", out);
        put_markup(out, *r->revision ? r->revision : "unknown");
        if (metric == RB_TREND_TIME)
            fprintf(out, ": %s, %.1f GB/s", value, p->bandwidth_gbs);
        else
            fprintf(out, ": %s a call", value);
        fprintf(out, "%s</title></circle>\n", marked ? " (this report's run)" : "");
    }
    fputs("</svg>\n", out);
    free(at);
}

/* "12 runs, noise 1.0%; 2.00x slower at run 31 (2026-01-02, rev-31)":
 * the line above a metric's figure. */
static void steps_line(FILE *out, const rb_trend *t, const rb_trend_series *s, int metric)
{
    size_t n = 0, n_steps;
    for (size_t k = 0; k < s->n_points; k++)
        n += trend_value(&s->points[k], metric) > 0;
    const rb_step *steps = trend_steps(s, metric, &n_steps);
    double noise = metric == RB_TREND_ENERGY ? s->energy_noise : s->noise;
    fprintf(out, "<p class=\"steps\">%s: %zu run%s, noise %.1f%%", metrics[metric].title, n,
            n == 1 ? "" : "s", 100 * noise);
    if (n_steps == 0)
        fputs(", no step", out);
    for (size_t j = 0; j < n_steps; j++) {
        const rb_step *st = &steps[j];
        fprintf(out, "; <span style=\"color:%s\">%.2fx %s at ", st->ratio >= 1 ? "#b00" : "#070",
                st->ratio >= 1 ? st->ratio : 1 / st->ratio, trend_step_word(metric, st->ratio));
        put_run(out, &t->runs[s->points[st->at].run]);
        fputs("</span>", out);
    }
    fputs("</p>\n", out);
}

void trend_series_block(FILE *out, const rb_trend *t, const rb_trend_series *s, size_t mark)
{
    for (int metric = 0; metric < RB_TREND_METRIC_COUNT_; metric++) {
        if (metric == RB_TREND_ENERGY && s->n_energy == 0)
            continue; /* energy not measured */
        steps_line(out, t, s, metric);
        trend_figure(out, t, s, metric, mark);
    }
}
