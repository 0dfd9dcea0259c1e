/* src/plot/svg.c: a figure drawn as one self-contained <svg> element, in
 * C, so that the HTML report needs no other program: lines on log2/log10 or
 * linear axes with reference lines, grouped bars, horizontal bars (a sweep
 * at a single n), heat maps with a colour scale, and winner maps (a cell
 * in its winner's colour) with a legend. Every point, bar and cell carries
 * a <title> tooltip with its value.
 * `redbench plot` writes them as files where gnuplot is not installed. */
#include "plot/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/safe_file.h"
#include "base/util.h"

#define WIDTH 960
#define HEIGHT 540
#define LEFT 84
#define TOP 64
#define LEGEND_WIDTH 250
#define BOTTOM 64

static const char *const palette[PLOT_MAX_SERIES] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#bcbd22", "#8c564b",
};

/* At most `max` characters of a label (UTF-8 aware), with "..." when cut. */
static void put_short(FILE *out, const char *s, size_t max)
{
    size_t chars = 0;
    const char *p = s;
    while (*p && chars < max) {
        p++;
        while ((*p & 0xc0) == 0x80)
            p++;
        chars++;
    }
    if (!*p) {
        put_markup(out, s);
        return;
    }
    char buf[256];
    size_t len = (size_t)(p - s) < sizeof buf - 4 ? (size_t)(p - s) : sizeof buf - 4;
    memcpy(buf, s, len);
    strcpy(buf + len, "...");
    put_markup(out, buf);
}

/* " GB/s" after a bare number of the figure's y, where it has a unit. */
static void put_unit(FILE *out, const plot_figure *fig)
{
    if (fig->value_label && *fig->value_label && fig->y_unit == PLOT_UNIT_NUMBER) {
        fputc(' ', out);
        put_markup(out, fig->value_label);
    }
}

/* The width in pixels of a label of `chars` characters at font size 12
 * (an average glyph of 7 pixels). */
static double text_width(size_t chars)
{
    return 7.0 * (double)chars;
}

/* How many characters a label has (UTF-8), at most `max`. */
static size_t label_chars(const char *s, size_t max)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n < max; n++) {
        size_t len = utf8_length(p);
        p += len ? len : 1;
    }
    return n;
}

typedef struct frame {
    double x0, x1, y0, y1; /* the plot area in pixels: x0 left, y0 top */
    plot_ticks xt, yt;
    int x_log, y_log;
} frame;

static double scale(double v, double lo, double hi, int log_axis)
{
    if (log_axis) {
        v = log(v);
        lo = log(lo);
        hi = log(hi);
    }
    return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

static double px(const frame *f, double x)
{
    return f->x0 + scale(x, f->xt.lo, f->xt.hi, f->x_log) * (f->x1 - f->x0);
}
static double py(const frame *f, double y)
{
    return f->y1 - scale(y, f->yt.lo, f->yt.hi, f->y_log) * (f->y1 - f->y0);
}

static void begin_svg(FILE *out, const plot_figure *fig, int width, int height)
{
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"rb-plot\" id=\"plot-%s\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
            "font-size=\"12\" role=\"img\"",
            fig->name, width, height, width, height);
    if (fig->kind != PLOT_HEATMAP && fig->kind != PLOT_WINNERS) /* the axes' scales, for
                                                                   scripts and tests */
        fprintf(out, " data-x-scale=\"%s\" data-y-scale=\"%s\"",
                fig->kind == PLOT_BARS ? "groups" : fig->x_log2 ? "log2" : "linear",
                fig->kind == PLOT_HBARS ? "groups" : fig->y_log10 ? "log10" : "linear");
    fputs(">\n<title>", out);
    put_markup(out, fig->title);
    fprintf(out, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    fputs("<text x=\"16\" y=\"26\" font-size=\"17\" font-weight=\"bold\" fill=\"#222\">", out);
    put_markup(out, fig->title);
    fputs("</text>\n", out);
    if (fig->subtitle) {
        fputs("<text x=\"16\" y=\"46\" fill=\"#555\">", out);
        put_markup(out, fig->subtitle);
        fputs("</text>\n", out);
    }
}

/* The axes' titles; the x title `below` pixels under the plot area. */
static void axis_titles(FILE *out, const plot_figure *fig, const frame *f, double below)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#222\">",
            (f->x0 + f->x1) / 2, f->y1 + below);
    put_markup(out, fig->x_label);
    fprintf(out, "</text>\n<text transform=\"translate(18 %.1f) rotate(-90)\" "
                 "text-anchor=\"middle\" fill=\"#222\">",
            (f->y0 + f->y1) / 2);
    put_markup(out, fig->y_label);
    fputs("</text>\n", out);
}

