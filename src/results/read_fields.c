/* src/results/read_fields.c: each field of a row read back from a results
 * file (results/read.c): where the value the file gives goes (the row, its
 * configuration, or the texts that find its run and plugin), checked as it
 * goes: a word one of its enum's, a number within what the row holds, the
 * parameters, clocks, samples and rounds in their shapes. The table of
 * fields (results/fields.c) names each field's fill_ function. */
#include "results/read_fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "config/keys.h"
#include "config/sweep.h"

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
static int fill_word(rb_row_fill *f, const rb_value *v, int *out, const char *(*name)(int),
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
static const char *axis_word(int k) { return axis_name(k); }
static const char *lengths_word(int k) { return lengths_name(k); }
static const char *probes_word(int k) { return probes_name(k); }

int fill_index(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (known(v))
        f->config->index = (size_t)v->u;
    return 0;
}

#define FILL_TEXT(field_name, target)                                                          \
    int fill_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)             \
    {                                                                                         \
        (void)j;                                                                              \
        target = known(v) ? fill_keep(f, v->text) : NULL;                                     \
        return 0;                                                                             \
    }
FILL_TEXT(run, f->run)
FILL_TEXT(plugin, f->plugin)
FILL_TEXT(pack, f->pack)
FILL_TEXT(plugin_path, f->plugin_path)
FILL_TEXT(plugin_version, f->plugin_version)
FILL_TEXT(backend, f->row->backend)
FILL_TEXT(timing, f->row->timing)
FILL_TEXT(stopped_by, f->row->stopped_by)

int fill_cache(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    f->cache = known(v) ? fill_keep(f, v->text) : NULL;
    f->cache_line = j ? j->line : 0;
    return 0;
}

/* The device's index; that the file lists it is checked once the whole
 * file is read (results/read.c: its devices may come after its rows). */
int fill_device(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->device_index = -1;
    if (!known(v))
        return 0;
    f->device_known = 1;
    f->device = v->i;
    if (v->i >= 0 && v->i <= INT32_MAX)
        f->row->device_index = (int)v->i;
    return 0;
}

int fill_label(rb_row_fill *f, const rb_value *v, const json_value *j)
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
int fill_params(rb_row_fill *f, const rb_value *v, const json_value *j)
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

int fill_params_text(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->has_params_text = known(v);
    f->config->params_text = known(v) ? (char *)fill_keep(f, v->text) : NULL;
    return 0;
}

int fill_op(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->config->op, op_word, RB_OP_COUNT_, 0);
}

int fill_dtype(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->config->dtype, dtype_word, RB_DTYPE_COUNT_, 0);
}

int fill_distribution(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->config->distribution, distribution_word, RB_DIST_COUNT_, 0);
}

/* A data key's whole number, held to the experiment file's limits
 * (config/keys.h): from 1 to `largest`. */
static int data_count(rb_row_fill *f, const rb_value *v, uint64_t largest, const char *what)
{
    if (known(v) && (v->u < 1 || v->u > largest))
        return why(f, "is %llu; valid: %s from 1 to %llu, as an experiment file allows",
                   (unsigned long long)v->u, what, (unsigned long long)largest);
    return 0;
}

/* The shape (absent: the one reduction of n elements), held to the
 * experiment file's limits (config/keys.h). */
int fill_rows(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (data_count(f, v, RB_DATA_LARGEST_ROWS, "rows") != 0)
        return -1;
    f->config->rows = known(v) ? v->u : 1;
    return 0;
}

int fill_axis(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->config->axis, axis_word, 2, RB_AXIS_ROW);
}

int fill_lengths(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->config->lengths, lengths_word, RB_LENGTHS_COUNT_,
                     RB_LENGTHS_FIXED);
}

int fill_n(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (data_count(f, v, RB_DATA_LARGEST_N, "elements") != 0)
        return -1;
    f->config->n = v->u;
    return 0;
}

int fill_bins(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (data_count(f, v, RB_DATA_LARGEST_BINS, "histogram bins") != 0)
        return -1;
    f->config->bins = known(v) ? (uint32_t)v->u : 256;
    return 0;
}

int fill_seed(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->seed = known(v) ? v->u : 0;
    return 0;
}

int fill_status(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->row->status, status_word, RB_ROW_COUNT_, 0);
}

int fill_reason(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    row_set_reason(f->row, "%s", known(v) && v->text ? v->text : "");
    return 0;
}

int fill_result(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    copy_text(f->row->result_text, sizeof f->row->result_text, v);
    return 0;
}

int fill_expected(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    copy_text(f->row->expected_text, sizeof f->row->expected_text, v);
    return 0;
}

