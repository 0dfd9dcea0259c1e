/* src/results/read.c: a results file read back into the typed set a run
 * produces (results/read.h): the metadata, the devices, the experiment with
 * its settings, and the rows, each field through its entry in
 * results/fields.c. Rows share their run section and their plugin (found by
 * name, pack, path, version and the parameters' types), so that a file of
 * a million rows holds a few of each. */
#include "config.h"

#include "results/read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/settings.h"
#include "results/fields.h"

/* Where a member sits, for messages: "results[3]: \"n\"", "devices[0]". */
static int member_error(const char *path, const json_value *v, const char *where, const char *key,
                        const char *what)
{
    const char *sep = *where && key ? ": " : "";
    diag_at(path, v ? v->line : 0, "%s%s%s%s%s: %s", where, sep, key ? "\"" : "", key ? key : "",
            key ? "\"" : "", what);
    return -1;
}

/* A JSON value as a message shows it: a number or a string as written
 * (cut short, control characters escaped), else "an array", "null", ... */
static void shown_value(const json_value *v, char *buf, size_t len)
{
    if (v->type == JSON_NUMBER || v->type == JSON_STRING) {
        char *text = printable_text(v->text);
        snprintf(buf, len, v->type == JSON_STRING ? "\"%.40s%s\"" : "%.40s%s", text,
                 strlen(text) > 40 ? "..." : "");
        free(text);
        return;
    }
    const char *type = json_type_name(v->type);
    snprintf(buf, len, "%s%s", v->type == JSON_NULL ? "" : strchr("aeiou", type[0]) ? "an " : "a ",
             type);
}

/* A whole number as results files write it: a number, or a string of its
 * decimal digits (the seed, and integers beyond 2^53). 1 and *out, else 0. */
static int whole_number(const json_value *v, uint64_t *out)
{
    if (json_uint64(v, out))
        return 1;
    const char *text = json_string(v);
    if (!text || !*text || strlen(text) > 20 || strspn(text, "0123456789") != strlen(text))
        return 0;
    errno = 0;
    unsigned long long x = strtoull(text, NULL, 10);
    if (errno == ERANGE)
        return 0;
    *out = (uint64_t)x;
    return 1;
}

static const char *kind_words(int kind)
{
    switch (kind) {
    case RB_VALUE_TEXT: return "a string";
    case RB_VALUE_UINT: return "a whole number, 0 or more (or a string of its digits)";
    case RB_VALUE_INT: return "a whole number";
    case RB_VALUE_NUMBER: return "a number";
    case RB_VALUE_BOOL: return "true or false";
    default: return "?";
    }
}

/* A member's JSON value as the kind of value the field holds; 0, or -1
 * with `why` filled. */
static int value_of(const rb_field *field, const json_value *j, rb_value *v, char *why,
                    size_t len)
{
    /* every member but the getters' buffer, which no fill_ function reads
     * (a million rows of seventy fields) */
    v->kind = RB_VALUE_UNKNOWN;
    v->text = NULL;
    v->u = 0;
    v->i = 0;
    v->number = 0;
    v->flag = v->counted = 0;
    v->buf[0] = '\0';
    if (!j) {
        v->kind = RB_VALUE_ABSENT;
        return 0;
    }
    if (j->type == JSON_NULL) {
        v->kind = RB_VALUE_UNKNOWN;
        return 0;
    }
    int fits = 0;
    switch (field->kind) {
    case RB_VALUE_TEXT:
        fits = j->type == JSON_STRING;
        v->text = j->text;
        break;
    case RB_VALUE_UINT:
    case RB_VALUE_COUNT: fits = whole_number(j, &v->u); break;
    case RB_VALUE_INT: fits = json_int64(j, &v->i); break;
    case RB_VALUE_NUMBER:
        fits = j->type == JSON_NUMBER;
        v->number = j->number;
        break;
    case RB_VALUE_BOOL:
        fits = j->type == JSON_BOOL;
        v->flag = j->boolean;
        break;
    default: fits = 1; break;
    }
    if (!fits) {
        char shown[64];
        shown_value(j, shown, sizeof shown);
        if (field->counted)
            snprintf(why, len, "is %s; valid: a whole number (or a string of its digits), %s "
                     "from 1 to %llu, as an experiment file allows%s",
                     shown, field->counted, (unsigned long long)field->largest,
                     field->required ? "" : "; or null");
        else
            snprintf(why, len, "is %s; valid: %s%s", shown, kind_words(field->kind),
                     field->required ? "" : ", or null");
        return -1;
    }
    v->kind = field->kind == RB_VALUE_COUNT ? RB_VALUE_UINT : field->kind;
    return 0;
}

/* ---- the run's metadata ---- */

/* A text member of `obj`: *out is the file's copy, NULL when absent or
 * null; another type is an error. */
