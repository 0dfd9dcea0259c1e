/* src/history/trend.h: the runs of a history chosen by filters, and each
 * configuration's series over them (its median, bandwidth and energy in
 * each run where it was ok), with the steps found in its medians and in
 * its energies (history/steps.h), and their figures. What `history`,
 * `history trend`, `history check` and the trends of a report read.
 * Bandwidth is the configuration's bytes over its median, so its steps
 * are the median's, inverted: they are not searched apart. */
#ifndef RB_HISTORY_TREND_H
#define RB_HISTORY_TREND_H

#include <stddef.h>
#include <stdio.h>

#include "history/database.h"
#include "history/steps.h"

/* Which runs and rows: each a glob (SQLite's GLOB), or NULL for any. */
typedef struct rb_history_filter {
    const char *experiment;  /* the experiment's name */
    const char *device;      /* any device of the run ("cpu AMD EPYC ...") */
    const char *plugin;      /* a plugin the run ran (trends: the rows' plugin) */
    const char *config;      /* trends: the configuration's key */
    const char *since, *until; /* start dates, ISO 8601 ("2026-12-01"): from
                                  `since` on, up to `until` included */
    long long last_id;       /* 0, or runs up to this one in the order (check) */
    int by_revision;         /* order runs by revision (each revision where
                                it was first run), then date; else by date */
} rb_history_filter;

/* Appends the SQL condition of the filter on runs (alias `u`) to `sql` and
 * binds its values from index *k on, once prepared: call with st NULL to
 * write the condition, then with the statement to bind. */
void history_filter_sql(const rb_history_filter *f, char *sql, size_t cap);
void history_filter_bind(const rb_history_filter *f, sqlite3_stmt *st, int *k);

typedef struct rb_trend_run {
    long long id;
    char *started, *revision, *device, *experiment;
} rb_trend_run;

typedef struct rb_trend_point {
    size_t run;              /* index into rb_trend.runs */
    double median_ns, bandwidth_gbs, energy_j; /* 0: unknown */
} rb_trend_point;

typedef struct rb_trend_series {
    char *config;            /* history_config_key's */
    rb_trend_point *points;  /* in the runs' order; ok rows only */
    size_t n_points;
    rb_step *steps;          /* of the medians: at is an index into points */
    size_t n_steps;
    double noise;            /* the series' relative noise (steps_noise) */
    size_t n_energy;         /* points with an energy (0: not measured) */
    rb_step *energy_steps;   /* of the energies (J per call) of those
                                points: at is an index into points, the
                                levels in joules */
    size_t n_energy_steps;
    double energy_noise;     /* the energies' relative noise */
} rb_trend_series;

typedef struct rb_trend {
    rb_trend_run *runs;      /* in order */
    size_t n_runs;
    rb_trend_series *series; /* by configuration key */
    size_t n_series;
} rb_trend;

/* Reads the runs the filter keeps and their series, and finds the steps of
 * each with `c` (NULL: no steps). Returns 0, or -1 after an error naming
 * the history. */
int trend_load(rb_history *h, const rb_history_filter *f, const rb_step_criteria *c,
               rb_trend *t);
void trend_free(rb_trend *t);

/* The trend as a table for people, CSV or JSON (format: enum rb_format's
 * table, csv, json or md): one line per configuration, with its first and
 * newest medians, each step of its medians and, where energy was
 * measured, each step of its energies. Returns 0, or -1 on a write error. */
int trend_report(FILE *out, const rb_trend *t, int format);

/* The trend page: one figure per configuration and metric (its median,
 * and its energy where measured, over the runs, the steps marked, each
 * run's id, date and revision in a tooltip), a self-contained HTML page
 * (history/trend_page.c). */
int trend_page(FILE *out, const rb_trend *t, const char *title);

/* What a figure draws (history/trend_figure.c). */
enum rb_trend_metric { RB_TREND_TIME, RB_TREND_ENERGY, RB_TREND_METRIC_COUNT_ };

/* A point's value of the metric: its median (ns) or energy (J a call);
 * 0 unknown. */
double trend_value(const rb_trend_point *p, int metric);
/* The series' steps of the metric, their count in *n. */
const rb_step *trend_steps(const rb_trend_series *s, int metric, size_t *n);
/* "slower" / "faster", "more energy" / "less energy": a step of `ratio`. */
const char *trend_step_word(int metric, double ratio);
/* A value as people read it: "1.23 us", "4.5 mJ". */
void trend_value_text(double v, int metric, char *buf, unsigned len);

/* One metric's figure of a series as inline SVG (nothing where no point
 * has the value). `mark`: the index in t->runs of a run drawn apart (the
 * run a report is of), or SIZE_MAX for none. */
void trend_figure(FILE *out, const rb_trend *t, const rb_trend_series *s, int metric,
                  size_t mark);
/* For each metric the series has: a line with its runs, noise and steps,
 * then its figure (the caller writes the series' heading). */
void trend_series_block(FILE *out, const rb_trend *t, const rb_trend_series *s, size_t mark);

#endif
