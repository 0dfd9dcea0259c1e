/* src/report/json.c: the JSON reporter. One object: the run's metadata
 * and provenance (tool version and git revision, command line, time, host,
 * the experiment file verbatim and its expanded configurations, devices with
 * their driver and runtime and where their measured peak came from, each
 * plugin used with its ABI and the SHA-256 of its file), a status summary
 * and `results`, one object per configuration: what it measured, how
 * (timing mode, batch size, what stopped the repetitions), its accuracy in
 * units of the tolerance, whether repeated runs gave the same bits, and the
 * clocks around it. A number that is not known (no samples, no peak) is
 * null, never 0. The document's members are listed in docs/results-schema.md
 * (RB_RESULTS_SCHEMA_VERSION says which version of it is written). A 64-bit
 * integer that readers would round (the seed, always; any other integer
 * beyond 2^53) is written as a string of decimal digits. */
#include "report/output.h"
#include "report/reporters.h"

#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "base/provenance.h"
#include "base/util.h"
#include "config/settings.h"
#include "results/fields.h"


/* NULL for "", so that an unknown text is null rather than empty. */
static const char *text_or_null(const char *s) { return s && *s ? s : NULL; }

/* Integers beyond 2^53 lose digits in readers that hold numbers as
 * doubles (jq, JavaScript) or refuse them (jansson): such a value is
 * written as a string of its decimal digits. */
#define JSON_EXACT_MAX ((uint64_t)1 << 53)

static void write_uint_text(json_writer *w, uint64_t value)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    jw_string(w, digits);
}

static void write_uint(json_writer *w, uint64_t value)
{
    if (value > JSON_EXACT_MAX)
        write_uint_text(w, value);
    else
        jw_uint(w, value);
}

static void member_uint(json_writer *w, const char *key, uint64_t value)
{
    jw_key(w, key);
    write_uint(w, value);
}

/* A measured quantity: null unless `known`. */
static void member_measured(json_writer *w, const char *key, int known, double value)
{
    jw_key(w, key);
    if (known)
        jw_double(w, value);
    else
        jw_null(w);
}

static void write_params(json_writer *w, const rb_configuration *cfg);

static const char *plugin_name(const rb_configuration *cfg)
{
    return cfg->plugin ? cfg->plugin->desc->name : cfg->run ? cfg->run->plugin : NULL;
}

/* The sweep as expanded: one entry per configuration (the runner makes one
 * row per configuration, in sweep order). */
static void write_configurations(json_writer *w, const rb_results *res)
{
    jw_key(w, "configurations");
    jw_begin_array(w);
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_configuration *cfg = res->rows[k].config;
        jw_begin_object(w);
        member_uint(w, "index", cfg->index);
        json_member_string(w, "run", cfg->run ? cfg->run->name : NULL);
        json_member_string(w, "plugin", plugin_name(cfg));
        json_member_string(w, "op", op_name(cfg->op));
        json_member_string(w, "dtype", dtype_name(cfg->dtype));
        member_uint(w, "n", cfg->n);
        json_member_string(w, "distribution", distribution_name(cfg->distribution));
        if (cfg->op == RB_OP_HISTOGRAM)
            member_uint(w, "bins", cfg->bins);
        write_params(w, cfg);
        jw_end_object(w);
    }
    jw_end_array(w);
}

/* The rounds: how many were asked for and ran, and each one's order of the
 * configurations it measured, by index (run/runner.c). */
static void write_rounds_setting(json_writer *w, const rb_setting_spec *spec,
                                 const rb_results *res)
{
    const rb_run_info *info = &res->info;
    json_member_int(w, spec->name, info->rounds);
    json_member_int(w, "rounds_run", info->rounds_run);
    jw_key(w, "round_order");
    jw_begin_array(w);
    for (int k = 0; info->round_order && k < info->rounds_run; k++) {
        const size_t *order = info->round_order + (size_t)k * res->n_rows;
        jw_begin_array_compact(w);
        for (size_t j = 0; j < res->n_rows && order[j] != SIZE_MAX; j++)
            jw_uint(w, order[j]);
        jw_end_array(w);
    }
    jw_end_array(w);
}

/* The experiment's settings (config/settings.c's rows that the results
 * carry), in their order. */
