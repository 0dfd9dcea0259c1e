/* src/config/keys.c: the one table of an experiment file's keys
 * (config/keys.h): the [data] keys and the [run NAME] section's own keys
 * as rows, the [experiment] keys as rows made from config/settings.c's,
 * a plugin's parameters as rows of the same form, what the parser's
 * messages and the help say of a row's valid values, and the writer of a
 * configuration's [data] keys, driven by the same rows. */
#include "config/keys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"

/* The [data] keys, in the order of enum rb_data_key. */
static const rb_key_spec data_rows[RB_DATA_COUNT_] = {
    [RB_DATA_OP] = {.section = RB_SECTION_DATA, .name = "op", .type = RB_KEY_WORD,
                    .initial = "sum", .from_name = op_from_name, .choices = op_choices,
                    .help = "the reduction"},
    [RB_DATA_DTYPE] = {.section = RB_SECTION_DATA, .name = "dtype", .type = RB_KEY_WORD,
                       .initial = "f32", .from_name = dtype_from_name, .choices = dtype_choices,
                       .help = "the elements' type"},
    [RB_DATA_N] = {.section = RB_SECTION_DATA, .name = "n", .type = RB_KEY_SIZE,
                   .initial = "1M", .min = 1, .max = (int64_t)RB_DATA_LARGEST_N,
                   .limits = "1 to 1T (2^40 elements)",
                   .help = "elements, with K, M, G, T as powers of two; a range 1K..1G gives "
                           "each power of two from 1K to 1G, 1K..1G:x4 each size 4 times the "
                           "one before"},
    [RB_DATA_DISTRIBUTION] = {.section = RB_SECTION_DATA, .name = "distribution",
                              .type = RB_KEY_WORD, .initial = "uniform",
                              .from_name = distribution_from_name,
                              .choices = distribution_choices,
                              .help = "how the random input is drawn"},
    [RB_DATA_BINS] = {.section = RB_SECTION_DATA, .name = "bins", .type = RB_KEY_COUNT,
                      .initial = "256", .min = 1, .max = RB_DATA_LARGEST_BINS,
                      .limits = "1 to 256", .help = "the histogram's bins"},
    [RB_DATA_RANKS] = {.section = RB_SECTION_DATA, .name = "ranks", .type = RB_KEY_COUNT,
                       .initial = "1", .min = 1, .max = RB_DATA_LARGEST_RANKS,
                       .limits = "1 to 4096",
                       .help = "processes that reduce all their data together, one device each"},
    [RB_DATA_ROWS] = {.section = RB_SECTION_DATA, .name = "rows", .type = RB_KEY_SIZE,
                      .initial = "1", .min = 1, .max = (int64_t)RB_DATA_LARGEST_ROWS,
                      .limits = "1 to 2G (2^31 rows)", .range_after_colon = 1,
                      .help = "a shaped reduction: rows of n elements, one answer per row "
                              "(axis = row) or per column; sizes and ranges as for n "
                              "(1..4K:x4)"},
    [RB_DATA_AXIS] = {.section = RB_SECTION_DATA, .name = "axis", .type = RB_KEY_WORD,
                      .initial = "row", .from_name = axis_from_name, .choices = axis_choices,
                      .help = "a shaped reduction: what each answer reduces, a row or a column"},
    [RB_DATA_LENGTHS] = {.section = RB_SECTION_DATA, .name = "lengths", .type = RB_KEY_WORD,
                         .initial = "fixed", .from_name = lengths_from_name,
                         .choices = lengths_choices,
                         .help = "a shaped reduction: every row n elements long (fixed), or "
                                 "rows of lengths drawn from the seed (ragged)"},
};

/* The [run NAME] section's own keys, in the order of enum rb_run_key. */
static const rb_key_spec run_rows[RB_RUN_COUNT_] = {
    [RB_RUN_PLUGIN] = {.section = RB_SECTION_RUN, .name = "plugin", .type = RB_KEY_NAME,
                       .help = "the strategy the run measures (required)"},
    [RB_RUN_OPTIONAL] = {.section = RB_SECTION_RUN, .name = "optional", .type = RB_KEY_BOOL,
                         .initial = "false",
                         .help = "an absent plugin or backend gives skipped rows, not an error"},
};

/* The [experiment] keys: one row per setting of the file (made once). */
static const rb_key_spec *experiment_rows(size_t *count)
{
    static rb_key_spec *rows;
    static size_t n;
    if (!rows) {
        size_t settings;
        const rb_setting_spec *table = settings_table(&settings);
        rows = xcalloc(settings ? settings : 1, sizeof *rows);
        for (size_t k = 0; k < settings; k++)
            if (table[k].kind != RB_SETTING_FLAG)
                rows[n++] = (rb_key_spec){.section = RB_SECTION_EXPERIMENT,
                                          .name = table[k].name, .type = RB_KEY_SETTING,
                                          .initial = table[k].initial, .help = table[k].help,
                                          .setting = &table[k]};
    }
    *count = n;
    return rows;
}

