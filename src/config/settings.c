/* src/config/settings.c: the one table of the [experiment] settings
 * (settings.h), and what every reader and writer of them shares: a value
 * parsed from its text and checked against its limits, the complaint when
 * it is not valid, the value as a file writes it, the defaults, the
 * [experiment] section that sets every key, and the keys' help. */
#include "config/settings.h"

#include <stdlib.h>
#include <string.h>

#include <redbench/backend.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"

static int non_negative(double v) { return v >= 0; }
static int positive(double v) { return v > 0; }
static int fraction(double v) { return v > 0 && v < 1; }

/* The words of the settings that are words, in the order of their values. */
static const char *const caches[] = {"hot", "cold"};
static const char *const peaks[] = {"cached", "measure"};
static const char *const n_scopes[] = {"rank", "total"};
static const char *const off_on[] = {"off", "on"};

const char *cache_mode_name(int cache)
{
    return cache == RB_CACHE_COLD ? caches[RB_CACHE_COLD] : caches[RB_CACHE_HOT];
}

const char *peak_mode_name(int peak)
{
    return peak == RB_PEAK_MEASURE ? peaks[RB_PEAK_MEASURE] : peaks[RB_PEAK_USE_CACHE];
}

static const char *n_scope_word(int k) { return n_scopes[k ? 1 : 0]; }
static const char *off_on_word(int k) { return off_on[k ? 1 : 0]; }

static const char *format_valid(void) { return format_choices(", "); }

static const char *rounds_valid(void)
{
    static char buf[160];
    if (!buf[0])
        snprintf(buf, sizeof buf, "auto (%d rounds, or 1 when one round is estimated to take "
                 "longer than %d minutes) or a whole number from 1 to %d", RB_AUTO_ROUNDS,
                 (int)(RB_AUTO_ROUNDS_LIMIT_S / 60), RB_MAX_ROUNDS);
    return buf;
}

static const char *devices_valid(void)
{
    static char buf[200];
    if (!buf[0])
        snprintf(buf, sizeof buf, "all (every device of the backend: the default), or a comma "
                 "list of at most %d device indices from 0 to 1023 (e.g. 0, 1, 2, 3)",
                 RB_DEVICES_MAX);
    return buf;
}

#define PLACE(field) offsetof(rb_experiment, field)

/* One row per key, in the order the file's keys are listed; then what the
 * command line sets (not a key of the file). The results carry their rows
 * in results_order. */
