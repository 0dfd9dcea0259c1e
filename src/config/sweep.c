/* src/config/sweep.c: expansion of the [run] sections into configurations. Every
 * comma list (data keys, then the plugin's parameters in declaration order)
 * is an axis; each run's configurations are the Cartesian product of its
 * axes, the last axis varying fastest. A range of sizes (n = 1K..1G, or
 * 1K..1G:x4; rows alike) is the sizes it spans. A parameter set for every
 * run by a plain -D goes to the runs whose plugin has it, with a warning
 * naming the others. All values are checked, and the size of the sweep counted,
 * before anything is allocated for it. The way back: a configuration's
 * [data] keys as an experiment file gives them (data_keys_write). */
#include "config/sweep.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "config/keys.h"
#include "config/settings.h"

/* The values of one key: a data key or a parameter. */
typedef struct axis {
    const rb_setting *setting; /* where they were written; NULL for a default */
    size_t count;              /* 0 when a value was not valid */
    int64_t *values;
    char **texts;              /* parameters: the normalized words */
} axis;

/* What one [run] section expands to, worked out before anything is built. */
typedef struct run_plan {
    const rb_run_section *run;
    const rb_loaded_plugin *plugin; /* NULL: absent (the run is optional) */
    char *skip_reason;
    char *raw_params;               /* for an absent plugin: the keys as written */
    axis overrides[RB_DATA_COUNT_];    /* data keys set in the run itself */
    const axis *data[RB_DATA_COUNT_];  /* the axes used: overrides or [data] */
    axis *params;                   /* one per declared parameter */
    uint32_t n_params;
    uint64_t count;                 /* configurations */
} run_plan;

static void axis_free(axis *a)
{
    free(a->values);
    if (a->texts)
        free_list(a->texts, a->count);
    memset(a, 0, sizeof *a);
}

/* The [data] row of `key` (config/keys.c), or NULL. */
static const rb_key_spec *data_row(int key)
{
    return &keys_of(RB_SECTION_DATA, NULL)[key];
}

/* Which [data] key `key` is (enum rb_data_key), or -1. */
static int data_key_index(const char *key)
{
    const rb_key_spec *k = key_find(RB_SECTION_DATA, key);
    return k ? (int)(k - keys_of(RB_SECTION_DATA, NULL)) : -1;
}

/* Reports an empty item ("a,,b", "a,"). Returns 0 when there is none. */
static int check_empty_items(rb_experiment *exp, const rb_setting *s)
{
    for (size_t k = 0; k < s->n_values; k++) {
        if (s->values[k][0] == '\0') {
            setting_error(exp, s->line, "%s = %s: item %zu of the list is empty; remove the extra "
                    "comma", s->key, s->text, k + 1);
            return -1;
        }
    }
    return 0;
}

/* ---- data keys ---- */

/* One item of a data key that is a size or a count, from the row's min
 * to its max; reports at `line` what is wrong. */
static int data_number(rb_experiment *exp, int line, const rb_key_spec *k, const char *item,
                       int64_t *out)
{
    const char *why;
    int64_t number;
    uint64_t size;
    int bad = k->type == RB_KEY_SIZE ? parse_size(item, &size, &why)
                                     : parse_int(item, &number, &why);
    if (bad != 0) {
        setting_error(exp, line, "%s = %s: %s; valid: %s", k->name, item, why, k->limits);
        return -1;
    }
    if (k->type == RB_KEY_SIZE)
        number = size > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)size;
    if (number < k->min || number > k->max) {
        setting_error(exp, line, k->range_after_colon ? "%s = %s: out of range; valid: %s"
                                                      : "%s = %s is out of range; valid: %s",
                      k->name, item, k->limits);
        return -1;
    }
    *out = number;
    return 0;
}

/* Converts one item of a data key, as its row (config/keys.c) says;
 * reports at `line` what is wrong. */
static int data_item(rb_experiment *exp, int line, int key, const char *item, int64_t *out)
{
    const rb_key_spec *k = data_row(key);
    if (k->type != RB_KEY_WORD)
        return data_number(exp, line, k, item, out);
    int word = k->from_name(item);
    if (word < 0) {
        setting_error(exp, line, "unknown %s '%s'; valid: %s", k->name, item, k->choices());
        return -1;
    }
    *out = word;
    return 0;
}

/* One size of a range's end, within the key's limits; reports at `line`
 * what is wrong. */
static int range_end(rb_experiment *exp, int line, const rb_key_spec *k, const char *item,
                     const char *end, uint64_t *out)
{
    const char *why;
    if (parse_size(end, out, &why) != 0) {
        setting_error(exp, line, "%s = %s: '%s': %s; a range is LOW..HIGH (powers of two) or "
                      "LOW..HIGH:xF (each size F times the one before), e.g. 1K..1G:x4", k->name,
                      item, end, why);
        return -1;
    }
    if (*out < (uint64_t)k->min || *out > (uint64_t)k->max) {
        setting_error(exp, line, "%s = %s: '%s' is out of range; valid: %s", k->name, item, end,
                      k->limits);
        return -1;
    }
    return 0;
}

