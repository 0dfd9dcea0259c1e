/* src/history/report_trends.h: the trends of an HTML report of a history's
 * run (`redbench report DB@WHICH -o page.html`): the run read back with,
 * for each of its configurations, its series over every run of the
 * history (history/trend.h, steps found as `history trend` finds them),
 * written as the report's "Trends" section (report/html.h's
 * rb_html_extra): a figure of its median, and of its energy where
 * measured, with the steps marked and the run's own point drawn apart,
 * each row of the results table linked to its configuration's. */
#ifndef RB_HISTORY_REPORT_TRENDS_H
#define RB_HISTORY_REPORT_TRENDS_H

#include <stddef.h>

#include "history/trend.h"
#include "report/html.h"
#include "results/read.h"

typedef struct rb_run_trends {
    char *db;            /* the history's path */
    long long run_id;    /* the run reported */
    size_t run;          /* its index in trend.runs */
    rb_trend trend;      /* every run of the history, every configuration */
    size_t *row_series;  /* for each row of the run (its position), its
                            series in trend, or SIZE_MAX where it has none
                            (never ok in the history) */
    size_t n_rows;
} rb_run_trends;

/* Reads the run that `spec` names in a history (DB, DB@WHICH) into *file
 * and its trends into *rt. Returns 1 when it did, 0 when `spec` is a
 * results file's path (nothing is read), or -1 after saying why. */
int run_trends_read(const char *spec, rb_results_file *file, rb_run_trends *rt);
void run_trends_free(rb_run_trends *rt);

/* The report's section of the trends in *rt, which it points to. */
void run_trends_section(const rb_run_trends *rt, rb_html_extra *extra);

#endif