static const rb_setting_spec table[] = {
    {.name = "name", .kind = RB_SETTING_TEXT, .store = RB_STORE_TEXT, .offset = PLACE(name),
     .help = "the experiment's name in every report (default: the file's name without .ini)"},
    {.name = "warmup", .kind = RB_SETTING_WHOLE, .store = RB_STORE_INT, .offset = PLACE(warmup),
     .min = 0, .max = 1000000, .initial = "3",
     .zero_note = "the first timed call of each configuration then includes one-time costs "
                  "(loading the plugin's code, first touches of its memory) and can be an "
                  "outlier; 1 or more is advised",
     .help = "untimed runs of each configuration first", .results = RB_RESULTS_VALUE,
     .results_order = 1},
    {.name = "min_time", .kind = RB_SETTING_NUMBER, .store = RB_STORE_DOUBLE,
     .offset = PLACE(min_time), .in_range = non_negative,
     .valid_text = "seconds, 0 or more (e.g. 0.5)", .initial = "0.5",
     .unit = "s", .help = "seconds of measured time at least", .results = RB_RESULTS_VALUE,
     .results_order = 2},
    {.name = "min_reps", .kind = RB_SETTING_WHOLE, .store = RB_STORE_LONG,
     .offset = PLACE(min_reps), .min = 1, .max = 1000000000, .initial = "5",
     .help = "timed repetitions at least", .results = RB_RESULTS_VALUE, .results_order = 3},
    {.name = "max_reps", .kind = RB_SETTING_WHOLE, .store = RB_STORE_LONG,
     .offset = PLACE(max_reps), .min = 1, .max = 1000000000, .initial = "1000",
     .help = "timed repetitions at most", .results = RB_RESULTS_VALUE, .results_order = 4},
    {.name = "noise", .kind = RB_SETTING_NUMBER, .store = RB_STORE_DOUBLE, .offset = PLACE(noise),
     .in_range = fraction, .valid_text = "a fraction between 0 and 1, exclusive (0.01 is 1%)",
     .initial = "0.01", .unit = "%", .help = "repetitions stop once the median's relative noise is under it",
     .results = RB_RESULTS_VALUE, .results_order = 5},
    {.name = "cache", .kind = RB_SETTING_WORD, .store = RB_STORE_INT, .offset = PLACE(cache),
     .word = cache_mode_name, .n_words = 2, .initial = "hot",
     .help = "cold: the device's caches are flushed before each repetition",
     .results = RB_RESULTS_VALUE, .results_order = 6},
    {.name = "seed", .kind = RB_SETTING_WHOLE, .store = RB_STORE_U64, .offset = PLACE(seed),
     .min = 0, .max = INT64_MAX, .initial = "1",
     .help = "the seed of the random inputs, recorded in the results",
     .results = RB_RESULTS_VALUE, .results_order = 7},
    {.name = "output", .kind = RB_SETTING_TEXT, .store = RB_STORE_TEXT, .offset = PLACE(output),
     .valid_text = "a file name", .help = "the results file, as -o (default: standard output)"},
    {.name = "format", .kind = RB_SETTING_FORMAT, .store = RB_STORE_TEXT, .offset = PLACE(format),
     .valid = format_valid, .help = "the results' format, as --format (default: table)"},
    {.name = "device", .kind = RB_SETTING_WHOLE, .store = RB_STORE_INT, .offset = PLACE(device),
     .min = 0, .max = 1023, .initial = "0", .help = "the backend's device index, as --device",
     .results = RB_RESULTS_VALUE, .results_order = 9},
    {.name = "timeout", .kind = RB_SETTING_NUMBER, .store = RB_STORE_DOUBLE,
     .offset = PLACE(timeout), .in_range = positive,
     .valid_text = "seconds, more than 0 (e.g. 60)", .initial = "60",
     .unit = "s", .help = "seconds per configuration at most", .results = RB_RESULTS_VALUE,
     .results_order = 8},
    {.name = "timing", .kind = RB_SETTING_WORD, .store = RB_STORE_INT, .offset = PLACE(timing),
     .word = timing_mode_name, .n_words = RB_TIMING_EAGER + 1, .valid = timing_mode_choices,
     .initial = "device", .help = "how a repetition is timed", .results = RB_RESULTS_VALUE,
     .results_order = 10},
    {.name = "graph_calls", .kind = RB_SETTING_COUNT, .store = RB_STORE_LONG,
     .offset = PLACE(graph_calls), .max = 100000, .initial = "auto", .if_set = 1,
     .help = "calls per captured batch under timing = graph, and per timed batch under "
             "timing = eager (auto: a batch of about 2 ms, at most 1000 calls)",
     .results = RB_RESULTS_VALUE, .results_order = 11},
    {.name = "determinism_runs", .kind = RB_SETTING_WHOLE, .store = RB_STORE_INT,
     .offset = PLACE(determinism_runs), .min = 0, .max = 100, .initial = "2",
     .help = "extra run and verify pairs whose results must have the first one's bits",
     .results = RB_RESULTS_VALUE, .results_order = 12},
    {.name = "peak", .kind = RB_SETTING_WORD, .store = RB_STORE_INT, .offset = PLACE(peak),
     .word = peak_mode_name, .n_words = 2,
     .valid_text = "cached (measured once per device and kept in the cache folder), measure "
                   "(measured again)",
     .initial = "cached", .help = "where the device's measured peak bandwidth comes from",
     .results = RB_RESULTS_VALUE, .results_order = 14},
    {.name = "probes", .kind = RB_SETTING_WORD, .store = RB_STORE_INT, .offset = PLACE(probes),
     .word = off_on_word, .n_words = 2,
     .valid_text = "on (every result is also judged on probe inputs of exact answer: the "
                   "default), off (rows are then unproven)",
     .initial = "on", .help = "whether results are judged on probe inputs too",
     .results = RB_RESULTS_BOOL, .results_order = 13},
    {.name = "devices", .kind = RB_SETTING_DEVICES, .store = RB_STORE_LIST,
     .offset = PLACE(devices), .valid = devices_valid, .initial = "all",
     .help = "where ranks run: rank k on the k-th device of the list (modulo its length)"},
    {.name = "n_scope", .kind = RB_SETTING_WORD, .store = RB_STORE_INT, .offset = PLACE(n_total),
     .word = n_scope_word, .n_words = 2,
     .valid_text = "rank (n elements on each rank: the default), total (n elements split "
                   "across the ranks)",
     .initial = "rank", .help = "what the data's n counts"},
    {.name = "rounds", .kind = RB_SETTING_COUNT, .store = RB_STORE_INT, .offset = PLACE(rounds),
     .max = RB_MAX_ROUNDS, .valid = rounds_valid, .initial = "auto",
     .help = "times every configuration is measured, each round in a shuffled order",
     .results = RB_RESULTS_RUN, .results_order = 16},
    {.name = "energy", .kind = RB_SETTING_WORD, .store = RB_STORE_INT, .offset = PLACE(energy),
     .word = off_on_word, .n_words = 2,
     .valid_text = "off (the default), on (each row's energy per call, J/GB, average power, "
                   "SM clocks and throttle reasons over its timed calls: NVML's energy counter "
                   "on NVIDIA GPUs, RAPL on the CPU)",
     .initial = "off", .help = "whether each row's energy is measured",
     .results = RB_RESULTS_BOOL, .results_order = 17},
    {.name = "energy_min_time", .kind = RB_SETTING_NUMBER, .store = RB_STORE_DOUBLE,
     .offset = PLACE(energy_min_time), .in_range = positive,
     .valid_text = "seconds, more than 0 (e.g. 0.5)", .initial = "0.5",
     .unit = "s", .help = "seconds an energy measurement covers at least: timed batches shorter than 20 "
             "updates of the energy counter are measured again as one longer batch",
     .results = RB_RESULTS_VALUE, .results_order = 18},
    {.name = "objective", .kind = RB_SETTING_WORD, .store = RB_STORE_INT,
     .offset = PLACE(objective), .word = objective_name, .n_words = RB_OBJECTIVE_COUNT_,
     .valid_text = "time (the median time per call: the default), energy (the energy per "
                   "call; sets energy = on), edp (energy x delay)",
     .initial = "time", .help = "what tune minimises", .results = RB_RESULTS_VALUE,
     .results_order = 19},
    /* set by the command line, not a key of the file */
    {.name = "profile", .kind = RB_SETTING_FLAG, .store = RB_STORE_INT, .offset = PLACE(profile),
     .help = "--profile: each configuration ran once, with no warm-up",
     .results = RB_RESULTS_BOOL, .results_order = 15},
};