/* Expands a range of sizes of key `k` (n, rows), "1K..1G" (every power of
 * two: each size twice the one before) or "1K..1G:x4" (each 4 times the
 * one before), from LOW up to HIGH; appends them to *values. Returns 0, or
 * -1 after reporting at `line` what is wrong. */
static int size_range(rb_experiment *exp, int line, const rb_key_spec *k, const char *item,
                      int64_t **values, size_t *count, size_t *cap)
{
    const char *dots = strstr(item, "..");
    char *low_text = xstrndup(item, (size_t)(dots - item));
    char *high_text = xstrdup(dots + 2);
    char *colon = strchr(high_text, ':');
    uint64_t factor = 2, low = 0, high = 0;
    int status = 0;
    if (colon) {
        *colon = '\0';
        const char *why;
        int64_t f;
        if (colon[1] != 'x' || parse_int(colon + 2, &f, &why) != 0 || f < 2 || f > 1024) {
            setting_error(exp, line, "%s = %s: the step '%s' is not valid; write :xF, F a whole "
                          "number from 2 to 1024 (1K..1G:x4: each size 4 times the one before)",
                          k->name, item, colon + 1);
            status = -1;
        }
        factor = (uint64_t)(status == 0 ? f : 2);
    }
    if (status == 0)
        status = range_end(exp, line, k, item, trim(low_text), &low);
    if (status == 0)
        status = range_end(exp, line, k, item, trim(high_text), &high);
    if (status == 0 && low > high) {
        setting_error(exp, line, "%s = %s: the range runs down; write the smaller size first "
                      "(%s..%s)", k->name, item, trim(high_text), trim(low_text));
        status = -1;
    }
    for (uint64_t v = low; status == 0 && v <= high; v *= factor) {
        *(int64_t *)grow(values, count, cap, sizeof **values) = (int64_t)v;
        if (v > high / factor)
            break;
    }
    free(low_text);
    free(high_text);
    return status;
}

/* Fills an axis from a data key as written, or from its default when `s` is
 * NULL; a range of a size (n = 1K..1G, rows = 1..4K:x4) gives each of its
 * sizes. Returns 0 when every item is valid. */
static int data_axis(rb_experiment *exp, int key, const rb_setting *s, axis *a)
{
    size_t count = s ? s->n_values : 1, cap = 0, n = 0;
    int bad = 0;

    memset(a, 0, sizeof *a);
    a->setting = s;
    if (s && check_empty_items(exp, s) != 0)
        return -1;
    for (size_t k = 0; k < count; k++) {
        const char *item = s ? s->values[k] : data_row(key)->initial;
        if (data_row(key)->type == RB_KEY_SIZE && strstr(item, "..")) {
            if (size_range(exp, s ? s->line : 0, data_row(key), item, &a->values, &n, &cap) != 0)
                bad = 1;
            continue;
        }
        int64_t value;
        if (data_item(exp, s ? s->line : 0, key, item, &value) != 0)
            bad = 1;
        else
            *(int64_t *)grow(&a->values, &n, &cap, sizeof *a->values) = value;
    }
    if (!bad && n > RB_SWEEP_MAX_CONFIGS) {
        setting_error(exp, s ? s->line : 0, "%s = %s gives %zu values; the most redbench "
                      "accepts is %d", data_row(key)->name, s ? s->text : "", n,
                      RB_SWEEP_MAX_CONFIGS);
        bad = 1;
    }
    a->count = bad ? 0 : n;
    return bad ? -1 : 0;
}

static int axis_has(const axis *a, int64_t value)
{
    for (size_t k = 0; k < a->count; k++)
        if (a->values[k] == value)
            return 1;
    return 0;
}

/* distribution = float-bytes is made of bytes: it goes with dtype u8 only.
 * The error is at the run's own line when the run sets either key; a
 * conflict written in [data] alone is reported once, at its line there. */
static void check_float_bytes(rb_experiment *exp, const run_plan *plan, int *reported_line)
{
    const axis *dist = plan->data[RB_DATA_DISTRIBUTION], *dtype = plan->data[RB_DATA_DTYPE];
    int dist_in_run = dist == &plan->overrides[RB_DATA_DISTRIBUTION];
    int dtype_in_run = dtype == &plan->overrides[RB_DATA_DTYPE];

    if (!axis_has(dist, RB_DIST_FLOAT_BYTES))
        return;
    for (size_t k = 0; k < dtype->count; k++) {
        if (dtype->values[k] == RB_DTYPE_U8)
            continue;
        int line = dist_in_run || !dtype_in_run ? dist->setting->line : dtype->setting->line;
        if (!dist_in_run && !dtype_in_run) {
            if (*reported_line == line)
                return;
            *reported_line = line;
        }
        setting_error(exp, line, "distribution float-bytes is for dtype u8 only, but [run %s] "
                "has dtype %s; set dtype = u8 for it", plan->run->name,
                dtype_name((int)dtype->values[k]));
        return;
    }
}

