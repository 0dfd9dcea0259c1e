/* tests/plot/test_plot_data.c: the figures built from a results document
 * written by hand (known times, one run sweeping two parameters, rows that
 * are not ok), the axes' ticks and labels, the SVG drawn from a figure,
 * the cost of many configurations or groups against the rows, and the
 * errors: a document that is not a results file, a row without n, an
 * unknown baseline. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/json_reader.h"
#include "plot/figures.h"
#include "results/read.h"
#include "tap.h"
#include "base/util.h"

/* base: serial at n = 1K and 4K. grid: block x vpt at n = 1K and 4K; its
 * time is 1000 / (block / 32 * vpt) ns at 1K, twice that at 4K. One failed
 * and one wrong row, which are not drawn. */
static char *results_document(void)
{
    strbuf sb = {0};
    sb_append(&sb, "{\"devices\": [{\"backend\": \"cpu\", \"device\": 0, \"name\": \"Test <CPU>\","
                   " \"peak_gbs\": 100, \"measured_peak_gbs\": 80}],\n\"results\": [\n");
    sb_append(
        &sb, "{\"run\": \"base\", \"plugin\": \"serial\", \"params\": {}, \"params_text\": \"\","
             " \"op\": \"sum\", \"dtype\": \"i32\", \"n\": 1024, \"device\": 0, \"status\": \"ok\","
             " \"median_ns\": 4000, \"bandwidth_gbs\": 1.024},\n");
    sb_append(
        &sb, "{\"run\": \"base\", \"plugin\": \"serial\", \"params\": {}, \"params_text\": \"\","
             " \"op\": \"sum\", \"dtype\": \"i32\", \"n\": 4096, \"device\": 0, \"status\": \"ok\","
             " \"median_ns\": 8000, \"bandwidth_gbs\": 2.048},\n");
    int blocks[2] = {32, 64}, vpts[2] = {1, 2};
    for (int n = 1024; n <= 4096; n *= 4)
        for (int b = 0; b < 2; b++)
            for (int v = 0; v < 2; v++) {
                double ns = 1000.0 / (blocks[b] / 32 * vpts[v]) * (n == 1024 ? 1 : 2);
                sb_printf(
                    &sb,
                    "{\"run\": \"grid\", \"plugin\": \"atomic\", \"params\": {\"block\": %d,"
                    " \"vpt\": %d, \"mode\": \"x\"}, \"params_text\": \"block=%d vpt=%d mode=x\","
                    " \"op\": \"sum\", \"dtype\": \"i32\", \"n\": %d, \"device\": 0,"
                    " \"status\": \"ok\", \"median_ns\": %g, \"bandwidth_gbs\": %g},\n",
                    blocks[b], vpts[v], blocks[b], vpts[v], n, ns, n * 4 / ns);
            }
    sb_append(&sb,
              "{\"run\": \"grid\", \"plugin\": \"atomic\", \"params\": {\"block\": 128, \"vpt\": 1,"
              " \"mode\": \"x\"}, \"op\": \"sum\", \"dtype\": \"i32\", \"n\": 1024,"
              " \"status\": \"failed\", \"median_ns\": null},\n");
    sb_append(&sb,
              "{\"run\": \"grid\", \"plugin\": \"atomic\", \"params\": {\"block\": 256, \"vpt\": 1,"
              " \"mode\": \"x\"}, \"op\": \"sum\", \"dtype\": \"i32\", \"n\": 1024,"
              " \"status\": \"wrong\", \"median_ns\": 10, \"bandwidth_gbs\": 409.6}\n]}\n");
    return sb.data;
}

/* The figures of a document read as a results file (results/read.c);
 * -1 when it cannot be read. */
static int build_doc(const json_value *doc, const char *path, const char *baseline,
                     plot_set *set)
{
    rb_results_file file;
    memset(set, 0, sizeof *set);
    if (results_from_doc(path, doc, &file) != 0)
        return -1;
    int status = plot_build(&file.res, path, baseline, set);
    results_file_free(&file);
    return status;
}

static const plot_figure *figure(const plot_set *set, const char *name)
{
    for (size_t k = 0; k < set->n_figures; k++)
        if (strcmp(set->figures[k].name, name) == 0)
            return &set->figures[k];
    return NULL;
}

static const plot_series *series(const plot_figure *fig, const char *label)
{
    for (size_t k = 0; fig && k < fig->n_series; k++)
        if (strcmp(fig->series[k].label, label) == 0)
            return &fig->series[k];
    return NULL;
}

