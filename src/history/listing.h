/* src/history/listing.h: `redbench history DB`: the runs a filter keeps,
 * one line each (id, start, revision, device, experiment and the counts
 * of each row status), as a table, CSV, Markdown or JSON. */
#ifndef RB_HISTORY_LISTING_H
#define RB_HISTORY_LISTING_H

#include <stdio.h>

#include "history/database.h"
#include "history/trend.h"

/* Writes the listing in `format` (enum rb_format: table, csv, md, json).
 * Returns 0, -1 after a database error naming the history, or 1 on a
 * write error. */
int history_list(FILE *out, rb_history *h, const rb_history_filter *f, int format);

#endif