/* The largest value of an axis of whole numbers. */
static int64_t axis_largest(const axis *a)
{
    int64_t largest = 0;
    for (size_t k = 0; k < a->count; k++)
        if (a->values[k] > largest)
            largest = a->values[k];
    return largest;
}

/* How close to the run `s` of data key `key` was set: 3 on the command
 * line (after the file), 2 in the run itself, 1 in [data], 0 not set. */
static int setting_scope(const run_plan *plan, int key, const rb_setting *s)
{
    if (!s)
        return 0;
    if (s->line < 0)
        return 3;
    return plan->data[key] == &plan->overrides[key] ? 2 : 1;
}

/* The line of the conflict of lengths = ragged with axis = column: that of
 * the key set closer to the run (a -D, a run's own key, [data]); the axis
 * line where both are as close. */
static int ragged_column_line(const run_plan *plan)
{
    const rb_setting *ax = plan->data[RB_DATA_AXIS]->setting,
                     *lengths = plan->data[RB_DATA_LENGTHS]->setting;
    const rb_setting *s = setting_scope(plan, RB_DATA_LENGTHS, lengths) >
                                  setting_scope(plan, RB_DATA_AXIS, ax)
                              ? lengths
                              : ax;
    return s ? s->line : plan->run->line;
}

/* Shapes (rows > 1, axis = column, lengths = ragged) reduce sums, minima,
 * maxima and argmax of numbers, on one rank, ragged rows along the row
 * axis, and at most 2^40 elements in all. The error is at the line of
 * the first shape key written; a ragged column's at the axis or lengths
 * line that makes it (ragged_column_line). */
static void check_shapes(rb_experiment *exp, const run_plan *plan)
{
    const axis *rows = plan->data[RB_DATA_ROWS], *ax = plan->data[RB_DATA_AXIS],
               *lengths = plan->data[RB_DATA_LENGTHS];
    if (!rows->count || !ax->count || !lengths->count || !plan->data[RB_DATA_N]->count)
        return; /* a value of these was not valid: reported already */
    int64_t most_rows = axis_largest(rows);
    int column = axis_has(ax, RB_AXIS_COLUMN), ragged = axis_has(lengths, RB_LENGTHS_RAGGED);
    if (most_rows <= 1 && !column && !ragged)
        return;
    const rb_setting *s = rows->setting && most_rows > 1 ? rows->setting
                          : column                      ? ax->setting
                                                        : lengths->setting;
    int line = s ? s->line : plan->run->line;
    const char *what = s ? s->key : "rows";
    const char *value = s ? s->text : "";
    if (axis_has(plan->data[RB_DATA_OP], RB_OP_HISTOGRAM))
        setting_error(exp, line, "%s = %s: a shape's answers are sums, minima, maxima or "
                      "argmax, but [run %s] has op histogram; use rows = 1 for it", what, value,
                      plan->run->name);
    else if (axis_has(plan->data[RB_DATA_DTYPE], RB_DTYPE_U8))
        setting_error(exp, line, "%s = %s: a shape takes dtype i32, i64, f32, f64, f16 or bf16, "
                      "but [run %s] has u8; use rows = 1 for it", what, value, plan->run->name);
    else if (axis_largest(plan->data[RB_DATA_RANKS]) > 1)
        setting_error(exp, line, "%s = %s: a shape runs on one rank, but [run %s] has ranks = "
                      "%" PRId64 "; use ranks = 1 for it", what, value, plan->run->name,
                      axis_largest(plan->data[RB_DATA_RANKS]));
    else if (column && ragged)
        setting_error(exp, ragged_column_line(plan), "lengths = ragged takes axis = row (ragged "
                      "rows have no columns), but [run %s] has axis = column", plan->run->name);
    else if ((uint64_t)most_rows > RB_DATA_LARGEST_N / (uint64_t)axis_largest(plan->data[RB_DATA_N]))
        setting_error(exp, line, "rows = %s with n up to %" PRId64 ": rows x n is past 2^40 "
                      "elements, the most an input holds", rows->setting ? rows->setting->text
                      : "1", axis_largest(plan->data[RB_DATA_N]));
}

/* What became of each plain -D KEY=VALUE of a parameter
 * (rb_setting.every_run), one per command-line option: the runs whose
 * plugin has the parameter and those left out. */
typedef struct every_run_use {
    const rb_setting *setting; /* one of its settings (key, line) */
    strbuf used, left_out;     /* "wide", "plain (serial), fast (serial)" */
    strbuf plugins;            /* "serial: acc; kahan: acc" */
    const rb_plugin *plugin;   /* the plugin of the runs left out, when one */
    int plugins_differ;
    const rb_plugin **listed;  /* the plugins in `plugins`, each once */
    size_t n_listed;
} every_run_use;

