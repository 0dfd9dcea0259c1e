/* src/report/html.h: the HTML report: one self-contained file (no scripts,
 * no links) with the device and provenance, a status summary, the plots as
 * inline SVG, the results table and, with several rounds, each round's
 * order of the configurations. It is written from a result set, a
 * run's or a results file's read back (results/read.h), so that `--format
 * html`, `redbench report` and `redbench plot` draw the same page. */
#ifndef RB_REPORT_HTML_H
#define RB_REPORT_HTML_H

#include <stdio.h>

#include "plot/figures.h"
#include "results/rows.h"

/* The `html` format of `redbench -c FILE --format html`. */
int report_html(FILE *out, const rb_results *res);

/* The page for a result set from `source` (named in the page) with its
 * figures already built. Returns 0, or -1 on a write error. */
int html_report_write(FILE *out, const rb_results *res, const plot_set *set, const char *source);

#endif