const rb_setting_spec *settings_table(size_t *count)
{
    *count = RB_ARRAY_LEN(table);
    return table;
}

const rb_setting_spec *setting_find(const char *name)
{
    for (size_t k = 0; k < RB_ARRAY_LEN(table); k++)
        if (table[k].kind != RB_SETTING_FLAG && strcmp(table[k].name, name) == 0)
            return &table[k];
    return NULL;
}

const rb_setting_spec *setting_at(size_t offset)
{
    for (size_t k = 0; k < RB_ARRAY_LEN(table); k++)
        if (table[k].offset == offset)
            return &table[k];
    return NULL;
}

const char *setting_key_list(void)
{
    static char buf[512];
    size_t used = 0;
    if (buf[0])
        return buf;
    for (size_t k = 0; k < RB_ARRAY_LEN(table); k++)
        if (table[k].kind != RB_SETTING_FLAG)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", used ? ", " : "",
                                     table[k].name);
    return buf;
}

const rb_setting_spec *const *settings_in_results(size_t *count)
{
    static const rb_setting_spec *order[RB_ARRAY_LEN(table)];
    static size_t n;
    if (!n)
        for (int place = 1; place <= (int)RB_ARRAY_LEN(table); place++)
            for (size_t k = 0; k < RB_ARRAY_LEN(table); k++)
                if (table[k].results != RB_RESULTS_NONE && table[k].results_order == place)
                    order[n++] = &table[k];
    *count = n;
    return order;
}

