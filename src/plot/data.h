/* src/plot/data.h: what the files that build the figures of one result
 * set share: the rows that are drawn (ok, with a time) and the
 * configurations they form. The calls go one way: build.c calls data.c
 * and the figures' files; data.c calls ranking.c; every one of them may
 * call set.c, axis.c and baseline.c, which call none of them. */
#ifndef RB_PLOT_DATA_H
#define RB_PLOT_DATA_H

#include "base/util.h"
#include "plot/figures.h"

/* The data keys a configuration reads besides n: op, dtype, distribution,
 * bins, and its shape: rows, axis, lengths (rows 1 along rows with fixed
 * lengths for one reduction, so that they vary only in a file with
 * shapes). */
enum plot_field {
    PLOT_FIELD_OP, PLOT_FIELD_DTYPE, PLOT_FIELD_DISTRIBUTION, PLOT_FIELD_BINS,
    PLOT_FIELD_ROWS, PLOT_FIELD_AXIS, PLOT_FIELD_LENGTHS, PLOT_N_FIELDS
};
extern const char *const plot_data_fields[PLOT_N_FIELDS];
/* Appends a field's value as a legend or a group of bars names it: the
 * value alone ("f32"), or for a shape's field its name too ("rows=64"). */
void plot_field_words(strbuf *sb, int field, const char *text);

typedef struct plot_row {
    const rb_row *row;
    size_t run_index;                 /* index into plot_builder.runs */
    const char *run, *plugin;
    const char *field[PLOT_N_FIELDS]; /* each data key's text ("" if absent) */
    double n, median_ns, gbs;         /* gbs NaN if unknown */
    int device;                       /* index into the run's devices, -1 none */
    char bins[16];                    /* the histogram's bins as text, "" for other ops */
    char rows[24];                    /* the shape's rows as text ("64", "4K") */
    size_t config;                    /* index into plot_builder.configs */
} plot_row;

/* A strategy configuration: a run with its parameters (and the data keys
 * that vary in the file); one line in a figure. */
typedef struct plot_config {
    char *id;
    char *label;       /* "run k=v f32": what varies, for a legend */
    const char *run;
    double best_gbs;   /* its highest bandwidth, to pick the fastest */
} plot_config;

/* The parameters a run sweeps, at most this many. */
#define PLOT_MAX_VARYING 32

/* A run: its rows (in file order) and the parameters that vary among them. */
typedef struct plot_run {
    const char *name;
    size_t *rows;      /* indices into plot_builder.rows */
    size_t n_rows;
    const char *varying[PLOT_MAX_VARYING];
    size_t n_varying;
} plot_run;

typedef struct plot_builder {
    const char *path;
    const rb_results *res;
    plot_row *rows;
    size_t n_rows;
    plot_run *runs;    /* in the order they first appear */
    size_t n_runs;
    size_t *run_rows;  /* the runs' row lists, one block */
    plot_config *configs;
    size_t n_configs;
    int field_varies[PLOT_N_FIELDS];
} plot_builder;

/* The largest numbers drawn; a row beyond them (or not finite) is left out
 * with a warning, so that no axis spans an absurd range. */
#define PLOT_MAX_N 4.6e18      /* elements: 2^62 */
#define PLOT_MIN_NS 1e-6       /* a median time, in nanoseconds */
#define PLOT_MAX_NS 1e15       /* 11.6 days */
#define PLOT_MAX_GBS 1e9       /* GB/s, a bandwidth or a peak */

/* A row's parameter of that name: its text ("" when the row has none), and
 * whether it is a number (an integer parameter, as results files write
 * them). */
const char *plot_param(const plot_row *r, const char *name, int *is_number);
/* The row's plugin (the run's, when the plugin was not found). */
const char *plot_plugin_name(const rb_row *row);
/* A copy of text fit for a file name: other than [A-Za-z0-9._-] becomes '_'. */
char *plot_file_name(const char *text);
/* plot/set.c, which calls none of the files that lay out figures: a new,
 * zeroed figure at the end of the set, and a reference line in a figure
 * (plot_set_free is there too). */
plot_figure *plot_add_figure(plot_set *set);
void plot_add_hline(plot_figure *fig, double y, const char *label);
/* Marks in `chosen` the configurations to draw among those `eligible`: all
 * of them, or the PLOT_MAX_SERIES with the highest score. Returns how many
 * were eligible. */
size_t plot_choose(const plot_builder *b, const int *eligible, const double *score, int *chosen);
/* "the 12 fastest of 40 configurations", or NULL when none was left out. */
char *plot_left_out_note(size_t eligible);
/* Takes the rows that are ok with a time that can be drawn. Rows with a
 * number out of range (not finite, absurdly large) are left out, and
 * counted in a warning that names the first. */
void plot_read_rows(plot_builder *b);
/* Groups the rows into configurations and labels each with its run, the
 * parameters that vary within the run and the data fields that vary. */
void plot_group_configs(plot_builder *b);
/* Adds the bandwidth figures, and the time figure. */
void plot_bandwidth_figures(plot_builder *b, plot_set *set);
/* plot/ranking.c: the one n of the rows with a bandwidth on `device`
 * (NaN: none, or several), and the figure of a single n: each
 * configuration's best GB/s as a horizontal bar, fastest first (`name`
 * taken; `device_name` may be NULL). */
double plot_single_n(const plot_builder *b, int device);
plot_figure *plot_ranking_figure(const plot_builder *b, plot_set *set, int device, char *name,
                                 const char *device_name, double n);
void plot_time_figure(plot_builder *b, plot_set *set);
/* Adds the energy figures (J/GB against n, one per op and dtype) where
 * rows have energy (plot/energy.c). */
void plot_energy_figures(plot_builder *b, plot_set *set);
/* plot/baseline.c: what a baseline's name names, among the rows. */
enum plot_baseline_by { PLOT_BY_PLUGIN, PLOT_BY_RUN, PLOT_BY_PACK_PLUGIN };
/* The baseline of the winner maps when --baseline names none, where some
 * row has it: CUB's segmented reduce, what shaped strategies compete with. */
#define PLOT_DEFAULT_BASELINE "cuda/segmented"
/* The baseline: 0 and *by set to what has that name among all rows, a run
 * first, else a plugin, else PACK/PLUGIN (enum plot_baseline_by); -1 after
 * an error listing the runs and plugins. */
int plot_resolve_baseline(const plot_builder *b, const char *baseline, int *by);
/* Whether row r is of the baseline. */
int plot_in_baseline(const plot_row *r, const char *baseline, int by);
/* PLOT_DEFAULT_BASELINE (with *by) when some row drawn is of it, else NULL. */
const char *plot_default_baseline(const plot_builder *b, int *by);
/* Adds the speedup figure against the baseline (plot/speedup.c). */
void plot_speedup(const plot_builder *b, plot_set *set, const char *baseline, int by);
/* Adds the heat maps of every run that sweeps two or more parameters. */
void plot_heatmaps(const plot_builder *b, plot_set *set);
/* Adds the winner maps of shaped results (plot/winners.c): none when no
 * row has a shape. `baseline` NULL: each cell shows the winner's GB/s. */
void plot_winner_maps(const plot_builder *b, plot_set *set, const char *baseline, int by);

#endif
