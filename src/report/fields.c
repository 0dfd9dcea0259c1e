/* src/report/fields.c: the fields of a result row (fields.h): what each is
 * called, how its value is read from a row, with when it is known, and
 * where a value read back from a results file goes. */
#include "report/fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/provenance.h"
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

GET_MEASURED(bandwidth, has_samples(row) && row->bandwidth_gbs > 0, row->bandwidth_gbs)
GET_MEASURED(pct_peak, has_samples(row) && row->pct_peak > 0, row->pct_peak)
GET_MEASURED(pct_measured_peak, has_samples(row) && row->pct_measured_peak > 0,
             row->pct_measured_peak)

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
    uint_value(v, r->row->n_total ? r->row->n_total : r->row->config->n);
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

/* ---- read back (report/read.c) ---- */

const char *fill_keep(rb_row_fill *f, const char *text)
{
    return text ? text_index_intern(f->texts, text) : NULL;
}

static int why(rb_row_fill *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int why(rb_row_fill *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
    return -1;
}

static int known(const rb_value *v) { return v->kind != RB_VALUE_UNKNOWN && v->kind != RB_VALUE_ABSENT; }

/* A text into a buffer of the row, cut to fit. */
static void copy_text(char *buf, size_t len, const rb_value *v)
{
    snprintf(buf, len, "%s", known(v) && v->text ? v->text : "");
}

/* The index of `word` among count names, or -1. */
static int word_index(const char *word, const char *(*name)(int), int count)
{
    for (int k = 0; word && k < count; k++)
        if (name(k) && strcmp(name(k), word) == 0)
            return k;
    return -1;
}

/* An enum's value from its word; unknown words fail naming the valid ones. */
static int put_word(rb_row_fill *f, const rb_value *v, int *out, const char *(*name)(int),
                    int count, int fallback)
{
    if (!known(v)) {
        *out = fallback;
        return 0;
    }
    int k = word_index(v->text, name, count);
    if (k >= 0) {
        *out = k;
        return 0;
    }
    strbuf valid = {0};
    for (int j = 0; j < count; j++)
        if (name(j))
            sb_printf(&valid, "%s%s", valid.len ? ", " : "", name(j));
    char *shown = printable_text(v->text);
    why(f, "is '%.60s'; valid: %s", shown, valid.data ? valid.data : "");
    free(shown);
    sb_free(&valid);
    return -1;
}

static const char *op_word(int k) { return op_name(k); }
static const char *dtype_word(int k) { return dtype_name(k); }
static const char *distribution_word(int k) { return distribution_name(k); }
static const char *status_word(int k) { return row_status_name(k); }
static const char *probes_word(int k) { return probes_name(k); }

static int put_index(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (known(v))
        f->config->index = (size_t)v->u;
    return 0;
}

#define PUT_TEXT(field_name, target)                                                          \
    static int put_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)       \
    {                                                                                         \
        (void)j;                                                                              \
        target = known(v) ? fill_keep(f, v->text) : NULL;                                     \
        return 0;                                                                             \
    }
PUT_TEXT(run, f->run)
PUT_TEXT(plugin, f->plugin)
PUT_TEXT(pack, f->pack)
PUT_TEXT(plugin_path, f->plugin_path)
PUT_TEXT(plugin_version, f->plugin_version)
PUT_TEXT(backend, f->row->backend)
PUT_TEXT(cache, f->cache)
PUT_TEXT(timing, f->row->timing)
PUT_TEXT(stopped_by, f->row->stopped_by)

static int put_device(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->device_index = -1;
    if (!known(v))
        return 0;
    size_t n = f->res->info.n_devices;
    if (n == 0 && (v->i < 0 || (uint64_t)v->i >= n))
        return why(f, "is %lld, but the file lists no device (valid: null)", (long long)v->i);
    if (v->i < 0 || (uint64_t)v->i >= n)
        return why(f, "is %lld, but the file lists %zu device%s (valid: 0 to %zu, or null)",
                   (long long)v->i, n, n == 1 ? "" : "s", n - 1);
    f->row->device_index = (int)v->i;
    return 0;
}

