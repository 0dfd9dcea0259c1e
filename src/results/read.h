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

/* The same from a document already parsed; `path` names it in messages.
 * The document need not outlive `out`. */
int results_from_doc(const char *path, const json_value *doc, rb_results_file *out);

void results_file_free(rb_results_file *f);

#endif
