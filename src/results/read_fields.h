/* src/results/read_fields.h: a row being read back from a results file
 * (results/read.c), and where each field's value goes (read_fields.c): the
 * fill_ function that the field's entry in results/fields.c names. */
#ifndef RB_READ_FIELDS_H
#define RB_READ_FIELDS_H

#include <stddef.h>

#include "base/json_reader.h"
#include "base/text_index.h"
#include "results/field_value.h"
#include "results/rows.h"

/* A row being read back from a results file (results/read.c). Each field's
 * `put` stores the value the file gives it into the row, its own
 * configuration, or (for what finds the row's run and plugin among those
 * of the file, once every field is read, and what is checked against the
 * rest of the file once it is all read) the members below. Texts are kept
 * with keep(): the row's part of the document is freed once it is read. */
typedef struct rb_row_fill {
    rb_row *row;
    rb_configuration *config;
    text_index *texts;
    const char *run, *plugin, *pack, *plugin_path, *plugin_version, *cache;
    char *param_types;        /* "block\x1fvariant\x1fiw": the parameters' names,
                                 then a letter each: i(nteger), w(ord) */
    size_t n_samples;         /* samples_ns read (the row's stats.count is reps) */
    int has_reps, has_params_text;
    int has_time;             /* median_ns is known */
    int device_known;         /* the row names a device: `device`, which the
                                 file's devices must hold (results/read.c) */
    int64_t device;
    int cache_line;           /* the line of `cache` */
    char why[256];            /* what is wrong with a value, when put fails */
} rb_row_fill;

/* The reader's copy of a text (NULL stays NULL). */
const char *fill_keep(rb_row_fill *f, const char *text);

/* Where one field's value goes: v is the value of the field's kind
 * (RB_VALUE_UNKNOWN for null, RB_VALUE_ABSENT when the member is not
 * there), json the member itself. Returns 0, or -1 with f->why filled. */
typedef int rb_fill_fn(rb_row_fill *f, const rb_value *v, const json_value *json);

/* One for each field that is read back, in the order of results/fields.c. */
rb_fill_fn fill_index, fill_run, fill_plugin, fill_pack, fill_plugin_path, fill_plugin_version,
    fill_backend, fill_device, fill_label, fill_params, fill_params_text, fill_op, fill_dtype,
    fill_n, fill_rows, fill_axis, fill_lengths, fill_distribution, fill_bins, fill_seed, fill_cache, fill_status, fill_reason,
    fill_result, fill_expected, fill_error, fill_tolerance, fill_median, fill_min, fill_max,
    fill_mean, fill_stddev, fill_cv, fill_noise, fill_multimodal, fill_reps, fill_timing,
    fill_batch_calls, fill_stopped_by, fill_error_ratio, fill_deterministic,
    fill_determinism_results, fill_probes, fill_probes_passed, fill_clocks, fill_throttled,
    fill_throttle_reasons, fill_bandwidth, fill_pct_peak, fill_pct_measured_peak, fill_ranks,
    fill_n_total, fill_busbw, fill_slowest_rank, fill_slowest_rank_ns, fill_fastest_rank,
    fill_fastest_rank_ns, fill_wrong_ranks, fill_scaling, fill_samples, fill_rounds,
    fill_energy_source, fill_energy_note, fill_energy_j, fill_power_w, fill_energy_calls,
    fill_energy_s, fill_sm_clock_min, fill_sm_clock_max, fill_rank_energy, fill_repro;

#endif