static int put_label(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    copy_text(f->row->label, sizeof f->row->label, v);
    return 0;
}

/* A parameter's value as an experiment file would write it; NULL for an
 * array or an object. */
static const char *param_text(const json_value *v)
{
    switch (v->type) {
    case JSON_STRING:
    case JSON_NUMBER: return v->text;
    case JSON_BOOL: return v->boolean ? "true" : "false";
    case JSON_NULL: return "null";
    default: return NULL;
    }
}

/* The parameters, in the file's order: a number is an integer parameter
 * (as results files write them), anything else a word. */
static int put_params(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)v;
    if (!j || j->type == JSON_NULL)
        return 0;
    if (j->type != JSON_OBJECT)
        return why(f, "is not an object; valid: an object of parameters");
    rb_configuration *cfg = f->config;
    cfg->n_params = (uint32_t)j->count;
    cfg->params = xcalloc(j->count ? j->count : 1, sizeof *cfg->params);
    strbuf types = {0}; /* the names, then one letter per parameter: i(nteger), w(ord) */
    sb_append(&types, "");
    for (size_t k = 0; k < j->count; k++)
        sb_printf(&types, "%s\x1f", j->keys[k]);
    for (size_t k = 0; k < j->count; k++) {
        const json_value *item = &j->items[k];
        const char *text = param_text(item);
        if (!text) {
            sb_free(&types);
            return why(f, "has the parameter '%.60s' as an %s; valid: a number or a word",
                       j->keys[k], json_type_name(item->type));
        }
        int64_t i = 0;
        int is_int = item->type == JSON_NUMBER && json_int64(item, &i);
        cfg->params[k].name = fill_keep(f, j->keys[k]);
        cfg->params[k].text = fill_keep(f, text);
        cfg->params[k].i = i;
        sb_append(&types, is_int ? "i" : "w");
    }
    f->param_types = types.data;
    return 0;
}

static int put_params_text(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->has_params_text = known(v);
    f->config->params_text = known(v) ? (char *)fill_keep(f, v->text) : NULL;
    return 0;
}

static int put_op(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return put_word(f, v, &f->config->op, op_word, RB_OP_COUNT_, 0);
}

static int put_dtype(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return put_word(f, v, &f->config->dtype, dtype_word, RB_DTYPE_COUNT_, 0);
}

static int put_distribution(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return put_word(f, v, &f->config->distribution, distribution_word, RB_DIST_COUNT_, 0);
}

static int put_n(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->config->n = v->u;
    return 0;
}

static int put_bins(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (known(v) && v->u > UINT32_MAX)
        return why(f, "is %llu; valid: up to %u", (unsigned long long)v->u, UINT32_MAX);
    f->config->bins = known(v) ? (uint32_t)v->u : 256;
    return 0;
}

static int put_seed(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->seed = known(v) ? v->u : 0;
    return 0;
}

static int put_status(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return put_word(f, v, &f->row->status, status_word, RB_ROW_COUNT_, 0);
}

static int put_reason(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    copy_text(f->row->reason, sizeof f->row->reason, v);
    return 0;
}

static int put_result(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    copy_text(f->row->result_text, sizeof f->row->result_text, v);
    return 0;
}

static int put_expected(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    copy_text(f->row->expected_text, sizeof f->row->expected_text, v);
    return 0;
}

#define PUT_NUMBER(field_name, target)                                                        \
    static int put_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)       \
    {                                                                                         \
        (void)j;                                                                              \
        target = known(v) ? v->number : 0;                                                    \
        return 0;                                                                             \
    }
PUT_NUMBER(error, f->row->error)
PUT_NUMBER(tolerance, f->row->tolerance)
static int put_median(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->has_time = known(v);
    f->row->stats.median = known(v) ? v->number : 0;
    return 0;
}