/* A measured quantity: finite (a number too large for a double reads as
 * infinite) and not negative; `what` names its unit for the error. */
static int quantity(rb_row_fill *f, const rb_value *v, const char *what)
{
    if (known(v) && !(isfinite(v->number) && v->number >= 0))
        return why(f, "is %s; valid: %s, a finite number 0 or more",
                   isfinite(v->number) ? "negative" : "too large for a double", what);
    return 0;
}

#define FILL_NUMBER(field_name, target, what)                                                  \
    int fill_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)             \
    {                                                                                         \
        (void)j;                                                                              \
        if (quantity(f, v, what) != 0)                                                        \
            return -1;                                                                        \
        target = known(v) ? v->number : 0;                                                    \
        return 0;                                                                             \
    }
FILL_NUMBER(error, f->row->error, "the result's distance from the reference")
FILL_NUMBER(tolerance, f->row->tolerance, "the bound applied")
int fill_median(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (quantity(f, v, "nanoseconds") != 0)
        return -1;
    f->has_time = known(v);
    f->row->stats.median = known(v) ? v->number : 0;
    return 0;
}

FILL_NUMBER(min, f->row->stats.min, "nanoseconds")
FILL_NUMBER(max, f->row->stats.max, "nanoseconds")
FILL_NUMBER(mean, f->row->stats.mean, "nanoseconds")
FILL_NUMBER(stddev, f->row->stats.stddev, "nanoseconds")
FILL_NUMBER(cv, f->row->stats.cv, "a ratio")
FILL_NUMBER(noise, f->row->stats.noise, "a ratio")
FILL_NUMBER(bandwidth, f->row->bandwidth_gbs, "GB/s")
FILL_NUMBER(pct_peak, f->row->pct_peak, "a percentage")
FILL_NUMBER(pct_measured_peak, f->row->pct_measured_peak, "a percentage")
FILL_NUMBER(busbw, f->row->busbw_gbs, "GB/s")
FILL_NUMBER(slowest_rank_ns, f->row->slowest_rank_ns, "nanoseconds")
FILL_NUMBER(fastest_rank_ns, f->row->fastest_rank_ns, "nanoseconds")
FILL_NUMBER(scaling, f->row->scaling, "a ratio of times")

/* ---- energy ---- */

static const char *energy_source_word(int k) { return energy_source_name(k); }

int fill_energy_source(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->row->energy_source, energy_source_word, RB_ENERGY_COUNT_,
                     RB_ENERGY_NONE);
}

int fill_energy_note(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    row_set_energy_note(f->row, "%s", known(v) && v->text ? v->text : "");
    return 0;
}

FILL_NUMBER(energy_j, f->row->energy_j, "joules per call")
FILL_NUMBER(power_w, f->row->power_w, "watts")
FILL_NUMBER(energy_s, f->row->energy_s, "seconds")

int fill_energy_calls(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->energy_calls = known(v) ? v->u : 0;
    return 0;
}

/* A clock in MHz, at most 100000. */
#define FILL_MHZ(field_name, target)                                                           \
    int fill_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)             \
    {                                                                                         \
        (void)j;                                                                              \
        if (known(v) && v->u > 100000)                                                        \
            return why(f, "is %llu; valid: a clock in MHz, up to 100000",                     \
                       (unsigned long long)v->u);                                             \
        target = known(v) ? (uint32_t)v->u : 0;                                               \
        return 0;                                                                             \
    }
FILL_MHZ(sm_clock_min, f->row->sm_clock_min_mhz)
FILL_MHZ(sm_clock_max, f->row->sm_clock_max_mhz)

int fill_rank_energy(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)v;
    row_clear_rank_energy(f->row);
    if (!j || j->type == JSON_NULL)
        return 0;
    if (j->type != JSON_ARRAY)
        return why(f, "is not an array; valid: each rank's joules per call");
    for (size_t k = 0; k < j->count; k++) {
        const json_value *x = &j->items[k];
        if (x->type != JSON_NUMBER || !isfinite(x->number) || x->number < 0)
            return why(f, "has as rank %zu's share %s; valid: joules per call, 0 or more", k,
                       x->type == JSON_NUMBER ? "a negative number" : json_type_name(x->type));
        row_add_rank_energy(f->row, x->number); /* the first RB_ENERGY_RANKS_MAX */
    }
    return 0;
}

/* A count of ranks, or a rank, at most `limit`; `fallback` when unknown. */
#define FILL_RANK(field_name, target, limit, fallback)                                         \
    int fill_##field_name(rb_row_fill *f, const rb_value *v, const json_value *j)             \
    {                                                                                         \
        (void)j;                                                                              \
        if (known(v) && v->u > (limit))                                                       \
            return why(f, "is %llu; valid: up to %u", (unsigned long long)v->u,              \
                       (unsigned)(limit));                                                    \
        target = known(v) ? (__typeof__(target))v->u : (fallback);                            \
        return 0;                                                                             \
    }