static int meta_text(rb_results_file *f, const char *path, const json_value *obj,
                     const char *where, const char *key, const char **out)
{
    const json_value *v = json_get(obj, key);
    *out = NULL;
    if (!v || v->type == JSON_NULL)
        return 0;
    if (v->type != JSON_STRING)
        return member_error(path, v, where, key, "is not a string");
    *out = text_index_intern(&f->texts, v->text);
    return 0;
}

/* The same into a buffer, cut to fit. */
static int meta_buffer(rb_results_file *f, const char *path, const json_value *obj,
                       const char *where, const char *key, char *buf, size_t len)
{
    const char *text;
    if (meta_text(f, path, obj, where, key, &text) != 0)
        return -1;
    snprintf(buf, len, "%s", text ? text : "");
    return 0;
}

/* A number member, a quantity (seconds, GB/s): *out, or `fallback` when
 * absent or null. */
static int meta_number(const char *path, const json_value *obj, const char *where,
                       const char *key, double fallback, double *out)
{
    const json_value *v = json_get(obj, key);
    *out = fallback;
    if (!v || v->type == JSON_NULL)
        return 0;
    if (v->type != JSON_NUMBER)
        return member_error(path, v, where, key, "is not a number");
    if (!(isfinite(v->number) && v->number >= 0))
        return member_error(path, v, where, key,
                            isfinite(v->number) ? "is negative; valid: a finite number 0 or more"
                                                : "is too large for a double; valid: a finite "
                                                  "number 0 or more");
    *out = v->number;
    return 0;
}

static int meta_object(const char *path, const json_value *obj, const char *where,
                       const char *key, const json_value **out)
{
    const json_value *v = json_get(obj, key);
    *out = v && v->type == JSON_OBJECT ? v : NULL;
    if (v && v->type != JSON_OBJECT && v->type != JSON_NULL)
        return member_error(path, v, where, key, "is not an object");
    return 0;
}

static int read_info(rb_results_file *f, const char *path, const json_value *doc)
{
    rb_run_info *info = &f->res.info;
    const json_value *host;
    const char *command_line = NULL;
    double wall = 0;
    if (meta_text(f, path, doc, "", "version", &info->tool_version) != 0 ||
        meta_text(f, path, doc, "", "git_revision", &info->git_revision) != 0 ||
        meta_buffer(f, path, doc, "", "started", info->started, sizeof info->started) != 0 ||
        meta_text(f, path, doc, "", "command_line", &command_line) != 0 ||
        meta_number(path, doc, "", "wall_seconds", 0, &wall) != 0 ||
        meta_object(path, doc, "", "host", &host) != 0 ||
        meta_buffer(f, path, host, "host", "name", info->host, sizeof info->host) != 0 ||
        meta_buffer(f, path, host, "host", "os", info->os, sizeof info->os) != 0 ||
        meta_buffer(f, path, host, "host", "cpu", info->cpu, sizeof info->cpu) != 0)
        return -1;
    info->command_line = command_line ? xstrdup(command_line) : NULL;
    info->wall_seconds = wall;
    return 0;
}

/* ---- the experiment ---- */

static int setting_word(const char *path, const json_value *v, const rb_setting_spec *s,
                        rb_experiment *exp)
{
    for (int k = 0; k < s->n_words; k++)
        if (json_string(v) && strcmp(json_string(v), s->word(k)) == 0) {
            setting_set_whole(s, exp, k);
            return 0;
        }
    strbuf valid = {0};
    for (int k = 0; k < s->n_words; k++)
        sb_printf(&valid, "%s%s", valid.len ? ", " : "", s->word(k));
    diag_at(path, v->line, "experiment.settings: \"%s\" is not one of %s", s->name,
            valid.data ? valid.data : "");
    sb_free(&valid);
    return -1;
}

/* A whole number from lo to hi, if v is there and not null. */
static int setting_int(const char *path, const json_value *v, const char *key, long lo, long hi,
                       long *out)
{
    int64_t i;
    if (!v || v->type == JSON_NULL)
        return 0;
    if (!json_int64(v, &i) || i < lo || i > hi) {
        diag_at(path, v->line, "experiment.settings: \"%s\" is not a whole number from %ld to %ld",
                key, lo, hi);
        return -1;
    }
    *out = (long)i;
    return 0;
}

/* One setting (a row of config/settings.c), within the limits the
 * experiment file has. */
