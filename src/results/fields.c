/* src/results/fields.c: the fields of a result row (fields.h): what each is
 * called, how its value is read from a row, with when it is known, how
 * people read it, and which function puts a value read back from a results
 * file into the row (results/read_fields.c). */
#include "results/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/provenance.h"
#include "base/units.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/keys.h"

static void text(rb_value *v, const char *t)
{
    v->kind = RB_VALUE_TEXT;
    v->text = t;
}

static void uint_value(rb_value *v, uint64_t u)
{
    v->kind = RB_VALUE_UINT;
    v->u = u;
}

/* A measured number, unknown unless `known`. */
static void measured(rb_value *v, int known, double number)
{
    v->kind = known ? RB_VALUE_NUMBER : RB_VALUE_UNKNOWN;
    v->number = number;
}

static void count(rb_value *v, uint64_t u, int counted)
{
    v->kind = RB_VALUE_COUNT;
    v->u = u;
    v->counted = counted;
}

static void flag(rb_value *v, int known, int value)
{
    v->kind = known ? RB_VALUE_BOOL : RB_VALUE_UNKNOWN;
    v->flag = value;
}

/* NULL for "", so that an unknown text is null rather than empty. */
static const char *text_or_null(const char *s) { return s && *s ? s : NULL; }

static int has_samples(const rb_row *row) { return row->stats.count > 0; }
static int has_spread(const rb_row *row) { return row->stats.count > 1; }
static int verified(const rb_row *row)
{
    return row->status == RB_ROW_OK || row->status == RB_ROW_WRONG;
}

/* A getter of a measured number of the row, unknown unless `known` (both
 * expressions of the row, `row`). */
#define GET_MEASURED(field_name, known, value)                                                \
    static void get_##field_name(const rb_row_ref *r, rb_value *v)                            \
    {                                                                                         \
        const rb_row *row = r->row;                                                           \
        measured(v, known, value);                                                            \
    }

/* ---- the configuration ---- */

static void get_index(const rb_row_ref *r, rb_value *v) { uint_value(v, r->row->config->index); }

static void get_run(const rb_row_ref *r, rb_value *v)
{
    text(v, r->row->config->run ? r->row->config->run->name : NULL);
}

static void get_plugin(const rb_row_ref *r, rb_value *v)
{
    const rb_configuration *cfg = r->row->config;
    text(v, cfg->plugin ? cfg->plugin->desc->name : cfg->run ? cfg->run->plugin : NULL);
}

static void get_pack(const rb_row_ref *r, rb_value *v)
{
    text(v, r->row->config->plugin ? r->row->config->plugin->pack : NULL);
}

static void get_plugin_path(const rb_row_ref *r, rb_value *v)
{
    text(v, r->row->config->plugin ? r->row->config->plugin->path : NULL);
}

static void get_plugin_version(const rb_row_ref *r, rb_value *v)
{
    text(v, r->row->config->plugin ? r->row->config->plugin->desc->version : NULL);
}

static void get_backend(const rb_row_ref *r, rb_value *v)
{
    const rb_loaded_plugin *plugin = r->row->config->plugin;
    text(v, r->row->backend ? r->row->backend : plugin ? plugin->desc->backend : NULL);
}

static void get_device(const rb_row_ref *r, rb_value *v)
{
    if (r->row->device_index >= 0 && (size_t)r->row->device_index < r->res->info.n_devices) {
        v->kind = RB_VALUE_INT;
        v->i = r->row->device_index;
    }
}

static void get_label(const rb_row_ref *r, rb_value *v) { text(v, r->row->label); }
static void get_object(const rb_row_ref *r, rb_value *v)
{
    (void)r;
    v->kind = RB_VALUE_OBJECT;
}

static void get_params_text(const rb_row_ref *r, rb_value *v)
{
    text(v, r->row->config->params_text ? r->row->config->params_text : "");
}

static void get_op(const rb_row_ref *r, rb_value *v) { text(v, op_name(r->row->config->op)); }

static void get_dtype(const rb_row_ref *r, rb_value *v)
{
    text(v, dtype_name(r->row->config->dtype));
}

static void get_n(const rb_row_ref *r, rb_value *v) { uint_value(v, r->row->config->n); }

/* The shape: absent for the one reduction of n elements, so that such
 * rows read as they always have. */
static void get_rows(const rb_row_ref *r, rb_value *v)
{
    if (sweep_is_shaped(r->row->config))
        uint_value(v, r->row->config->rows);
    else
        v->kind = RB_VALUE_ABSENT;
}

