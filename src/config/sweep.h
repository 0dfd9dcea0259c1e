/* src/config/sweep.h: expansion of an experiment into configurations. Each [run]
 * section's comma lists (data keys and plugin parameters) are axes combined
 * as a Cartesian product, in the order the keys appear (data keys first:
 * op, dtype, n, distribution, bins, ranks, rows, axis, lengths; then parameters in
 * declaration order).
 * Every value is checked against the plugin's declared parameters. */
#ifndef RB_SWEEP_H
#define RB_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "base/ini_writer.h"
#include "config/experiment.h"
#include "host/registry.h"

/* Refuse sweeps larger than this, before anything runs. */
#define RB_SWEEP_MAX_CONFIGS 100000

typedef struct rb_configuration {
    size_t index;                  /* 0-based position in the sweep */
    const rb_run_section *run;
    const rb_loaded_plugin *plugin;/* NULL when the run is optional and its
                                      plugin is absent */
    int op, dtype;                 /* enum rb_op, enum rb_dtype */
    uint64_t n;
    int distribution;              /* enum rb_distribution */
    uint32_t bins;                 /* histogram bins; default 256 */
    uint32_t ranks;                /* processes that run it together, one
                                      per device (ranks = ...); default 1 */
    /* The shape (redbench/plugin.h, "Shapes"): rows of n elements each,
     * reduced along axis, fixed or ragged lengths. rows 1, RB_AXIS_ROW,
     * RB_LENGTHS_FIXED: the one reduction of n elements. */
    uint64_t rows;
    int axis;                      /* enum rb_axis */
    int lengths;                   /* enum rb_lengths (base/names.h) */
    rb_param_value *params;        /* one per declared parameter, in the
                                      plugin's order (defaults filled in);
                                      names point into the descriptor */
    uint32_t n_params;
    char *params_text;             /* "block=256 variant=sequential": every
                                      parameter, declaration order */
    /* An op or dtype the plugin does not declare is not an error: the
     * runner reports the row `unsupported`, naming what the plugin has. */
    char *skip_reason;             /* set when the row is skipped before it
                                      runs (optional plugin absent) */
} rb_configuration;

typedef struct rb_sweep {
    rb_configuration *configs;
    size_t n_configs, cap_configs;
} rb_sweep;

/* Expands every run section. Errors (unknown plugin, parameter or value,
 * value out of range, empty list item, bad data value, product too large) are printed with diag_at, naming the
 * file, the line and what is valid. Returns the number of errors. */
int sweep_expand(rb_experiment *exp, const rb_registry *reg, rb_sweep *out);

/* An experiment file made ready to run in one pass of errors: read with the
 * options' overrides, the runs the -r patterns match kept, and expanded
 * against the plugins found. Every error of the file and of the options is
 * found before any is printed (an error of the file's keys does not hide
 * one of its plugin parameters); they come out sorted by line, then
 * "redbench: FILE has errors; nothing was run". Returns 0, or nonzero
 * after reporting why (exp and out are then still to be freed). */
int sweep_prepare(const char *path, const rb_override *overrides, size_t n_overrides,
                  char *const *runs, size_t n_runs, const rb_registry *reg,
                  rb_experiment *exp, rb_sweep *out);

void sweep_free(rb_sweep *sweep);

/* Whether a configuration is shaped: rows > 1, axis = column or ragged. */
int sweep_is_shaped(const rb_configuration *cfg);
/* The elements of its input: rows x n. */
uint64_t sweep_elements(const rb_configuration *cfg);
/* Its answers: rows (axis = row) or n (axis = column). */
uint64_t sweep_answers(const rb_configuration *cfg);
/* Why plugin p is not offered a shaped configuration (it is older than
 * ABI 1.6, or does not declare the shape), in buf; 0 when it is. */
int sweep_shape_declined(const rb_plugin *p, const rb_configuration *cfg, char *buf, size_t len);
/* " rows=64 axis=column lengths=ragged" (what differs from the one
 * reduction), or "" for an unshaped configuration. */
void sweep_shape_text(const rb_configuration *cfg, char *buf, size_t len);

/* The order of the data two configurations read, their runs aside: op,
 * dtype, distribution, bins, ranks, axis, lengths, rows, then n. Negative, 0 (the same data)
 * or positive, as qsort's comparisons. */
int sweep_data_order(const rb_configuration *a, const rb_configuration *b);

/* The [data] keys of configuration c, in the key table's order
 * (config/keys.h), as `key = value` lines through the INI writer, so that a
 * [run NAME] section of them reads back as c's data: those without effect
 * on c left out (bins but for a histogram, ranks = 1, the shape of one
 * reduction). The tuned experiment and the ranks' experiment file write
 * their configurations with it. */
void data_keys_write(rb_ini_writer *w, const rb_configuration *c);

#endif