static int read_setting(const char *path, const json_value *v, const rb_setting_spec *s,
                        rb_experiment *exp)
{
    long whole = 0;
    uint64_t seed;
    if (s->results == RB_RESULTS_BOOL) {
        if (v->type != JSON_BOOL)
            return member_error(path, v, "experiment.settings", s->name, "is not true or false");
        setting_set_whole(s, exp, v->boolean);
    } else if (s->kind == RB_SETTING_NUMBER) {
        if (v->type != JSON_NUMBER)
            return member_error(path, v, "experiment.settings", s->name, "is not a number");
        if (!s->in_range(v->number)) {
            char *what = xasprintf("is out of range; valid: %s", s->valid_text);
            member_error(path, v, "experiment.settings", s->name, what);
            free(what);
            return -1;
        }
        *setting_number(s, exp) = v->number;
    } else if (s->kind == RB_SETTING_WORD) {
        return setting_word(path, v, s, exp);
    } else if (s->store == RB_STORE_U64) {
        if (!whole_number(v, &seed) || seed > (uint64_t)s->max)
            return member_error(path, v, "experiment.settings", s->name,
                                "is not a whole number (or a string of its digits)");
        setting_set_whole(s, exp, (int64_t)seed);
    } else if (s->kind == RB_SETTING_COUNT && json_string(v) && strcmp(v->text, "auto") == 0) {
        setting_set_whole(s, exp, 0);
    } else {
        long lo = s->kind == RB_SETTING_COUNT ? 1 : (long)s->min;
        if (setting_int(path, v, s->name, lo, (long)s->max, &whole) != 0)
            return -1;
        setting_set_whole(s, exp, whole);
    }
    return 0;
}

/* The experiment's settings the results carry (config/settings.c), each
 * absent or null one at its default. */
static int read_settings(const char *path, const json_value *settings, rb_experiment *exp)
{
    size_t count;
    const rb_setting_spec *const *specs = settings_in_results(&count);
    for (size_t k = 0; k < count; k++) {
        const json_value *v = json_get(settings, specs[k]->name);
        if (specs[k]->results != RB_RESULTS_RUN && v && v->type != JSON_NULL &&
            read_setting(path, v, specs[k], exp) != 0)
            return -1;
    }
    return 0;
}

static int read_experiment(rb_results_file *f, const char *path, const json_value *doc)
{
    const json_value *obj, *settings;
    if (meta_object(path, doc, "", "experiment", &obj) != 0 ||
        meta_object(path, obj, "experiment", "settings", &settings) != 0)
        return -1;
    if (!obj)
        return 0;
    rb_experiment *exp = xcalloc(1, sizeof *exp);
    experiment_defaults(exp, NULL);
    f->experiment = exp;
    f->res.info.experiment = exp;
    const char *name, *file, *text;
    if (meta_text(f, path, obj, "experiment", "name", &name) != 0 ||
        meta_text(f, path, obj, "experiment", "path", &file) != 0 ||
        meta_text(f, path, obj, "experiment", "text", &text) != 0)
        return -1;
    exp->name = name ? xstrdup(name) : NULL;
    exp->path = file ? xstrdup(file) : NULL;
    exp->text = text ? xstrdup(text) : NULL;
    return settings ? read_settings(path, settings, exp) : 0;
}

/* ---- devices ---- */

static int read_properties(rb_results_file *f, const char *path, const json_value *props,
                           rb_device_info *info)
{
    for (size_t k = 0; k < json_count(props) && info->n_props < RB_DEVICE_MAX_PROPS; k++) {
        const json_value *v = &props->items[k];
        const char *text = v->type == JSON_STRING || v->type == JSON_NUMBER ? v->text : NULL;
        if (!text && v->type != JSON_NULL)
            return member_error(path, v, "devices: properties", props->keys[k],
                                "is not a string");
        rb_property *p = &info->props[info->n_props++];
        snprintf(p->key, sizeof p->key, "%s", props->keys[k]);
        snprintf(p->value, sizeof p->value, "%s", text ? text : "");
    }
    (void)f;
    return 0;
}

static int read_device(rb_results_file *f, const char *path, const json_value *d, size_t k,
                       rb_device_record *out)
{
    char where[48];
    snprintf(where, sizeof where, "devices[%zu]", k);
    if (d->type != JSON_OBJECT)
        return member_error(path, d, where, NULL, "is not an object");
    rb_device_info *info = &out->info;
    info->size = sizeof *info;
    const char *source, *cc;
    const json_value *props;
    int64_t index = (int64_t)k;
    uint64_t memory = 0;
    const json_value *device = json_get(d, "device"), *bytes = json_get(d, "memory_bytes");
    if (meta_buffer(f, path, d, where, "backend", out->backend, sizeof out->backend) != 0 ||
        meta_buffer(f, path, d, where, "name", info->name, sizeof info->name) != 0 ||
        meta_buffer(f, path, d, where, "uuid", info->uuid, sizeof info->uuid) != 0 ||
        meta_number(path, d, where, "peak_gbs", 0, &info->peak_gbs) != 0 ||
        meta_number(path, d, where, "measured_peak_gbs", 0, &out->measured_peak_gbs) != 0 ||
        meta_text(f, path, d, where, "measured_peak_source", &source) != 0 ||
        meta_buffer(f, path, d, where, "measured_peak_at", out->measured_peak_at,
                    sizeof out->measured_peak_at) != 0 ||
        meta_buffer(f, path, d, where, "measured_peak_note", out->measured_peak_note,
                    sizeof out->measured_peak_note) != 0 ||
        meta_text(f, path, d, where, "compute_capability", &cc) != 0 ||
        meta_object(path, d, where, "properties", &props) != 0 ||
        read_properties(f, path, props, info) != 0)
        return -1;
    if (device && !json_is_null(device) && (!json_int64(device, &index) || index < 0 ||
                                            index > 1000000))
        return member_error(path, device, where, "device", "is not a device index (0 or more)");
    if (bytes && !json_is_null(bytes) && !whole_number(bytes, &memory))
        return member_error(path, bytes, where, "memory_bytes", "is not a whole number");
    out->device = (int)index;
    info->memory_bytes = memory;
    out->measured_peak_cached = source && strcmp(source, "cache") == 0;
    if (cc && sscanf(cc, "%d.%d", &info->cc_major, &info->cc_minor) != 2)
        info->cc_major = info->cc_minor = 0;
    /* The driver and runtime versions are properties too; the JSON writer
     * writes them from there. */
    return 0;
}

