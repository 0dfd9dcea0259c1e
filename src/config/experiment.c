/* src/config/experiment.c: reading an experiment file. The text is read into
 * memory whole (it is kept verbatim for the results) and read through
 * base/ini_text.c, which hands inih one line at a time, numbers the lines,
 * reads the section headers, and catches what inih would get wrong or report
 * only once: lines longer than inih's buffer, lines that are neither a
 * section nor `key = value`, and indented lines (which inih would join to
 * the previous value). Here: repeated sections, and handle_key, which files
 * each pair under its section and sets the [experiment] settings through
 * their table (config/settings.c), which parses and checks each. The file
 * is read whole, up to RB_EXPERIMENT_MAX_BYTES. */
#include "config/experiment.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <redbench/backend.h>

#include "base/diag.h"
#include "base/ini_text.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "config/keys.h"
#include "config/settings.h"

enum section_kind {
    SECTION_NONE,       /* before the first header */
    SECTION_EXPERIMENT,
    SECTION_DATA,
    SECTION_RUN,
    SECTION_IGNORED     /* unknown or duplicate: already reported */
};

static const char section_list[] = "[experiment], [data], [run NAME]";

typedef struct parse_state {
    rb_experiment *exp;
    int line;             /* the line being read */
    enum section_kind kind;
    size_t run;           /* index of the current run in exp->runs */
    int optional_line;    /* `optional` of the current run, 0 if absent */
    int *key_lines;       /* where each [experiment] key was set, by its row in
                             config/settings.c's table */
    int experiment_line;  /* where [experiment] began, 0 if not yet */
    int data_line;        /* where [data] began, 0 if not yet */
} parse_state;

static rb_run_section *current_run(parse_state *st)
{
    return &st->exp->runs[st->run];
}

/* ---- [experiment]: each key a row of config/settings.c ---- */

/* The line where the setting stored at `offset` was set; 0 if not. */
static int line_of(const parse_state *st, size_t offset)
{
    size_t count;
    const rb_setting_spec *table = settings_table(&count);
    return st->key_lines[setting_at(offset) - table];
}

int experiment_setting_line(const rb_experiment *exp, size_t offset)
{
    size_t count;
    const rb_setting_spec *table = settings_table(&count);
    const rb_setting_spec *s = setting_at(offset);
    return exp->key_lines && s ? exp->key_lines[s - table] : 0;
}

static void set_experiment_key(parse_state *st, const rb_setting_spec *s, const char *value)
{
    size_t count;
    st->key_lines[s - settings_table(&count)] = st->line;
    int result = setting_parse(s, value, st->exp);
    if (result != 0) {
        char *complaint = setting_complaint(s, value, result);
        setting_error(st->exp, st->line, "%s", complaint);
        free(complaint);
    } else if (s->zero_note && strcmp(value, "0") == 0) {
        setting_warning(st->exp, st->line, "%s = 0: %s", s->name, s->zero_note);
    }
}

static void handle_experiment_key(parse_state *st, const char *key, const char *value)
{
    const rb_setting_spec *s = setting_find(key);
    size_t count;
    if (!s) {
        setting_error(st->exp, st->line, "unknown key '%s' in [experiment]; valid keys: %s", key,
                setting_key_list());
        return;
    }
    int first = st->key_lines[s - settings_table(&count)];
    if (first) {
        setting_error(st->exp, st->line,
                      "duplicate key '%s' in [experiment] (first set at line %d)", key, first);
        return;
    }
    set_experiment_key(st, s, value);
}

/* ---- [data] and [run NAME] ---- */

static const rb_setting *find_setting(const rb_setting *settings, size_t count, const char *key)
{
    for (size_t k = 0; k < count; k++)
        if (strcmp(settings[k].key, key) == 0)
            return &settings[k];
    return NULL;
}

static void add_setting(parse_state *st, rb_setting **items, size_t *count, size_t *cap,
                        const char *key, const char *value)
{
    rb_setting *s = grow(items, count, cap, sizeof **items);
    s->key = xstrdup(key);
    s->text = xstrdup(value);
    s->n_values = split_list(value, &s->values);
    s->line = st->line;
}