static void write_settings(json_writer *w, const rb_results *res)
{
    const rb_experiment *exp = res->info.experiment;
    size_t count;
    const rb_setting_spec *const *specs = settings_in_results(&count);
    char text[64];
    for (size_t k = 0; k < count; k++) {
        const rb_setting_spec *s = specs[k];
        if (s->results == RB_RESULTS_RUN) {
            write_rounds_setting(w, s, res);
            continue;
        }
        jw_key(w, s->name);
        if (s->results == RB_RESULTS_BOOL)
            jw_bool(w, setting_whole(s, exp) != 0);
        else if (s->kind == RB_SETTING_NUMBER)
            jw_double(w, *setting_number(s, (rb_experiment *)exp));
        else if (s->store == RB_STORE_U64)
            write_uint_text(w, (uint64_t)setting_whole(s, exp));
        else if (s->kind == RB_SETTING_WHOLE ||
                 (s->kind == RB_SETTING_COUNT && setting_whole(s, exp) > 0))
            jw_int(w, setting_whole(s, exp));
        else if (setting_text(s, exp, text, sizeof text) || s->kind == RB_SETTING_COUNT)
            jw_string(w, text);
        else
            jw_null(w);
    }
}

static void write_experiment(json_writer *w, const rb_results *res)
{
    const rb_experiment *exp = res->info.experiment;
    jw_key(w, "experiment");
    if (!exp) {
        jw_null(w);
        return;
    }
    jw_begin_object(w);
    json_member_string(w, "name", exp->name);
    json_member_string(w, "path", exp->path);
    json_member_string(w, "text", exp->text);
    jw_key(w, "settings");
    jw_begin_object(w);
    write_settings(w, res);
    jw_end_object(w);
    write_configurations(w, res);
    jw_end_object(w);
}

/* A device property by key ("driver_version"), or NULL. */
static const char *device_property(const rb_device_info *info, const char *key)
{
    for (uint32_t k = 0; k < info->n_props && k < RB_DEVICE_MAX_PROPS; k++)
        if (strcmp(info->props[k].key, key) == 0)
            return info->props[k].value;
    return NULL;
}

/* A property that holds a whole number, as a number; null if absent. */
static void member_property_number(json_writer *w, const char *key, const rb_device_info *info,
                                   const char *property)
{
    const char *text = device_property(info, property);
    char *end = NULL;
    long long value = text ? strtoll(text, &end, 10) : 0;
    jw_key(w, key);
    if (text && end != text && *end == '\0')
        jw_int(w, value);
    else
        jw_null(w);
}

static void write_device(json_writer *w, const rb_device_record *d)
{
    const rb_device_info *info = &d->info;
    jw_begin_object(w);
    json_member_string(w, "backend", d->backend);
    json_member_int(w, "device", d->device);
    json_member_string(w, "name", text_or_null(info->name));
    json_member_string(w, "uuid", text_or_null(info->uuid));
    member_measured(w, "peak_gbs", info->peak_gbs > 0, info->peak_gbs);
    member_measured(w, "measured_peak_gbs", d->measured_peak_gbs > 0, d->measured_peak_gbs);
    jw_key(w, "measured_peak_source");
    if (d->measured_peak_gbs > 0)
        jw_string(w, d->measured_peak_cached ? "cache" : "measured");
    else
        jw_null(w);
    json_member_string(w, "measured_peak_at", text_or_null(d->measured_peak_at));
    json_member_string(w, "measured_peak_note", text_or_null(d->measured_peak_note));
    jw_key(w, "memory_bytes");
    if (info->memory_bytes > 0)
        write_uint(w, info->memory_bytes);
    else
        jw_null(w);
    jw_key(w, "compute_capability");
    if (info->cc_major > 0 || info->cc_minor > 0) {
        char cc[32];
        snprintf(cc, sizeof cc, "%d.%d", info->cc_major, info->cc_minor);
        jw_string(w, cc);
    } else {
        jw_null(w);
    }
    json_member_string(w, "driver_version", device_property(info, "driver_version"));
    json_member_string(w, "runtime_version", device_property(info, "runtime_version"));
    member_property_number(w, "sm_clock_khz", info, "sm_clock_khz");
    member_property_number(w, "mem_clock_khz", info, "mem_clock_khz");
    jw_key(w, "properties");
    jw_begin_object(w);
    for (uint32_t k = 0; k < info->n_props && k < RB_DEVICE_MAX_PROPS; k++)
        json_member_string(w, info->props[k].key, info->props[k].value);
    jw_end_object(w);
    jw_end_object(w);
}