static int read_devices(rb_results_file *f, const char *path, const json_value *doc)
{
    const json_value *devices = json_get(doc, "devices");
    rb_run_info *info = &f->res.info;
    if (!devices || devices->type == JSON_NULL)
        return 0;
    if (devices->type != JSON_ARRAY)
        return member_error(path, devices, "", "devices", "is not an array");
    if (devices->count > RB_ARRAY_LEN(info->devices)) {
        diag_at(path, devices->line, "\"devices\" lists %zu devices; a run records at most %zu",
                devices->count, RB_ARRAY_LEN(info->devices));
        return -1;
    }
    for (size_t k = 0; k < devices->count; k++)
        if (read_device(f, path, &devices->items[k], k, &info->devices[k]) != 0)
            return -1;
    info->n_devices = devices->count;
    return 0;
}

/* ---- runs and plugins ---- */

static rb_run_section *find_run(rb_results_file *f, text_index *index, const char *name,
                                const char *plugin)
{
    char *key = xasprintf("%s\x1f%s", name, plugin ? plugin : "");
    int added;
    size_t *slot = text_index_put(index, text_index_intern(&f->texts, key), f->n_runs, &added);
    free(key);
    if (!added)
        return f->runs[*slot];
    size_t cap = f->n_runs;
    rb_run_section *run = xcalloc(1, sizeof *run);
    run->name = (char *)name;
    run->plugin = (char *)plugin;
    *(rb_run_section **)grow(&f->runs, &f->n_runs, &cap, sizeof *f->runs) = run;
    return run;
}

/* The "plugins" list's record of a plugin: its ABI and its file's SHA-256. */
static void plugin_record(const json_value *plugins, const char *name, const char *file,
                          const char **abi, const char **sha256)
{
    *abi = *sha256 = NULL;
    for (size_t k = 0; k < json_count(plugins); k++) {
        const json_value *p = json_at(plugins, k);
        const char *n = json_string(json_get(p, "name")), *path = json_string(json_get(p, "path"));
        if (n && strcmp(n, name) == 0 && (!file || (path && strcmp(path, file) == 0))) {
            *abi = json_string(json_get(p, "abi"));
            *sha256 = json_string(json_get(p, "sha256"));
            return;
        }
    }
}

/* The plugin of a row (one record for all the rows that name it alike);
 * its ABI and file's SHA-256 are read from the "plugins" list once the
 * whole file is (plugin_records). */
static const rb_loaded_plugin *find_plugin(rb_results_file *f, text_index *index,
                                           const rb_row_fill *fill)
{
    /* A row whose plugin was not found (an optional run, skipped) names
     * it only: no pack, file or version. */
    if (!fill->pack && !fill->plugin_path && !fill->plugin_version)
        return NULL;
    char *key = xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", fill->plugin,
                          fill->pack ? fill->pack : "", fill->plugin_path ? fill->plugin_path : "",
                          fill->plugin_version ? fill->plugin_version : "",
                          fill->row->backend ? fill->row->backend : "",
                          fill->param_types ? fill->param_types : "");
    int added;
    size_t *slot = text_index_put(index, text_index_intern(&f->texts, key), f->n_plugins, &added);
    free(key);
    if (!added)
        return f->plugins[*slot];
    rb_loaded_plugin *p = xcalloc(1, sizeof *p);
    rb_plugin *desc = xcalloc(1, sizeof *desc);
    rb_param_spec *params = xcalloc(fill->config->n_params + 1, sizeof *params);
    for (uint32_t k = 0; k < fill->config->n_params; k++) {
        params[k].name = fill->config->params[k].name;
        const char *letters = strrchr(fill->param_types, '\x1f') + 1;
        params[k].type = letters[k] == 'i' ? RB_PARAM_INT : RB_PARAM_CHOICE;
    }
    desc->size = sizeof *desc;
    desc->name = fill->plugin;
    desc->version = fill->plugin_version;
    desc->backend = fill->row->backend;
    desc->params = params;
    desc->n_params = fill->config->n_params;
    p->desc = desc;
    p->path = (char *)fill->plugin_path;
    p->pack = (char *)fill->pack;
    size_t cap = f->n_plugins;
    *(rb_loaded_plugin **)grow(&f->plugins, &f->n_plugins, &cap, sizeof *f->plugins) = p;
    return p;
}