static void handle_data_key(parse_state *st, const char *key, const char *value)
{
    rb_experiment *exp = st->exp;
    if (!key_find(RB_SECTION_DATA, key)) {
        setting_error(exp, st->line, "unknown key '%s' in [data]; valid keys: %s", key,
                      key_list(RB_SECTION_DATA));
        return;
    }
    const rb_setting *first = find_setting(exp->data, exp->n_data, key);
    if (first) {
        setting_error(exp, st->line, "duplicate key '%s' in [data] (first set at line %d)", key,
                first->line);
        return;
    }
    add_setting(st, &exp->data, &exp->n_data, &exp->cap_data, key, value);
}

/* Which of the run's own keys `key` is (enum rb_run_key), or -1: a data
 * key or a parameter. */
static int run_key_index(const char *key)
{
    const rb_key_spec *k = key_find(RB_SECTION_RUN, key);
    return k ? (int)(k - keys_of(RB_SECTION_RUN, NULL)) : -1;
}

/* Sets one of the run's own keys (plugin, optional). Returns 0, or -1
 * after reporting a value that is not valid. */
static int set_run_own(parse_state *st, rb_run_section *run, int which, const char *value)
{
    rb_experiment *exp = st->exp;
    if (which == RB_RUN_PLUGIN) {
        run->plugin_line = st->line;
        if (strchr(value, ',') || strpbrk(value, " \t")) {
            setting_error(exp, st->line, "plugin = %s: a run names exactly one plugin; write "
                          "one [run NAME] section per plugin", value);
            return -1;
        }
        free(run->plugin);
        run->plugin = xstrdup(value);
        return 0;
    }
    const char *why;
    if (parse_bool(value, &run->optional, &why) != 0) {
        setting_error(exp, st->line, "optional = %s: %s", value, why);
        return -1;
    }
    return 0;
}

static void handle_run_key(parse_state *st, const char *key, const char *value)
{
    rb_run_section *run = current_run(st);
    const char *path = st->exp->path;
    int own = run_key_index(key), first_line = 0;

    if (own == RB_RUN_PLUGIN)
        first_line = run->plugin_line;
    else if (own == RB_RUN_OPTIONAL)
        first_line = st->optional_line;
    else {
        const rb_setting *first = find_setting(run->settings, run->n_settings, key);
        first_line = first ? first->line : 0;
    }
    if (first_line) {
        diag_at_into(&st->exp->diag, path, st->line, "duplicate key '%s' in [run %s] (first set at line %d)", key,
                run->name, first_line);
        return;
    }

    if (own == RB_RUN_OPTIONAL)
        st->optional_line = st->line;
    if (own >= 0)
        set_run_own(st, run, own, value);
    else
        add_setting(st, &run->settings, &run->n_settings, &run->cap_settings, key, value);
}

static int handle_key(void *user, const char *section, const char *key, const char *value)
{
    parse_state *st = user;
    const char *path = st->exp->path;
    (void)section; /* inih cuts section names at 49 characters; on_section has the whole */

    if (*key == '\0') {
        diag_at_into(&st->exp->diag, path, st->line, "a line of the form '= value' has no key; expected 'key = value'");
        return 1;
    }
    if (*value == '\0') {
        setting_error(st->exp, st->line,
                      "empty value for '%s'; write '%s = VALUE' or remove the line", key,
                key);
        return 1;
    }
    switch (st->kind) {
    case SECTION_NONE:
        diag_at_into(&st->exp->diag, path, st->line, "'%s' is outside any section; keys belong under one of %s", key,
                section_list);
        break;
    case SECTION_EXPERIMENT:
        handle_experiment_key(st, key, value);
        break;
    case SECTION_DATA:
        handle_data_key(st, key, value);
        break;
    case SECTION_RUN:
        handle_run_key(st, key, value);
        break;
    case SECTION_IGNORED:
        break;
    }
    return 1;
}