FILL_RANK(slowest_rank, f->row->slowest_rank, RB_DATA_LARGEST_RANKS - 1, 0)
FILL_RANK(fastest_rank, f->row->fastest_rank, RB_DATA_LARGEST_RANKS - 1, 0)
FILL_RANK(wrong_ranks, f->row->wrong_ranks, RB_DATA_LARGEST_RANKS, 0)

int fill_ranks(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (data_count(f, v, RB_DATA_LARGEST_RANKS, "ranks") != 0)
        return -1;
    f->row->ranks = known(v) ? (uint32_t)v->u : 1;
    return 0;
}

int fill_n_total(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->n_total = known(v) ? v->u : 0;
    return 0;
}

int fill_reps(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->has_reps = known(v);
    f->row->stats.count = known(v) ? (size_t)v->u : 0;
    return 0;
}

int fill_batch_calls(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (known(v) && v->u > UINT32_MAX)
        return why(f, "is %llu; valid: up to %u", (unsigned long long)v->u, UINT32_MAX);
    f->row->batch_calls = known(v) ? (uint32_t)v->u : 0;
    return 0;
}

int fill_error_ratio(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    if (quantity(f, v, "the error over the tolerance") != 0)
        return -1;
    f->row->error_ratio_known = known(v);
    f->row->error_ratio = known(v) ? v->number : 0;
    return 0;
}

int fill_deterministic(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->determinism = !known(v) ? RB_DETERMINISM_UNKNOWN
                          : v->flag ? RB_DETERMINISM_SAME
                                    : RB_DETERMINISM_DIFFERS;
    return 0;
}

int fill_determinism_results(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->determinism_results = known(v) && v->u <= UINT32_MAX ? (uint32_t)v->u : 0;
    return 0;
}

int fill_probes(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->row->probes, probes_word, RB_PROBES_OFF + 1, RB_PROBES_NOT_RUN);
}

int fill_probes_passed(rb_row_fill *f, const rb_value *v, const json_value *j)
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

static int fill_clock_sample(rb_row_fill *f, const json_value *j, rb_clock_sample *c)
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
    if (!(isfinite(c->power_w) && c->power_w >= 0))
        return why(f, "has a power_w that is negative or too large; valid: watts, a finite "
                      "number 0 or more");
    c->throttle_reasons = throttle_bits(json_string(json_get(j, "throttle_reasons")));
    return 0;
}

int fill_clocks(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)v;
    f->row->clocks_known = 0;
    if (!j || j->type == JSON_NULL)
        return 0;
    if (j->type != JSON_OBJECT)
        return why(f, "is not an object; valid: an object (before, after), or null");
    if (fill_clock_sample(f, json_get(j, "before"), &f->row->clocks_before) != 0 ||
        fill_clock_sample(f, json_get(j, "after"), &f->row->clocks_after) != 0)
        return -1;
    f->row->clocks_known = 1;
    return 0;
}

int fill_throttled(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->throttled = known(v) && v->flag;
    return 0;
}

int fill_multimodal(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->multimodal_known = known(v);
    f->row->multimodal = known(v) && v->flag;
    return 0;
}

int fill_throttle_reasons(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    f->row->throttle_reasons = known(v) ? throttle_bits(v->text) : 0;
    return 0;
}

/* The samples: times in nanoseconds, finite and not negative. */
int fill_samples(rb_row_fill *f, const rb_value *v, const json_value *j)
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

/* rounds[]: each round's median, reps, position and stopped_by, and its
 * energy_j where it has one; their reps add up to the samples read before
 * them. */
int fill_rounds(rb_row_fill *f, const rb_value *v, const json_value *j)
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
        const json_value *energy = json_get(round, "energy_j");
        if (energy && energy->type != JSON_NULL &&
            (energy->type != JSON_NUMBER || !isfinite(energy->number) || energy->number < 0)) {
            free(rounds);
            return why(f, "has a round %zu whose energy_j is not a number of joules, 0 or more "
                          "(or null)", k + 1);
        }
        const char *stopped = json_string(json_get(round, "stopped_by"));
        rounds[k] = (rb_round){
            .energy_j = energy && energy->type == JSON_NUMBER ? energy->number : 0,
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

int fill_repro(rb_row_fill *f, const rb_value *v, const json_value *j)
{
    (void)j;
    return fill_word(f, v, &f->row->repro.level, repro_name, RB_REPRO_COUNT_,
                     RB_REPRO_UNKNOWN);
}