/* Grid lines, the frame and the tick labels. `categories`: no x ticks. */
static void draw_axes(FILE *out, const frame *f, int x_ticks)
{
    fputs("<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n", out);
    for (size_t k = 0; k < f->yt.count; k++)
        fprintf(out, "<path d=\"M%.1f %.1fH%.1f\"/>\n", f->x0, py(f, f->yt.at[k]), f->x1);
    for (size_t k = 0; x_ticks && k < f->xt.count; k++)
        fprintf(out, "<path d=\"M%.1f %.1fV%.1f\"/>\n", px(f, f->xt.at[k]), f->y0, f->y1);
    fputs("</g>\n", out);
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#888\"/>\n",
            f->x0, f->y0, f->x1 - f->x0, f->y1 - f->y0);
    fputs("<g fill=\"#333\">\n", out);
    for (size_t k = 0; k < f->yt.count; k++) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", f->x0 - 6,
                py(f, f->yt.at[k]) + 4);
        put_markup(out, f->yt.label[k]);
        fputs("</text>\n", out);
    }
    for (size_t k = 0; x_ticks && k < f->xt.count; k++) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px(f, f->xt.at[k]),
                f->y1 + 18);
        put_markup(out, f->xt.label[k]);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
}

static void draw_hlines(FILE *out, const plot_figure *fig, const frame *f)
{
    for (size_t h = 0; h < fig->n_hlines; h++) {
        double y = py(f, fig->hlines[h].y);
        fprintf(out, "<path class=\"rb-hline\" d=\"M%.1f %.1fH%.1f\" stroke=\"#444\" "
                     "stroke-width=\"1.5\" stroke-dasharray=\"6 4\" fill=\"none\"/>\n",
                f->x0, y, f->x1);
        /* A white halo keeps the label readable over the lines. */
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\" "
                     "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
                f->x1 - 4, y - 5);
        put_markup(out, fig->hlines[h].label);
        fputs("</text>\n", out);
    }
}

/* A legend label longer than this moves the legend below the plot. */
#define LEGEND_SIDE_CHARS 30
#define LEGEND_BELOW_CHARS 68

static int legend_below(const plot_figure *fig)
{
    for (size_t s = 0; s < fig->n_series; s++)
        if (strlen(fig->series[s].label) > LEGEND_SIDE_CHARS)
            return 1;
    return 0;
}

/* Rows the legend takes below the plot (0: it is beside it). */
static int legend_rows(const plot_figure *fig)
{
    return legend_below(fig) ? (int)(fig->n_series + 1) / 2 : 0;
}

/* The plot area: beside a legend on the right, or the whole width above one. */
static frame plot_area(const plot_figure *fig)
{
    frame f = {.x0 = LEFT, .x1 = WIDTH - (legend_below(fig) ? 40 : LEGEND_WIDTH), .y0 = TOP,
               .y1 = HEIGHT - BOTTOM};
    return f;
}

/* The legend, beside the plot or, from `top` down, below it in two columns. */
static void draw_legend(FILE *out, const plot_figure *fig, const frame *f, int bars, double top)
{
    int below = legend_below(fig);
    for (size_t s = 0; s < fig->n_series; s++) {
        double x = below ? f->x0 + (double)(s % 2) * (f->x1 - f->x0) / 2 : f->x1 + 16;
        double y = below ? top + 20 * (double)(s / 2) : f->y0 + 8 + 20 * (double)s;
        const char *color = palette[s % PLOT_MAX_SERIES];
        if (bars)
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" fill=\"%s\"/>\n",
                    x, y - 5, color);
        else
            fprintf(out, "<path d=\"M%.1f %.1fh18\" stroke=\"%s\" stroke-width=\"2.5\"/>"
                         "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                    x, y, color, x + 9, y, color);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"><title>", x + 26, y + 4);
        put_markup(out, fig->series[s].label);
        fputs("</title>", out);
        put_short(out, fig->series[s].label, below ? LEGEND_BELOW_CHARS : LEGEND_SIDE_CHARS);
        fputs("</text>\n", out);
    }
}