static void get_axis(const rb_row_ref *r, rb_value *v)
{
    if (sweep_is_shaped(r->row->config))
        text(v, axis_name(r->row->config->axis));
    else
        v->kind = RB_VALUE_ABSENT;
}

static void get_lengths(const rb_row_ref *r, rb_value *v)
{
    if (sweep_is_shaped(r->row->config))
        text(v, lengths_name(r->row->config->lengths));
    else
        v->kind = RB_VALUE_ABSENT;
}

static void get_distribution(const rb_row_ref *r, rb_value *v)
{
    text(v, distribution_name(r->row->config->distribution));
}

static void get_bins(const rb_row_ref *r, rb_value *v)
{
    if (r->row->config->op == RB_OP_HISTOGRAM)
        uint_value(v, r->row->config->bins);
    else
        v->kind = RB_VALUE_ABSENT;
}

static void get_seed(const rb_row_ref *r, rb_value *v) { uint_value(v, r->row->seed); }

static void get_cache(const rb_row_ref *r, rb_value *v)
{
    const rb_experiment *exp = r->res->info.experiment;
    text(v, exp ? cache_mode_name(exp->cache) : NULL);
}

/* ---- the outcome ---- */

static void get_status(const rb_row_ref *r, rb_value *v)
{
    text(v, row_status_name(r->row->status));
}

static void get_reason(const rb_row_ref *r, rb_value *v) { text(v, row_reason(r->row)); }

static void get_result(const rb_row_ref *r, rb_value *v)
{
    text(v, text_or_null(r->row->result_text));
}

static void get_expected(const rb_row_ref *r, rb_value *v)
{
    text(v, text_or_null(r->row->expected_text));
}

GET_MEASURED(error, verified(row), row->error)
GET_MEASURED(tolerance, verified(row), row->tolerance)

/* ---- the time statistics ---- */

GET_MEASURED(median, has_samples(row), row->stats.median)
GET_MEASURED(min, has_samples(row), row->stats.min)
GET_MEASURED(max, has_samples(row), row->stats.max)
GET_MEASURED(mean, has_samples(row), row->stats.mean)
GET_MEASURED(stddev, has_spread(row), row->stats.stddev)
GET_MEASURED(cv, has_spread(row), row->stats.cv)
GET_MEASURED(noise, has_spread(row), row->stats.noise)

static void get_reps(const rb_row_ref *r, rb_value *v) { count(v, r->row->stats.count, 1); }

/* ---- how it was measured ---- */

static void get_multimodal(const rb_row_ref *r, rb_value *v)
{
    flag(v, has_spread(r->row) && r->row->multimodal_known, r->row->multimodal);
}

/* Stopped by a cap (max_reps or the timeout) before the noise target. */
static void get_hit_max_reps(const rb_row_ref *r, rb_value *v)
{
    flag(v, 1, r->row->stopped_by && strcmp(r->row->stopped_by, "noise") != 0 &&
                   strcmp(r->row->stopped_by, "profile") != 0);
}

static void get_timing(const rb_row_ref *r, rb_value *v) { text(v, r->row->timing); }

static void get_batch_calls(const rb_row_ref *r, rb_value *v)
{
    if (r->row->batch_calls > 0)
        uint_value(v, r->row->batch_calls);
}

static void get_stopped_by(const rb_row_ref *r, rb_value *v) { text(v, r->row->stopped_by); }

GET_MEASURED(error_ratio, row->error_ratio_known, row->error_ratio)

static void get_deterministic(const rb_row_ref *r, rb_value *v)
{
    flag(v, r->row->determinism != RB_DETERMINISM_UNKNOWN, r->row->determinism == RB_DETERMINISM_SAME);
}

static void get_determinism_results(const rb_row_ref *r, rb_value *v)
{
    count(v, r->row->determinism_results, r->row->determinism != RB_DETERMINISM_UNKNOWN);
}

static void get_repro(const rb_row_ref *r, rb_value *v)
{
    text(v, repro_name(r->row->repro.level));
}

static void get_probes(const rb_row_ref *r, rb_value *v) { text(v, probes_name(r->row->probes)); }

static void get_probes_passed(const rb_row_ref *r, rb_value *v)
{
    count(v, r->row->probes_passed, 1);
}

/* Whether throttling was looked for: clocks sampled around the timed
 * repetitions, or during them (energy = on, sm_clock_max_mhz). */
