/* src/compare/comparison.h: `redbench compare OLD.json NEW.json`: two result files
 * read back, their configurations matched, each pair judged with the
 * statistics of compare/significance.h, pairs measured differently (another timing
 * mode or cache regime) noted, and the outcome written as a table, CSV,
 * JSON or Markdown (compare/report.c). */
#ifndef RB_COMPARISON_H
#define RB_COMPARISON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json_reader.h"
#include "base/text_index.h"
#include "compare/significance.h"
#include "results/rows.h"

/* The measurement settings that make two sets of samples measure different
 * things when they differ: samples timed per launch against samples of a
 * replayed graph, or a hot cache against a flushed one. */
enum rb_compare_setting {
    RB_SETTING_TIMING = 0,  /* the row's "timing": launch, graph, device, ... */
    RB_SETTING_CACHE,       /* the row's "cache" (else the experiment's): hot, cold */
    RB_SETTING_COUNT_
};

const char *compare_setting_name(int setting); /* "timing", "cache" */

/* One parameter of a row, as the file has it. */
typedef struct rb_compare_param {
    const char *key;
    json_type type;         /* a string, number, boolean or null; anything else
                               is kept as the string "?" */
    const char *text;       /* its text ("256", "tree", "true", "null") */
} rb_compare_param;

/* A row's parameters: one copy per different set in a file. */
typedef struct rb_compare_params {
    rb_compare_param *items;
    size_t count;
    const char *text;       /* "block=256 variant=tree", keys sorted (for
                               matching); "" if none */
    const char *shown;      /* the same in the row's own order, as the run's
                               table shows them (for people) */
} rb_compare_params;

/* One row of a result file. Texts are the file's own copies (one per
 * different text: a file of a million rows names a few runs), since the
 * document is freed once read. */
typedef struct rb_compare_row {
    size_t position;        /* 0-based index in the file's `results` */
    const char *run, *plugin, *op, *dtype, *distribution;
    uint64_t n;
    const char *status;     /* "ok", "wrong", ... */
    const char *reason;
    const char *repro;      /* the reproducibility level ("run-to-run",
                               ...); NULL unknown */
    const rb_compare_params *params;
    const char *params_text; /* params->text */
    const char *bins;       /* the row's bins as text, "" if none */
    const char *shape;      /* " rows=64 axis=column", "" for one reduction
                               (config/sweep.h: sweep_shape_text) */
    uint64_t rows;          /* the shape: rows (1 for one reduction), */
    int axis, lengths;      /* enum rb_axis, enum rb_lengths */
    double *samples;        /* samples_ns (in the file's pool) */
    size_t n_samples;
    size_t *round_reps;     /* each round's samples, in order (in the file's
                               pool; they add up to n_samples) */
    size_t n_rounds;        /* 0 or 1: one run */
    double energy_j;        /* the row's energy per call; 0: none */
    double *energy_rounds;  /* one energy per call for each round that has
                               one (the row's alone where its rounds keep
                               none: a file written before they did); in
                               the file's pool */
    size_t *energy_reps;    /* n_energy_rounds ones: one figure a round */
    size_t n_energy_rounds;
    int device;             /* index into the file's devices, -1 if none */
    const char *settings[RB_SETTING_COUNT_]; /* how it was measured; NULL where
                                                the file does not say (a row
                                                that was not timed has no
                                                timing) */
    const char *plugin_version; /* the plugin's own version; NULL if unknown */
    const char *plugin_sha256;  /* its file's SHA-256; NULL if unknown */
    const char *match_plugin;   /* what matching compares of the plugin and */
    const char *match_params;   /* the parameters (comparison_prepare: without
                                   the ignored ones; none with --match run);
                                   NULL: plugin and params_text */
} rb_compare_row;

/* One device a file's run used. */
typedef struct rb_compare_device {
    const char *backend, *name, *uuid;
    int64_t index;          /* the backend's device index */
} rb_compare_device;

typedef struct rb_compare_file {
    const char *path;
    text_index texts;       /* the file's texts, one copy each */
    text_index params_index; /* params set text -> index in params_sets */
    rb_compare_params **params_sets;
    size_t n_params_sets;
    double *samples;        /* every row's samples, one block */
    size_t *round_reps;     /* every row's rounds' reps, one block */
    double *energy_rounds;  /* every row's energy per round, one block */
    size_t *energy_reps;    /* as many ones */
    size_t n_with_energy;   /* rows with energy */
    const char *version, *git_revision, *started, *host;
    rb_compare_row *rows;
    size_t n_rows;
    rb_compare_device *devices;
    size_t n_devices;
} rb_compare_file;

/* A configuration found in both files, and the verdict on it. */
typedef struct rb_compare_pair {
    const rb_compare_row *old_row, *new_row;
    rb_sample_comparison stats;
    unsigned differs;       /* bit 1 << setting for each setting both rows
                               record and that differs between them */
    int became_bad;         /* ok in the old file, and wrong, failed or
                               unsupported in the new: a regression */
    rb_sample_comparison energy; /* energy per call, judged by the same
                               rules over one figure a round (quantity
                               RB_QUANTITY_ENERGY); meaningful where
                               no_energy is NULL */
    const char *no_energy;  /* why energy is not compared: "no energy in
                               old", "... in new", "... in either", "not
                               ok"; NULL where both rows have energy */
} rb_compare_pair;