/* Whether `desc` is in u->plugins already; adds it to the list if not. */
static int listed_before(every_run_use *u, const rb_plugin *desc)
{
    for (size_t k = 0; k < u->n_listed; k++)
        if (u->listed[k] == desc)
            return 1;
    u->listed = xrealloc(u->listed, (u->n_listed + 1) * sizeof *u->listed);
    u->listed[u->n_listed++] = desc;
    return 0;
}

/* The use of `s` (an every_run setting): its option's entry in `uses`. */
static every_run_use *use_of(rb_experiment *exp, every_run_use *uses, const rb_setting *s)
{
    size_t origin = s->line < 0 ? (size_t)(-s->line - 1) : exp->n_origins;
    if (!uses || origin >= exp->n_origins)
        return NULL;
    uses[origin].setting = s;
    return &uses[origin];
}

/* ---- parameters ---- */

/* Fills a parameter's axis from its key in the run. */
static int param_axis(rb_experiment *exp, const rb_loaded_plugin *plugin,
                      const rb_param_spec *spec,
                      const rb_setting *s, axis *a)
{
    int bad = 0;
    rb_key_spec row = keys_from_param(spec);
    memset(a, 0, sizeof *a);
    a->setting = s;
    if (check_empty_items(exp, s) != 0)
        return -1;
    a->values = xcalloc(s->n_values, sizeof *a->values);
    a->texts = xcalloc(s->n_values, sizeof *a->texts);
    for (size_t k = 0; k < s->n_values; k++) {
        const char *problem = key_item(&row, s->values[k], &a->values[k], &a->texts[k]);
        if (problem) {
            char *valid = key_valid(&row);
            setting_error(exp, s->line,
                          "%s = %s: '%s' %s; valid for parameter '%s' of plugin '%s': %s",
                    s->key, s->text, s->values[k], problem, spec->name, plugin->desc->name, valid);
            free(valid);
            a->texts[k] = xstrdup("");
            bad = 1;
        }
    }
    a->count = s->n_values;
    if (bad) {
        axis_free(a);
        return -1;
    }
    return 0;
}

/* Fills a parameter's axis from the default the plugin declares. A bad
 * default is the plugin's fault: the message names it and its file. */
static int default_axis(rb_experiment *exp, int line, const rb_loaded_plugin *plugin,
                        const rb_param_spec *spec, axis *a)
{
    rb_key_spec row = keys_from_param(spec);
    memset(a, 0, sizeof *a);
    a->values = xcalloc(1, sizeof *a->values);
    a->texts = xcalloc(1, sizeof *a->texts);
    a->count = 1;
    const char *problem = spec->default_value
                              ? key_item(&row, spec->default_value, &a->values[0], &a->texts[0])
                              : "is missing";
    if (problem) {
        char *valid = key_valid(&row);
        setting_error(exp, line,
                      "plugin '%s' (%s) declares a bad default for parameter '%s': '%s' %s; "
                "valid: %s", plugin->desc->name, plugin->path, spec->name,
                spec->default_value ? spec->default_value : "", problem, valid);
        free(valid);
        a->texts[0] = xstrdup("");
        axis_free(a);
        return -1;
    }
    return 0;
}

static int spec_index(const rb_plugin *desc, const char *name)
{
    for (uint32_t k = 0; k < desc->n_params; k++)
        if (strcmp(desc->params[k].name, name) == 0)
            return (int)k;
    return -1;
}

static void report_unknown_parameter(rb_experiment *exp, const rb_plugin *desc,
                                     const rb_setting *s)
{
    if (setting_find(s->key)) { /* min_time in a [run] section, say */
        setting_error(exp, s->line, "'%s' is an [experiment] key, the same for every run, not a "
                "parameter of plugin '%s': move it to the [experiment] section", s->key,
                desc->name);
        return;
    }
    strbuf names = {0};
    for (uint32_t k = 0; k < desc->n_params; k++)
        sb_printf(&names, "%s%s", k ? ", " : "", desc->params[k].name);
    if (desc->n_params == 0)
        setting_error(exp, s->line, "plugin '%s' has no parameter '%s': it takes no parameters "
                "(data keys: %s)", desc->name, s->key, key_list(RB_SECTION_DATA));
    else
        setting_error(exp, s->line, "plugin '%s' has no parameter '%s'; its parameters: %s (data "
                "keys: %s)", desc->name, s->key, names.data, key_list(RB_SECTION_DATA));
    sb_free(&names);
}