static int throttle_known(const rb_row *row)
{
    return row->clocks_known || row->sm_clock_max_mhz > 0;
}

static void get_throttled(const rb_row_ref *r, rb_value *v)
{
    flag(v, throttle_known(r->row), r->row->throttled);
}

static void get_throttle_reasons(const rb_row_ref *r, rb_value *v)
{
    throttle_reason_text(r->row->throttle_reasons, v->buf, sizeof v->buf);
    text(v, throttle_known(r->row) ? v->buf : NULL);
}

/* ---- bandwidth ---- */

GET_MEASURED(bandwidth, has_samples(row) && row->bandwidth_gbs > 0, row->bandwidth_gbs)
GET_MEASURED(pct_peak, has_samples(row) && row->pct_peak > 0, row->pct_peak)
GET_MEASURED(pct_measured_peak, has_samples(row) && row->pct_measured_peak > 0,
             row->pct_measured_peak)

/* ---- energy (run/energy.h) ---- */

/* Whether energy was asked for: a source, or the note saying why none. */
static int energy_asked(const rb_row *row)
{
    return row->energy_source != RB_ENERGY_NONE || *row_energy_note(row);
}

static int has_energy(const rb_row *row)
{
    return row->energy_source != RB_ENERGY_NONE && row->energy_j > 0;
}

static void get_energy_source(const rb_row_ref *r, rb_value *v)
{
    text(v, energy_asked(r->row) ? energy_source_name(r->row->energy_source) : NULL);
}

static void get_energy_note(const rb_row_ref *r, rb_value *v)
{
    text(v, text_or_null(row_energy_note(r->row)));
}

/* The bytes a call must read: n x element size, on every rank. */
static double row_bytes(const rb_row *row)
{
    return results_row_bytes(row);
}

GET_MEASURED(energy_j, has_energy(row), row->energy_j)
GET_MEASURED(j_per_gb, has_energy(row) && row_bytes(row) > 0,
             energy_j_per_gb(row->energy_j, row_bytes(row)))
GET_MEASURED(power_w, has_energy(row) && row->power_w > 0, row->power_w)
GET_MEASURED(energy_s, has_energy(row), row->energy_s)

static void get_energy_calls(const rb_row_ref *r, rb_value *v)
{
    if (has_energy(r->row))
        uint_value(v, r->row->energy_calls);
}

static void get_sm_clock_min(const rb_row_ref *r, rb_value *v)
{
    if (r->row->sm_clock_min_mhz)
        uint_value(v, r->row->sm_clock_min_mhz);
}

static void get_sm_clock_max(const rb_row_ref *r, rb_value *v)
{
    if (r->row->sm_clock_max_mhz)
        uint_value(v, r->row->sm_clock_max_mhz);
}

/* ---- ranks ---- */

static int ranked(const rb_row *row)
{
    return row->ranks > 1;
}

static void get_ranks(const rb_row_ref *r, rb_value *v)
{
    uint_value(v, r->row->ranks ? r->row->ranks : 1);
}

static void get_n_total(const rb_row_ref *r, rb_value *v)
{
    uint_value(v, r->row->n_total ? r->row->n_total : sweep_elements(r->row->config));
}

GET_MEASURED(busbw, has_samples(row) && row->busbw_gbs > 0, row->busbw_gbs)

static void get_slowest_rank(const rb_row_ref *r, rb_value *v)
{
    if (ranked(r->row) && has_samples(r->row))
        uint_value(v, (uint64_t)r->row->slowest_rank);
}

GET_MEASURED(slowest_rank_ns, ranked(row) && has_samples(row), row->slowest_rank_ns)

static void get_fastest_rank(const rb_row_ref *r, rb_value *v)
{
    if (ranked(r->row) && has_samples(r->row))
        uint_value(v, (uint64_t)r->row->fastest_rank);
}

GET_MEASURED(fastest_rank_ns, ranked(row) && has_samples(row), row->fastest_rank_ns)

static void get_wrong_ranks(const rb_row_ref *r, rb_value *v)
{
    count(v, r->row->wrong_ranks, ranked(r->row));
}

GET_MEASURED(scaling, row->scaling > 0, row->scaling)

