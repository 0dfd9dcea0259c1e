/* src/history/read.h: a run of a history read back, by the spelling every
 * command that reads results takes beside a JSON file:
 *   DB            the history's newest run (DB a history: an SQLite file)
 *   DB@latest     the same
 *   DB@-N         the run N before the newest (DB@-1: the one before it)
 *   DB@ID         the run of that id (runs.id; `redbench history DB` lists them)
 * The runs' order is their start time, then the order they were added.
 * Anything else is a results file's path, read as before. A run is read
 * from the document it was added with, so that it reports byte for byte as
 * its JSON file does. */
#ifndef RB_HISTORY_READ_H
#define RB_HISTORY_READ_H

#include "base/json_reader.h"
#include "compare/comparison.h"
#include "history/database.h"
#include "results/read.h"

/* Whether `text` names a run of a history (then *db and *which are set,
 * newly allocated; *which "latest" where none is given), 0 when it is a
 * results file's path, or -1 after an error (DB@... where DB is a file
 * but not a history). */
int history_spec_parse(const char *text, char **db, char **which);

/* The id of the run `which` names in the open history ("latest", "-N", an
 * id). Returns 0, or -1 after an error naming the history and what is
 * valid. `spec` names it in messages. */
int history_select_run(rb_history *h, const char *spec, const char *which, long long *id);

/* The document of run `id`, newly allocated (its length in *len); NULL
 * after an error. */
char *history_run_document(rb_history *h, long long id, size_t *len);

/* Run `id` of the open history read back as a results file is
 * (results_read's), `spec` naming it in messages. Returns 0, or -1 after
 * saying why. */
int history_run_results(rb_history *h, const char *spec, long long id, rb_results_file *out);

/* The results document a path or a history's run names, parsed; NULL after
 * printing why (as json_read_file does for a file). */
json_value *history_json_read(const char *path);

/* results_read (results/read.h) of a results file or a history's run. */
int history_results_read(const char *path, rb_results_file *out);

/* compare_file_load (compare/comparison.h) of a results file or a
 * history's run. */
int history_compare_file_load(const char *path, rb_compare_file *file);

#endif