static void plan_parameters(rb_experiment *exp, every_run_use *uses, run_plan *plan)
{
    const rb_run_section *run = plan->run;
    const rb_plugin *desc = plan->plugin->desc;

    plan->n_params = desc->n_params;
    plan->params = xcalloc(desc->n_params ? desc->n_params : 1, sizeof *plan->params);
    int *given = xcalloc(desc->n_params ? desc->n_params : 1, sizeof *given);
    for (size_t k = 0; k < run->n_settings; k++) {
        const rb_setting *s = &run->settings[k];
        if (data_key_index(s->key) >= 0)
            continue;
        int j = spec_index(desc, s->key);
        every_run_use *use = s->every_run ? use_of(exp, uses, s) : NULL;
        if (j < 0 && use) { /* a plain -D: this run's plugin goes without it */
            sb_printf(&use->left_out, "%s%s (%s)", use->left_out.len ? ", " : "", run->name,
                      desc->name);
            use->plugins_differ |= use->plugin && use->plugin != desc;
            use->plugin = desc;
            if (listed_before(use, desc))
                continue;
            sb_printf(&use->plugins, "%s%s: ", use->plugins.len ? "; " : "", desc->name);
            for (uint32_t q = 0; q < desc->n_params; q++)
                sb_printf(&use->plugins, "%s%s", q ? ", " : "", desc->params[q].name);
            if (desc->n_params == 0)
                sb_append(&use->plugins, "none");
            continue;
        }
        if (j < 0) {
            report_unknown_parameter(exp, desc, s);
            continue;
        }
        if (use)
            sb_printf(&use->used, "%s%s", use->used.len ? ", " : "", run->name);
        given[j] = 1;
        param_axis(exp, plan->plugin, &desc->params[j], s, &plan->params[j]);
    }
    for (uint32_t j = 0; j < desc->n_params; j++)
        if (!given[j])
            default_axis(exp, run->plugin_line, plan->plugin, &desc->params[j], &plan->params[j]);
    free(given);
}

/* For a run whose plugin is absent: its parameters as written. */
static char *raw_parameters(rb_experiment *exp, const rb_run_section *run)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (size_t k = 0; k < run->n_settings; k++) {
        const rb_setting *s = &run->settings[k];
        if (data_key_index(s->key) >= 0)
            continue;
        check_empty_items(exp, s);
        sb_printf(&sb, "%s%s=", sb.len ? " " : "", s->key);
        for (size_t v = 0; v < s->n_values; v++)
            sb_printf(&sb, "%s%s", v ? "," : "", s->values[v]);
    }
    return sb.data;
}

static void plan_absent_plugin(rb_experiment *exp, const rb_registry *reg, run_plan *plan)
{
    const rb_run_section *run = plan->run;
    char *candidates = registry_ambiguity(reg, run->plugin);
    if (candidates) { /* found, but in more than one pack: an error even when optional */
        setting_error(exp, run->plugin_line, "plugin '%s' is offered by more than one pack: %s; "
                "name one as 'plugin = PACK/NAME'", run->plugin, candidates);
        free(candidates);
        return;
    }
    if (run->optional) {
        char *dirs = join_words((const char *const *)reg->dirs, reg->n_dirs, ", ");
        plan->skip_reason = xasprintf("plugin '%s' not found (searched: %s)", run->plugin,
                                      reg->n_dirs ? dirs : "no folder");
        free(dirs);
        plan->raw_params = raw_parameters(exp, run);
        return;
    }
    if (reg->n_plugins > 0) {
        char *names = registry_plugin_names(reg);
        setting_error(exp, run->plugin_line, "unknown plugin '%s'; available: %s", run->plugin,
                names);
        free(names);
    } else {
        char *dirs = join_words((const char *const *)reg->dirs, reg->n_dirs, ", ");
        setting_error(exp, run->plugin_line, "unknown plugin '%s'; no plugin was found "
                "(searched: %s); see --plugin-path", run->plugin, reg->n_dirs ? dirs : "no folder");
        free(dirs);
    }
}

/* ---- counting ---- */

static const char *axis_key(const run_plan *plan, size_t k)
{
    return k < RB_DATA_COUNT_ ? data_row((int)k)->name
                              : plan->plugin->desc->params[k - RB_DATA_COUNT_].name;
}

static size_t axis_count(const run_plan *plan)
{
    return RB_DATA_COUNT_ + (plan->plugin ? plan->n_params : 0);
}

static const axis *axis_at(const run_plan *plan, size_t k)
{
    return k < RB_DATA_COUNT_ ? plan->data[k] : &plan->params[k - RB_DATA_COUNT_];
}

/* Counts the configurations; refuses more than RB_SWEEP_MAX_CONFIGS. */
static void count_plan(rb_experiment *exp, run_plan *plan)
{
    uint64_t count = 1;
    int overflow = 0;
    for (size_t k = 0; k < axis_count(plan); k++)
        if (__builtin_mul_overflow(count, (uint64_t)axis_at(plan, k)->count, &count))
            overflow = 1;
    plan->count = count;
    if (!overflow && count <= RB_SWEEP_MAX_CONFIGS)
        return;

    strbuf axes = {0};
    for (size_t k = 0; k < axis_count(plan); k++)
        if (axis_at(plan, k)->count > 1)
            sb_printf(&axes, "%s%s %zu", axes.len ? " x " : "", axis_key(plan, k),
                      axis_at(plan, k)->count);
    if (overflow)
        setting_error(exp, plan->run->line,
                      "[run %s] expands to more than 2^64 configurations (%s); "
                "the most redbench accepts is %d: shorten some lists", plan->run->name,
                axes.data, RB_SWEEP_MAX_CONFIGS);
    else
        setting_error(exp, plan->run->line,
                      "[run %s] expands to %" PRIu64 " configurations (%s); the "
                "most redbench accepts is %d: shorten some lists", plan->run->name, count,
                axes.data, RB_SWEEP_MAX_CONFIGS);
    sb_free(&axes);
}