PUT_NUMBER(min, f->row->stats.min)
PUT_NUMBER(max, f->row->stats.max)
PUT_NUMBER(mean, f->row->stats.mean)
PUT_NUMBER(stddev, f->row->stats.stddev)
PUT_NUMBER(cv, f->row->stats.cv)
PUT_NUMBER(noise, f->row->stats.noise)
PUT_NUMBER(bandwidth, f->row->bandwidth_gbs)
PUT_NUMBER(pct_peak, f->row->pct_peak)
PUT_NUMBER(pct_measured_peak, f->row->pct_measured_peak)
PUT_NUMBER(busbw, f->row->busbw_gbs)
PUT_NUMBER(slowest_rank_ns, f->row->slowest_rank_ns)
PUT_NUMBER(fastest_rank_ns, f->row->fastest_rank_ns)
PUT_NUMBER(scaling, f->row->scaling)

/* A count of ranks, or a rank, at most `limit`; `fallback` when unknown. */
#define PUT_RANK(field_name, target, limit, fallback)                                         \
    static int put_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)       \
    {                                                                                         \
        (void)j;                                                                              \
        if (known(v) && v->u > (limit))                                                       \
            return why(f, "is %llu; valid: up to %u", (unsigned long long)v->u,              \
                       (unsigned)(limit));                                                    \
        target = known(v) ? (__typeof__(target))v->u : (fallback);                            \
        return 0;                                                                             \
    }
PUT_RANK(ranks, f->row->ranks, 4096, 1)
PUT_RANK(slowest_rank, f->row->slowest_rank, 4095, 0)
PUT_RANK(fastest_rank, f->row->fastest_rank, 4095, 0)
PUT_RANK(wrong_ranks, f->row->wrong_ranks, 4096, 0)

static int put_n_total(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->n_total = known(v) ? v->u : 0;
    return 0;
}

static int put_reps(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->has_reps = known(v);
    f->row->stats.count = known(v) ? (size_t)v->u : 0;
    return 0;
}

static int put_batch_calls(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (known(v) && v->u > UINT32_MAX)
        return why(f, "is %llu; valid: up to %u", (unsigned long long)v->u, UINT32_MAX);
    f->row->batch_calls = known(v) ? (uint32_t)v->u : 0;
    return 0;
}

static int put_error_ratio(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->error_ratio_known = known(v);
    f->row->error_ratio = known(v) ? v->number : 0;
    return 0;
}

static int put_deterministic(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->determinism = !known(v) ? RB_DETERMINISM_UNKNOWN
                          : v->flag ? RB_DETERMINISM_SAME
                                    : RB_DETERMINISM_DIFFERS;
    return 0;
}

static int put_determinism_results(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->determinism_results = known(v) && v->u <= UINT32_MAX ? (uint32_t)v->u : 0;
    return 0;
}

static int put_probes(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return put_word(f, v, &f->row->probes, probes_word, RB_PROBES_OFF + 1, RB_PROBES_NOT_RUN);
}

static int put_probes_passed(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->probes_passed = known(v) && v->u <= UINT32_MAX ? (uint32_t)v->u : 0;
    return 0;
}

/* "hw_slowdown, sw_thermal" back into RB_THROTTLE_* bits (words this
 * version does not know are left out). */
static uint64_t throttle_bits(const char *text)
{
    uint64_t bits = 0;
    for (int b = 0; text && b < 64; b++) {
        char name[160];
        throttle_reason_text((uint64_t)1 << b, name, sizeof name);
        size_t len = strlen(name);
        for (const char *p = text; len && (p = strstr(p, name)); p += len)
            if ((p == text || p[-1] == ' ') && (p[len] == ',' || p[len] == '\0'))
                bits |= (uint64_t)1 << b;
    }
    return bits;
}

static int put_clock_sample(rb_row_fill *f, const json_value *j, rb_clock_sample *c)
{
    if (!j || j->type != JSON_OBJECT)
        return why(f, "lacks its \"before\" and \"after\" objects");
    double core = json_number(json_get(j, "core_mhz"), 0);
    double memory = json_number(json_get(j, "memory_mhz"), 0);
    double temperature = json_number(json_get(j, "temperature_c"), 0);
    c->core_mhz = core > 0 && core < 1e9 ? (uint32_t)core : 0;
    c->memory_mhz = memory > 0 && memory < 1e9 ? (uint32_t)memory : 0;
    c->temperature_c = temperature > 0 && temperature < 1e9 ? (uint32_t)temperature : 0;
    c->power_w = json_number(json_get(j, "power_w"), 0);
    c->throttle_reasons = throttle_bits(json_string(json_get(j, "throttle_reasons")));
    return 0;
}