/* Each plugin's ABI and SHA-256 from the "plugins" list. */
static void plugin_records(rb_results_file *f, const json_value *plugins)
{
    for (size_t k = 0; k < f->n_plugins; k++) {
        rb_loaded_plugin *p = f->plugins[k];
        rb_plugin *desc = (rb_plugin *)p->desc; /* this reader's own */
        const char *abi, *sha256;
        plugin_record(plugins, desc->name, p->path, &abi, &sha256);
        unsigned major = 0, minor = 0;
        if (abi && sscanf(abi, "%u.%u", &major, &minor) != 2)
            major = minor = 0;
        desc->abi_major = major;
        desc->abi_minor = minor;
        p->sha256 = sha256 ? text_index_intern(&f->texts, sha256) : NULL;
    }
}

/* ---- rows ---- */

/* "block=256 variant=tree": the parameters in the file's order, for a row
 * that does not give its params_text. */
static const char *params_text(rb_results_file *f, const rb_configuration *cfg)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (uint32_t k = 0; k < cfg->n_params; k++)
        sb_printf(&sb, "%s%s=%s", k ? " " : "", cfg->params[k].name, cfg->params[k].text);
    const char *text = text_index_intern(&f->texts, sb.data);
    sb_free(&sb);
    return text;
}

/* Where a row's error is: its row, and its place in the row (the field's
 * in the table of fields; the checks of the whole row after them), so
 * that of two errors the one a reader meets first is told. */
typedef struct row_place {
    int found;
    size_t row, place;
    int line;
    int64_t device; /* a device's index */
} row_place;

/* The checks of the whole row, after its fields. */
#define PLACE_SAMPLES rb_n_row_fields
#define PLACE_CACHE (rb_n_row_fields + 1)

/* The rows read as the file is parsed, one at a time (results_read), or
 * from a tree (results_from_doc). What a row is checked against that the
 * file may give after its rows (its devices and experiment) is checked
 * once the whole file is read: the first row that fails each check is
 * kept until then. The first error found in a row is printed only once
 * the rest of the file is known to be valid JSON with a valid header. */
typedef struct rows_reader {
    rb_results_file *f;
    rb_results_row_fn *each; /* results_read_each: each row to it, none kept */
    void *each_user;
    size_t count;         /* rows read */
    size_t cap;           /* rows and configurations allocated */
    text_index fields;    /* a field's name to its place in rb_row_fields */
    const json_value **by_field; /* the row's members by their field's place */
    text_index runs, plugins;
    const char *cache;    /* the first row's cache regime */
    row_place error;      /* the first error of a row's own */
    char *error_text;
    /* beyond[n]: the first row naming a device that a file listing n
     * devices (at most RB_RUN_DEVICES_MAX: read_devices) lacks */
    row_place beyond[RB_RUN_DEVICES_MAX + 1];
    row_place hot, cold;  /* the first row of each cache regime */
} rows_reader;

static void rows_reader_init(rows_reader *rr, rb_results_file *f)
{
    memset(rr, 0, sizeof *rr);
    rr->f = f;
    rr->by_field = xcalloc(rb_n_row_fields, sizeof *rr->by_field);
    for (size_t i = 0; i < rb_n_row_fields; i++) {
        int added;
        text_index_put(&rr->fields, rb_row_fields[i].name, i, &added);
    }
}

static void rows_reader_free(rows_reader *rr)
{
    text_index_free(&rr->fields);
    free(rr->by_field);
    text_index_free(&rr->runs);
    text_index_free(&rr->plugins);
    free(rr->error_text);
}

static void keep_place(row_place *at, size_t row, size_t place, int line, int64_t device)
{
    if (!at->found)
        *at = (row_place){1, row, place, line, device};
}

/* Is a before b in the file's rows? */
static int place_before(const row_place *a, const row_place *b)
{
    return a->found && (!b->found || a->row < b->row || (a->row == b->row && a->place < b->place));
}

/* The row's error, as member_error words it, kept for later. Returns -1. */
static int row_error(rows_reader *rr, size_t row, size_t place, int line, const char *key,
                     const char *what)
{
    if (!rr->error.found) {
        keep_place(&rr->error, row, place, line, 0);
        rr->error_text = xasprintf("results[%zu]: \"%s\": %s", row, key, what);
    }
    return -1;
}

