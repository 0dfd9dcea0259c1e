/* src/report/html.h: the HTML report: one self-contained file (no scripts,
 * no links) with the device and provenance, a status summary, the plots as
 * inline SVG and the results table. It is written from the JSON results
 * document, so that `--format html` and `redbench plot` draw the same page. */
#ifndef RB_REPORT_HTML_H
#define RB_REPORT_HTML_H

#include <stdio.h>

#include "base/json_reader.h"
#include "plot/figures.h"
#include "run/results.h"

/* The `html` format of `redbench -c FILE --format html`. */
int report_html(FILE *out, const rb_results *res);

/* The page for a results document read from `source` (named in the page)
 * with its figures already built. Returns 0, or -1 on a write error. */
int html_report_write(FILE *out, const json_value *doc, const plot_set *set, const char *source);

#endif