/* Each point's interquartile range: a vertical bar with short caps, one
 * path per series. */
static void draw_spread(FILE *out, const plot_series *ser, const frame *f)
{
    int any = 0;
    for (size_t p = 0; ser->lo && p < ser->n; p++) {
        if (!(ser->hi[p] > ser->lo[p]))
            continue;
        double x = px(f, ser->x[p]), y0 = py(f, ser->lo[p]), y1 = py(f, ser->hi[p]);
        fprintf(out, "%sM%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8", any ? "" : "<path class=\"rb-spread\" d=\"",
                x, y0, y1, x - 4, y0, x - 4, y1);
        any = 1;
    }
    if (any)
        fputs("\" fill=\"none\" stroke-width=\"1.5\"/>\n", out);
}

static void draw_lines(FILE *out, const plot_figure *fig)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (size_t s = 0; s < fig->n_series; s++)
        for (size_t p = 0; p < fig->series[s].n; p++) {
            xlo = fmin(xlo, fig->series[s].x[p]);
            xhi = fmax(xhi, fig->series[s].x[p]);
            ylo = fmin(ylo, fig->series[s].lo ? fig->series[s].lo[p] : fig->series[s].y[p]);
            yhi = fmax(yhi, fig->series[s].hi ? fig->series[s].hi[p] : fig->series[s].y[p]);
        }
    for (size_t h = 0; h < fig->n_hlines; h++) {
        ylo = fmin(ylo, fig->hlines[h].y);
        yhi = fmax(yhi, fig->hlines[h].y);
    }
    frame f = plot_area(fig);
    f.x_log = fig->x_log2;
    f.y_log = fig->y_log10;
    int height = HEIGHT + 20 * legend_rows(fig);
    if (fig->x_log2)
        plot_axis_log2(xlo, xhi, fig->x_unit, &f.xt);
    else
        plot_axis_linear(xlo, xhi, fig->x_unit, &f.xt);
    if (fig->y_log10)
        plot_axis_log10(ylo, yhi, fig->y_unit, &f.yt);
    else
        plot_axis_linear(ylo, yhi * 1.05, fig->y_unit, &f.yt);
    begin_svg(out, fig, WIDTH, height);
    draw_axes(out, &f, 1);
    draw_hlines(out, fig, &f);
    for (size_t s = 0; s < fig->n_series; s++) {
        const plot_series *ser = &fig->series[s];
        const char *color = palette[s % PLOT_MAX_SERIES];
        fprintf(out, "<g class=\"rb-series\" stroke=\"%s\" fill=\"%s\">\n<path d=\"", color, color);
        for (size_t p = 0; p < ser->n; p++)
            fprintf(out, "%s%.1f %.1f", p ? "L" : "M", px(&f, ser->x[p]), py(&f, ser->y[p]));
        fputs("\" fill=\"none\" stroke-width=\"2.5\"/>\n", out);
        draw_spread(out, ser, &f);
        for (size_t p = 0; p < ser->n; p++) {
            char xs[32], ys[32], los[32], his[32];
            plot_format(ser->x[p], fig->x_unit, xs, sizeof xs);
            plot_format(ser->y[p], fig->y_unit, ys, sizeof ys);
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>", px(&f, ser->x[p]),
                    py(&f, ser->y[p]));
            put_markup(out, ser->label);
            fprintf(out, ": n = %s, %s", xs, ys);
            put_unit(out, fig);
            if (ser->lo && ser->hi[p] > ser->lo[p]) {
                plot_format(ser->lo[p], fig->y_unit, los, sizeof los);
                plot_format(ser->hi[p], fig->y_unit, his, sizeof his);
                fprintf(out, " (middle half of the samples: %s to %s", los, his);
                put_unit(out, fig);
                fputc(')', out);
            }
            fputs("</title></circle>\n", out);
        }
        fputs("</g>\n", out);
    }
    draw_legend(out, fig, &f, 0, f.y1 + 64);
    axis_titles(out, fig, &f, 42);
    fputs("</svg>\n", out);
}