/* ---- the value at its place ---- */

static void *place(const rb_setting_spec *s, const rb_experiment *exp)
{
    return (char *)exp + s->offset;
}

int64_t setting_whole(const rb_setting_spec *s, const rb_experiment *exp)
{
    void *p = place(s, exp);
    switch (s->store) {
    case RB_STORE_LONG:
        return *(long *)p;
    case RB_STORE_U64:
        return (int64_t)*(uint64_t *)p;
    default:
        return *(int *)p;
    }
}

void setting_set_whole(const rb_setting_spec *s, rb_experiment *exp, int64_t v)
{
    void *p = place(s, exp);
    if (s->store == RB_STORE_LONG)
        *(long *)p = (long)v;
    else if (s->store == RB_STORE_U64)
        *(uint64_t *)p = (uint64_t)v;
    else
        *(int *)p = (int)v;
}

double *setting_number(const rb_setting_spec *s, rb_experiment *exp)
{
    return (double *)place(s, exp);
}

char **setting_string(const rb_setting_spec *s, rb_experiment *exp)
{
    return (char **)place(s, exp);
}

/* ---- parsing ---- */

/* `all` (NULL) or a comma list of device indices. */
static int parse_devices(const char *text, rb_experiment *exp)
{
    if (strcmp(text, "all") == 0) {
        free(exp->devices);
        exp->devices = NULL;
        exp->n_devices = 0;
        return 0;
    }
    int *list = xcalloc(RB_DEVICES_MAX, sizeof *list);
    size_t count = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        char *end;
        long v = strtol(p, &end, 10);
        const char *after = end;
        while (*after == ' ' || *after == '\t')
            after++;
        if (end == p || v < 0 || v > 1023 || (*after && *after != ',') ||
            count == RB_DEVICES_MAX) {
            free(list);
            return -1;
        }
        list[count++] = (int)v;
        if (!*after)
            break;
        p = after + 1;
    }
    free(exp->devices);
    exp->devices = list;
    exp->n_devices = count;
    return 0;
}

static int word_value(const rb_setting_spec *s, const char *text)
{
    for (int k = 0; k < s->n_words; k++)
        if (strcmp(s->word(k), text) == 0)
            return k;
    return -1;
}

int setting_parse(const rb_setting_spec *s, const char *text, rb_experiment *exp)
{
    const char *why;
    int64_t v;
    double d;
    switch (s->kind) {
    case RB_SETTING_FORMAT:
        if (format_from_name(text) < 0)
            return -1;
        /* fall through */
    case RB_SETTING_TEXT:
        free(*setting_string(s, exp));
        *setting_string(s, exp) = xstrdup(text);
        return 0;
    case RB_SETTING_WHOLE:
        if (parse_int(text, &v, &why) != 0)
            return -1;
        if (v < s->min || v > s->max)
            return -2;
        setting_set_whole(s, exp, v);
        return 0;
    case RB_SETTING_NUMBER:
        if (parse_double(text, &d, &why) != 0)
            return -1;
        if (!s->in_range(d))
            return -2;
        *setting_number(s, exp) = d;
        return 0;
    case RB_SETTING_WORD:
        if ((v = word_value(s, text)) < 0)
            return -1;
        setting_set_whole(s, exp, v);
        return 0;
    case RB_SETTING_COUNT:
        if (strcmp(text, "auto") == 0)
            v = 0;
        else if (parse_int(text, &v, &why) != 0 || v < 1 || v > s->max)
            return -1;
        setting_set_whole(s, exp, v);
        return 0;
    case RB_SETTING_DEVICES:
        return parse_devices(text, exp);
    case RB_SETTING_FLAG:
        break;
    }
    return -1;
}