/* ---- planning a run ---- */

static void plan_run(rb_experiment *exp, const rb_registry *reg, const axis *shared,
                     int *float_bytes_line, every_run_use *uses, run_plan *plan)
{
    const rb_run_section *run = plan->run;
    int before = exp->diag.errors;

    for (int d = 0; d < RB_DATA_COUNT_; d++)
        plan->data[d] = &shared[d];
    for (size_t k = 0; k < run->n_settings; k++) {
        const rb_setting *s = &run->settings[k];
        int d = data_key_index(s->key);
        if (d < 0)
            continue;
        data_axis(exp, d, s, &plan->overrides[d]);
        plan->data[d] = &plan->overrides[d];
    }
    check_float_bytes(exp, plan, float_bytes_line);
    check_shapes(exp, plan);

    if (!run->plugin) { /* a parsed file said so already, at its line */
        if (!exp->parsed)
            setting_error(exp, run->line, "[run %s] has no 'plugin' key; add 'plugin = NAME'",
                    run->name);
        return;
    }
    plan->plugin = registry_find(reg, run->plugin);
    if (plan->plugin)
        plan_parameters(exp, uses, plan);
    else
        plan_absent_plugin(exp, reg, plan);

    if (exp->diag.errors == before)
        count_plan(exp, plan);
    if (exp->diag.errors != before)
        plan->count = 0;
}

static void plan_free(run_plan *plan)
{
    for (int d = 0; d < RB_DATA_COUNT_; d++)
        axis_free(&plan->overrides[d]);
    for (uint32_t k = 0; k < plan->n_params; k++)
        axis_free(&plan->params[k]);
    free(plan->params);
    free(plan->skip_reason);
    free(plan->raw_params);
}

/* ---- building ---- */

static void build_configuration(const run_plan *plan, const size_t *pos, rb_configuration *cfg)
{
    cfg->run = plan->run;
    cfg->plugin = plan->plugin;
    cfg->op = (int)plan->data[RB_DATA_OP]->values[pos[RB_DATA_OP]];
    cfg->dtype = (int)plan->data[RB_DATA_DTYPE]->values[pos[RB_DATA_DTYPE]];
    cfg->n = (uint64_t)plan->data[RB_DATA_N]->values[pos[RB_DATA_N]];
    cfg->distribution = (int)plan->data[RB_DATA_DISTRIBUTION]->values[pos[RB_DATA_DISTRIBUTION]];
    cfg->bins = (uint32_t)plan->data[RB_DATA_BINS]->values[pos[RB_DATA_BINS]];
    cfg->ranks = (uint32_t)plan->data[RB_DATA_RANKS]->values[pos[RB_DATA_RANKS]];
    cfg->rows = (uint64_t)plan->data[RB_DATA_ROWS]->values[pos[RB_DATA_ROWS]];
    cfg->axis = (int)plan->data[RB_DATA_AXIS]->values[pos[RB_DATA_AXIS]];
    cfg->lengths = (int)plan->data[RB_DATA_LENGTHS]->values[pos[RB_DATA_LENGTHS]];

    if (!plan->plugin) {
        cfg->params_text = xstrdup(plan->raw_params);
        cfg->skip_reason = xstrdup(plan->skip_reason);
        return;
    }
    strbuf text = {0};
    sb_append(&text, "");
    cfg->n_params = plan->n_params;
    cfg->params = plan->n_params ? xcalloc(plan->n_params, sizeof *cfg->params) : NULL;
    for (uint32_t j = 0; j < plan->n_params; j++) {
        const axis *a = &plan->params[j];
        size_t at = pos[RB_DATA_COUNT_ + j];
        cfg->params[j].name = plan->plugin->desc->params[j].name;
        cfg->params[j].i = a->values[at];
        cfg->params[j].text = xstrdup(a->texts[at]);
        sb_printf(&text, "%s%s=%s", j ? " " : "", cfg->params[j].name, a->texts[at]);
    }
    cfg->params_text = text.data;
}