static void draw_bars(FILE *out, const plot_figure *fig)
{
    double ylo = INFINITY, yhi = -INFINITY;
    for (size_t s = 0; s < fig->n_series; s++)
        for (size_t p = 0; p < fig->series[s].n; p++)
            if (fig->series[s].y[p] > 0) {
                ylo = fmin(ylo, fig->series[s].y[p]);
                yhi = fmax(yhi, fig->series[s].y[p]);
            }
    for (size_t h = 0; h < fig->n_hlines; h++) {
        ylo = fmin(ylo, fig->hlines[h].y);
        yhi = fmax(yhi, fig->hlines[h].y);
    }
    int rotate = fig->n_columns > 6; /* group names turned, 40 pixels more under the axis */
    frame f = plot_area(fig);
    f.y_log = fig->y_log10;
    int height = HEIGHT + (rotate ? 40 : 0) + 20 * legend_rows(fig);
    if (fig->y_log10)
        plot_axis_log10(ylo, yhi, fig->y_unit, &f.yt);
    else
        plot_axis_linear(0, yhi * 1.05, fig->y_unit, &f.yt);
    begin_svg(out, fig, WIDTH, height);
    draw_axes(out, &f, 0);
    double group = (f.x1 - f.x0) / (double)(fig->n_columns ? fig->n_columns : 1);
    double bar = group * 0.8 / (double)(fig->n_series ? fig->n_series : 1);
    double base = f.y1; /* bars stand on the axis, as gnuplot draws them */
    for (size_t c = 0; c < fig->n_columns; c++) {
        double gx = f.x0 + group * (double)c + group * 0.1;
        for (size_t s = 0; s < fig->n_series; s++) {
            double v = fig->series[s].y[c];
            if (!(v > 0))
                continue;
            double y = py(&f, v);
            char vs[32];
            plot_format(v, fig->y_unit, vs, sizeof vs);
            fprintf(out, "<rect class=\"rb-bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"%s\"><title>",
                    gx + bar * (double)s, fmin(y, base), bar > 1.5 ? bar - 1 : bar,
                    fmax(fabs(base - y), 1), palette[s % PLOT_MAX_SERIES]);
            put_markup(out, fig->series[s].label);
            fputs(", ", out);
            put_markup(out, fig->columns[c]);
            fprintf(out, ": %s", vs);
            put_unit(out, fig);
            fputs("</title></rect>\n", out);
        }
        double cx = f.x0 + group * ((double)c + 0.5);
        if (rotate)
            fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-35)\" "
                         "text-anchor=\"end\" fill=\"#333\">",
                    cx, f.y1 + 16);
        else
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">", cx,
                    f.y1 + 18);
        put_markup(out, fig->columns[c]);
        fputs("</text>\n", out);
    }
    draw_hlines(out, fig, &f);
    draw_legend(out, fig, &f, 1, f.y1 + 64 + (rotate ? 40 : 0));
    axis_titles(out, fig, &f, 42 + (rotate ? 40 : 0));
    fputs("</svg>\n", out);
}

/* Labels longer than this are cut (the full text in a tooltip). */
#define LABEL_CHARS 40

/* The grid of a heat map or a winner map: cells of a readable aspect (at
 * most twice as wide as high, taller where there are few rows), the row
 * labels in a margin as wide as the longest, the column labels turned
 * where they do not fit their cell. */
typedef struct grid {
    double cell_w, cell_h;
    double x0, y0, right, bottom; /* the cells' edges */
    double below;                 /* the height of the column labels */
    int turned;                   /* the column labels are turned */
} grid;

