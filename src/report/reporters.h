/* src/report/reporters.h: the reporters. Each writes a whole results set to a stream:
 *   table  aligned columns for a terminal
 *   csv    one header line, one line per row
 *   json   one object: metadata + `results` (see README.md)
 *   md     Markdown: a metadata list and a table */
#ifndef RB_REPORTERS_H
#define RB_REPORTERS_H

#include <stdio.h>

#include "results/rows.h"

typedef int (*rb_reporter)(FILE *out, const rb_results *res);

int report_table(FILE *out, const rb_results *res);
int report_csv(FILE *out, const rb_results *res);
int report_json(FILE *out, const rb_results *res);
int report_md(FILE *out, const rb_results *res);

/* The reporter for a format name, or NULL; `formats` lists the valid ones. */
rb_reporter report_for(const char *format);
const char *report_formats(void);
/* The format (enum rb_format) of an output path's extension: .json .csv
 * .md .html, and .txt for the table; -1 for any other. */
int report_format_of_path(const char *path);

#endif