/* ---- sections ---- */

static void finish_section(parse_state *st)
{
    if (st->kind == SECTION_RUN) {
        rb_run_section *run = current_run(st);
        if (!run->plugin && !run->plugin_line)
            setting_error(st->exp, run->line, "[run %s] has no 'plugin' key; add 'plugin = NAME' "
                    "(redbench --list shows the plugins found)", run->name);
    }
    st->kind = SECTION_IGNORED;
}

static int valid_run_name(const char *name)
{
    static const char allowed[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";
    return *name && strspn(name, allowed) == strlen(name);
}

static void begin_run(parse_state *st, const char *name)
{
    rb_experiment *exp = st->exp;
    if (*name == '\0') {
        setting_error(exp, st->line, "a run section needs a name: [run NAME], NAME made of "
                "letters, digits, '_', '.' and '-'");
        return;
    }
    if (!valid_run_name(name)) {
        setting_error(exp, st->line, "run name '%s' is not valid; a run name is made of letters, "
                "digits, '_', '.' and '-'", name);
        return;
    }
    for (size_t k = 0; k < exp->n_runs; k++) {
        if (strcmp(exp->runs[k].name, name) == 0) {
            setting_error(exp, st->line, "duplicate run '%s' (first defined at line %d); run "
                    "names must be unique", name, exp->runs[k].line);
            return;
        }
    }
    rb_run_section *run = grow(&exp->runs, &exp->n_runs, &exp->cap_runs, sizeof *run);
    run->name = xstrdup(name);
    run->line = st->line;
    st->run = exp->n_runs - 1;
    st->optional_line = 0;
    st->kind = SECTION_RUN;
}

/* `inside` is the text between '[' and ']'. */
static void begin_section(parse_state *st, char *inside)
{
    char *name = trim(inside);
    finish_section(st);
    if (strcmp(name, "experiment") == 0 || strcmp(name, "data") == 0) {
        int experiment = name[0] == 'e';
        int *first = experiment ? &st->experiment_line : &st->data_line;
        if (*first) {
            /* its keys are skipped (kind stays SECTION_IGNORED) */
            setting_error(st->exp, st->line, "duplicate section [%s] (first at line %d); "
                    "write its keys in one [%s] section", name, *first, name);
            return;
        }
        *first = st->line;
        st->kind = experiment ? SECTION_EXPERIMENT : SECTION_DATA;
    } else if (strncmp(name, "run", 3) == 0 && (name[3] == '\0' || name[3] == ' ' ||
                                                name[3] == '\t')) {
        begin_run(st, trim(name + 3));
    } else {
        setting_error(st->exp, st->line, "unknown section [%s]; valid sections: %s", name,
                section_list);
    }
}

/* ---- lines (base/ini_text.c reads them) ---- */

static void on_section(void *user, int line, const char *name)
{
    parse_state *st = user;
    st->line = line;
    char *inside = xstrdup(name);
    begin_section(st, inside);
    free(inside);
}

static void on_key(void *user, int line, const char *key, const char *value)
{
    parse_state *st = user;
    st->line = line;
    handle_key(st, NULL, key, value);
}

static void on_problem(void *user, int line, int problem, const char *text, size_t length)
{
    parse_state *st = user;
    const char *path = st->exp->path;
    st->line = line;
    switch (problem) {
    case RB_INI_TOO_LONG:
        diag_at_into(&st->exp->diag, path, line, "line is %zu characters long; the longest line redbench can read "
                "is %zu characters", length, ini_text_longest());
        break;
    case RB_INI_UNCLOSED:
        diag_at_into(&st->exp->diag, path, line, "section header '%s' has no closing ']'; expected %s", text,
                section_list);
        st->kind = SECTION_IGNORED;
        break;
    case RB_INI_AFTER_HEADER:
        diag_at_into(&st->exp->diag, path, line, "unexpected text '%s' after the section header", text);
        st->kind = SECTION_IGNORED;
        break;
    case RB_INI_NO_SEPARATOR:
        diag_at_into(&st->exp->diag, path, line, "cannot read '%s': expected 'key = value', a [section] header or "
                "a comment starting with ';' or '#'", text);
        break;
    default:
        diag_at_into(&st->exp->diag, path, line, "the line holds a NUL byte; an experiment file is text");
        break;
    }
}

/* ---- loading ---- */

static char *default_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    return xstrndup(base, len);
}