static grid grid_layout(const plot_figure *fig)
{
    grid g;
    size_t row_chars = 1, col_chars = 1;
    for (size_t r = 0; r < fig->n_rows; r++)
        row_chars = fmax(row_chars, label_chars(fig->rows[r], LABEL_CHARS));
    for (size_t c = 0; c < fig->n_columns; c++)
        col_chars = fmax(col_chars, label_chars(fig->columns[c], LABEL_CHARS));
    g.cell_h = fmax(34, fmin(72, 280.0 / (double)(fig->n_rows ? fig->n_rows : 1)));
    g.cell_w = fmax(56, fmin(2 * g.cell_h, 720.0 / (double)(fig->n_columns ? fig->n_columns : 1)));
    g.cell_w = fmin(g.cell_w, 2 * g.cell_h);
    if (g.cell_w < 56) /* keeps the values readable: the cells grow taller too */
        g.cell_w = 56;
    if (g.cell_h < g.cell_w / 2)
        g.cell_h = g.cell_w / 2;
    g.turned = text_width(col_chars) > g.cell_w - 8;
    g.below = g.turned ? 12 + 0.6 * text_width(col_chars) : 24; /* the column labels */
    g.x0 = fmax(LEFT, 40 + text_width(row_chars));
    g.y0 = TOP + 8;
    g.right = g.x0 + g.cell_w * (double)fig->n_columns;
    g.bottom = g.y0 + g.cell_h * (double)fig->n_rows;
    return g;
}

/* Row r's label, left of its cells. */
static void grid_row_label(FILE *out, const plot_figure *fig, const grid *g, size_t r)
{
    double y = g->y0 + g->cell_h * (double)r;
    fprintf(out, "<text class=\"rb-row\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
                 "fill=\"#333\"><title>",
            g->x0 - 8, y + g->cell_h / 2 + 4);
    put_markup(out, fig->rows[r]);
    fputs("</title>", out);
    put_short(out, fig->rows[r], LABEL_CHARS);
    fputs("</text>\n", out);
}

/* A cell: its colour, its tooltip (title, then `note`, or "VALUE UNIT")
 * and the text on it in black or white, whichever reads better. */
static void grid_cell(FILE *out, const plot_figure *fig, const grid *g, size_t r, size_t c,
                      unsigned rgb, const char *text, const char *note, int known)
{
    double x = g->x0 + g->cell_w * (double)c, y = g->y0 + g->cell_h * (double)r;
    fprintf(out, "<rect class=\"rb-cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%.1f\" fill=\"#%06x\" stroke=\"#ffffff\"><title>",
            x, y, g->cell_w, g->cell_h, rgb);
    if (note) {
        put_markup(out, note);
    } else {
        put_markup(out, fig->x_label);
        fputs(" = ", out);
        put_markup(out, fig->columns[c]);
        fputs(", ", out);
        put_markup(out, fig->y_label);
        fputs(" = ", out);
        put_markup(out, fig->rows[r]);
        fputs(": ", out);
        put_markup(out, text);
        fputc(' ', out);
        if (known)
            put_markup(out, fig->value_label);
        else
            fputs("(no ok row)", out);
    }
    fprintf(out, "</title></rect>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                 "fill=\"%s\">",
            x + g->cell_w / 2, y + g->cell_h / 2 + 4,
            !known ? "#767676" : plot_label_colour(rgb) == 0 ? "#000000" : "#ffffff");
    put_markup(out, text);
    fputs("</text>\n", out);
}

/* The column labels under the cells. */
static void grid_column_labels(FILE *out, const plot_figure *fig, const grid *g)
{
    for (size_t c = 0; c < fig->n_columns; c++) {
        double cx = g->x0 + g->cell_w * ((double)c + 0.5);
        if (g->turned)
            fprintf(out, "<text class=\"rb-column\" transform=\"translate(%.1f %.1f) "
                         "rotate(-35)\" text-anchor=\"end\" fill=\"#333\"><title>",
                    cx, g->bottom + 14);
        else
            fprintf(out, "<text class=\"rb-column\" x=\"%.1f\" y=\"%.1f\" "
                         "text-anchor=\"middle\" fill=\"#333\"><title>",
                    cx, g->bottom + 18);
        put_markup(out, fig->columns[c]);
        fputs("</title>", out);
        put_short(out, fig->columns[c], LABEL_CHARS);
        fputs("</text>\n", out);
    }
}