static int put_clocks(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)v;
    f->row->clocks_known = 0;
    if (!j || j->type == JSON_NULL)
        return 0;
    if (j->type != JSON_OBJECT)
        return why(f, "is not an object; valid: an object (before, after), or null");
    if (put_clock_sample(f, json_get(j, "before"), &f->row->clocks_before) != 0 ||
        put_clock_sample(f, json_get(j, "after"), &f->row->clocks_after) != 0)
        return -1;
    f->row->clocks_known = 1;
    return 0;
}

static int put_throttled(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->throttled = known(v) && v->flag;
    return 0;
}

static int put_multimodal(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->multimodal_known = known(v);
    f->row->multimodal = known(v) && v->flag;
    return 0;
}

static int put_throttle_reasons(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->throttle_reasons = known(v) ? throttle_bits(v->text) : 0;
    return 0;
}

/* The samples: times in nanoseconds, finite and not negative. */
static int put_samples(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)v;
    if (!j || j->type == JSON_NULL)
        return 0;
    if (j->type != JSON_ARRAY)
        return why(f, "is not an array; valid: an array of times in nanoseconds");
    for (size_t k = 0; k < j->count; k++) {
        const json_value *x = &j->items[k];
        if (x->type != JSON_NUMBER || !isfinite(x->number) || x->number < 0)
            return why(f, "has as sample %zu %s; valid: numbers of nanoseconds, 0 or more", k + 1,
                       x->type == JSON_NUMBER ? "a number that is not a time"
                                              : json_type_name(x->type));
    }
    f->n_samples = j->count;
    f->row->samples_ns = xcalloc(j->count ? j->count : 1, sizeof *f->row->samples_ns);
    for (size_t k = 0; k < j->count; k++)
        f->row->samples_ns[k] = j->items[k].number;
    return 0;
}

/* rounds[]: each round's median, reps, position and stopped_by; their reps
 * add up to the samples read before them. */
static int put_rounds(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)v;
    if (!j || j->type == JSON_NULL || (j->type == JSON_ARRAY && j->count == 0))
        return 0;
    if (j->type != JSON_ARRAY)
        return why(f, "is not an array; valid: an array of rounds, each an object with "
                      "median_ns, reps, position and stopped_by");
    rb_round *rounds = xcalloc(j->count, sizeof *rounds);
    size_t total = 0;
    for (size_t k = 0; k < j->count; k++) {
        const json_value *round = &j->items[k];
        const json_value *median = json_get(round, "median_ns");
        uint64_t reps = 0, position = 0;
        if (round->type != JSON_OBJECT || !median || median->type != JSON_NUMBER ||
            !isfinite(median->number) || median->number < 0 ||
            !json_uint64(json_get(round, "reps"), &reps) ||
            !json_uint64(json_get(round, "position"), &position)) {
            free(rounds);
            return why(f, "has a round %zu that is not an object with median_ns (nanoseconds, 0 "
                          "or more), reps and position (whole numbers)", k + 1);
        }
        const char *stopped = json_string(json_get(round, "stopped_by"));
        rounds[k] = (rb_round){
            .median_ns = median->number,
            .reps = (size_t)reps,
            .position = (size_t)position,
            .stopped_by = stopped ? fill_keep(f, stopped) : NULL,
        };
        total += (size_t)reps;
    }
    if (total != f->n_samples) {
        free(rounds);
        return why(f, "has rounds whose reps add up to %zu, but samples_ns holds %zu", total,
                   f->n_samples);
    }
    f->row->rounds = rounds;
    f->row->n_rounds = j->count;
    return 0;
}