const rb_field rb_row_fields[] = {
    {.name = "index", .get = get_index, .kind = RB_VALUE_UINT, .put = fill_index},
    {.name = "run", .get = get_run, .title = "run", .kind = RB_VALUE_TEXT, .put = fill_run,
     .required = 1},
    {.name = "plugin", .get = get_plugin, .title = "plugin", .kind = RB_VALUE_TEXT,
     .put = fill_plugin, .required = 1},
    {.name = "pack", .get = get_pack, .kind = RB_VALUE_TEXT, .put = fill_pack},
    {.name = "plugin_path", .get = get_plugin_path, .kind = RB_VALUE_TEXT, .put = fill_plugin_path},
    {.name = "plugin_version", .get = get_plugin_version, .kind = RB_VALUE_TEXT,
     .put = fill_plugin_version},
    {.name = "backend", .get = get_backend, .kind = RB_VALUE_TEXT, .put = fill_backend},
    {.name = "device", .get = get_device, .kind = RB_VALUE_INT, .put = fill_device},
    {.name = "label", .get = get_label, .kind = RB_VALUE_TEXT, .put = fill_label},
    {.name = "params", .get = get_object, .kind = RB_VALUE_OBJECT, .put = fill_params},
    {.name = "params_text", .get = get_params_text, .title = "params", .unit = RB_UNIT_WORDS,
     .kind = RB_VALUE_TEXT, .put = fill_params_text},
    {.name = "op", .get = get_op, .title = "op", .kind = RB_VALUE_TEXT, .put = fill_op,
     .required = 1},
    {.name = "dtype", .get = get_dtype, .title = "dtype", .kind = RB_VALUE_TEXT, .put = fill_dtype,
     .required = 1},
    {.name = "n", .get = get_n, .title = "n", .unit = RB_UNIT_SIZE, .kind = RB_VALUE_UINT,
     .put = fill_n, .required = 1,
     .counted = "elements", .largest = RB_DATA_LARGEST_N},
    {.name = "rows", .get = get_rows, .title = "rows", .unit = RB_UNIT_SIZE,
     .kind = RB_VALUE_UINT, .put = fill_rows,
     .counted = "rows", .largest = RB_DATA_LARGEST_ROWS},
    {.name = "axis", .get = get_axis, .title = "axis", .kind = RB_VALUE_TEXT, .put = fill_axis},
    {.name = "lengths", .get = get_lengths, .title = "lengths", .kind = RB_VALUE_TEXT,
     .put = fill_lengths},
    {.name = "distribution", .get = get_distribution, .kind = RB_VALUE_TEXT,
     .put = fill_distribution},
    {.name = "bins", .get = get_bins, .kind = RB_VALUE_UINT, .put = fill_bins,
     .counted = "histogram bins", .largest = RB_DATA_LARGEST_BINS},
    {.name = "seed", .get = get_seed, .wide = 1, .kind = RB_VALUE_UINT, .put = fill_seed},
    {.name = "cache", .get = get_cache, .kind = RB_VALUE_TEXT, .put = fill_cache},
    {.name = "status", .get = get_status, .title = "status", .kind = RB_VALUE_TEXT,
     .put = fill_status, .required = 1},
    {.name = "reason", .get = get_reason, .title = "reason", .kind = RB_VALUE_TEXT,
     .put = fill_reason},
    {.name = "result", .get = get_result, .kind = RB_VALUE_TEXT, .put = fill_result},
    {.name = "expected", .get = get_expected, .kind = RB_VALUE_TEXT, .put = fill_expected},
    {.name = "error", .get = get_error, .kind = RB_VALUE_NUMBER, .put = fill_error},
    {.name = "tolerance", .get = get_tolerance, .kind = RB_VALUE_NUMBER, .put = fill_tolerance},
    {.name = "median_ns", .get = get_median, .title = "median", .unit = RB_UNIT_DURATION,
     .kind = RB_VALUE_NUMBER, .put = fill_median},
    {.name = "min_ns", .get = get_min, .kind = RB_VALUE_NUMBER, .put = fill_min},
    {.name = "max_ns", .get = get_max, .kind = RB_VALUE_NUMBER, .put = fill_max},
    {.name = "mean_ns", .get = get_mean, .kind = RB_VALUE_NUMBER, .put = fill_mean},
    {.name = "stddev_ns", .get = get_stddev, .kind = RB_VALUE_NUMBER, .put = fill_stddev},
    {.name = "cv", .get = get_cv, .kind = RB_VALUE_NUMBER, .put = fill_cv},
    {.name = "noise", .get = get_noise, .title = "noise", .unit = RB_UNIT_PERCENT,
     .kind = RB_VALUE_NUMBER, .put = fill_noise},
    {.name = "multimodal", .get = get_multimodal, .kind = RB_VALUE_BOOL, .put = fill_multimodal},
    {.name = "reps", .get = get_reps, .title = "reps", .unit = RB_UNIT_COUNT,
     .kind = RB_VALUE_UINT, .put = fill_reps},
    {.name = "hit_max_reps", .get = get_hit_max_reps}, /* from stopped_by */
    {.name = "timing", .get = get_timing, .title = "timing", .kind = RB_VALUE_TEXT,
     .put = fill_timing},
    {.name = "batch_calls", .get = get_batch_calls, .kind = RB_VALUE_UINT, .put = fill_batch_calls},
    {.name = "stopped_by", .get = get_stopped_by, .title = "stopped by", .kind = RB_VALUE_TEXT,
     .put = fill_stopped_by},
    {.name = "error_ratio", .get = get_error_ratio, .title = "err/tol", .unit = RB_UNIT_RATIO,
     .kind = RB_VALUE_NUMBER, .put = fill_error_ratio},
    {.name = "deterministic", .get = get_deterministic, .title = "det", .unit = RB_UNIT_YES_NO,
     .kind = RB_VALUE_BOOL, .put = fill_deterministic},
    {.name = "determinism_results", .get = get_determinism_results, .kind = RB_VALUE_UINT,
     .put = fill_determinism_results},
    {.name = "probes", .get = get_probes, .kind = RB_VALUE_TEXT, .put = fill_probes},
    {.name = "probes_passed", .get = get_probes_passed, .kind = RB_VALUE_UINT,
     .put = fill_probes_passed},
    {.name = "clocks", .get = get_object, .kind = RB_VALUE_OBJECT, .put = fill_clocks},
    {.name = "throttled", .get = get_throttled, .title = "throttled", .unit = RB_UNIT_YES_NO,
     .kind = RB_VALUE_BOOL, .put = fill_throttled},
    {.name = "throttle_reasons", .get = get_throttle_reasons, .kind = RB_VALUE_TEXT,
     .put = fill_throttle_reasons},
    {.name = "bandwidth_gbs", .get = get_bandwidth, .title = "GB/s", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = fill_bandwidth},
    {.name = "pct_peak", .get = get_pct_peak, .title = "%peak", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = fill_pct_peak},
    {.name = "pct_measured_peak", .get = get_pct_measured_peak, .title = "%meas",
     .unit = RB_UNIT_DECIMAL, .kind = RB_VALUE_NUMBER, .put = fill_pct_measured_peak},
    {.name = "ranks", .get = get_ranks, .title = "ranks", .unit = RB_UNIT_SIZE,
     .kind = RB_VALUE_UINT, .put = fill_ranks,
     .counted = "ranks", .largest = RB_DATA_LARGEST_RANKS},
    {.name = "n_total", .get = get_n_total, .kind = RB_VALUE_UINT, .put = fill_n_total},
    {.name = "busbw_gbs", .get = get_busbw, .title = "busbw", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = fill_busbw},
    {.name = "slowest_rank", .get = get_slowest_rank, .title = "slowest rank",
     .kind = RB_VALUE_UINT, .put = fill_slowest_rank},
    {.name = "slowest_rank_ns", .get = get_slowest_rank_ns, .kind = RB_VALUE_NUMBER,
     .put = fill_slowest_rank_ns},
    {.name = "fastest_rank", .get = get_fastest_rank, .kind = RB_VALUE_UINT,
     .put = fill_fastest_rank},
    {.name = "fastest_rank_ns", .get = get_fastest_rank_ns, .kind = RB_VALUE_NUMBER,
     .put = fill_fastest_rank_ns},
    {.name = "wrong_ranks", .get = get_wrong_ranks, .title = "wrong ranks",
     .kind = RB_VALUE_UINT, .put = fill_wrong_ranks},
    {.name = "scaling", .get = get_scaling, .title = "scaling", .unit = RB_UNIT_RATIO,
     .kind = RB_VALUE_NUMBER, .put = fill_scaling},
    {.name = "energy_source", .get = get_energy_source, .kind = RB_VALUE_TEXT,
     .put = fill_energy_source},
    {.name = "energy_note", .get = get_energy_note, .kind = RB_VALUE_TEXT,
     .put = fill_energy_note},
    {.name = "energy_j", .get = get_energy_j, .title = "J/call", .unit = RB_UNIT_RATIO,
     .kind = RB_VALUE_NUMBER, .put = fill_energy_j},
    {.name = "j_per_gb", .get = get_j_per_gb, .title = "J/GB", .unit = RB_UNIT_RATIO},
    {.name = "power_w", .get = get_power_w, .title = "W", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = fill_power_w},
    {.name = "energy_calls", .get = get_energy_calls, .kind = RB_VALUE_UINT,
     .put = fill_energy_calls},
    {.name = "energy_s", .get = get_energy_s, .kind = RB_VALUE_NUMBER, .put = fill_energy_s},
    {.name = "sm_clock_min_mhz", .get = get_sm_clock_min, .title = "SM min MHz",
     .unit = RB_UNIT_COUNT, .kind = RB_VALUE_UINT, .put = fill_sm_clock_min},
    {.name = "sm_clock_max_mhz", .get = get_sm_clock_max, .title = "SM max MHz",
     .unit = RB_UNIT_COUNT, .kind = RB_VALUE_UINT, .put = fill_sm_clock_max},
    {.name = "rank_energy_j", .get = get_object, .kind = RB_VALUE_OBJECT,
     .put = fill_rank_energy},
    {.name = "samples_ns", .get = get_object, .kind = RB_VALUE_OBJECT, .put = fill_samples},
    {.name = "rounds", .get = get_object, .kind = RB_VALUE_OBJECT, .put = fill_rounds},
    {.name = "repro", .get = get_repro, .title = "repro", .unit = RB_UNIT_WORDS,
     .kind = RB_VALUE_TEXT, .put = fill_repro},
};
const size_t rb_n_row_fields = sizeof rb_row_fields / sizeof rb_row_fields[0];