void experiment_defaults(rb_experiment *exp, const char *path)
{
    memset(exp, 0, sizeof *exp);
    exp->path = path ? xstrdup(path) : NULL;
    settings_defaults(exp);
}

/* Cross-checks: min_reps must not exceed max_reps. A default gives way to
 * the one written: `max_reps = 2` alone means at most 2 repetitions. */
static void check_whole(parse_state *st, int errors_before)
{
    rb_experiment *exp = st->exp;
    int min_line = line_of(st, offsetof(rb_experiment, min_reps));
    int max_line = line_of(st, offsetof(rb_experiment, max_reps));
    if (exp->min_reps > exp->max_reps) {
        if (min_line && max_line)
            setting_error(exp, min_line, "min_reps = %ld is larger than max_reps = %ld (line %d); "
                    "min_reps must not exceed max_reps", exp->min_reps, exp->max_reps, max_line);
        else if (min_line)
            exp->max_reps = exp->min_reps;
        else
            exp->min_reps = exp->max_reps;
    }
    int timing_line = line_of(st, offsetof(rb_experiment, timing));
    int cache_line = line_of(st, offsetof(rb_experiment, cache));
    int graph_line = line_of(st, offsetof(rb_experiment, graph_calls));
    int batched = exp->timing == RB_TIMING_GRAPH || exp->timing == RB_TIMING_EAGER;
    if (batched && exp->cache == RB_CACHE_COLD)
        setting_error(exp, timing_line ? timing_line : cache_line,
                "timing = %s runs calls back to back, with no cache flush between them, "
                "so cache = cold (line %d) cannot hold; use timing = launch or device with "
                "cache = cold", timing_mode_name(exp->timing), cache_line);
    if (graph_line && !batched)
        setting_error(exp, graph_line, "graph_calls applies to timing = "
                "graph and eager only; remove it or add 'timing = graph' or 'timing = eager'");
    if (exp->n_runs == 0 && exp->diag.errors == errors_before)
        setting_error(exp, 0, "no [run NAME] section: nothing to run; add one, e.g. "
                "'[run mine]' followed by 'plugin = NAME'");
}

/* ---- keys set on the command line (-D KEY=VALUE, --device N) ---- */

/* Where a setting was made: the file and its line, or the command-line
 * option (a negative line). */
static void setting_place(const rb_experiment *exp, int line, char *buf, size_t len)
{
    if (line < 0 && (size_t)-line <= exp->n_origins)
        snprintf(buf, len, "%s", exp->origins[-line - 1]);
    else if (line > 0)
        snprintf(buf, len, "%s:%d", exp->path, line);
    else
        snprintf(buf, len, "%s", exp->path);
}

void setting_warning(const rb_experiment *exp, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *message = xvasprintf(fmt, ap);
    va_end(ap);
    char where[512];
    setting_place(exp, line, where, sizeof where);
    diag_warn("%s: %s", where, message);
    free(message);
}

void setting_error(rb_experiment *exp, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *message = xvasprintf(fmt, ap);
    va_end(ap);
    if (line < 0 && (size_t)-line <= exp->n_origins)
        diag_at_into(&exp->diag, exp->origins[-line - 1], 0, "%s", message);
    else
        diag_at_into(&exp->diag, exp->path, line < 0 ? 0 : line, "%s", message);
    free(message);
}

static void free_setting(rb_setting *s)
{
    free(s->key);
    free(s->text);
    free_list(s->values, s->n_values);
}