/* Each plugin the run used, once, in order of first use: where it was
 * loaded from, its version and ABI, and the SHA-256 of its file. */
static void write_plugins(json_writer *w, const rb_results *res)
{
    jw_key(w, "plugins");
    jw_begin_array(w);
    size_t n_plugins;
    const rb_loaded_plugin **plugins = results_plugins(res, &n_plugins);
    for (size_t k = 0; k < n_plugins; k++) {
        const rb_loaded_plugin *p = plugins[k];
        char abi[32], digest[65];
        snprintf(abi, sizeof abi, "%u.%u", (unsigned)p->desc->abi_major,
                 (unsigned)p->desc->abi_minor);
        int hashed = plugin_digest(p, digest) == 0;
        jw_begin_object(w);
        json_member_string(w, "name", p->desc->name);
        json_member_string(w, "pack", p->pack);
        json_member_string(w, "path", p->path);
        json_member_string(w, "version", p->desc->version);
        json_member_string(w, "backend", p->desc->backend);
        json_member_string(w, "abi", abi);
        json_member_string(w, "sha256", hashed ? digest : NULL);
        jw_end_object(w);
    }
    free(plugins);
    jw_end_array(w);
}

static void write_summary(json_writer *w, const rb_results *res)
{
    size_t counts[RB_ROW_COUNT_];
    results_count(res, counts);
    jw_key(w, "summary");
    jw_begin_object(w);
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        member_uint(w, row_status_name(s), counts[s]);
    jw_end_object(w);
}

/* Integer parameters as numbers ("auto" stays a word), others as strings. */
static void write_params(json_writer *w, const rb_configuration *cfg)
{
    jw_key(w, "params");
    json_write_params(w, cfg);
}

void json_write_params(json_writer *w, const rb_configuration *cfg)
{
    const rb_plugin *desc = cfg->plugin ? cfg->plugin->desc : NULL;
    jw_begin_object(w);
    for (uint32_t k = 0; k < cfg->n_params; k++) {
        const rb_param_value *v = &cfg->params[k];
        if (!v->name)
            continue;
        int is_int = desc && k < desc->n_params && desc->params[k].type == RB_PARAM_INT;
        jw_key(w, v->name);
        if (is_int && (!v->text || strcmp(v->text, "auto") != 0))
            jw_int(w, v->i);
        else
            jw_string(w, v->text);
    }
    jw_end_object(w);
}

static void write_clock_sample(json_writer *w, const char *key, const rb_clock_sample *c)
{
    char reasons[160];
    jw_key(w, key);
    jw_begin_object(w);
    member_measured(w, "core_mhz", c->core_mhz > 0, c->core_mhz);
    member_measured(w, "memory_mhz", c->memory_mhz > 0, c->memory_mhz);
    member_measured(w, "temperature_c", c->temperature_c > 0, c->temperature_c);
    member_measured(w, "power_w", c->power_w > 0, c->power_w);
    throttle_reason_text(c->throttle_reasons, reasons, sizeof reasons);
    json_member_string(w, "throttle_reasons", reasons);
    jw_end_object(w);
}

/* The clocks after the warm-up and after the timed repetitions; null where
 * the backend cannot read them. */
static void write_clocks(json_writer *w, const rb_row *row)
{
    jw_key(w, "clocks");
    if (!row->clocks_known) {
        jw_null(w);
    } else {
        jw_begin_object(w);
        write_clock_sample(w, "before", &row->clocks_before);
        write_clock_sample(w, "after", &row->clocks_after);
        jw_end_object(w);
    }
}

/* One field's value (results/fields.h). */
static void write_value(json_writer *w, const rb_field *f, const rb_value *v)
{
    switch (v->kind) {
    case RB_VALUE_TEXT: jw_string(w, v->text); break;
    case RB_VALUE_UINT:
    case RB_VALUE_COUNT:
        if (f->wide)
            write_uint_text(w, v->u);
        else
            write_uint(w, v->u);
        break;
    case RB_VALUE_INT: jw_int(w, v->i); break;
    case RB_VALUE_NUMBER: jw_double(w, v->number); break;
    case RB_VALUE_BOOL: jw_bool(w, v->flag); break;
    default: jw_null(w); break;
    }
}

/* Each round that measured the row: its median, its samples (the next
 * `reps` of samples_ns), its place in the round's order and why it
 * stopped. */