/* A heat map: the grid, each cell coloured by its value, and a colour
 * scale with ticks in the value's unit. */
static void draw_heatmap(FILE *out, const plot_figure *fig)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < fig->n_rows * fig->n_columns; k++)
        if (!isnan(fig->cells[k])) {
            lo = fmin(lo, fig->cells[k]);
            hi = fmax(hi, fig->cells[k]);
        }
    grid g = grid_layout(fig);
    char los[32], his[32];
    plot_format(isfinite(lo) ? lo : NAN, PLOT_UNIT_NUMBER, los, sizeof los);
    plot_format(isfinite(hi) ? hi : NAN, PLOT_UNIT_NUMBER, his, sizeof his);
    size_t scale_chars = strlen(his) + strlen(fig->value_label) + 2;
    int width = (int)(g.right + 40 + text_width(scale_chars > 12 ? scale_chars : 12) + 16);
    int height = (int)(g.bottom + g.below + 40);
    if (width < 520)
        width = 520;
    begin_svg(out, fig, width, height);
    for (size_t r = 0; r < fig->n_rows; r++) {
        grid_row_label(out, fig, &g, r);
        for (size_t c = 0; c < fig->n_columns; c++) {
            double v = fig->cells[r * fig->n_columns + c];
            unsigned rgb = 0xeeeeee;
            char text[32] = "-";
            double t = hi > lo ? (v - lo) / (hi - lo) : 1;
            if (!isnan(v)) {
                rgb = plot_heat_colour(t);
                plot_format(v, PLOT_UNIT_NUMBER, text, sizeof text);
            }
            grid_cell(out, fig, &g, r, c, rgb, text, NULL, !isnan(v));
        }
    }
    grid_column_labels(out, fig, &g);
    /* The colour scale: a bar with the lowest, middle and highest values,
     * each with its unit, and what the colour is. */
    double sx = g.right + 24, sh = g.bottom - g.y0;
    fprintf(out, "<defs><linearGradient id=\"scale-%s\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">",
            fig->name);
    for (int k = 0; k <= 8; k++)
        fprintf(out, "<stop offset=\"%.3f\" stop-color=\"#%06x\"/>", k / 8.0,
                plot_heat_colour(k / 8.0));
    fprintf(out, "</linearGradient></defs>\n<g class=\"rb-scale\" fill=\"#333\">\n"
                 "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" "
                 "fill=\"url(#scale-%s)\" stroke=\"#888\"/>\n",
            sx, g.y0, sh, fig->name);
    double ticks[3] = {hi, (lo + hi) / 2, lo};
    for (int k = 0; k < 3 && isfinite(lo); k++) {
        char value[32];
        double y = g.y0 + sh * k / 2.0;
        if (k == 1 && !(hi > lo))
            continue;
        plot_format(ticks[k], PLOT_UNIT_NUMBER, value, sizeof value);
        fprintf(out, "<path d=\"M%.1f %.1fh4\" stroke=\"#333\"/><text class=\"rb-scale-tick\" "
                     "x=\"%.1f\" y=\"%.1f\">%s ",
                sx + 14, y, sx + 20, y + 4, value);
        put_markup(out, fig->value_label);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
    frame f = {.x0 = g.x0, .x1 = g.right, .y0 = g.y0, .y1 = g.bottom};
    axis_titles(out, fig, &f, g.below + 22);
    fputs("</svg>\n", out);
}

/* The colour of series s, as 0xRRGGBB. */
static unsigned palette_rgb(size_t s)
{
    return (unsigned)strtoul(palette[s % PLOT_MAX_SERIES] + 1, NULL, 16);
}

/* A winner map: the grid, each cell in its winner's colour with its text,
 * a black line wherever the winner changes from a cell to its neighbour
 * (the crossovers), and beside it a legend of the strategies that win a
 * cell of it. */