static void build_plan(const run_plan *plan, rb_sweep *out)
{
    size_t n_axes = axis_count(plan);
    size_t *pos = xcalloc(n_axes, sizeof *pos);
    for (uint64_t c = 0; c < plan->count; c++) {
        rb_configuration *cfg = grow(&out->configs, &out->n_configs, &out->cap_configs,
                                     sizeof *cfg);
        cfg->index = out->n_configs - 1;
        build_configuration(plan, pos, cfg);
        for (size_t k = n_axes; k-- > 0;) { /* the last axis varies fastest */
            if (++pos[k] < axis_at(plan, k)->count)
                break;
            pos[k] = 0;
        }
    }
    free(pos);
}

/* Each plain -D of a parameter: an error when no run's plugin has it;
 * else, when some runs were left out, a warning naming them. */
static void report_every_run_uses(rb_experiment *exp, every_run_use *uses, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        every_run_use *u = &uses[k];
        const rb_setting *s = u->setting;
        if (s && u->used.len == 0 && u->left_out.len > 0) {
            if (!u->plugins_differ)
                report_unknown_parameter(exp, u->plugin, s);
            else
                setting_error(exp, s->line, "no run's plugin has a parameter '%s' (%s; data "
                              "keys: %s)", s->key, u->plugins.data,
                              key_list(RB_SECTION_DATA));
        } else if (s && u->left_out.len > 0) {
            setting_warning(exp, s->line, "applies to %s; left out of %s, whose plugin has no "
                            "parameter '%s' (-D RUN.%s=VALUE sets it in chosen runs)",
                            u->used.data, u->left_out.data, s->key, s->key);
        }
        sb_free(&u->used);
        sb_free(&u->left_out);
        sb_free(&u->plugins);
        free(u->listed);
    }
    free(uses);
}

int sweep_expand(rb_experiment *exp, const rb_registry *reg, rb_sweep *out)
{
    int before = exp->diag.errors;
    axis shared[RB_DATA_COUNT_];
    int float_bytes_line = -1;

    memset(out, 0, sizeof *out);
    for (int d = 0; d < RB_DATA_COUNT_; d++) {
        const rb_setting *s = NULL;
        for (size_t k = 0; k < exp->n_data; k++)
            if (strcmp(exp->data[k].key, data_row(d)->name) == 0)
                s = &exp->data[k];
        data_axis(exp, d, s, &shared[d]);
    }

    run_plan *plans = xcalloc(exp->n_runs ? exp->n_runs : 1, sizeof *plans);
    every_run_use *uses = xcalloc(exp->n_origins + 1, sizeof *uses);
    uint64_t total = 0;
    for (size_t r = 0; r < exp->n_runs; r++) {
        plans[r].run = &exp->runs[r];
        plan_run(exp, reg, shared, &float_bytes_line, uses, &plans[r]);
        total += plans[r].count;
    }
    report_every_run_uses(exp, uses, exp->n_origins);
    if (exp->diag.errors == before && total > RB_SWEEP_MAX_CONFIGS)
        setting_error(exp, 0, "the experiment expands to %" PRIu64 " configurations in all; the "
                "most redbench accepts is %d: shorten some lists", total, RB_SWEEP_MAX_CONFIGS);

    if (exp->diag.errors == before) {
        out->configs = xcalloc(total ? total : 1, sizeof *out->configs);
        out->cap_configs = total ? total : 1;
        for (size_t r = 0; r < exp->n_runs; r++)
            build_plan(&plans[r], out);
    }

    for (size_t r = 0; r < exp->n_runs; r++)
        plan_free(&plans[r]);
    free(plans);
    for (int d = 0; d < RB_DATA_COUNT_; d++)
        axis_free(&shared[d]);
    return exp->diag.errors - before;
}

int sweep_prepare(const char *path, const rb_override *overrides, size_t n_overrides,
                  char *const *runs, size_t n_runs, const rb_registry *reg,
                  rb_experiment *exp, rb_sweep *out)
{
    memset(out, 0, sizeof *out);
    diag_hold();
    /* the experiment's diagnostics start at 0 with it */
    int failed = experiment_load_overridden(path, overrides, n_overrides, exp) != 0;
    if (exp->parsed) {
        /* a -r that matches no run keeps them all, so that the file's and
         * the options' errors are still found in this pass */
        if (experiment_keep_runs(exp, runs, n_runs) != 0)
            failed = 1;
        if (sweep_expand(exp, reg, out) != 0)
            failed = 1;
    }
    diag_release();
    if (exp->diag.errors)
        diag_say("%s has errors; nothing was run", path);
    return failed || exp->diag.errors;
}

void sweep_free(rb_sweep *sweep)
{
    for (size_t k = 0; k < sweep->n_configs; k++) {
        rb_configuration *cfg = &sweep->configs[k];
        for (uint32_t j = 0; j < cfg->n_params; j++)
            free((char *)cfg->params[j].text);
        free(cfg->params);
        free(cfg->params_text);
        free(cfg->skip_reason);
    }
    free(sweep->configs);
    memset(sweep, 0, sizeof *sweep);
}