/* Sets `key` in a list of settings, replacing the one there; returns it. */
static rb_setting *replace_setting(parse_state *st, rb_setting **items, size_t *count,
                                   size_t *cap, const char *key, const char *value)
{
    for (size_t k = 0; k < *count; k++) {
        rb_setting *s = &(*items)[k];
        if (strcmp(s->key, key) == 0) {
            free(s->text);
            free_list(s->values, s->n_values);
            s->text = xstrdup(value);
            s->n_values = split_list(value, &s->values);
            s->line = st->line;
            s->every_run = 0;
            return s;
        }
    }
    add_setting(st, items, count, cap, key, value);
    return &(*items)[*count - 1];
}

static void remove_setting(rb_setting *items, size_t *count, const char *key)
{
    for (size_t k = 0; k < *count; k++) {
        if (strcmp(items[k].key, key) == 0) {
            free_setting(&items[k]);
            memmove(&items[k], &items[k + 1], (*count - k - 1) * sizeof *items);
            (*count)--;
            return;
        }
    }
}

/* Sets a key of a run section from the command line (not a data key).
 * Returns the setting made for a parameter, else NULL. */
static rb_setting *set_in_run(parse_state *st, rb_run_section *run, const char *key,
                              const char *value)
{
    int own = run_key_index(key);
    if (own >= 0) {
        set_run_own(st, run, own, value);
        return NULL;
    }
    return replace_setting(st, &run->settings, &run->n_settings, &run->cap_settings, key, value);
}

/* -D RUN.KEY=VALUE: KEY set in the runs whose name RUN (a glob) matches,
 * as if written in their sections. */
static void apply_to_runs(parse_state *st, const char *pattern, const char *key,
                          const char *value)
{
    rb_experiment *exp = st->exp;
    if (*pattern == '\0' || *key == '\0') {
        setting_error(exp, st->line, "'%s.%s' names no %s; write -D RUN.KEY=VALUE (e.g. -D "
                      "'cpu-*.lanes=8') or -D KEY=VALUE", pattern, key,
                      *pattern ? "key" : "run");
        return;
    }
    if (setting_find(key)) {
        setting_error(exp, st->line, "%s is an [experiment] setting, the same for every run; "
                      "write -D %s=%s", key, key, value);
        return;
    }
    size_t matched = 0;
    int before = exp->diag.errors;
    for (size_t r = 0; r < exp->n_runs && exp->diag.errors == before; r++) {
        if (fnmatch(pattern, exp->runs[r].name, 0) != 0)
            continue;
        matched++;
        rb_run_section *run = &exp->runs[r];
        if (key_find(RB_SECTION_DATA, key))
            replace_setting(st, &run->settings, &run->n_settings, &run->cap_settings, key,
                            value);
        else
            set_in_run(st, run, key, value);
    }
    if (matched == 0) {
        strbuf names = {0};
        for (size_t r = 0; r < exp->n_runs; r++)
            sb_printf(&names, "%s%s", r ? ", " : "", exp->runs[r].name);
        setting_error(exp, st->line, "'%s' matches no run of %s; its runs: %s", pattern,
                      exp->path, exp->n_runs ? names.data : "none");
        sb_free(&names);
    }
}

static void apply_override(parse_state *st, const rb_override *ov)
{
    rb_experiment *exp = st->exp;
    exp->origins = xrealloc(exp->origins, (exp->n_origins + 1) * sizeof *exp->origins);
    exp->origins[exp->n_origins++] = xstrdup(ov->option);
    st->line = -(int)exp->n_origins;
    const char *key = ov->key, *value = ov->value;

    if (*value == '\0') {
        setting_error(exp, st->line, "empty value for '%s'; write %s=VALUE", key, key);
        return;
    }
    const char *dot = strrchr(key, '.');
    if (dot) {
        char *pattern = xstrndup(key, (size_t)(dot - key));
        apply_to_runs(st, pattern, dot + 1, value);
        free(pattern);
        return;
    }
    const rb_setting_spec *spec = setting_find(key);
    if (spec) {
        set_experiment_key(st, spec, value);
        return;
    }
    if (key_find(RB_SECTION_DATA, key)) {
        replace_setting(st, &exp->data, &exp->n_data, &exp->cap_data, key, value);
        for (size_t r = 0; r < exp->n_runs; r++)
            remove_setting(exp->runs[r].settings, &exp->runs[r].n_settings, key);
        return;
    }
    int before = exp->diag.errors;
    for (size_t r = 0; r < exp->n_runs && exp->diag.errors == before; r++) {
        rb_setting *s = set_in_run(st, &exp->runs[r], key, value);
        if (s)
            s->every_run = 1;
    }
}