/* The members of a row by their field's place, in rr->by_field (NULL:
 * absent). */
static void row_members(rows_reader *rr, const json_value *row)
{
    const json_value **by_field = rr->by_field;
    memset(by_field, 0, rb_n_row_fields * sizeof *by_field);
    for (size_t m = 0; m < row->count; m++) {
        size_t *place = text_index_find(&rr->fields, row->keys[m]);
        if (place && !by_field[*place])
            by_field[*place] = &row->items[m];
    }
}

static int read_row(rows_reader *rr, const json_value *row, size_t k, rb_row_fill *fill)
{
    if (row->type != JSON_OBJECT) {
        if (!rr->error.found) {
            keep_place(&rr->error, k, 0, row->line, 0);
            rr->error_text = xasprintf("results[%zu]: is not an object", k);
        }
        return -1;
    }
    row_members(rr, row);
    for (size_t i = 0; i < rb_n_row_fields; i++) {
        const rb_field *field = &rb_row_fields[i];
        if (!field->put)
            continue;
        const json_value *j = rr->by_field[i];
        rb_value v;
        if (value_of(field, j, &v, fill->why, sizeof fill->why) != 0)
            return row_error(rr, k, i, j->line, field->name, fill->why);
        if (field->required && (v.kind == RB_VALUE_ABSENT || v.kind == RB_VALUE_UNKNOWN)) {
            char what[160];
            snprintf(what, sizeof what, "is %s; every row of a redbench results file has run, "
                                        "plugin, op, dtype, n and status",
                     v.kind == RB_VALUE_ABSENT ? "missing" : "null");
            return row_error(rr, k, i, (j ? j : row)->line, field->name, what);
        }
        if (field->put(fill, &v, j) != 0)
            return row_error(rr, k, i, (j ? j : row)->line, field->name, fill->why);
        if (fill->device_known)
            for (size_t n = 0; n < RB_ARRAY_LEN(rr->beyond); n++)
                if (fill->device < 0 || (uint64_t)fill->device >= n)
                    keep_place(&rr->beyond[n], k, i, j->line, fill->device);
        fill->device_known = 0;
    }
    rb_row *out = fill->row;
    /* a shape's elements in all are rows x n; files written before they
     * were counted give n there */
    if (sweep_is_shaped(fill->config))
        out->n_total = sweep_elements(fill->config);
    if (fill->n_samples && !fill->has_reps)
        out->stats.count = fill->n_samples;
    if (out->samples_ns && fill->n_samples != out->stats.count) {
        char what[96];
        snprintf(what, sizeof what, "holds %zu samples, but reps is %zu", fill->n_samples,
                 out->stats.count);
        return row_error(rr, k, PLACE_SAMPLES, json_get(row, "samples_ns")->line, "samples_ns",
                         what);
    }
    /* A file that gives a median but neither reps nor samples (written by
     * hand) measured at least once. */
    if (!fill->has_reps && !out->samples_ns && fill->has_time)
        out->stats.count = 1;
    return 0;
}

/* A row's cache regime: hot or cold; whether it is the experiment's (a
 * run has one) is checked with the whole file (rows_check). */
static int check_cache(rows_reader *rr, const rb_row_fill *fill, size_t k)
{
    if (!fill->cache)
        return 0;
    int cold = strcmp(fill->cache, cache_mode_name(RB_CACHE_COLD)) == 0;
    if (!cold && strcmp(fill->cache, cache_mode_name(RB_CACHE_HOT)) != 0)
        return row_error(rr, k, PLACE_CACHE, fill->cache_line, "cache",
                         "is neither hot nor cold");
    keep_place(cold ? &rr->cold : &rr->hot, k, PLACE_CACHE, fill->cache_line, 0);
    return 0;
}

/* One row of the file (a json_each_fn): its place in the rows, its
 * configuration, run and plugin. 0, or -1 (for no more rows) after its
 * error is kept. */
