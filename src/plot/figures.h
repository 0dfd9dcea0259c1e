/* src/plot/figures.h: the figures drawn from a results file, and who draws them.
 *   plot/data.c     results (results/rows.h) -> figures (which lines, bars and cells)
 *   plot/energy.c   the energy figures (J/GB against n)
 *   plot/axis.c     axis ranges, ticks and their labels, shared by both drawers
 *   plot/svg.c      a figure as an SVG element, drawn in C (the HTML report)
 *   plot/gnuplot.c  figures as gnuplot scripts, run into SVG and PNG files
 *
 * The figures of one results file:
 *   bandwidth  GB/s against n (log2), one line per configuration, with the
 *              device's theoretical and measured peaks; one per device; GB/s
 *              on a log10 axis when they span two decades or more; a
 *              sweep at a single n: each configuration's GB/s as a
 *              horizontal bar, fastest first (plot/ranking.c)
 *   time       median time against n (log2 x, log y), one line per configuration
 *              (bandwidth and time: each point with error bars from the
 *              interquartile range of its samples, where it has four or more)
 *   energy     joules per GB read against n (log2), one line per
 *              configuration, one per op and dtype; only from rows that
 *              measured energy (energy = on), none without
 *   speedup    the baseline's time / each configuration's time, grouped bars
 *              per (op, dtype, n)
 *   heatmap    for a run sweeping two or more parameters: GB/s per value of
 *              the two chosen parameters, one map per value of everything else
 *   winners    for shaped results (rows x n): the fastest strategy at each
 *              cell, coloured by strategy and labelled with its speedup over
 *              the baseline (or its GB/s), one map per op, dtype, axis and
 *              lengths (plot/winners.c) */
#ifndef RB_PLOT_FIGURES_H
#define RB_PLOT_FIGURES_H

#include <stddef.h>
#include <stdio.h>

#include "results/rows.h"

/* At most this many lines (or bar series) in one figure: the fastest
 * configurations are kept, and the subtitle says how many were left out. */
#define PLOT_MAX_SERIES 12
/* At most this many heat maps from one results file. */
#define PLOT_MAX_HEATMAPS 24
/* At most this many winner maps from one results file. */
#define PLOT_MAX_WINNER_MAPS 24

/* At most this many bars in a figure of a single n (the fastest). */
#define PLOT_MAX_BARS 40

enum plot_kind { PLOT_LINES, PLOT_BARS, PLOT_HEATMAP, PLOT_HBARS, PLOT_WINNERS };

/* How an axis's numbers are written. */
enum plot_unit {
    PLOT_UNIT_NUMBER = 0, /* 1.5, 200 */
    PLOT_UNIT_SIZE,       /* element counts: 1K, 16M (powers of two) */
    PLOT_UNIT_NS,         /* nanoseconds written as 10 us, 1.5 ms */
    PLOT_UNIT_TIMES       /* a ratio: 0.5x, 2x */
};

typedef struct plot_series {
    char *label;
    double *x, *y; /* LINES: n points sorted by x; BARS: y per category (NaN:
                      none), x unused */
    double *lo, *hi; /* LINES: each point's spread, the interquartile range
                        of its samples (lo = hi = y where there is none);
                        NULL for BARS */
    size_t n;
} plot_series;

/* A horizontal reference line (a peak, speedup 1). */
typedef struct plot_hline {
    char *label;
    double y;
} plot_hline;

typedef struct plot_figure {
    int kind;          /* enum plot_kind */
    char *name;        /* file stem: "bandwidth", "time", "speedup", "heatmap-RUN-1" */
    char *title;
    char *subtitle;    /* may be NULL */
    char *x_label, *y_label;
    int x_unit, y_unit; /* enum plot_unit */
    int x_log2;        /* LINES: x on a log2 axis */
    int y_log10;       /* LINES and BARS: y on a log10 axis */
    int has_spread;    /* LINES: some point has an interquartile range */
    plot_series *series;
    size_t n_series;
    plot_hline *hlines;
    size_t n_hlines;
    char **columns;    /* BARS: the groups; HEATMAP, WINNERS: the x values;
                          HBARS: the bars, top down (series[0].y: their values) */
    size_t n_columns;
    char **rows;       /* HEATMAP, WINNERS: the y values */
    size_t n_rows;
    double *cells;     /* HEATMAP: n_rows * n_columns values, row-major, NaN: none */
    /* WINNERS: n_rows * n_columns cells, row-major. series: the strategies
     * (labels only), series[s] drawn in the palette's colour s; the same
     * list in every winner map of a set, so that a strategy has one colour
     * in all of them (the legend names those of the figure's cells). */
    size_t *winners;   /* the index into series of each cell's winner, SIZE_MAX: none */
    char **cell_texts; /* what is written on each cell ("1.8x", "12.3"), NULL: none */
    char **cell_notes; /* each cell's tooltip, NULL: none */
    char *value_label; /* HEATMAP: what a cell holds ("GB/s"); LINES, BARS,
                          HBARS: the unit of y written after a bare number in
                          tooltips, or NULL */
} plot_figure;