const rb_field *row_field(const char *name)
{
    for (size_t k = 0; k < rb_n_row_fields; k++)
        if (strcmp(rb_row_fields[k].name, name) == 0)
            return &rb_row_fields[k];
    return NULL;
}

const rb_loaded_plugin *row_first_plugin(const rb_results *res, size_t k)
{
    const rb_loaded_plugin *p = res->rows[k].config->plugin;
    for (size_t j = 0; p && j < k; j++)
        if (res->rows[j].config->plugin == p)
            return NULL;
    return p;
}

int plugin_digest(const rb_loaded_plugin *p, char digest[65])
{
    if (p->sha256) {
        snprintf(digest, 65, "%s", p->sha256);
        return 0;
    }
    return p->path && sha256_file(p->path, digest) == 0 ? 0 : -1;
}

int field_unit_is_number(int unit)
{
    return unit == RB_UNIT_SIZE || unit == RB_UNIT_DURATION || unit == RB_UNIT_DECIMAL ||
           unit == RB_UNIT_RATIO || unit == RB_UNIT_COUNT || unit == RB_UNIT_PERCENT;
}

char *field_text(const rb_field *f, const rb_row_ref *r)
{
    rb_value v;
    memset(&v, 0, sizeof v);
    f->get(r, &v);
    char text[64];
    int number = v.kind == RB_VALUE_NUMBER;
    switch (f->unit) {
    case RB_UNIT_WORDS:
        return xstrdup(v.kind == RB_VALUE_TEXT && v.text && *v.text ? v.text : "-");
    case RB_UNIT_SIZE:
        if (v.kind != RB_VALUE_UINT)
            return xstrdup("-");
        format_size(v.u, text, sizeof text);
        return xstrdup(text);
    case RB_UNIT_DURATION:
        if (!number)
            return xstrdup("-");
        format_duration_ns(v.number, text, sizeof text);
        return xstrdup(text);
    case RB_UNIT_DECIMAL:
        return number ? xasprintf("%.1f", v.number) : xstrdup("-");
    case RB_UNIT_RATIO:
        if (!number)
            return xstrdup("-");
        if (v.number == 0)
            return xstrdup("0");
        return v.number < 0.01 ? xasprintf("%.1e", v.number) : xasprintf("%.2g", v.number);
    case RB_UNIT_YES_NO:
        return xstrdup(v.kind != RB_VALUE_BOOL ? "-" : v.flag ? "yes" : "no");
    case RB_UNIT_COUNT:
        return v.kind == RB_VALUE_UINT || v.kind == RB_VALUE_COUNT
                   ? xasprintf("%llu", (unsigned long long)v.u)
                   : xstrdup("-");
    case RB_UNIT_PERCENT: return number ? xasprintf("%.3g%%", v.number * 100) : xstrdup("-");
    default:
        return xstrdup(v.kind == RB_VALUE_TEXT && v.text ? v.text : "");
    }
}