typedef struct rb_comparison {
    rb_compare_file old_file, new_file;
    rb_compare_criteria criteria;
    rb_compare_pair *pairs;          /* in the old file's order */
    size_t n_pairs;
    const rb_compare_row **only_old; /* configurations in one file only */
    size_t n_only_old;
    const rb_compare_row **only_new;
    size_t n_only_new;
    char **device_changes;           /* "cpu 0: name 'A' -> 'B'", one per difference */
    size_t n_device_changes;
    size_t counts[RB_VERDICT_COUNT_];
    size_t n_differ;                 /* pairs measured differently (differs != 0) */
    size_t n_tested;                 /* pairs whose samples were tested (both ok,
                                        enough samples): Holm's adjustment
                                        is over these */
    size_t n_became_bad;             /* pairs with became_bad */
    size_t n_from_rounds;            /* tested pairs judged from their rounds
                                        (two or more on both sides); the
                                        rest of n_tested had one run a side */
    int require_all;                 /* --require-all: a configuration of the old
                                        file missing from the new one fails */
    const char **ignore;             /* --ignore PARAM: parameters left out of
                                        matching (A/B across their values) */
    size_t n_ignore;
    int match_run;                   /* --match run: rows match by run and data
                                        (op, dtype, n, distribution, bins),
                                        whatever their plugin and parameters */
    char **plugin_changes;           /* "serial (version 1.0 -> 1.1, SHA-256
                                        ab12... -> cd34...)", one per plugin whose
                                        version or file differs between the
                                        files (among the pairs) */
    size_t n_plugin_changes;
    /* Energy (rows measured with energy = on): compared where both rows of
     * a pair have it, over the rounds' energy per call (two or more a side;
     * else unclear), p-values adjusted with Holm's method over the pairs
     * whose energy was tested (a family of their own, so that measuring
     * energy does not change time's verdicts). */
    int repro_shown;                 /* some row of either file has a
                                        reproducibility level: the reports
                                        show both sides' */
    int energy_shown;                /* some row of either file has energy: the
                                        reports show energy beside time */
    size_t energy_counts[RB_VERDICT_COUNT_]; /* over the pairs with energy */
    size_t n_energy_pairs;           /* pairs with energy on both sides */
    size_t n_energy_tested;          /* of them, those tested */
    int energy_report_only;          /* --energy report: a higher energy is
                                        reported but does not fail */
} rb_comparison;

/* The exit status the comparison calls for: 1 when a configuration got
 * slower, used more energy (unless energy_report_only), became wrong,
 * failed or unsupported, or (with require_all) is missing from the new
 * file; else 0. */
int comparison_status(const rb_comparison *cmp);

/* Reads a result file written by `redbench --format json` (results/read.h),
 * keeping what compare needs. Errors name the file and line. Returns 0, or
 * -1 after printing what is wrong. */
int compare_file_load(const char *path, rb_compare_file *file);
/* The same from a result set already read; `path` names it in messages.
 * The set is not kept. */
int compare_file_from_results(const char *path, const rb_results *res, rb_compare_file *file);
void compare_file_free(rb_compare_file *file);

/* What matching compares of each row, from cmp->ignore and
 * cmp->match_run: returns 0, or -1 after saying why on standard error (an
 * ignored parameter that no row of either file has; rows of one file
 * that become one configuration once the parameters are left out, which
 * could not be paired). Call it after loading, before comparison_run. */
int comparison_prepare(rb_comparison *cmp);

/* Matches the files' configurations, lists device and plugin differences
 * and judges every pair. `cmp` holds both files, already loaded. */
void comparison_run(rb_comparison *cmp);

/* A pair's parameters as people read them: the old row's, or where
 * matching left some out and they differ, "lanes=16 -> lanes=1" (the
 * plugin too, with --match run). Free it. */
char *compare_pair_params(const rb_compare_pair *p);

/* Notes on standard error each plugin whose version or SHA-256 changed
 * between the files (cmp->plugin_changes). */
void comparison_note_plugin_changes(const rb_comparison *cmp);
void comparison_free(rb_comparison *cmp);

/* Warns on standard error about pairs measured differently (another timing
 * mode or cache regime), naming them with both settings. */
void comparison_warn_measured_differently(const rb_comparison *cmp);

/* "plain serial block=4 sum f32 n=1K uniform": one configuration on one
 * line, for reports and warnings. Free it. */
char *compare_row_title(const rb_compare_row *row);

/* The reporters (compare/report.c). Each returns 0, or -1 on a write error. */
typedef int (*rb_compare_reporter)(FILE *out, const rb_comparison *cmp);
int compare_report_table(FILE *out, const rb_comparison *cmp);
int compare_report_csv(FILE *out, const rb_comparison *cmp);
int compare_report_json(FILE *out, const rb_comparison *cmp);
int compare_report_md(FILE *out, const rb_comparison *cmp);
/* The reporter for a format name, or NULL. */
rb_compare_reporter compare_reporter_for(const char *format);
/* The formats that have a reporter, joined by `sep` (", " or "|"). */
const char *compare_formats(const char *sep);

#endif