/* The SVG drawn from FIG, as a string to free. */
static char *svg_of(const plot_figure *fig)
{
    char *svg = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&svg, &len);
    plot_svg_write(out, fig);
    fclose(out);
    return svg;
}

static void test_figures(const json_value *doc)
{
    plot_set set;
    is_int(build_doc(doc, "hand.json", NULL, &set), 0, "a results document builds");
    is_int((long long)set.n_figures, 5, "bandwidth, time, speedup and two heat maps");
    is_int((long long)set.n_plotted, 10, "the 10 ok rows are drawn, not the failed or wrong one");
    is_str(set.baseline, "base", "the default baseline is the first run");

    const plot_figure *bw = figure(&set, "bandwidth");
    ok(bw && bw->kind == PLOT_LINES && bw->x_log2 && !bw->y_log10,
       "bandwidth: lines on a log2 x axis, linear y");
    is_int(bw ? (long long)bw->n_series : 0, 5, "bandwidth: one line per configuration");
    ok(series(bw, "base") != NULL, "a run without swept parameters is labelled by its name");
    const plot_series *g = series(bw, "grid block=64 vpt=2");
    ok(g != NULL, "a swept run's line names the parameters that vary, not the fixed one");
    ok(g && g->n == 2 && g->x[0] == 1024 && g->x[1] == 4096 && fabs(g->y[0] - 4096 / 250.0) < 1e-9,
       "its points are (n, GB/s), sorted by n");
    ok(bw && bw->n_hlines == 2 && bw->hlines[0].y == 100 && bw->hlines[1].y == 80,
       "the theoretical (100) and measured (80) peaks are horizontal lines");
    is_str(bw && bw->n_hlines == 2 ? bw->hlines[1].label : NULL, "measured peak 80 GB/s",
           "... labelled with their value");
    ok(bw && strstr(bw->title, "Test <CPU>") != NULL, "the title names the device");

    const plot_figure *time = figure(&set, "time");
    ok(time && time->y_log10 && time->y_unit == PLOT_UNIT_NS, "time: log y in nanoseconds");
    const plot_series *bt = series(time, "base");
    ok(bt && bt->n == 2 && bt->y[0] == 4000 && bt->y[1] == 8000, "time: the medians");

    const plot_figure *sp = figure(&set, "speedup");
    ok(sp && sp->kind == PLOT_BARS && sp->n_columns == 2, "speedup: bars in two groups");
    is_str(sp && sp->n_columns == 2 ? sp->columns[1] : NULL, "4K", "a group is named by its n");
    const plot_series *sg = series(sp, "grid block=64 vpt=2");
    ok(sg && fabs(sg->y[0] - 16) < 1e-9 && fabs(sg->y[1] - 16) < 1e-9,
       "speedup = the baseline's time / the configuration's (4000 / 250 = 16)");
    const plot_series *sb = series(sp, "base");
    ok(sb && sb->y[0] == 1 && sb->y[1] == 1, "the baseline against itself is 1");
    ok(sp && sp->n_hlines == 1 && sp->hlines[0].y == 1, "a line marks speedup 1");

    const plot_figure *hm = figure(&set, "heatmap-grid-1");
    ok(hm && hm->kind == PLOT_HEATMAP && hm->n_columns == 2 && hm->n_rows == 2,
       "a 2 x 2 heat map for the run sweeping block and vpt");
    ok(hm && strcmp(hm->x_label, "block") == 0 && strcmp(hm->y_label, "vpt") == 0,
       "its axes are the two swept parameters");
    ok(hm && strcmp(hm->columns[0], "32") == 0 && strcmp(hm->rows[1], "2") == 0,
       "values in numeric order");
    ok(hm && fabs(hm->cells[1 * 2 + 1] - 4096 / 250.0) < 1e-9 && fabs(hm->cells[0] - 4.096) < 1e-9,
       "cells hold GB/s per (vpt, block)");
    ok(hm && strstr(hm->subtitle, "n = 1K") != NULL, "the first map is for n = 1K");
    const plot_figure *hm2 = figure(&set, "heatmap-grid-2");
    ok(hm2 && strstr(hm2->subtitle, "n = 4K") != NULL, "the second for n = 4K");
    plot_set_free(&set);

    is_int(build_doc(doc, "hand.json", "serial", &set), 0, "a plugin name is a baseline");
    const plot_figure *sp2 = figure(&set, "speedup");
    ok(sp2 && strstr(sp2->title, "serial") != NULL, "the speedup names that baseline");
    plot_set_free(&set);

    is_int(build_doc(doc, "hand.json", "grid", &set), 0, "a swept run is a baseline");
    const plot_series *own = series(figure(&set, "speedup"), "grid block=32 vpt=1");
    ok(own && fabs(own->y[0] - 0.25) < 1e-9,
       "against the run's fastest configuration (250 ns) the slowest (1000 ns) is 0.25");
    plot_set_free(&set);
}