int experiment_rounds(const rb_experiment *exp, size_t n_configs)
{
    if (exp->profile)
        return 1;
    if (exp->rounds > 0)
        return exp->rounds;
    double per_config = exp->min_time > 0.01 ? exp->min_time : 0.01;
    return (double)n_configs * per_config > RB_AUTO_ROUNDS_LIMIT_S ? 1 : RB_AUTO_ROUNDS;
}

int experiment_keep_runs(rb_experiment *exp, char *const *patterns, size_t n)
{
    if (n == 0)
        return 0;
    int errors = 0;
    for (size_t p = 0; p < n; p++) {
        size_t r = 0;
        while (r < exp->n_runs && fnmatch(patterns[p], exp->runs[r].name, 0) != 0)
            r++;
        if (r < exp->n_runs)
            continue;
        strbuf names = {0};
        for (r = 0; r < exp->n_runs; r++)
            sb_printf(&names, "%s%s", r ? ", " : "", exp->runs[r].name);
        diag_error("-r %s matches no run of %s; its runs: %s", patterns[p], exp->path,
                   exp->n_runs ? names.data : "none");
        sb_free(&names);
        errors++;
    }
    if (errors)
        return errors;
    size_t kept = 0;
    for (size_t r = 0; r < exp->n_runs; r++) {
        int keep = 0;
        for (size_t p = 0; p < n && !keep; p++)
            keep = fnmatch(patterns[p], exp->runs[r].name, 0) == 0;
        if (keep) {
            exp->runs[kept++] = exp->runs[r];
        } else {
            rb_run_section *run = &exp->runs[r];
            free(run->name);
            free(run->plugin);
            for (size_t k = 0; k < run->n_settings; k++)
                free_setting(&run->settings[k]);
            free(run->settings);
        }
    }
    exp->n_runs = kept;
    return 0;
}

/* Parses `len` bytes of text already copied to exp->text, then applies the
 * overrides. */
static int parse_text(rb_experiment *exp, size_t len, const rb_override *overrides, size_t n)
{
    int before = exp->diag.errors;
    parse_state st;
    memset(&st, 0, sizeof st);
    st.exp = exp;
    st.kind = SECTION_NONE;
    size_t n_settings;
    settings_table(&n_settings);
    st.key_lines = xcalloc(n_settings, sizeof *st.key_lines);

    rb_ini_text reader = {
        .user = &st, .section = on_section, .key = on_key, .problem = on_problem};
    int first_error = ini_text_read(&reader, exp->text, len);
    finish_section(&st);
    for (size_t k = 0; k < n; k++)
        apply_override(&st, &overrides[k]);
    if (first_error > 0 && exp->diag.errors == before)
        setting_error(exp, first_error, "cannot read this line; expected 'key = value', a "
                "[section] header or a comment");
    else if (first_error < 0 && exp->diag.errors == before)
        setting_error(exp, 0, "cannot parse the file (inih error %d)", first_error);
    check_whole(&st, before);
    exp->key_lines = st.key_lines; /* kept for errors found after reading */
    exp->parsed = 1;
    return exp->diag.errors - before;
}

int experiment_load_text(const char *path, const char *text, rb_experiment *exp)
{
    experiment_defaults(exp, path);
    exp->name = default_name(path);
    exp->text = xstrdup(text);
    if (*text == '\0') {
        diag_at_into(&exp->diag, path, 0, "the experiment file is empty; it needs at least one [run NAME] "
                "section with 'plugin = NAME'");
        return 1;
    }
    return parse_text(exp, strlen(text), NULL, 0);
}

