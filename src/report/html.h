/* src/report/html.h: the HTML report: one self-contained file (no scripts,
 * no links) with the device and provenance, a status summary, the plots as
 * inline SVG, the results table and, with several rounds, each round's
 * order of the configurations. It is written from a result set, a
 * run's or a results file's read back (results/read.h), so that `--format
 * html`, `redbench report` and `redbench plot` draw the same page. */
#ifndef RB_REPORT_HTML_H
#define RB_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "plot/figures.h"
#include "results/rows.h"

/* The `html` format of `redbench -c FILE --format html`. */
int report_html(FILE *out, const rb_results *res);

/* A section that a caller adds to the page, for results that come with
 * more than their rows (a history's run: its trends over the history,
 * history/report_trends.c). The page links it from a line under its
 * heading, writes it after the rounds, and links each row of the results
 * table that has a place in it, in a column of its own. Without one, the
 * page is byte for byte what it is otherwise. */
typedef struct rb_html_extra {
    const char *id;        /* the section's anchor ("trends") */
    const char *title;     /* its heading */
    const char *summary;   /* what the line under the page's heading says
                              of it, after the link */
    const char *link_text; /* each row's link, and its column's header */
    /* Writes the section's body (after its heading, which the page
     * writes). MUST escape every text of the results or a database
     * (put_markup). Returns 0, or -1 on a write error. */
    int (*write)(FILE *out, const void *data);
    /* The anchor in the section of the result set's row `row`, into buf;
     * returns 0 when the row has none there. */
    int (*row_anchor)(const void *data, size_t row, char *buf, size_t cap);
    const void *data;
} rb_html_extra;

/* report_html with `extra`'s section (NULL: none, report_html's page). */
int report_html_extra(FILE *out, const rb_results *res, const rb_html_extra *extra);

/* The page for a result set from `source` (named in the page) with its
 * figures already built, and `extra`'s section (may be NULL). Returns 0,
 * or -1 on a write error. */
int html_report_write(FILE *out, const rb_results *res, const plot_set *set, const char *source,
                      const rb_html_extra *extra);

#endif
