/* src/history/append.h: a run added to a history: its results document,
 * kept whole, and the columns of runs and rows beside it, in one
 * transaction (all of it or nothing). */
#ifndef RB_HISTORY_APPEND_H
#define RB_HISTORY_APPEND_H

#include <stddef.h>

#include "history/database.h"
#include "results/rows.h"

/* Adds one run: `document` (its results as the JSON reporter writes them,
 * `len` bytes) and `res`, the same results typed (read from it, or the
 * run's own), from which the rows' columns come. `source` names the JSON
 * file it came from, or NULL for a run. In one transaction that takes the
 * write lock at its start (BEGIN IMMEDIATE), waiting for other writers.
 * Returns 0 and the run's id, or -1 after an error naming the history;
 * then nothing was added. */
int history_append(rb_history *h, const char *document, size_t len, const rb_results *res,
                   const char *source, long long *id);

/* The configuration's key in a history: what a row is compared with across
 * runs ("run | plugin | params | op dtype n distribution | device"). Free it. */
char *history_config_key(const rb_results *res, const rb_row *row);

/* The output of a run in the sqlite format (-o FILE.db): the results
 * appended to the history at `path` as one run. `exit_status` is the run's:
 * an interrupted run (130) is not added (a history keeps whole runs), and
 * that is said. Returns 0, or -1 after saying why nothing was added. */
int history_output(const char *path, const rb_results *res, int exit_status);

/* Before the run: each output path of the sqlite format can take a run (a
 * history of this schema, or a file that can be made), and standard
 * output is not asked for in it (`out_format`, -1 for none). Returns 0, or
 * 2 after saying why, ending with "nothing was run". */
int history_outputs_check(const char *const *paths, const int *formats, size_t n,
                          int out_format);

#endif