static void too_large(rb_diagnostics *d, const char *path)
{
    diag_at_into(d, path, 0, "the experiment file is larger than %u MiB, the most redbench reads; "
            "is this an experiment file?", RB_EXPERIMENT_MAX_BYTES >> 20);
}

/* Reads the whole file, at most RB_EXPERIMENT_MAX_BYTES of it (a pipe or a
 * device such as /dev/zero is read up to that bound); returns its length,
 * or -1 after reporting why not. */
static long read_whole_file(rb_diagnostics *d, const char *path, char **out)
{
    struct stat info;
    FILE *file = fopen(path, "rb");
    if (!file) {
        diag_at_into(d, path, 0, "cannot open the experiment file: %s", strerror(errno));
        return -1;
    }
    int known = fstat(fileno(file), &info) == 0;
    if (known && S_ISDIR(info.st_mode)) {
        diag_at_into(d, path, 0, "is a directory; expected an experiment file (.ini)");
        fclose(file);
        return -1;
    }
    if (known && S_ISREG(info.st_mode) && info.st_size > (off_t)RB_EXPERIMENT_MAX_BYTES) {
        too_large(d, path);
        fclose(file);
        return -1;
    }
    size_t len = 0, cap = 4096;
    char *text = xmalloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            text = xrealloc(text, cap);
        }
        size_t room = cap - len - 1, left = RB_EXPERIMENT_MAX_BYTES + 1 - len;
        size_t got = fread(text + len, 1, room < left ? room : left, file);
        len += got;
        if (got == 0 || len > RB_EXPERIMENT_MAX_BYTES)
            break;
    }
    if (len > RB_EXPERIMENT_MAX_BYTES) {
        too_large(d, path);
        fclose(file);
        free(text);
        return -1;
    }
    if (ferror(file)) {
        diag_at_into(d, path, 0, "cannot read the experiment file: %s", strerror(errno));
        fclose(file);
        free(text);
        return -1;
    }
    fclose(file);
    text[len] = '\0';
    *out = text;
    return (long)len;
}

int experiment_load(const char *path, rb_experiment *exp)
{
    return experiment_load_overridden(path, NULL, 0, exp);
}

int experiment_load_overridden(const char *path, const rb_override *overrides, size_t n,
                               rb_experiment *exp)
{
    experiment_defaults(exp, path);
    exp->name = default_name(path);
    char *text;
    long len = read_whole_file(&exp->diag, path, &text);
    if (len < 0)
        return 1;
    exp->text = text;
    if (len == 0) {
        diag_at_into(&exp->diag, path, 0, "the experiment file is empty; it needs at least one [run NAME] "
                "section with 'plugin = NAME'");
        return 1;
    }
    const char *nul = memchr(text, '\0', (size_t)len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        diag_at_into(&exp->diag, path, line, "the file contains a NUL byte; an experiment file is text (is this "
                "a binary file?)");
        return 1;
    }
    return parse_text(exp, (size_t)len, overrides, n);
}

static void free_settings(rb_setting *settings, size_t count)
{
    for (size_t k = 0; k < count; k++)
        free_setting(&settings[k]);
    free(settings);
}

void experiment_free(rb_experiment *exp)
{
    free(exp->path);
    free(exp->text);
    free(exp->name);
    free(exp->output);
    free(exp->format);
    free(exp->devices);
    free_settings(exp->data, exp->n_data);
    for (size_t k = 0; k < exp->n_runs; k++) {
        rb_run_section *run = &exp->runs[k];
        free(run->name);
        free(run->plugin);
        free_settings(run->settings, run->n_settings);
    }
    free(exp->runs);
    free_list(exp->origins, exp->n_origins);
    free(exp->key_lines);
    memset(exp, 0, sizeof *exp);
}