static int read_element(void *user, size_t k, const json_value *element)
{
    rows_reader *rr = user;
    rb_results_file *f = rr->f;
    size_t slot = rr->each ? 0 : k; /* handed on, a row takes the place of the one before */
    if (slot == rr->cap) {
        rr->cap = rr->cap ? rr->cap * 2 : rr->each ? 1 : 1024;
        f->res.rows = xrealloc(f->res.rows, rr->cap * sizeof *f->res.rows);
        f->configs = xrealloc(f->configs, rr->cap * sizeof *f->configs);
    }
    rb_row *row = &f->res.rows[slot];
    rb_configuration *cfg = &f->configs[slot];
    memset(row, 0, sizeof *row);
    memset(cfg, 0, sizeof *cfg);
    cfg->index = k;
    cfg->bins = 256;
    row->device_index = -1;
    rr->count = k + 1;
    f->res.n_rows = slot + 1;
    rb_row_fill fill = {.row = row, .config = cfg, .texts = &f->texts};
    int status = read_row(rr, element, k, &fill);
    if (status == 0)
        status = check_cache(rr, &fill, k);
    if (status == 0) {
        if (!fill.has_params_text)
            cfg->params_text = (char *)params_text(f, cfg);
        cfg->ranks = row->ranks ? row->ranks : 1; /* as the run's configuration had it */
        cfg->run = find_run(f, &rr->runs, fill.run, fill.plugin);
        cfg->plugin = find_plugin(f, &rr->plugins, &fill);
        if (!rr->cache)
            rr->cache = fill.cache;
    }
    free(fill.param_types);
    if (status == 0 && rr->each) {
        row->config = cfg;
        rr->each(rr->each_user, k, row);
        row_release(row);
        free(cfg->params);
        f->res.n_rows = 0;
    }
    return status;
}

/* With the whole file read: the rows point to their configurations; the
 * first error of a row, of its own or against the devices and the
 * experiment, is printed; the plugins' records are read. */
static int rows_check(rows_reader *rr, const char *path, const json_value *doc)
{
    rb_results_file *f = rr->f;
    for (size_t k = 0; k < f->res.n_rows; k++)
        f->res.rows[k].config = &f->configs[k];
    if (!f->res.rows) {
        f->res.rows = xcalloc(1, sizeof *f->res.rows);
        f->configs = xcalloc(1, sizeof *f->configs);
    }
    size_t n = f->res.info.n_devices;
    const row_place *device = &rr->beyond[n < RB_ARRAY_LEN(rr->beyond) ? n : 0];
    const rb_experiment *exp = f->experiment;
    const row_place *cache = !exp ? NULL : exp->cache == RB_CACHE_COLD ? &rr->hot : &rr->cold;
    if (place_before(device, &rr->error) && (!cache || !place_before(cache, device))) {
        if (n == 0)
            diag_at(path, device->line, "results[%zu]: \"device\": is %lld, but the file lists "
                    "no device (valid: null)", device->row, (long long)device->device);
        else
            diag_at(path, device->line, "results[%zu]: \"device\": is %lld, but the file lists "
                    "%zu device%s (valid: 0 to %zu, or null)", device->row,
                    (long long)device->device, n, n == 1 ? "" : "s", n - 1);
        return -1;
    }
    if (cache && place_before(cache, &rr->error)) {
        int cold = cache == &rr->cold;
        diag_at(path, cache->line, "results[%zu]: \"cache\": is %s, but the experiment's "
                "settings say %s (a run has one cache regime)", cache->row,
                cache_mode_name(cold), cache_mode_name(exp->cache));
        return -1;
    }
    if (rr->error.found) {
        diag_at(path, rr->error.line, "%s", rr->error_text);
        return -1;
    }
    plugin_records(f, json_get(doc, "plugins"));
    /* A file without its experiment still says the cache regime per row. */
    if (!f->experiment && rr->cache) {
        f->experiment = xcalloc(1, sizeof *f->experiment);
        experiment_defaults(f->experiment, NULL);
        f->experiment->cache = strcmp(rr->cache, cache_mode_name(RB_CACHE_COLD)) == 0;
        f->res.info.experiment = f->experiment;
    }
    return 0;
}

/* The rounds of the settings (run/runner.c): how many were asked for and
 * ran, and each one's order of configuration indices; after the rows, whose
 * count the orders are checked against. A file without them had one. */
static int read_rounds(rb_results_file *f, const char *path, const json_value *doc, size_t n)
{
    rb_run_info *info = &f->res.info;
    const json_value *settings = json_get(json_get(doc, "experiment"), "settings");
    const json_value *orders = json_get(settings, "round_order");
    long rounds = 1, rounds_run = 1;
    const rb_setting_spec *spec = setting_at(offsetof(rb_experiment, rounds));
    if (setting_int(path, json_get(settings, spec->name), spec->name, 0, (long)spec->max,
                    &rounds) != 0 ||
        setting_int(path, json_get(settings, "rounds_run"), "rounds_run", 0, (long)spec->max,
                    &rounds_run) != 0)
        return -1;
    info->rounds = (int)rounds;
    info->rounds_run = (int)rounds_run;
    if (!orders || json_is_null(orders))
        return 0;
    if (orders->type != JSON_ARRAY || orders->count != (size_t)rounds_run)
        return member_error(path, orders, "experiment.settings", "round_order",
                            "is not an array of one order per round run");
    info->round_order = xmalloc((n ? n : 1) * orders->count * sizeof *info->round_order);
    memset(info->round_order, 0xff, (n ? n : 1) * orders->count * sizeof *info->round_order);
    for (size_t r = 0; r < orders->count; r++) {
        const json_value *order = &orders->items[r];
        if (order->type != JSON_ARRAY || order->count > n)
            return member_error(path, order, "experiment.settings", "round_order",
                                "holds an order that is not an array of at most one index "
                                "per row");
        for (size_t k = 0; k < order->count; k++) {
            uint64_t index;
            if (!json_uint64(&order->items[k], &index) || index >= n)
                return member_error(path, &order->items[k], "experiment.settings",
                                    "round_order", "holds an index that is not a row's");
            info->round_order[r * n + k] = (size_t)index;
        }
    }
    return 0;
}

