/* src/results/read.h: a results file read back into the typed set that a run
 * produces (results/rows.h), so that every consumer of saved results (the
 * HTML report, `redbench report`, `plot`, `compare`) reads one model, the
 * one the JSON reporter writes. The rows' fields are read through the
 * table of results/fields.c; the run's metadata, devices and experiment
 * here. Results files come from anyone: every malformed input is an
 * error naming the file, the line and what is wrong, never a crash. */
#ifndef RB_RESULTS_READ_H
#define RB_RESULTS_READ_H

#include <stddef.h>

#include "base/json_reader.h"
#include "base/text_index.h"
#include "results/rows.h"

/* The rows and metadata (`res`), and what they point to: the experiment,
 * one configuration per row, and the runs and plugins they name (one of
 * each, shared by the rows that name it), as a run would have them. */
typedef struct rb_results_file {
    rb_results res;
    rb_experiment *experiment;     /* NULL when the file has none */
    rb_configuration *configs;     /* res.rows[k].config is configs + k */
    rb_run_section **runs;
    size_t n_runs;
    rb_loaded_plugin **plugins;    /* each with its descriptor, whose
                                      parameters say which are integers */
    size_t n_plugins;
    text_index texts;              /* every text, one copy each */
} rb_results_file;

/* Reads a results file (redbench -c FILE --format json). Returns 0, or -1
 * after printing "PATH:LINE: error: ..." (the file is not JSON, is not a
 * redbench results file, or a member has the wrong type or an unknown
 * word). */
int results_read(const char *path, rb_results_file *out);

/* Reads a results file handing each row to `each` as soon as it is read,
 * instead of keeping the rows, for a reader that keeps its own (compare):
 * `out` then holds the file's metadata, runs and plugins, and no row
 * (res.n_rows is 0). The row, its configuration and its texts are valid
 * during the call; the run and plugin it names, as long as `out` (a
 * plugin's sha256 is known only once the whole file is read). Whether the
 * file is valid is known at the end: a file refused (-1) may have handed
 * rows already. `index` is the row's place in the file's results. */
typedef void rb_results_row_fn(void *user, size_t index, const rb_row *row);
int results_read_each(const char *path, rb_results_file *out, rb_results_row_fn *each,
                      void *user);

/* The same from a document already parsed; `path` names it in messages.
 * The document need not outlive `out`. */
int results_from_doc(const char *path, const json_value *doc, rb_results_file *out);

void results_file_free(rb_results_file *f);

#endif