/* What the valid values are, for messages and the help. */
static char *valid_values(const rb_setting_spec *s)
{
    if (s->valid)
        return xstrdup(s->valid());
    if (s->valid_text)
        return xstrdup(s->valid_text);
    switch (s->kind) {
    case RB_SETTING_WHOLE:
        return xasprintf("%lld to %lld", (long long)s->min, (long long)s->max);
    case RB_SETTING_COUNT:
        return xasprintf("auto or a whole number from 1 to %lld", (long long)s->max);
    case RB_SETTING_WORD: {
        const char *words[8];
        for (int k = 0; k < s->n_words && k < 8; k++)
            words[k] = s->word(k);
        return join_words(words, (size_t)s->n_words, ", ");
    }
    default:
        return xstrdup("any text");
    }
}

char *setting_complaint(const rb_setting_spec *s, const char *text, int result)
{
    char *valid = valid_values(s);
    const char *what = "is not valid";
    if (result == -2)
        what = "is out of range";
    else if (s->kind == RB_SETTING_WHOLE)
        what = "is not a whole number";
    else if (s->kind == RB_SETTING_NUMBER)
        what = "is not a decimal number";
    char *line = xasprintf("%s = %s %s; valid: %s", s->name, text, what, valid);
    free(valid);
    return line;
}

void settings_defaults(rb_experiment *exp)
{
    for (size_t k = 0; k < RB_ARRAY_LEN(table); k++)
        if (table[k].initial)
            (void)setting_parse(&table[k], table[k].initial, exp);
}

/* ---- writing ---- */

int setting_text(const rb_setting_spec *s, const rb_experiment *exp, char *buf, size_t len)
{
    int64_t v;
    buf[0] = '\0';
    switch (s->kind) {
    case RB_SETTING_TEXT:
    case RB_SETTING_FORMAT: {
        const char *text = *setting_string(s, (rb_experiment *)exp);
        if (!text)
            return 0;
        snprintf(buf, len, "%s", text);
        return 1;
    }
    case RB_SETTING_WHOLE:
        if (s->store == RB_STORE_U64)
            snprintf(buf, len, "%llu", (unsigned long long)*(uint64_t *)place(s, exp));
        else
            snprintf(buf, len, "%lld", (long long)setting_whole(s, exp));
        return 1;
    case RB_SETTING_NUMBER:
        json_format_double(*setting_number(s, (rb_experiment *)exp), buf, (unsigned)len);
        return 1;
    case RB_SETTING_WORD:
        snprintf(buf, len, "%s", s->word((int)setting_whole(s, exp)));
        return 1;
    case RB_SETTING_COUNT:
        v = setting_whole(s, exp);
        if (v == 0)
            snprintf(buf, len, "auto");
        else
            snprintf(buf, len, "%lld", (long long)v);
        return !(s->if_set && v == 0);
    case RB_SETTING_DEVICES: {
        size_t used = (size_t)snprintf(buf, len, "%s", exp->n_devices ? "" : "all");
        for (size_t k = 0; k < exp->n_devices && used < len; k++)
            used += (size_t)snprintf(buf + used, len - used, "%s%d", k ? ", " : "",
                                     exp->devices[k]);
        return 1;
    }
    case RB_SETTING_FLAG:
        break;
    }
    return 0;
}

void settings_write(rb_ini_writer *w, const rb_experiment *exp, const char *name,
                    int with_output)
{
    char value[8192];
    ini_write_section(w, "experiment");
    for (size_t k = 0; k < RB_ARRAY_LEN(table); k++) {
        const rb_setting_spec *s = &table[k];
        if (s->kind == RB_SETTING_FLAG || (!with_output && s->offset == PLACE(output)))
            continue;
        if (s->offset == PLACE(name) && name)
            ini_write_key(w, s->name, name, RB_INI_TEXT);
        else if (setting_text(s, exp, value, sizeof value))
            ini_write_key(w, s->name, value, RB_INI_TEXT);
    }
}

char *setting_help(const rb_setting_spec *s)
{
    char *valid = valid_values(s);
    char *text = xasprintf("%s; valid: %s%s%s", s->help, valid, s->initial ? "; default: " : "",
                           s->initial ? s->initial : "");
    free(valid);
    return text;
}