static void draw_winners(FILE *out, const plot_figure *fig)
{
    grid g = grid_layout(fig);
    size_t cells = fig->n_rows * fig->n_columns, legend_chars = 12, n_legend = 0;
    int *shown = xcalloc(fig->n_series ? fig->n_series : 1, sizeof *shown);
    for (size_t k = 0; k < cells; k++)
        if (fig->winners[k] < fig->n_series)
            shown[fig->winners[k]] = 1;
    for (size_t s = 0; s < fig->n_series; s++)
        if (shown[s]) {
            n_legend++;
            legend_chars = fmax(legend_chars, label_chars(fig->series[s].label,
                                                          LEGEND_SIDE_CHARS + 3));
        }
    int width = (int)(g.right + 24 + 24 + text_width(legend_chars) + 16);
    size_t title = label_chars(fig->title, 200), subtitle = label_chars(fig->subtitle, 200);
    width = (int)fmax(width, 32 + text_width(title > subtitle ? title : subtitle));
    int height = (int)fmax(g.bottom + g.below + 40, g.y0 + 20.0 * (double)n_legend + 24);
    if (width < 520)
        width = 520;
    begin_svg(out, fig, width, height);
    for (size_t r = 0; r < fig->n_rows; r++) {
        grid_row_label(out, fig, &g, r);
        for (size_t c = 0; c < fig->n_columns; c++) {
            size_t k = r * fig->n_columns + c, s = fig->winners[k];
            if (s < fig->n_series && fig->cell_texts[k])
                grid_cell(out, fig, &g, r, c, palette_rgb(s), fig->cell_texts[k],
                          fig->cell_notes[k], 1);
            else
                grid_cell(out, fig, &g, r, c, 0xeeeeee, "-", NULL, 0);
        }
    }
    fputs("<g class=\"rb-crossovers\" stroke=\"#000\" stroke-width=\"3\">\n", out);
    for (size_t r = 0; r < fig->n_rows; r++)
        for (size_t c = 0; c < fig->n_columns; c++) {
            double x = g.x0 + g.cell_w * (double)c, y = g.y0 + g.cell_h * (double)r;
            if (plot_crossover(fig, r, c, 0))
                fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                        x + g.cell_w, y, x + g.cell_w, y + g.cell_h);
            if (plot_crossover(fig, r, c, 1))
                fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                        x, y + g.cell_h, x + g.cell_w, y + g.cell_h);
        }
    fputs("</g>\n", out);
    grid_column_labels(out, fig, &g);
    double x = g.right + 24, y = g.y0 + 8;
    fputs("<g class=\"rb-legend\" fill=\"#333\">\n", out);
    for (size_t s = 0; s < fig->n_series; s++) {
        if (!shown[s])
            continue;
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" fill=\"%s\"/>\n"
                     "<text x=\"%.1f\" y=\"%.1f\"><title>",
                x, y - 5, palette[s % PLOT_MAX_SERIES], x + 24, y + 4);
        put_markup(out, fig->series[s].label);
        fputs("</title>", out);
        put_short(out, fig->series[s].label, LEGEND_SIDE_CHARS);
        fputs("</text>\n", out);
        y += 20;
    }
    fputs("</g>\n", out);
    free(shown);
    frame f = {.x0 = g.x0, .x1 = g.right, .y0 = g.y0, .y1 = g.bottom};
    axis_titles(out, fig, &f, g.below + 22);
    fputs("</svg>\n", out);
}

/* A sweep at a single n: one horizontal bar per configuration, top down,
 * its value at its end; the peaks as vertical lines. */