int sweep_data_order(const rb_configuration *a, const rb_configuration *b)
{
    if (a->op != b->op) return a->op - b->op;
    if (a->dtype != b->dtype) return a->dtype - b->dtype;
    if (a->distribution != b->distribution) return a->distribution - b->distribution;
    if (a->bins != b->bins) return a->bins < b->bins ? -1 : 1;
    if (a->ranks != b->ranks) return a->ranks < b->ranks ? -1 : 1;
    if (a->axis != b->axis) return a->axis - b->axis;
    if (a->lengths != b->lengths) return a->lengths - b->lengths;
    if (a->rows != b->rows) return a->rows < b->rows ? -1 : 1;
    return a->n < b->n ? -1 : a->n > b->n;
}

int sweep_is_shaped(const rb_configuration *cfg)
{
    return cfg->rows > 1 || cfg->axis == RB_AXIS_COLUMN || cfg->lengths == RB_LENGTHS_RAGGED;
}

uint64_t sweep_elements(const rb_configuration *cfg)
{
    return cfg->n * (cfg->rows ? cfg->rows : 1);
}

uint64_t sweep_answers(const rb_configuration *cfg)
{
    return cfg->axis == RB_AXIS_COLUMN ? cfg->n : (cfg->rows ? cfg->rows : 1);
}

int sweep_shape_declined(const rb_plugin *p, const rb_configuration *cfg, char *buf, size_t len)
{
    if (!sweep_is_shaped(cfg))
        return 0;
    uint32_t need = cfg->lengths == RB_LENGTHS_RAGGED ? RB_SHAPE_RAGGED
                    : cfg->axis == RB_AXIS_COLUMN    ? RB_SHAPE_COLUMNS
                                                     : RB_SHAPE_ROWS;
    uint32_t shapes = p->abi_minor >= 6 ? p->shapes : 0;
    if (shapes & need)
        return 0;
    if (p->abi_minor < 6)
        snprintf(buf, len, "%s reduces one array at a time (plugin ABI 1.%u; shapes, rows > 1, "
                 "columns and ragged rows, came in 1.6)", p->name, (unsigned)p->abi_minor);
    else if (!shapes)
        snprintf(buf, len, "%s reduces one array at a time (it declares no shapes)", p->name);
    else
        snprintf(buf, len, "%s does not reduce %s (its shapes: %s%s%s)", p->name,
                 need == RB_SHAPE_RAGGED ? "ragged rows"
                 : need == RB_SHAPE_COLUMNS ? "columns" : "rows",
                 shapes & RB_SHAPE_ROWS ? "rows" : "",
                 shapes & RB_SHAPE_COLUMNS ? (shapes & RB_SHAPE_ROWS ? ", columns" : "columns") : "",
                 shapes & RB_SHAPE_RAGGED ? (shapes & 3 ? ", ragged" : "ragged") : "");
    return 1;
}

void sweep_shape_text(const rb_configuration *cfg, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!sweep_is_shaped(cfg))
        return;
    char rows[32];
    format_size(cfg->rows, rows, sizeof rows);
    snprintf(buf, len, " rows=%s%s%s", rows, cfg->axis == RB_AXIS_COLUMN ? " axis=column" : "",
             cfg->lengths == RB_LENGTHS_RAGGED ? " lengths=ragged" : "");
}

/* The text of [data] key `key` of c as an experiment file gives it back,
 * into buf; 0 where the key has no effect on c (and is left out). */
static int data_key_text(const rb_configuration *c, enum rb_data_key key, char *buf, size_t len)
{
    const int shaped = sweep_is_shaped(c);
    switch (key) {
    case RB_DATA_OP: snprintf(buf, len, "%s", op_name(c->op)); return 1;
    case RB_DATA_DTYPE: snprintf(buf, len, "%s", dtype_name(c->dtype)); return 1;
    case RB_DATA_N: format_size(c->n, buf, (unsigned)len); return 1;
    case RB_DATA_DISTRIBUTION: snprintf(buf, len, "%s", distribution_name(c->distribution)); return 1;
    case RB_DATA_BINS: snprintf(buf, len, "%u", c->bins); return c->op == RB_OP_HISTOGRAM;
    case RB_DATA_RANKS: snprintf(buf, len, "%u", c->ranks); return c->ranks > 1;
    case RB_DATA_ROWS: format_size(c->rows, buf, (unsigned)len); return shaped;
    case RB_DATA_AXIS: snprintf(buf, len, "%s", axis_name(c->axis)); return shaped;
    case RB_DATA_LENGTHS: snprintf(buf, len, "%s", lengths_name(c->lengths)); return shaped;
    case RB_DATA_COUNT_: break;
    }
    return 0;
}

void data_keys_write(rb_ini_writer *w, const rb_configuration *c)
{
    char text[64];
    size_t n = 0;
    const rb_key_spec *rows = keys_of(RB_SECTION_DATA, &n);
    for (size_t k = 0; k < n; k++)
        if (data_key_text(c, (enum rb_data_key)k, text, sizeof text))
            ini_write_key(w, rows[k].name, text, RB_INI_WORD);
}
