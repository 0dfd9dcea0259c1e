/* src/base/names.c: the one list of words for each set of names: ops,
 * dtypes, distributions, shapes' axes and lengths, row statuses, probe
 * verdicts, reproducibility levels, energy sources, tune objectives,
 * throttle reasons, timing modes and output formats; names, parsing and the
 * lists of choices all read them. */
#include "base/names.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const char *const op_words[RB_OP_COUNT_] = {"sum", "min", "max", "argmax", "histogram"};
static const char *const dtype_words[RB_DTYPE_COUNT_] = {"i32", "i64", "f32", "f64", "u8",
                                                          "f16", "bf16"};
static const char *const distribution_words[RB_DIST_COUNT_] = {
    "uniform", "signed", "small", "ones", "float-bytes"};
static const char *const axis_words[] = {[RB_AXIS_ROW] = "row", [RB_AXIS_COLUMN] = "column"};
static const char *const lengths_words[RB_LENGTHS_COUNT_] = {[RB_LENGTHS_FIXED] = "fixed",
                                                             [RB_LENGTHS_RAGGED] = "ragged"};
static const char *const status_words[RB_ROW_COUNT_] = {
    "ok", "wrong", "failed", "unsupported", "skipped"};
static const char *const probes_words[RB_PROBES_COUNT_] = {
    [RB_PROBES_NOT_RUN] = "not run", [RB_PROBES_PASSED] = "passed",
    [RB_PROBES_FAILED] = "failed",   [RB_PROBES_OFF] = "off"};
static const char *const repro_words[RB_REPRO_COUNT_] = {
    [RB_REPRO_VARIES] = "varies",
    [RB_REPRO_RUN_TO_RUN] = "run-to-run",
    [RB_REPRO_LAYOUT] = "layout-independent",
    [RB_REPRO_EXACT] = "exact",
};
static const char *const format_words[RB_FORMAT_COUNT_] = {
    [RB_FORMAT_TABLE] = "table", [RB_FORMAT_CSV] = "csv", [RB_FORMAT_JSON] = "json",
    [RB_FORMAT_MD] = "md",       [RB_FORMAT_HTML] = "html", [RB_FORMAT_SQLITE] = "sqlite"};
static const char *const energy_source_words[RB_ENERGY_COUNT_] = {
    [RB_ENERGY_NONE] = "none", [RB_ENERGY_COUNTER] = "counter",
    [RB_ENERGY_SAMPLED] = "sampled", [RB_ENERGY_RAPL] = "rapl"};
static const char *const objective_words[RB_OBJECTIVE_COUNT_] = {
    [RB_OBJECTIVE_TIME] = "time", [RB_OBJECTIVE_ENERGY] = "energy", [RB_OBJECTIVE_EDP] = "edp"};
/* the RB_THROTTLE_* bits (redbench/backend.h), each with its name */
static const struct {
    uint64_t bit;
    const char *name;
} throttle_words[] = {
    {RB_THROTTLE_IDLE, "idle"},
    {RB_THROTTLE_APP_CLOCKS, "app_clocks"},
    {RB_THROTTLE_SW_POWER_CAP, "sw_power_cap"},
    {RB_THROTTLE_HW_SLOWDOWN, "hw_slowdown"},
    {RB_THROTTLE_SYNC_BOOST, "sync_boost"},
    {RB_THROTTLE_SW_THERMAL, "sw_thermal"},
    {RB_THROTTLE_HW_THERMAL, "hw_thermal"},
    {RB_THROTTLE_HW_POWER_BRAKE, "hw_power_brake"},
    {RB_THROTTLE_DISPLAY_CLOCKS, "display_clocks"},
};
/* in the order of enum rb_timing_mode (redbench/backend.h), then the host's
 * own eager mode (RB_TIMING_EAGER), with what each measures */
static const char *const timing_words[] = {"launch", "graph", "device", "eager"};
static const char *const timing_help[RB_ARRAY_LEN(timing_words)] = {
    "one call timed, launch cost included", "a captured batch replayed, time per call",
    "one call on a held queue", "a batch of calls launched back to back, time per call"};

static const char *word_at(const char *const *words, int count, int k)
{
    return k >= 0 && k < count ? words[k] : "?";
}

static int index_of(const char *const *words, int count, const char *word)
{
    for (int k = 0; k < count; k++)
        if (strcmp(words[k], word) == 0)
            return k;
    return -1;
}

const char *op_name(int op) { return word_at(op_words, RB_OP_COUNT_, op); }
const char *dtype_name(int dtype) { return word_at(dtype_words, RB_DTYPE_COUNT_, dtype); }
const char *distribution_name(int d) { return word_at(distribution_words, RB_DIST_COUNT_, d); }
const char *axis_name(int a) { return word_at(axis_words, (int)RB_ARRAY_LEN(axis_words), a); }
const char *lengths_name(int l) { return word_at(lengths_words, RB_LENGTHS_COUNT_, l); }
const char *row_status_name(int s) { return word_at(status_words, RB_ROW_COUNT_, s); }
const char *probes_name(int p) { return word_at(probes_words, RB_PROBES_COUNT_, p); }
const char *format_name(int f) { return word_at(format_words, RB_FORMAT_COUNT_, f); }