typedef struct plot_set {
    plot_figure *figures;
    size_t n_figures;
    size_t n_rows;     /* rows in the file */
    size_t n_plotted;  /* ok rows with a time */
    char *baseline;    /* the speedup figure's baseline run or plugin, or NULL */
} plot_set;

/* Builds the figures of a result set (a run's, or a file's read back by
 * results/read.c) from `path` (named in messages). `baseline` names a run,
 * a plugin or PACK/PLUGIN; NULL takes the first run with a time for the
 * speedup figure, and for the winner maps cuda/segmented where it ran,
 * else none. Returns 0, or -1 after printing why when the baseline names
 * nothing in it. A set without ok rows gives 0 and no figures. */
int plot_build(const rb_results *res, const char *path, const char *baseline, plot_set *set);
void plot_set_free(plot_set *set);

/* Axis ticks (plot/axis.c). */
#define PLOT_MAX_TICKS 24
typedef struct plot_ticks {
    double lo, hi;                 /* the axis range */
    size_t count;
    double at[PLOT_MAX_TICKS];
    char label[PLOT_MAX_TICKS][24];
} plot_ticks;

/* A log2 axis reaches this factor beyond its first and last ticks. */
#define PLOT_LOG2_MARGIN 1.12
/* Range and ticks for data from `lo` to `hi`: log2 (powers of two),
 * log10 (powers of ten) or linear (1, 2, 5 steps, from 0 when all data are
 * positive). Pass the range of everything drawn (data and reference lines). */
void plot_axis_log2(double lo, double hi, int unit, plot_ticks *t);
void plot_axis_log10(double lo, double hi, int unit, plot_ticks *t);
void plot_axis_linear(double lo, double hi, int unit, plot_ticks *t);
/* A value as the unit writes it ("16M", "1.5 ms", "2x", "3.25"). */
void plot_format(double v, int unit, char *buf, size_t len);

/* Heat map colours, as 0xRRGGBB (plot/axis.c): a cell's colour at t in
 * [0, 1] (viridis: dark violet to yellow), the relative luminance of a
 * colour (0 black, 1 white; WCAG 2's definition), and the colour of text
 * on a cell: black or white, whichever contrasts more with it. */
unsigned plot_heat_colour(double t);
double plot_luminance(unsigned rgb);
unsigned plot_label_colour(unsigned background);

/* WINNERS: whether a crossover line runs between cell (r, c) and its
 * neighbour to the right (down 0) or below (down 1): both have a winner,
 * and not the same. Both renderers draw these lines over the cells. */
static inline int plot_crossover(const plot_figure *fig, size_t r, size_t c, int down)
{
    size_t r2 = r + (down ? 1 : 0), c2 = c + (down ? 0 : 1);
    if (r2 >= fig->n_rows || c2 >= fig->n_columns)
        return 0;
    size_t a = fig->winners[r * fig->n_columns + c], b = fig->winners[r2 * fig->n_columns + c2];
    return a < fig->n_series && b < fig->n_series && a != b;
}

/* Writes the figure as one <svg> element (plot/svg.c). */
void plot_svg_write(FILE *out, const plot_figure *fig);
/* Writes each figure as DIR/NAME.svg, drawn as plot_svg_write draws it
 * (what `redbench plot` does without gnuplot); prints each file written to
 * `log` (may be NULL). Returns 0, or -1 after printing why. */
int plot_svg_files(const plot_set *set, const char *dir, FILE *log);

/* gnuplot (plot/gnuplot.c). The program is $REDBENCH_GNUPLOT, else
 * "gnuplot" found on PATH. */
#define PLOT_GNUPLOT_PACKAGE "gnuplot-nox"
/* The program's path if it can be run, else NULL (static storage). */
const char *plot_gnuplot_find(void);
/* Writes NAME.gp for each figure into `dir` and runs gnuplot on it into
 * NAME.svg, and NAME.png where a PNG terminal exists. Prints each file
 * written to `log` (may be NULL). Returns 0, or -1 after printing why. */
int plot_gnuplot_draw(const plot_set *set, const char *gnuplot, const char *dir,
                      const char *source, FILE *log);

#endif