/* Runs plot_build with standard error captured; returns what it printed. */
static char *build_error(const char *text, const char *baseline, int *status)
{
    json_value *doc = json_parse(text, strlen(text), NULL);
    char path[] = "/tmp/test_plot_data_XXXXXX";
    int fd = mkstemp(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    plot_set set;
    *status = build_doc(doc, "bad.json", baseline, &set);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *out = xcalloc(4096, 1);
    ssize_t got = pread(fd, out, 4095, 0);
    out[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
    if (*status == 0)
        plot_set_free(&set);
    json_free(doc);
    return out;
}

static void test_errors(const char *good)
{
    int status;
    char *err = build_error("{\"tool\": \"x\"}", NULL, &status);
    ok(status == -1 && strstr(err, "bad.json:1: error: not a redbench results file"),
       "a document without results is refused, naming the file");
    free(err);
    err = build_error("{\"results\": [\n{\"run\": \"a\", \"plugin\": \"p\", \"op\": \"sum\","
                      " \"dtype\": \"f32\", \"status\": \"ok\"},\n"
                      "{\"run\": \"b\", \"status\": \"ok\", \"n\": \"big\"}]}",
                      NULL, &status);
    ok(status == -1 && strstr(err, "bad.json:2: error: results[0]: \"n\""),
       "a row without n is refused with its line");
    free(err);
    err = build_error(good, "cub", &status);
    ok(status == -1 && strstr(err, "--baseline cub") && strstr(err, "runs: base, grid") &&
           strstr(err, "plugins: serial, atomic"),
       "an unknown baseline is refused, listing the runs and plugins");
    if (status != -1 || !strstr(err, "runs: base, grid"))
        diag("  %s", err);
    free(err);
    err = build_error("{\"results\": [{\"run\": \"a\", \"plugin\": \"p\", \"op\": \"sum\","
                      " \"dtype\": \"f32\", \"status\": \"skipped\", \"n\": 1}]}",
                      NULL, &status);
    json_value *doc = json_parse("{\"results\": []}", 15, NULL);
    plot_set set;
    ok(status == 0 && build_doc(doc, "x", NULL, &set) == 0 && set.n_figures == 0,
       "a file without ok rows gives no figures and no error");
    plot_set_free(&set);
    json_free(doc);
    free(err);
}

/* More than PLOT_MAX_SERIES configurations: the fastest are kept. */
static void test_cap(void)
{
    strbuf sb = {0};
    sb_append(&sb, "{\"results\": [");
    for (int k = 0; k < 14; k++)
        sb_printf(&sb, "%s{\"run\": \"r%d\", \"plugin\": \"p\", \"params\": {}, \"status\": \"ok\", \"n\": %d,"
                       " \"op\": \"sum\", \"dtype\": \"f32\", \"median_ns\": %d,"
                       " \"bandwidth_gbs\": %g}",
                  k ? "," : "", k, k == 1 ? 2048 : 1024, 100 + k, 4096.0 / (100 + k));
    sb_append(&sb, "]}");
    json_value *doc = json_parse(sb.data, sb.len, NULL);
    plot_set set;
    build_doc(doc, "many.json", NULL, &set);
    const plot_figure *bw = figure(&set, "bandwidth");
    ok(bw && bw->n_series == PLOT_MAX_SERIES && series(bw, "r0") && !series(bw, "r13") &&
           !series(bw, "r12"),
       "14 configurations: the 12 fastest are drawn");
    ok(bw && bw->subtitle && strstr(bw->subtitle, "12 fastest of 14"), "the subtitle says so");
    ok(!figure(&set, "heatmap-r0-1"), "no heat map without a swept parameter");
    plot_set_free(&set);
    json_free(doc);
    sb_free(&sb);

    /* Labels too long for the side: the legend goes below, two a row. */
    const char *text = "{\"results\": [{\"run\": \"a-run-with-a-name-longer-than-thirty\","
                       " \"plugin\": \"p\", \"op\": \"sum\", \"dtype\": \"f32\","
                       " \"status\": \"ok\", \"n\": 1024, \"median_ns\": 10, \"reps\": 1,"
                       " \"bandwidth_gbs\": 4}, {\"run\": \"b\", \"plugin\": \"p\", \"op\": \"sum\","
                       " \"dtype\": \"f32\", \"status\": \"ok\", \"n\": 2048, \"median_ns\": 20,"
                       " \"reps\": 1, \"bandwidth_gbs\": 2}]}";
    doc = json_parse(text, strlen(text), NULL);
    build_doc(doc, "long.json", NULL, &set);
    char *svg = svg_of(figure(&set, "bandwidth"));
    ok(strstr(svg, "width=\"960\" height=\"560\"") &&
           strstr(svg, "a-run-with-a-name-longer-than-thirty</text>"),
       "a long label: the legend goes below, one row for two entries, the label whole");
    free(svg);
    plot_set_free(&set);
    json_free(doc);
}

/* A sweep at a single n: horizontal bars, fastest first, not a vertical
 * stack of points. */
static void test_single_n(void)
{
    strbuf sb = {0};
    sb_append(&sb, "{\"results\": [");
    for (int k = 0; k < 14; k++)
        sb_printf(&sb, "%s{\"run\": \"r%d\", \"plugin\": \"p\", \"params\": {}, \"status\": \"ok\","
                       " \"n\": 4096, \"op\": \"sum\", \"dtype\": \"f32\", \"median_ns\": %d,"
                       " \"bandwidth_gbs\": %g}",
                  k ? "," : "", k, 200 - k, 4096.0 / (200 - k));
    sb_append(&sb, "]}");
    json_value *doc = json_parse(sb.data, sb.len, NULL);
    plot_set set;
    build_doc(doc, "one-n.json", NULL, &set);
    const plot_figure *bw = figure(&set, "bandwidth");
    ok(bw && bw->kind == PLOT_HBARS && bw->n_columns == 14 && bw->n_series == 1,
       "one n, 14 configurations: a horizontal bar each");
    ok(bw && bw->n_columns == 14 && strcmp(bw->columns[0], "r13") == 0 &&
           strcmp(bw->columns[13], "r0") == 0 && bw->series[0].y[0] > bw->series[0].y[13],
       "... fastest first");
    char *svg = bw ? svg_of(bw) : xstrdup("");
    ok(strstr(svg, "class=\"rb-bar\"") && !strstr(svg, "<circle") &&
           strstr(svg, "<title>r13: 21.9 GB/s</title>"),
       "... drawn as bars, no points, each with its GB/s");
    ok(figure(&set, "time") == NULL, "... and no time figure: it would be a stack of points");
    free(svg);
    plot_set_free(&set);
    json_free(doc);
    sb_free(&sb);
}

/* A point's error bar: the interquartile range of its samples. */
static void test_spread(void)
{
    const char *text = "{\"results\": [{\"run\": \"a\", \"plugin\": \"p\", \"op\": \"sum\","
                       " \"dtype\": \"f32\", \"status\": \"ok\", \"n\": 1024, \"median_ns\": 120,"
                       " \"bandwidth_gbs\": 36, \"reps\": 5,"
                       " \"samples_ns\": [140, 100, 130, 120, 110]}]}";
    json_value *doc = json_parse(text, strlen(text), NULL);
    plot_set set;
    build_doc(doc, "spread.json", NULL, &set);
    const plot_series *t = series(figure(&set, "time"), "a");
    ok(t && t->lo && t->lo[0] == 110 && t->hi[0] == 130 && figure(&set, "time")->has_spread,
       "time: the point's bar spans the samples' quartiles (110 to 130 ns)");
    const plot_series *bw = series(figure(&set, "bandwidth"), "a");
    ok(bw && bw->lo && fabs(bw->lo[0] - 36 * 120 / 130.0) < 1e-9 &&
           fabs(bw->hi[0] - 36 * 120 / 110.0) < 1e-9,
       "bandwidth: the slower quartile is the lower bandwidth");
    plot_set_free(&set);
    json_free(doc);
}

/* plot_format writes VALUE in UNIT as WANT. */
static void is_formatted(double value, int unit, const char *want, const char *name)
{
    char buf[32];
    plot_format(value, unit, buf, sizeof buf);
    is_str(buf, want, "%s", name);
}

static void test_axes(void)
{
    plot_ticks t;
    plot_axis_log2(1000, 5000, PLOT_UNIT_SIZE, &t);
    ok(t.at[0] == 512 && t.at[t.count - 1] == 8192 && t.count == 5,
       "log2 axis: ticks 512 .. 8192, 5 of them");
    ok(fabs(t.lo * PLOT_LOG2_MARGIN - 512) < 1e-9 && fabs(t.hi / PLOT_LOG2_MARGIN - 8192) < 1e-9,
       "... and a margin beyond the end ticks");
    is_str(t.label[1], "1K", "ticks are labelled as sizes");
    plot_axis_log2(1 << 20, 1 << 20, PLOT_UNIT_SIZE, &t);
    ok(t.at[0] == 1 << 19 && t.at[t.count - 1] == 1 << 21, "one size: a power of two on each side");
    plot_axis_log2(1, (double)(1ULL << 40), PLOT_UNIT_SIZE, &t);
    ok(t.count <= 12 && t.count >= 7, "41 powers of two: at most 12 ticks (%zu)", t.count);
    plot_axis_linear(3, 93, PLOT_UNIT_NUMBER, &t);
    ok(t.lo == 0 && t.hi == 100 && t.count == 6 && t.at[1] == 20, "linear: 0 .. 100 by 20");
    plot_axis_log10(44e3, 14e6, PLOT_UNIT_NS, &t);
    ok(t.lo == 1e4 && t.hi == 1e8 && t.count == 5, "log10: 10^4 .. 10^8");
    is_str(t.label[0], "10 us", "nanoseconds are written in a readable unit");
    is_formatted(1500, PLOT_UNIT_NS, "1.5 us", "1500 ns is 1.5 us");
    is_formatted(2190.4, PLOT_UNIT_NUMBER, "2190", "2190.4 is written whole, not as 2.19e+03");
    is_formatted(999.6, PLOT_UNIT_NUMBER, "1000", "999.6 is 1000, not 1e+03");
    is_formatted(999.7, PLOT_UNIT_NS, "1 us", "999.7 ns is 1 us, not 1e+03 ns");
    is_formatted(17.114, PLOT_UNIT_NUMBER, "17.1", "17.114 has three significant digits");
    is_formatted(2.5, PLOT_UNIT_TIMES, "2.5x", "a ratio is 2.5x");
    is_formatted(3 << 20, PLOT_UNIT_SIZE, "3M", "3 * 2^20 is 3M");
    ok(fabs(plot_luminance(0xffffff) - 1) < 1e-9 && plot_luminance(0) == 0 &&
           fabs(plot_luminance(0x00ff00) - 0.7152) < 1e-9,
       "luminance: white 1, black 0, green 0.7152");
    ok(plot_label_colour(plot_heat_colour(0)) == 0xffffff &&
           plot_label_colour(plot_heat_colour(0.3)) == 0xffffff,
       "heat map: white text on the dark end of the scale");
    ok(plot_label_colour(plot_heat_colour(1)) == 0 && plot_label_colour(plot_heat_colour(0.7)) == 0,
       "heat map: black text on the bright end");
}

static size_t count(const char *text, const char *word)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
        n++;
    return n;
}

static void test_svg(const json_value *doc)
{
    plot_set set;
    build_doc(doc, "hand.json", NULL, &set);
    char *svg = svg_of(figure(&set, "bandwidth"));
    ok(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0 &&
           strstr(svg, "</svg>\n"),
       "bandwidth: one svg element");
    is_int((long long)count(svg, "<g class=\"rb-series\""), 5, "five lines");
    is_int((long long)count(svg, "r=\"3.5\"><title>"), 10, "ten points, each with a tooltip");
    is_int((long long)count(svg, "class=\"rb-hline\""), 2, "two peak lines");
    ok(strstr(svg, "Test &lt;CPU&gt;") && !strstr(svg, "Test <CPU>"), "text is escaped");
    ok(strstr(svg, "width=\"960\" height=\"540\"") != NULL, "short labels: the legend is beside");
    free(svg);
    svg = svg_of(figure(&set, "heatmap-grid-1"));
    is_int((long long)count(svg, "class=\"rb-cell\""), 4, "heat map: four cells");
    free(svg);
    svg = svg_of(figure(&set, "speedup"));
    is_int((long long)count(svg, "class=\"rb-bar\""), 10,
           "speedup: five bars in each of two groups");
    free(svg);
    plot_set_free(&set);
}

/* `rows` rows at one n, each of its own run: as many configurations as
 * rows, ranked as bars. */
static char *one_n_document(int rows)
{
    strbuf sb = {0};
    sb_append(&sb, "{\"results\": [");
    for (int k = 0; k < rows; k++)
        sb_printf(&sb, "%s{\"run\": \"r%d\", \"plugin\": \"p\", \"params\": {}, \"status\": \"ok\","
                       " \"n\": 1024, \"op\": \"sum\", \"dtype\": \"f32\", \"median_ns\": %d,"
                       " \"bandwidth_gbs\": %g}",
                  k ? "," : "", k, 100 + k, 4096.0 / (100 + k));
    sb_append(&sb, "]}");
    return sb.data;
}

/* `rows` rows of one run sweeping two parameters, each at its own n: a
 * group of one row for each, too small for a heat map. */
static char *many_groups_document(int rows)
{
    strbuf sb = {0};
    sb_append(&sb, "{\"results\": [");
    for (int k = 0; k < rows; k++)
        sb_printf(&sb, "%s{\"run\": \"g\", \"plugin\": \"p\", \"params\": {\"a\": %d, \"b\": %d},"
                       " \"params_text\": \"a=%d b=%d\", \"status\": \"ok\", \"n\": %d,"
                       " \"op\": \"sum\", \"dtype\": \"f32\", \"median_ns\": %d,"
                       " \"bandwidth_gbs\": %g}",
                  k ? "," : "", k % 7, k % 5, k % 7, k % 5, 1024 + k, 100 + k,
                  4.0 * (1024 + k) / (100 + k));
    sb_append(&sb, "]}");
    return sb.data;
}

/* The least processor time of three builds of the document's figures,
 * each drawn as SVG, in seconds; NAN when the document is refused. */
static double build_seconds(char *(*make)(int), int rows)
{
    char *text = make(rows);
    json_value *doc = json_parse(text, strlen(text), NULL);
    rb_results_file file;
    double best = NAN;
    FILE *null = fopen("/dev/null", "w");
    if (doc && null && results_from_doc("scale.json", doc, &file) == 0) {
        for (int k = 0; k < 3; k++) {
            plot_set set;
            clock_t start = clock();
            if (plot_build(&file.res, "scale.json", NULL, &set) == 0)
                for (size_t f = 0; f < set.n_figures; f++)
                    plot_svg_write(null, &set.figures[f]);
            double s = (double)(clock() - start) / CLOCKS_PER_SEC;
            best = k == 0 || s < best ? s : best;
            plot_set_free(&set);
        }
        results_file_free(&file);
    }
    if (null)
        fclose(null);
    json_free(doc);
    free(text);
    return best;
}

/* Building the figures grows as the rows, not as their square: eight times
 * the rows take under 24 times the time (64 if it were quadratic, about 9
 * for n log n: a margin of more than 2.5x either way, so that neither a
 * loaded machine nor a cache decides; processor time, the least of
 * three). The cases that were quadratic: a configuration per row at one n
 * (the ranking read every row for each configuration), and a group per
 * row (each heat map read every row of its run). */
static void test_scaling(void)
{
    const int rows = 2000;
    struct { const char *name; char *(*make)(int); } cases[] = {
        {"a configuration per row at one n", one_n_document},
        {"a heat-map group per row", many_groups_document},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double small = build_seconds(cases[c].make, rows);
        double large = build_seconds(cases[c].make, 8 * rows);
        ok(large < 24 * small + 0.02, "%s: %d rows take %.3f s, %d rows %.3f s (under 24x + 0.02 s)",
           cases[c].name, rows, small, 8 * rows, large);
    }
}

int main(void)
{
    plan(71);
    char *text = results_document();
    json_error err;
    json_value *doc = json_parse(text, strlen(text), &err);
    if (!doc)
        bail("the test document does not parse: %d:%d %s", err.line, err.column, err.message);
    test_figures(doc);
    test_errors(text);
    test_cap();
    test_single_n();
    test_axes();
    test_spread();
    test_svg(doc);
    test_scaling();
    json_free(doc);
    free(text);
    return done();
}