const rb_field rb_row_fields[] = {
    {.name = "index", .get = get_index, .kind = RB_VALUE_UINT, .put = put_index},
    {.name = "run", .get = get_run, .title = "run", .kind = RB_VALUE_TEXT, .put = put_run,
     .required = 1},
    {.name = "plugin", .get = get_plugin, .title = "plugin", .kind = RB_VALUE_TEXT,
     .put = put_plugin, .required = 1},
    {.name = "pack", .get = get_pack, .kind = RB_VALUE_TEXT, .put = put_pack},
    {.name = "plugin_path", .get = get_plugin_path, .kind = RB_VALUE_TEXT, .put = put_plugin_path},
    {.name = "plugin_version", .get = get_plugin_version, .kind = RB_VALUE_TEXT,
     .put = put_plugin_version},
    {.name = "backend", .get = get_backend, .kind = RB_VALUE_TEXT, .put = put_backend},
    {.name = "device", .get = get_device, .kind = RB_VALUE_INT, .put = put_device},
    {.name = "label", .get = get_label, .kind = RB_VALUE_TEXT, .put = put_label},
    {.name = "params", .get = get_object, .kind = RB_VALUE_OBJECT, .put = put_params},
    {.name = "params_text", .get = get_params_text, .title = "params", .unit = RB_UNIT_WORDS,
     .kind = RB_VALUE_TEXT, .put = put_params_text},
    {.name = "op", .get = get_op, .title = "op", .kind = RB_VALUE_TEXT, .put = put_op,
     .required = 1},
    {.name = "dtype", .get = get_dtype, .title = "dtype", .kind = RB_VALUE_TEXT, .put = put_dtype,
     .required = 1},
    {.name = "n", .get = get_n, .title = "n", .unit = RB_UNIT_SIZE, .kind = RB_VALUE_UINT,
     .put = put_n, .required = 1},
    {.name = "distribution", .get = get_distribution, .kind = RB_VALUE_TEXT,
     .put = put_distribution},
    {.name = "bins", .get = get_bins, .kind = RB_VALUE_UINT, .put = put_bins},
    {.name = "seed", .get = get_seed, .wide = 1, .kind = RB_VALUE_UINT, .put = put_seed},
    {.name = "cache", .get = get_cache, .kind = RB_VALUE_TEXT, .put = put_cache},
    {.name = "status", .get = get_status, .title = "status", .kind = RB_VALUE_TEXT,
     .put = put_status, .required = 1},
    {.name = "reason", .get = get_reason, .title = "reason", .kind = RB_VALUE_TEXT,
     .put = put_reason},
    {.name = "result", .get = get_result, .kind = RB_VALUE_TEXT, .put = put_result},
    {.name = "expected", .get = get_expected, .kind = RB_VALUE_TEXT, .put = put_expected},
    {.name = "error", .get = get_error, .kind = RB_VALUE_NUMBER, .put = put_error},
    {.name = "tolerance", .get = get_tolerance, .kind = RB_VALUE_NUMBER, .put = put_tolerance},
    {.name = "median_ns", .get = get_median, .title = "median", .unit = RB_UNIT_DURATION,
     .kind = RB_VALUE_NUMBER, .put = put_median},
    {.name = "min_ns", .get = get_min, .kind = RB_VALUE_NUMBER, .put = put_min},
    {.name = "max_ns", .get = get_max, .kind = RB_VALUE_NUMBER, .put = put_max},
    {.name = "mean_ns", .get = get_mean, .kind = RB_VALUE_NUMBER, .put = put_mean},
    {.name = "stddev_ns", .get = get_stddev, .kind = RB_VALUE_NUMBER, .put = put_stddev},
    {.name = "cv", .get = get_cv, .kind = RB_VALUE_NUMBER, .put = put_cv},
    {.name = "noise", .get = get_noise, .title = "noise", .unit = RB_UNIT_PERCENT,
     .kind = RB_VALUE_NUMBER, .put = put_noise},
    {.name = "multimodal", .get = get_multimodal, .kind = RB_VALUE_BOOL, .put = put_multimodal},
    {.name = "reps", .get = get_reps, .title = "reps", .unit = RB_UNIT_COUNT,
     .kind = RB_VALUE_UINT, .put = put_reps},
    {.name = "hit_max_reps", .get = get_hit_max_reps}, /* from stopped_by */
    {.name = "timing", .get = get_timing, .title = "timing", .kind = RB_VALUE_TEXT,
     .put = put_timing},
    {.name = "batch_calls", .get = get_batch_calls, .kind = RB_VALUE_UINT, .put = put_batch_calls},
    {.name = "stopped_by", .get = get_stopped_by, .title = "stopped by", .kind = RB_VALUE_TEXT,
     .put = put_stopped_by},
    {.name = "error_ratio", .get = get_error_ratio, .title = "err/tol", .unit = RB_UNIT_RATIO,
     .kind = RB_VALUE_NUMBER, .put = put_error_ratio},
    {.name = "deterministic", .get = get_deterministic, .title = "det", .unit = RB_UNIT_YES_NO,
     .kind = RB_VALUE_BOOL, .put = put_deterministic},
    {.name = "determinism_results", .get = get_determinism_results, .kind = RB_VALUE_UINT,
     .put = put_determinism_results},
    {.name = "probes", .get = get_probes, .kind = RB_VALUE_TEXT, .put = put_probes},
    {.name = "probes_passed", .get = get_probes_passed, .kind = RB_VALUE_UINT,
     .put = put_probes_passed},
    {.name = "clocks", .get = get_object, .kind = RB_VALUE_OBJECT, .put = put_clocks},
    {.name = "throttled", .get = get_throttled, .title = "throttled", .unit = RB_UNIT_YES_NO,
     .kind = RB_VALUE_BOOL, .put = put_throttled},
    {.name = "throttle_reasons", .get = get_throttle_reasons, .kind = RB_VALUE_TEXT,
     .put = put_throttle_reasons},
    {.name = "bandwidth_gbs", .get = get_bandwidth, .title = "GB/s", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = put_bandwidth},
    {.name = "pct_peak", .get = get_pct_peak, .title = "%peak", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = put_pct_peak},
    {.name = "pct_measured_peak", .get = get_pct_measured_peak, .title = "%meas",
     .unit = RB_UNIT_DECIMAL, .kind = RB_VALUE_NUMBER, .put = put_pct_measured_peak},
    {.name = "ranks", .get = get_ranks, .title = "ranks", .unit = RB_UNIT_SIZE,
     .kind = RB_VALUE_UINT, .put = put_ranks},
    {.name = "n_total", .get = get_n_total, .kind = RB_VALUE_UINT, .put = put_n_total},
    {.name = "busbw_gbs", .get = get_busbw, .title = "busbw", .unit = RB_UNIT_DECIMAL,
     .kind = RB_VALUE_NUMBER, .put = put_busbw},
    {.name = "slowest_rank", .get = get_slowest_rank, .title = "slowest rank",
     .kind = RB_VALUE_UINT, .put = put_slowest_rank},
    {.name = "slowest_rank_ns", .get = get_slowest_rank_ns, .kind = RB_VALUE_NUMBER,
     .put = put_slowest_rank_ns},
    {.name = "fastest_rank", .get = get_fastest_rank, .kind = RB_VALUE_UINT,
     .put = put_fastest_rank},
    {.name = "fastest_rank_ns", .get = get_fastest_rank_ns, .kind = RB_VALUE_NUMBER,
     .put = put_fastest_rank_ns},
    {.name = "wrong_ranks", .get = get_wrong_ranks, .title = "wrong ranks",
     .kind = RB_VALUE_UINT, .put = put_wrong_ranks},
    {.name = "scaling", .get = get_scaling, .title = "scaling", .unit = RB_UNIT_RATIO,
     .kind = RB_VALUE_NUMBER, .put = put_scaling},
    {.name = "samples_ns", .get = get_object, .kind = RB_VALUE_OBJECT, .put = put_samples},
    {.name = "rounds", .get = get_object, .kind = RB_VALUE_OBJECT, .put = put_rounds},
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