const char *repro_name(int level)
{
    return level >= 0 && level < RB_REPRO_COUNT_ ? repro_words[level] : NULL;
}

const char *energy_source_name(int s)
{
    return word_at(energy_source_words, RB_ENERGY_COUNT_, s);
}
const char *objective_name(int o)
{
    return o >= 0 && o < RB_OBJECTIVE_COUNT_ ? objective_words[o] : NULL;
}
int energy_source_from_name(const char *word)
{
    return index_of(energy_source_words, RB_ENERGY_COUNT_, word);
}

void throttle_reason_text(uint64_t reasons, char *buf, size_t len)
{
    size_t used = 0;
    uint64_t named = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (size_t k = 0; k < RB_ARRAY_LEN(throttle_words); k++) {
        if (!(reasons & throttle_words[k].bit))
            continue;
        named |= throttle_words[k].bit;
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", throttle_words[k].name);
        if (n < 0 || (size_t)n >= len - used)
            return;
        used += (size_t)n;
    }
    if (reasons & ~named)
        snprintf(buf + used, len - used, "%sother 0x%llx", used ? ", " : "",
                 (unsigned long long)(reasons & ~named));
}

const char *timing_mode_name(int mode)
{
    return mode >= 0 && mode < (int)RB_ARRAY_LEN(timing_words) ? timing_words[mode] : NULL;
}

int op_from_name(const char *word) { return index_of(op_words, RB_OP_COUNT_, word); }
int dtype_from_name(const char *word) { return index_of(dtype_words, RB_DTYPE_COUNT_, word); }
int distribution_from_name(const char *word)
{
    return index_of(distribution_words, RB_DIST_COUNT_, word);
}

int axis_from_name(const char *word)
{
    return index_of(axis_words, (int)RB_ARRAY_LEN(axis_words), word);
}
int lengths_from_name(const char *word) { return index_of(lengths_words, RB_LENGTHS_COUNT_, word); }

int format_from_name(const char *word) { return index_of(format_words, RB_FORMAT_COUNT_, word); }

int timing_mode_from_name(const char *word)
{
    return index_of(timing_words, (int)RB_ARRAY_LEN(timing_words), word);
}

int format_from_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    /* the table has no extension of its own */
    int f = dot && !strchr(dot, '/') ? format_from_name(dot + 1) : -1;
    if (dot && !strchr(dot, '/') && strcmp(dot, ".db") == 0)
        f = RB_FORMAT_SQLITE; /* a history's other usual name */
    return f == RB_FORMAT_TABLE ? -1 : f;
}

/* The words joined by sep into buf, once: the lists never change. */
static const char *joined(char *buf, size_t len, const char *const *words, int count,
                          const char *sep)
{
    if (buf[0])
        return buf;
    size_t used = 0;
    for (int k = 0; k < count && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? sep : "", words[k]);
    return buf;
}

/* The sets whose words are listed ", "-separated in error messages. */
enum { SET_OP, SET_DTYPE, SET_DISTRIBUTION, SET_AXIS, SET_LENGTHS, SET_COUNT_ };
static const struct {
    const char *const *words;
    int count;
} sets[SET_COUNT_] = {
    [SET_OP] = {op_words, RB_OP_COUNT_},
    [SET_DTYPE] = {dtype_words, RB_DTYPE_COUNT_},
    [SET_DISTRIBUTION] = {distribution_words, RB_DIST_COUNT_},
    [SET_AXIS] = {axis_words, (int)RB_ARRAY_LEN(axis_words)},
    [SET_LENGTHS] = {lengths_words, RB_LENGTHS_COUNT_},
};

static const char *comma_list(int set)
{
    static char lists[SET_COUNT_][128];
    return joined(lists[set], sizeof lists[set], sets[set].words, sets[set].count, ", ");
}

const char *op_choices(void) { return comma_list(SET_OP); }
const char *dtype_choices(void) { return comma_list(SET_DTYPE); }
const char *distribution_choices(void) { return comma_list(SET_DISTRIBUTION); }
const char *axis_choices(void) { return comma_list(SET_AXIS); }
const char *lengths_choices(void) { return comma_list(SET_LENGTHS); }

const char *format_choices(const char *sep)
{
    static char comma[128], bar[128];
    if (strcmp(sep, "|") == 0)
        return joined(bar, sizeof bar, format_words, RB_FORMAT_COUNT_, "|");
    return joined(comma, sizeof comma, format_words, RB_FORMAT_COUNT_, ", ");
}

const char *timing_mode_choices(void)
{
    static char buf[256];
    if (!buf[0]) {
        size_t used = 0;
        for (size_t k = 0; k < RB_ARRAY_LEN(timing_words) && used < sizeof buf; k++)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s (%s)", k ? ", " : "",
                                     timing_words[k], timing_help[k]);
    }
    return buf;
}

static char *mask_text(const char *const *words, int count, uint32_t mask)
{
    const char *picked[32];
    size_t n = 0;
    for (int k = 0; k < count; k++)
        if (mask & (1u << k))
            picked[n++] = words[k];
    return join_words(picked, n, ", ");
}

char *op_mask_text(uint32_t mask) { return mask_text(op_words, RB_OP_COUNT_, mask); }
char *dtype_mask_text(uint32_t mask) { return mask_text(dtype_words, RB_DTYPE_COUNT_, mask); }