/* The layout's version (results/fields.h): a file written by a newer
 * redbench may hold members renamed or retyped, which this one would read
 * wrong; it is refused, naming both versions. A file without one is
 * version 1. */
static int check_schema_version(const char *path, const json_value *doc)
{
    const json_value *v = json_get(doc, "schema_version");
    uint64_t version = 1;
    if (!v)
        return 0;
    if (!json_uint64(v, &version) || version < 1) {
        char shown[64], what[160];
        shown_value(v, shown, sizeof shown);
        snprintf(what, sizeof what, "is %s; valid: a whole number from 1 to %d", shown,
                 RB_RESULTS_SCHEMA_VERSION);
        return member_error(path, v, "", "schema_version", what);
    }
    if (version > RB_RESULTS_SCHEMA_VERSION) {
        diag_at(path, v->line, "\"schema_version\" is %llu, newer than this redbench reads "
                "(%d, redbench %s); read the file with the redbench that wrote it, or a newer "
                "one", (unsigned long long)version, RB_RESULTS_SCHEMA_VERSION, PACKAGE_VERSION);
        return -1;
    }
    return 0;
}

/* After the rows (read into rr as they were parsed): the header, then
 * what the rows are checked against, then the rounds, in the order a
 * reader of the file meets their errors. 0, or -1 after printing why (the
 * rows are freed). */
static int read_rest(rows_reader *rr, const char *path, const json_value *doc)
{
    rb_results_file *out = rr->f;
    const json_value *results = json_get(doc, "results");
    int status = check_schema_version(path, doc);
    if (status == 0 && (!results || results->type != JSON_ARRAY)) {
        diag_at(path, doc ? doc->line : 0,
                "not a redbench results file: no \"results\" array (write one with "
                "redbench -c FILE --format json -o FILE.json)");
        status = -1;
    }
    if (status == 0 && (read_info(out, path, doc) != 0 || read_experiment(out, path, doc) != 0 ||
                        read_devices(out, path, doc) != 0 || rows_check(rr, path, doc) != 0 ||
                        read_rounds(out, path, doc, rr->count) != 0))
        status = -1;
    rows_reader_free(rr);
    if (status != 0)
        results_file_free(out);
    return status;
}

int results_from_doc(const char *path, const json_value *doc, rb_results_file *out)
{
    memset(out, 0, sizeof *out);
    rows_reader rr;
    rows_reader_init(&rr, out);
    const json_value *results = json_get(doc, "results");
    for (size_t k = 0; results && results->type == JSON_ARRAY && k < results->count; k++)
        if (read_element(&rr, k, &results->items[k]) != 0)
            break;
    return read_rest(&rr, path, doc);
}

/* results_read, handing the rows to `each` if it is not NULL. */
static int read_results(const char *path, rb_results_file *out, rb_results_row_fn *each,
                        void *user)
{
    memset(out, 0, sizeof *out);
    rows_reader rr;
    rows_reader_init(&rr, out);
    rr.each = each;
    rr.each_user = user;
    json_value *doc = json_read_file_each(path, "results", read_element, &rr);
    int status = -1;
    if (doc && json_check_results(doc, path) == 0) {
        status = read_rest(&rr, path, doc);
    } else {
        rows_reader_free(&rr);
        results_file_free(out);
    }
    json_free(doc);
    return status;
}

int results_read(const char *path, rb_results_file *out)
{
    return read_results(path, out, NULL, NULL);
}

int results_read_each(const char *path, rb_results_file *out, rb_results_row_fn *each,
                      void *user)
{
    return read_results(path, out, each, user);
}

void results_file_free(rb_results_file *f)
{
    for (size_t k = 0; f->configs && k < f->res.n_rows; k++)
        free(f->configs[k].params);
    free(f->configs);
    results_free(&f->res);
    for (size_t k = 0; k < f->n_runs; k++)
        free(f->runs[k]);
    free(f->runs);
    for (size_t k = 0; k < f->n_plugins; k++) {
        free((void *)f->plugins[k]->desc->params);
        free((void *)f->plugins[k]->desc);
        free(f->plugins[k]);
    }
    free(f->plugins);
    if (f->experiment) {
        free(f->experiment->name);
        free(f->experiment->path);
        free(f->experiment->text);
        free(f->experiment);
    }
    text_index_free(&f->texts);
    memset(f, 0, sizeof *f);
}