const rb_key_spec *keys_of(int section, size_t *count)
{
    size_t n = 0;
    const rb_key_spec *rows = NULL;
    switch (section) {
    case RB_SECTION_EXPERIMENT: rows = experiment_rows(&n); break;
    case RB_SECTION_DATA: rows = data_rows, n = RB_DATA_COUNT_; break;
    case RB_SECTION_RUN: rows = run_rows, n = RB_RUN_COUNT_; break;
    default: break;
    }
    if (count)
        *count = n;
    return rows;
}

const rb_key_spec *key_find(int section, const char *name)
{
    size_t count;
    const rb_key_spec *rows = keys_of(section, &count);
    for (size_t k = 0; k < count; k++)
        if (strcmp(rows[k].name, name) == 0)
            return &rows[k];
    return NULL;
}

const char *key_list(int section)
{
    static char *lists[RB_SECTION_PARAM];
    if (section < 0 || section >= RB_SECTION_PARAM)
        return "";
    if (!lists[section]) {
        size_t count;
        const rb_key_spec *rows = keys_of(section, &count);
        strbuf sb = {0};
        for (size_t k = 0; k < count; k++)
            sb_printf(&sb, "%s%s", k ? ", " : "", rows[k].name);
        lists[section] = sb.data ? sb.data : xstrdup("");
    }
    return lists[section];
}

rb_key_spec keys_from_param(const rb_param_spec *param)
{
    rb_key_spec k = {.section = RB_SECTION_PARAM, .name = param->name,
                     .initial = param->default_value, .min = param->min, .max = param->max,
                     .flags = param->flags, .help = param->help, .declared = param->type};
    switch (param->type) {
    case RB_PARAM_INT: k.type = RB_KEY_WHOLE; break;
    case RB_PARAM_CHOICE: k.type = RB_KEY_WORD, k.words = param->choices; break;
    case RB_PARAM_BOOL: k.type = RB_KEY_BOOL; break;
    default: k.type = RB_KEY_UNKNOWN; break;
    }
    return k;
}

char *key_valid(const rb_key_spec *k)
{
    strbuf sb = {0};
    switch (k->type) {
    case RB_KEY_SETTING:
        return xstrdup(""); /* config/settings.c's setting_help says */
    case RB_KEY_WHOLE:
        sb_printf(&sb, "%s from %" PRId64 " to %" PRId64,
                  k->flags & RB_PARAM_POW2 ? "a power of two" : "a whole number", k->min,
                  k->max);
        if (k->flags & RB_PARAM_AUTO)
            sb_append(&sb, ", or auto");
        break;
    case RB_KEY_WORD:
        if (k->choices)
            sb_append(&sb, k->choices());
        for (size_t j = 0; !k->choices && k->words && k->words[j]; j++)
            sb_printf(&sb, "%s%s", j ? ", " : "", k->words[j]);
        break;
    case RB_KEY_BOOL:
        sb_append(&sb, "true or false (also yes/no, on/off, 1/0)");
        break;
    case RB_KEY_SIZE:
    case RB_KEY_COUNT:
        sb_append(&sb, k->limits);
        break;
    case RB_KEY_NAME:
        sb_append(&sb, "a plugin's name, or PACK/NAME");
        break;
    default:
        sb_printf(&sb, "nothing (unknown parameter type %d)", k->declared);
        break;
    }
    return sb.data ? sb.data : xstrdup("");
}

char *key_help(const rb_key_spec *k)
{
    if (k->type == RB_KEY_SETTING)
        return setting_help(k->setting);
    char *valid = key_valid(k);
    char *help = k->initial ? xasprintf("%s; valid: %s; default: %s", k->help, valid, k->initial)
                            : xasprintf("%s; valid: %s", k->help, valid);
    free(valid);
    return help;
}

const char *key_item(const rb_key_spec *k, const char *item, int64_t *value, char **text)
{
    const char *why;
    int64_t number;
    int flag;

    switch (k->type) {
    case RB_KEY_WHOLE:
        if ((k->flags & RB_PARAM_AUTO) && strcasecmp(item, "auto") == 0) {
            *value = 0;
            *text = xstrdup("auto");
            return NULL;
        }
        if (parse_int(item, &number, &why) != 0)
            return "is not a whole number";
        if (number < k->min || number > k->max)
            return "is out of range";
        if ((k->flags & RB_PARAM_POW2) && (number <= 0 || (number & (number - 1)) != 0))
            return "is not a power of two";
        *value = number;
        *text = xasprintf("%" PRId64, number);
        return NULL;
    case RB_KEY_WORD:
        for (size_t j = 0; k->words && k->words[j]; j++) {
            if (strcmp(k->words[j], item) == 0) {
                *value = (int64_t)j;
                *text = xstrdup(item);
                return NULL;
            }
        }
        return "is not one of the choices";
    case RB_KEY_BOOL:
        if (parse_bool(item, &flag, &why) != 0)
            return "is not a boolean";
        *value = flag;
        *text = xstrdup(flag ? "true" : "false");
        return NULL;
    default:
        return "cannot be checked: the parameter's type is unknown";
    }
}

