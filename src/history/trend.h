/* src/history/trend.h: the runs of a history chosen by filters, and each
 * configuration's series over them (its median, bandwidth and energy in
 * each run where it was ok), with the steps found in it (history/steps.h).
 * What `history`, `history trend` and `history check` read. */
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
 * newest medians and each step. Returns 0, or -1 on a write error. */
int trend_report(FILE *out, const rb_trend *t, int format);

/* The trend page: one figure per configuration (its median over the
 * runs, the steps marked, each run's id, date and revision in a tooltip),
 * a self-contained HTML page (history/trend_page.c). */
int trend_page(FILE *out, const rb_trend *t, const char *title);

#endif