static void draw_hbars(FILE *out, const plot_figure *fig)
{
    const plot_series *ser = &fig->series[0];
    double hi = 0;
    size_t chars = 1;
    for (size_t k = 0; k < fig->n_columns; k++) {
        hi = fmax(hi, ser->y[k]);
        chars = fmax(chars, label_chars(fig->columns[k], LABEL_CHARS));
    }
    for (size_t h = 0; h < fig->n_hlines; h++)
        hi = fmax(hi, fig->hlines[h].y);
    double step = fmax(28, fmin(48, 300.0 / (double)(fig->n_columns ? fig->n_columns : 1)));
    double bar_h = step - 6;
    frame f = {.x0 = fmax(LEFT, 40 + text_width(chars)), .x1 = WIDTH - 90, .y0 = TOP + 8};
    f.y1 = f.y0 + step * (double)fig->n_columns + 6;
    if (f.x1 - f.x0 < 360) /* long labels: a wider figure, the plot keeps its room */
        f.x1 = f.x0 + 360;
    int width = (int)f.x1 + 90, height = (int)f.y1 + 64;
    plot_axis_linear(0, hi * 1.05, fig->y_unit, &f.xt);
    f.yt.lo = 0;
    f.yt.hi = 1;
    begin_svg(out, fig, width, height);
    fputs("<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n", out);
    for (size_t k = 0; k < f.xt.count; k++)
        fprintf(out, "<path d=\"M%.1f %.1fV%.1f\"/>\n", px(&f, f.xt.at[k]), f.y0, f.y1);
    fprintf(out, "</g>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                 "fill=\"none\" stroke=\"#888\"/>\n<g fill=\"#333\">\n",
            f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0);
    for (size_t k = 0; k < f.xt.count; k++) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px(&f, f.xt.at[k]),
                f.y1 + 18);
        put_markup(out, f.xt.label[k]);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
    for (size_t k = 0; k < fig->n_columns; k++) {
        double y = f.y0 + 6 + step * (double)k, v = ser->y[k];
        char vs[32];
        plot_format(v, fig->y_unit, vs, sizeof vs);
        fprintf(out, "<text class=\"rb-row\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
                     "fill=\"#333\"><title>",
                f.x0 - 8, y + bar_h / 2 + 4);
        put_markup(out, fig->columns[k]);
        fputs("</title>", out);
        put_short(out, fig->columns[k], LABEL_CHARS);
        fprintf(out, "</text>\n<rect class=\"rb-bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" fill=\"%s\"><title>",
                f.x0, y, fmax(px(&f, v) - f.x0, 1), bar_h, palette[0]);
        put_markup(out, fig->columns[k]);
        fprintf(out, ": %s", vs);
        put_unit(out, fig);
        fprintf(out, "</title></rect>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">%s",
                px(&f, v) + 4, y + bar_h / 2 + 4, vs);
        put_unit(out, fig);
        fputs("</text>\n", out);
    }
    for (size_t h = 0; h < fig->n_hlines; h++) {
        double x = px(&f, fig->hlines[h].y);
        fprintf(out, "<path class=\"rb-hline\" d=\"M%.1f %.1fV%.1f\" stroke=\"#444\" "
                     "stroke-width=\"1.5\" stroke-dasharray=\"6 4\" fill=\"none\"/>\n"
                     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\">",
                x, f.y0 - 14.0 * (double)h, f.y1, x - 4, f.y0 - 4 - 14.0 * (double)h);
        put_markup(out, fig->hlines[h].label);
        fputs("</text>\n", out);
    }
    axis_titles(out, fig, &f, 42);
    fputs("</svg>\n", out);
}

void plot_svg_write(FILE *out, const plot_figure *fig)
{
    switch (fig->kind) {
    case PLOT_LINES: draw_lines(out, fig); break;
    case PLOT_BARS: draw_bars(out, fig); break;
    case PLOT_HEATMAP: draw_heatmap(out, fig); break;
    case PLOT_HBARS: draw_hbars(out, fig); break;
    case PLOT_WINNERS: draw_winners(out, fig); break;
    default: break;
    }
}

int plot_svg_files(const plot_set *set, const char *dir, FILE *log)
{
    for (size_t k = 0; k < set->n_figures; k++) {
        const plot_figure *fig = &set->figures[k];
        char *path = xasprintf("%s/%s.svg", dir, fig->name);
        rb_safe_file f;
        /* a new file renamed over the old once whole; a link is replaced,
         * never followed */
        int failed =
            safe_file_open(&f, path, RB_SAFE_FILE_REGULAR | RB_SAFE_FILE_NO_FOLLOW) != 0;
        if (!failed) {
            fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f.stream);
            plot_svg_write(f.stream, fig);
            failed = safe_file_commit(&f) != 0;
        }
        char *shown = printable_text(failed ? f.error : path);
        if (failed)
            diag_error("%s", shown);
        else if (log)
            fprintf(log, "%s\n", shown);
        free(shown);
        free(path);
        if (failed)
            return -1;
    }
    return 0;
}
