/* src/report/fields.c: the fields of a result row (fields.h): what each is
 * called and how its value is read from a row, with when it is known. */
#include "report/fields.h"

#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "config/experiment.h"
#include "run/rules.h"

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

static void get_reason(const rb_row_ref *r, rb_value *v) { text(v, r->row->reason); }

static void get_result(const rb_row_ref *r, rb_value *v)
{
    text(v, text_or_null(r->row->result_text));
}

static void get_expected(const rb_row_ref *r, rb_value *v)
{
    text(v, text_or_null(r->row->expected_text));
}

static void get_error(const rb_row_ref *r, rb_value *v)
{
    measured(v, verified(r->row), r->row->error);
}

static void get_tolerance(const rb_row_ref *r, rb_value *v)
{
    measured(v, verified(r->row), r->row->tolerance);
}

/* ---- the time statistics ---- */

static void get_median(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row), r->row->stats.median);
}

static void get_min(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row), r->row->stats.min);
}

static void get_max(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row), r->row->stats.max);
}

static void get_mean(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row), r->row->stats.mean);
}

static void get_stddev(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_spread(r->row), r->row->stats.stddev);
}

static void get_cv(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_spread(r->row), r->row->stats.cv);
}

static void get_noise(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_spread(r->row), r->row->stats.noise);
}

static void get_reps(const rb_row_ref *r, rb_value *v) { count(v, r->row->stats.count, 1); }

/* ---- how it was measured ---- */

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

static void get_error_ratio(const rb_row_ref *r, rb_value *v)
{
    measured(v, r->row->error_ratio_known, r->row->error_ratio);
}

static void get_deterministic(const rb_row_ref *r, rb_value *v)
{
    flag(v, r->row->determinism != RB_DETERMINISM_UNKNOWN, r->row->determinism == RB_DETERMINISM_SAME);
}

static void get_determinism_results(const rb_row_ref *r, rb_value *v)
{
    count(v, r->row->determinism_results, r->row->determinism != RB_DETERMINISM_UNKNOWN);
}

static void get_probes(const rb_row_ref *r, rb_value *v) { text(v, probes_name(r->row->probes)); }

static void get_probes_passed(const rb_row_ref *r, rb_value *v)
{
    count(v, r->row->probes_passed, 1);
}

static void get_throttled(const rb_row_ref *r, rb_value *v)
{
    flag(v, r->row->clocks_known, r->row->throttled);
}

static void get_throttle_reasons(const rb_row_ref *r, rb_value *v)
{
    throttle_reason_text(r->row->throttle_reasons, v->buf, sizeof v->buf);
    text(v, r->row->clocks_known ? v->buf : NULL);
}

/* ---- bandwidth ---- */

static void get_bandwidth(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row) && r->row->bandwidth_gbs > 0, r->row->bandwidth_gbs);
}

static void get_pct_peak(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row) && r->row->pct_peak > 0, r->row->pct_peak);
}

static void get_pct_measured_peak(const rb_row_ref *r, rb_value *v)
{
    measured(v, has_samples(r->row) && r->row->pct_measured_peak > 0, r->row->pct_measured_peak);
}

const rb_field rb_row_fields[] = {
    {.name = "index", .get = get_index},
    {"run", get_run, "run", RB_UNIT_TEXT, 0},
    {"plugin", get_plugin, "plugin", RB_UNIT_TEXT, 0},
    {.name = "pack", .get = get_pack},
    {.name = "plugin_path", .get = get_plugin_path},
    {.name = "plugin_version", .get = get_plugin_version},
    {.name = "backend", .get = get_backend},
    {.name = "device", .get = get_device},
    {.name = "label", .get = get_label},
    {.name = "params", .get = get_object},
    {"params_text", get_params_text, "params", RB_UNIT_WORDS, 0},
    {"op", get_op, "op", RB_UNIT_TEXT, 0},
    {"dtype", get_dtype, "dtype", RB_UNIT_TEXT, 0},
    {"n", get_n, "n", RB_UNIT_SIZE, 0},
    {.name = "distribution", .get = get_distribution},
    {.name = "bins", .get = get_bins},
    {.name = "seed", .get = get_seed, .wide = 1},
    {.name = "cache", .get = get_cache},
    {"status", get_status, "status", RB_UNIT_TEXT, 0},
    {"reason", get_reason, "reason", RB_UNIT_TEXT, 0},
    {.name = "result", .get = get_result},
    {.name = "expected", .get = get_expected},
    {.name = "error", .get = get_error},
    {.name = "tolerance", .get = get_tolerance},
    {"median_ns", get_median, "median", RB_UNIT_DURATION, 0},
    {.name = "min_ns", .get = get_min},
    {.name = "max_ns", .get = get_max},
    {.name = "mean_ns", .get = get_mean},
    {.name = "stddev_ns", .get = get_stddev},
    {.name = "cv", .get = get_cv},
    {.name = "noise", .get = get_noise},
    {.name = "reps", .get = get_reps},
    {.name = "hit_max_reps", .get = get_hit_max_reps},
    {.name = "timing", .get = get_timing},
    {.name = "batch_calls", .get = get_batch_calls},
    {.name = "stopped_by", .get = get_stopped_by},
    {"error_ratio", get_error_ratio, "err/tol", RB_UNIT_RATIO, 0},
    {"deterministic", get_deterministic, "det", RB_UNIT_YES_NO, 0},
    {.name = "determinism_results", .get = get_determinism_results},
    {.name = "probes", .get = get_probes},
    {.name = "probes_passed", .get = get_probes_passed},
    {.name = "clocks", .get = get_object},
    {.name = "throttled", .get = get_throttled},
    {.name = "throttle_reasons", .get = get_throttle_reasons},
    {"bandwidth_gbs", get_bandwidth, "GB/s", RB_UNIT_DECIMAL, 0},
    {"pct_peak", get_pct_peak, "%peak", RB_UNIT_DECIMAL, 0},
    {"pct_measured_peak", get_pct_measured_peak, "%meas", RB_UNIT_DECIMAL, 0},
    {.name = "samples_ns", .get = get_object},
};
const size_t rb_n_row_fields = sizeof rb_row_fields / sizeof rb_row_fields[0];

const rb_field *row_field(const char *name)
{
    for (size_t k = 0; k < rb_n_row_fields; k++)
        if (strcmp(rb_row_fields[k].name, name) == 0)
            return &rb_row_fields[k];
    return NULL;
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
    default:
        return xstrdup(v.kind == RB_VALUE_TEXT && v.text ? v.text : "");
    }
}