static void write_rounds(json_writer *w, const rb_row *row)
{
    jw_key(w, "rounds");
    jw_begin_array(w);
    for (size_t k = 0; k < row->n_rounds; k++) {
        const rb_round *round = &row->rounds[k];
        jw_begin_object(w);
        jw_key(w, "median_ns");
        jw_double(w, round->median_ns);
        json_member_int(w, "reps", (int64_t)round->reps);
        json_member_int(w, "position", (int64_t)round->position);
        json_member_string(w, "stopped_by", round->stopped_by);
        if (round->energy_j > 0)
            json_member_number(w, "energy_j", round->energy_j);
        jw_end_object(w);
    }
    jw_end_array(w);
}

/* The fields written here rather than as one value: the parameters, the
 * clocks, the rounds, the ranks' energy and the samples. */
static void write_object(json_writer *w, const rb_row *row, const char *name)
{
    if (strcmp(name, "params") == 0) {
        write_params(w, row->config);
    } else if (strcmp(name, "clocks") == 0) {
        write_clocks(w, row);
    } else if (strcmp(name, "rounds") == 0) {
        write_rounds(w, row);
    } else if (strcmp(name, "rank_energy_j") == 0) {
        /* each rank's share of the energy per call; null on one rank */
        jw_key(w, name);
        if (row->energy_ranks < 2 || row->energy_source == RB_ENERGY_NONE) {
            jw_null(w);
            return;
        }
        jw_begin_array_compact(w);
        for (uint32_t k = 0; k < row->energy_ranks; k++)
            jw_double(w, row->rank_energy_j[k]);
        jw_end_array(w);
    } else {
        jw_key(w, name);
        jw_begin_array_compact(w);
        for (size_t k = 0; row->samples_ns && k < row->stats.count; k++)
            jw_double(w, row->samples_ns[k]);
        jw_end_array(w);
    }
}

/* A row: every field of results/fields.c, in its order. */
static void write_row(json_writer *w, const rb_results *res, const rb_row *row)
{
    rb_row_ref ref = {res, row};
    jw_begin_object(w);
    for (size_t k = 0; k < rb_n_row_fields; k++) {
        const rb_field *f = &rb_row_fields[k];
        rb_value v;
        memset(&v, 0, sizeof v);
        f->get(&ref, &v);
        if (v.kind == RB_VALUE_ABSENT)
            continue;
        if (v.kind == RB_VALUE_OBJECT) {
            write_object(w, row, f->name);
            continue;
        }
        jw_key(w, f->name);
        write_value(w, f, &v);
    }
    jw_end_object(w);
}

static int write_json_report(FILE *out, const rb_results *res)
{
    const rb_run_info *info = &res->info;
    json_writer w;
    jw_init(&w, out, 2);
    jw_begin_object(&w);
    json_member_string(&w, "tool", "redbench");
    json_member_int(&w, "schema_version", RB_RESULTS_SCHEMA_VERSION);
    json_member_string(&w, "version", info->tool_version);
    json_member_string(&w, "git_revision", info->git_revision);
    char abi[32];
    snprintf(abi, sizeof abi, "%d.%d", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR);
    json_member_string(&w, "plugin_abi", abi);
    json_member_string(&w, "started", text_or_null(info->started));
    json_member_number(&w, "wall_seconds", info->wall_seconds);
    json_member_string(&w, "command_line", info->command_line);

    jw_key(&w, "host");
    jw_begin_object(&w);
    json_member_string(&w, "name", text_or_null(info->host));
    json_member_string(&w, "os", text_or_null(info->os));
    json_member_string(&w, "cpu", text_or_null(info->cpu));
    jw_end_object(&w);

    write_experiment(&w, res);

    jw_key(&w, "devices");
    jw_begin_array(&w);
    for (size_t k = 0; k < info->n_devices && k < RB_ARRAY_LEN(info->devices); k++)
        write_device(&w, &info->devices[k]);
    jw_end_array(&w);

    write_plugins(&w, res);
    write_summary(&w, res);

    jw_key(&w, "results");
    jw_begin_array(&w);
    for (size_t k = 0; k < res->n_rows; k++)
        write_row(&w, res, &res->rows[k]);
    jw_end_array(&w);
    jw_end_object(&w);
    return jw_finish(&w);
}

int report_json(FILE *out, const rb_results *res)
{
    int locking = stream_unlocked(out);
    int status = write_json_report(out, res);
    stream_relock(out, locking);
    return status;
}
