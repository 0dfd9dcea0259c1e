/* src/compare/comparison.c: what `redbench compare OLD.json NEW.json` does
 * between its command line (cli/compare.c) and its reports: reading the two
 * result files back, matching their configurations (same
 * run, plugin, parameters, op, dtype, n, distribution and bins), refusing
 * different devices unless told, judging each pair (compare/significance.c) and
 * noticing pairs measured differently. The reports are written by
 * compare/report.c.
 *
 * A pair whose rows were timed in different modes (launch against graph,
 * say) or with a different cache regime (hot against cold) compares
 * different measurements. Such pairs keep the verdict their samples give
 * and count toward the exit status like any other pair, so a regression
 * gate is neither loosened nor tightened by the difference; a warning on
 * standard error names them with both settings, and every report marks
 * them. Only settings that both rows record are compared: a file written
 * before rows carried their timing mode is taken as it is. */
#include "compare/comparison.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/units.h"
#include "base/util.h"

/* ---- reading a result file ---- */

static const char *const setting_names[RB_SETTING_COUNT_] = {
    [RB_SETTING_TIMING] = "timing",
    [RB_SETTING_CACHE] = "cache",
};

const char *compare_setting_name(int setting)
{
    return setting >= 0 && setting < RB_SETTING_COUNT_ ? setting_names[setting] : "?";
}

/* A member's text, the file's own copy (NULL when it is not a string). */
static const char *member_text(rb_compare_file *file, const json_value *object, const char *key)
{
    return text_index_intern(&file->texts, json_string(json_get(object, key)));
}

/* A JSON scalar as it would be written in an experiment file. */
static const char *scalar_text(const json_value *v)
{
    switch (v->type) {
    case JSON_STRING: case JSON_NUMBER: return v->text;
    case JSON_BOOL: return v->boolean ? "true" : "false";
    case JSON_NULL: return "null";
    default: return "?";
    }
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "block=256 variant=tree": every parameter, keys sorted, so that files
 * written in a different order still match. */
static char *params_text(const json_value *params)
{
    size_t count = json_count(params);
    if (!params || params->type != JSON_OBJECT || count == 0)
        return xstrdup("");
    char **items = xcalloc(count, sizeof *items);
    for (size_t k = 0; k < count; k++)
        items[k] = xasprintf("%s=%s", params->keys[k], scalar_text(&params->items[k]));
    qsort(items, count, sizeof *items, compare_strings);
    char *text = join_words((const char *const *)items, count, " ");
    free_list(items, count);
    return text;
}

/* The file's copy of a row's parameters: one per different set, found by
 * the set's text with types (so "1" and 1 stay apart). */
static const rb_compare_params *load_params(rb_compare_file *file, const json_value *params)
{
    strbuf id = {0};
    sb_append(&id, "");
    for (size_t k = 0; k < json_count(params); k++) {
        const json_value *v = &params->items[k];
        sb_append(&id, params->keys[k]);
        sb_printf(&id, "\x1f%d\x1f", (int)v->type);
        sb_append(&id, scalar_text(v));
        sb_append(&id, "\x1e");
    }
    size_t *slot = text_index_find(&file->params_index, id.data);
    if (slot) {
        sb_free(&id);
        return file->params_sets[*slot];
    }
    size_t cap = file->n_params_sets;
    rb_compare_params *set = xcalloc(1, sizeof *set);
    *(rb_compare_params **)grow(&file->params_sets, &file->n_params_sets, &cap,
                                sizeof *file->params_sets) = set;
    set->count = json_count(params);
    set->items = xcalloc(set->count ? set->count : 1, sizeof *set->items);
    for (size_t k = 0; k < set->count; k++) {
        const json_value *v = &params->items[k];
        set->items[k].key = text_index_intern(&file->texts, params->keys[k]);
        int scalar = v->type == JSON_STRING || v->type == JSON_NUMBER ||
                     v->type == JSON_BOOL || v->type == JSON_NULL;
        set->items[k].type = scalar ? v->type : JSON_STRING;
        set->items[k].text = text_index_intern(&file->texts, scalar_text(v));
    }
    char *text = params_text(params);
    set->text = text_index_intern(&file->texts, text);
    free(text);
    text_index_put(&file->params_index, text_index_intern(&file->texts, id.data),
                   file->n_params_sets - 1, NULL);
    sb_free(&id);
    return set;
}

/* A required string member of a result row. */
static int row_string(rb_compare_file *file, const json_value *row, size_t position,
                      const char *key, const char **out)
{
    *out = member_text(file, row, key);
    if (*out)
        return 0;
    diag_at(file->path, row->line, "result %zu has no \"%s\" text; rows written by redbench "
                                   "--format json have run, plugin, op, dtype, n and status",
            position + 1, key);
    return -1;
}

/* Checks a row's samples_ns and counts them (read by load_samples). */
static int count_samples(const char *path, const json_value *row, size_t position, size_t *count)
{
    const json_value *samples = json_get(row, "samples_ns");
    if (!samples || json_is_null(samples))
        return 0;
    if (samples->type != JSON_ARRAY) {
        diag_at(path, samples->line, "result %zu: \"samples_ns\" is a %s; valid: an array of "
                                     "times in nanoseconds",
                position + 1, json_type_name(samples->type));
        return -1;
    }
    for (size_t k = 0; k < samples->count; k++) {
        const json_value *s = &samples->items[k];
        if (s->type != JSON_NUMBER || !isfinite(s->number) || s->number < 0) {
            diag_at(path, s->line, "result %zu: sample %zu of \"samples_ns\" is not a time; "
                                   "valid: numbers of nanoseconds, 0 or more",
                    position + 1, k + 1);
            return -1;
        }
    }
    *count += samples->count;
    return 0;
}

static void load_samples(const json_value *row, double *pool, rb_compare_row *out)
{
    const json_value *samples = json_get(row, "samples_ns");
    out->samples = pool;
    out->n_samples = json_count(samples);
    for (size_t k = 0; k < out->n_samples; k++)
        pool[k] = samples->items[k].number;
}

/* How a row was measured: its own "timing" and "cache"; the cache regime is
 * a run-wide setting, so a row without it takes the experiment's. */
static void load_settings(rb_compare_file *file, const json_value *row, const char *file_cache,
                          rb_compare_row *out)
{
    out->settings[RB_SETTING_TIMING] = member_text(file, row, "timing");
    out->settings[RB_SETTING_CACHE] = member_text(file, row, "cache");
    if (!out->settings[RB_SETTING_CACHE])
        out->settings[RB_SETTING_CACHE] = file_cache;
}

/* A whole number as results files write it: a number, or (for a 64-bit
 * integer beyond what readers hold exactly, and the seed) a string of
 * decimal digits. 1 and sets *out, else 0. */
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

static int load_row(rb_compare_file *file, const json_value *row, size_t position,
                    const char *file_cache, rb_compare_row *out)
{
    const char *path = file->path;
    memset(out, 0, sizeof *out);
    out->position = position;
    out->device = -1;
    if (row->type != JSON_OBJECT) {
        diag_at(path, row->line, "result %zu is a %s; valid: an object", position + 1,
                json_type_name(row->type));
        return -1;
    }
    if (row_string(file, row, position, "run", &out->run) != 0 ||
        row_string(file, row, position, "plugin", &out->plugin) != 0 ||
        row_string(file, row, position, "op", &out->op) != 0 ||
        row_string(file, row, position, "dtype", &out->dtype) != 0 ||
        row_string(file, row, position, "status", &out->status) != 0)
        return -1;
    if (!whole_number(json_get(row, "n"), &out->n)) {
        diag_at(path, row->line, "result %zu: \"n\" is not a whole number of elements",
                position + 1);
        return -1;
    }
    out->distribution = member_text(file, row, "distribution");
    if (!out->distribution)
        out->distribution = "";
    out->reason = member_text(file, row, "reason");
    if (!out->reason)
        out->reason = "";
    const json_value *params = json_get(row, "params");
    if (params && params->type != JSON_OBJECT && !json_is_null(params)) {
        diag_at(path, params->line, "result %zu: \"params\" is a %s; valid: an object",
                position + 1, json_type_name(params->type));
        return -1;
    }
    int64_t device;
    if (json_int64(json_get(row, "device"), &device) && device >= 0 &&
        (uint64_t)device < file->n_devices)
        out->device = (int)device;
    out->params = load_params(file, params);
    out->params_text = out->params->text;
    load_settings(file, row, file_cache, out);

    uint64_t bins = 0;
    char bins_text[32] = "";
    if (whole_number(json_get(row, "bins"), &bins))
        snprintf(bins_text, sizeof bins_text, "%llu", (unsigned long long)bins);
    out->bins = text_index_intern(&file->texts, bins_text);
    return 0;
}

static void load_devices(rb_compare_file *file, const json_value *devices)
{
    size_t count = json_count(devices);
    if (!devices || devices->type != JSON_ARRAY || count == 0)
        return;
    file->devices = xcalloc(count, sizeof *file->devices);
    for (size_t k = 0; k < count; k++) {
        const json_value *d = json_at(devices, k);
        rb_compare_device *out = &file->devices[k];
        out->backend = member_text(file, d, "backend");
        out->name = member_text(file, d, "name");
        out->uuid = member_text(file, d, "uuid");
        if (!json_int64(json_get(d, "device"), &out->index))
            out->index = (int64_t)k;
    }
    file->n_devices = count;
}

static int load_document(rb_compare_file *file, const json_value *doc)
{
    const json_value *results = json_get(doc, "results");
    file->version = member_text(file, doc, "version");
    file->git_revision = member_text(file, doc, "git_revision");
    file->started = member_text(file, doc, "started");
    file->host = member_text(file, json_get(doc, "host"), "name");
    load_devices(file, json_get(doc, "devices"));
    const char *cache =
        member_text(file, json_get(json_get(doc, "experiment"), "settings"), "cache");
    size_t n_samples = 0;
    file->rows = xcalloc(results->count ? results->count : 1, sizeof *file->rows);
    for (size_t k = 0; k < results->count; k++) {
        file->n_rows = k + 1;
        if (load_row(file, &results->items[k], k, cache, &file->rows[k]) != 0 ||
            count_samples(file->path, &results->items[k], k, &n_samples) != 0)
            return -1;
    }
    file->samples = xcalloc(n_samples ? n_samples : 1, sizeof *file->samples);
    double *pool = file->samples;
    for (size_t k = 0; k < file->n_rows; k++) {
        rb_compare_row *row = &file->rows[k];
        load_samples(&results->items[k], pool, row);
        pool += row->n_samples;
    }
    return 0;
}

int compare_file_from_doc(const char *path, const json_value *doc, rb_compare_file *file)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    return load_document(file, doc);
}

int compare_file_load(const char *path, rb_compare_file *file)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    json_value *doc = json_read_results(path);
    if (!doc)
        return -1;
    int status = compare_file_from_doc(path, doc, file);
    json_free(doc);
    return status;
}

void compare_file_free(rb_compare_file *file)
{
    for (size_t k = 0; k < file->n_params_sets; k++) {
        free(file->params_sets[k]->items);
        free(file->params_sets[k]);
    }
    free(file->params_sets);
    free(file->rows);
    free(file->samples);
    free(file->devices);
    text_index_free(&file->params_index);
    text_index_free(&file->texts);
    memset(file, 0, sizeof *file);
}

/* ---- matching ---- */

/* What identifies a configuration across files: run, plugin, parameters,
 * op, dtype, n, distribution and bins. */
static int compare_configurations(const rb_compare_row *x, const rb_compare_row *y)
{
    const char *const xs[] = {x->run, x->plugin, x->params_text, x->op, x->dtype};
    const char *const ys[] = {y->run, y->plugin, y->params_text, y->op, y->dtype};
    for (size_t k = 0; k < RB_ARRAY_LEN(xs); k++) {
        int c = strcmp(xs[k], ys[k]);
        if (c)
            return c;
    }
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    int c = strcmp(x->distribution, y->distribution);
    return c ? c : strcmp(x->bins, y->bins);
}

static int compare_rows_by_key(const void *a, const void *b)
{
    const rb_compare_row *x = *(const rb_compare_row *const *)a;
    const rb_compare_row *y = *(const rb_compare_row *const *)b;
    int c = compare_configurations(x, y);
    if (c)
        return c;
    return (x->position > y->position) - (x->position < y->position);
}

static int compare_pairs_by_old_position(const void *a, const void *b)
{
    size_t x = ((const rb_compare_pair *)a)->old_row->position;
    size_t y = ((const rb_compare_pair *)b)->old_row->position;
    return (x > y) - (x < y);
}

static int compare_rows_by_position(const void *a, const void *b)
{
    size_t x = (*(const rb_compare_row *const *)a)->position;
    size_t y = (*(const rb_compare_row *const *)b)->position;
    return (x > y) - (x < y);
}

static const rb_compare_row **sorted_by_key(const rb_compare_file *file)
{
    const rb_compare_row **rows = xcalloc(file->n_rows ? file->n_rows : 1, sizeof *rows);
    for (size_t k = 0; k < file->n_rows; k++)
        rows[k] = &file->rows[k];
    qsort(rows, file->n_rows, sizeof *rows, compare_rows_by_key);
    return rows;
}

/* Pairs rows with equal keys; a key that appears twice in a file pairs in
 * file order. */
static void match_rows(rb_comparison *cmp)
{
    const rb_compare_file *a = &cmp->old_file, *b = &cmp->new_file;
    const rb_compare_row **old_rows = sorted_by_key(a), **new_rows = sorted_by_key(b);
    size_t i = 0, j = 0;
    cmp->pairs = xcalloc(a->n_rows ? a->n_rows : 1, sizeof *cmp->pairs);
    cmp->only_old = xcalloc(a->n_rows ? a->n_rows : 1, sizeof *cmp->only_old);
    cmp->only_new = xcalloc(b->n_rows ? b->n_rows : 1, sizeof *cmp->only_new);
    while (i < a->n_rows || j < b->n_rows) {
        int c = i == a->n_rows   ? 1
                : j == b->n_rows ? -1
                                 : compare_configurations(old_rows[i], new_rows[j]);
        if (c == 0) {
            rb_compare_pair *p = &cmp->pairs[cmp->n_pairs++];
            p->old_row = old_rows[i++];
            p->new_row = new_rows[j++];
        } else if (c < 0) {
            cmp->only_old[cmp->n_only_old++] = old_rows[i++];
        } else {
            cmp->only_new[cmp->n_only_new++] = new_rows[j++];
        }
    }
    qsort(cmp->pairs, cmp->n_pairs, sizeof *cmp->pairs, compare_pairs_by_old_position);
    qsort(cmp->only_old, cmp->n_only_old, sizeof *cmp->only_old, compare_rows_by_position);
    qsort(cmp->only_new, cmp->n_only_new, sizeof *cmp->only_new, compare_rows_by_position);
    free(old_rows);
    free(new_rows);
}

/* ---- devices ---- */

static int same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Two devices are the same when their names match and, where both files
 * know it, their UUIDs. */
static int same_device(const rb_compare_device *a, const rb_compare_device *b)
{
    if (!same_text(a->name, b->name))
        return 0;
    return !a->uuid || !b->uuid || !*a->uuid || !*b->uuid || strcmp(a->uuid, b->uuid) == 0;
}

static char *device_change_text(const rb_compare_device *a, const rb_compare_device *b)
{
    strbuf sb = {0};
    sb_printf(&sb, "%s device %lld: ", a->backend ? a->backend : "?", (long long)a->index);
    if (!same_text(a->name, b->name))
        sb_printf(&sb, "name '%s' -> '%s'", a->name ? a->name : "", b->name ? b->name : "");
    if (!same_text(a->uuid, b->uuid)) {
        if (!same_text(a->name, b->name))
            sb_append(&sb, ", ");
        sb_printf(&sb, "uuid %s -> %s", a->uuid && *a->uuid ? a->uuid : "(none)",
                  b->uuid && *b->uuid ? b->uuid : "(none)");
    }
    if (a->index != b->index)
        sb_printf(&sb, " (new: %s device %lld)", b->backend ? b->backend : "?",
                  (long long)b->index);
    return sb.data;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* One line per (old device, new device) pair that some matched
 * configuration ran on and that differ, in the order of the devices. */
static void find_device_changes(rb_comparison *cmp)
{
    const rb_compare_file *a = &cmp->old_file, *b = &cmp->new_file;
    uint64_t *used = xcalloc(cmp->n_pairs ? cmp->n_pairs : 1, sizeof *used);
    size_t n_used = 0, cap = 0;
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        int da = cmp->pairs[k].old_row->device, db = cmp->pairs[k].new_row->device;
        if (da >= 0 && db >= 0)
            used[n_used++] = (uint64_t)da << 32 | (uint64_t)db;
    }
    qsort(used, n_used, sizeof *used, compare_u64);
    for (size_t k = 0; k < n_used; k++) {
        if (k > 0 && used[k] == used[k - 1])
            continue;
        size_t da = (size_t)(used[k] >> 32), db = (size_t)(used[k] & 0xffffffffu);
        if (same_device(&a->devices[da], &b->devices[db]))
            continue;
        char **slot = grow(&cmp->device_changes, &cmp->n_device_changes, &cap,
                           sizeof *cmp->device_changes);
        *slot = device_change_text(&a->devices[da], &b->devices[db]);
    }
    free(used);
}

/* ---- judging ---- */

static void judge_pair(rb_compare_pair *p, const rb_compare_criteria *criteria)
{
    const rb_compare_row *a = p->old_row, *b = p->new_row;
    int a_ok = strcmp(a->status, "ok") == 0, b_ok = strcmp(b->status, "ok") == 0;
    if (a_ok && b_ok) {
        compare_samples(a->samples, a->n_samples, b->samples, b->n_samples, criteria, &p->stats);
        return;
    }
    rb_sample_comparison *s = &p->stats;
    memset(s, 0, sizeof *s);
    s->verdict = RB_VERDICT_UNCLEAR;
    s->n_old = a->n_samples;
    s->n_new = b->n_samples;
    s->median_old = sample_median(a->samples, a->n_samples);
    s->median_new = sample_median(b->samples, b->n_samples);
    s->ratio = s->ci_low = s->ci_high = s->p_value = s->p_adjusted = s->p_smallest = NAN;
    const rb_compare_row *bad = a_ok ? b : a;
    snprintf(s->why, sizeof s->why, "%s is %s%s%.*s", a_ok ? "new" : "old", bad->status,
             *bad->reason ? ": " : "", 100, bad->reason);
}

/* The settings both rows record and that differ, as bits. */
static unsigned settings_that_differ(const rb_compare_row *a, const rb_compare_row *b)
{
    unsigned differs = 0;
    for (int s = 0; s < RB_SETTING_COUNT_; s++)
        if (a->settings[s] && b->settings[s] && strcmp(a->settings[s], b->settings[s]) != 0)
            differs |= 1u << s;
    return differs;
}

/* A status that a configuration which was ok must not come to. */
static int bad_status(const char *status)
{
    return strcmp(status, "wrong") == 0 || strcmp(status, "failed") == 0 ||
           strcmp(status, "unsupported") == 0;
}

/* Holm's adjustment over the pairs whose samples were tested, then each of
 * them judged again with its adjusted p-value. */
static void adjust_for_many(rb_comparison *cmp)
{
    double *p = xmalloc((cmp->n_pairs ? cmp->n_pairs : 1) * sizeof *p);
    for (size_t k = 0; k < cmp->n_pairs; k++)
        p[k] = cmp->pairs[k].stats.tested ? cmp->pairs[k].stats.p_value : NAN;
    holm_adjust(p, cmp->n_pairs, p);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        rb_sample_comparison *s = &cmp->pairs[k].stats;
        if (!s->tested)
            continue;
        s->p_adjusted = p[k];
        compare_decide(s, &cmp->criteria);
    }
    free(p);
}

void comparison_run(rb_comparison *cmp)
{
    match_rows(cmp);
    find_device_changes(cmp);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        rb_compare_pair *p = &cmp->pairs[k];
        judge_pair(p, &cmp->criteria);
        cmp->n_tested += p->stats.tested != 0;
        p->became_bad = strcmp(p->old_row->status, "ok") == 0 && bad_status(p->new_row->status);
        cmp->n_became_bad += p->became_bad != 0;
        p->differs = settings_that_differ(p->old_row, p->new_row);
        cmp->n_differ += p->differs != 0;
    }
    adjust_for_many(cmp);
    for (size_t k = 0; k < cmp->n_pairs; k++)
        cmp->counts[cmp->pairs[k].stats.verdict]++;
}

int comparison_status(const rb_comparison *cmp)
{
    return cmp->counts[RB_VERDICT_SLOWER] > 0 || cmp->n_became_bad > 0 ||
           (cmp->require_all && cmp->n_only_old > 0);
}

/* "plain serial block=4 sum f32 n=1K": one configuration on one line. */
char *compare_row_title(const rb_compare_row *row)
{
    char n[32];
    format_size(row->n, n, sizeof n);
    char *text = xasprintf("%s %s%s%s %s %s n=%s%s%s", row->run, row->plugin,
                           *row->params_text ? " " : "", row->params_text, row->op, row->dtype, n,
                           *row->distribution ? " " : "", row->distribution);
    char *line = printable_text(text);
    free(text);
    return line;
}

/* ---- warning about pairs measured differently ---- */

/* Configurations named per warning; the rest are counted. */
#define NAMED_PER_WARNING 5

/* Different (old, new) values of one setting warned about; more are counted. */
#define WARNINGS_PER_SETTING 10

/* Pairs measured with one (old, new) value of a setting. */
typedef struct setting_group {
    size_t first, count;
    size_t named[NAMED_PER_WARNING];
} setting_group;

/* One warning per setting and pair of values (old, new), in the order
 * they first appear: how many configurations, and the first few by number
 * and name. One pass over the pairs, grouped through a hash index. */
static void warn_setting(const rb_comparison *cmp, int setting)
{
    text_index groups_by_values = {0};
    setting_group *groups = NULL;
    size_t n_groups = 0, cap = 0;
    char **ids = NULL;
    size_t n_ids = 0, ids_cap = 0;
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        const rb_compare_pair *p = &cmp->pairs[k];
        if (!(p->differs & (1u << setting)))
            continue;
        char *id = xasprintf("%s\x1f%s", p->old_row->settings[setting],
                             p->new_row->settings[setting]);
        int added;
        size_t *slot = text_index_put(&groups_by_values, id, n_groups, &added);
        if (added) {
            *(char **)grow(&ids, &n_ids, &ids_cap, sizeof *ids) = id;
            setting_group *g = grow(&groups, &n_groups, &cap, sizeof *groups);
            g->first = k;
        } else {
            free(id);
        }
        setting_group *g = &groups[*slot];
        if (g->count < NAMED_PER_WARNING)
            g->named[g->count] = k;
        g->count++;
    }
    for (size_t k = 0; k < n_groups && k < WARNINGS_PER_SETTING; k++) {
        const setting_group *g = &groups[k];
        const rb_compare_pair *first = &cmp->pairs[g->first];
        char *old_value = printable_text(first->old_row->settings[setting]);
        char *new_value = printable_text(first->new_row->settings[setting]);
        diag_warn("%s differs in %zu configuration%s (old: %s, new: %s); their samples measure "
                  "different things:",
                  setting_names[setting], g->count, g->count == 1 ? "" : "s", old_value,
                  new_value);
        free(old_value);
        free(new_value);
        size_t named = g->count < NAMED_PER_WARNING ? g->count : NAMED_PER_WARNING;
        for (size_t j = 0; j < named; j++) {
            char *title = compare_row_title(cmp->pairs[g->named[j]].old_row);
            fprintf(stderr, "  #%zu %s\n", g->named[j] + 1, title);
            free(title);
        }
        if (g->count > named)
            fprintf(stderr, "  and %zu more\n", g->count - named);
    }
    if (n_groups > WARNINGS_PER_SETTING)
        diag_warn("%s differs in %zu more ways, not listed", setting_names[setting],
                  n_groups - WARNINGS_PER_SETTING);
    free(groups);
    free_list(ids, n_ids);
    text_index_free(&groups_by_values);
}

void comparison_warn_measured_differently(const rb_comparison *cmp)
{
    if (cmp->n_differ == 0)
        return;
    for (int s = 0; s < RB_SETTING_COUNT_; s++)
        warn_setting(cmp, s);
    diag_warn("%s %zu verdict%s %s kept, marked in the report, and count%s toward the exit "
              "status as usual; compare files measured the same way",
              cmp->n_differ == 1 ? "that" : "those", cmp->n_differ, cmp->n_differ == 1 ? "" : "s",
              cmp->n_differ == 1 ? "is" : "are", cmp->n_differ == 1 ? "s" : "");
}

void comparison_free(rb_comparison *cmp)
{
    free(cmp->pairs);
    free(cmp->only_old);
    free(cmp->only_new);
    free_list(cmp->device_changes, cmp->n_device_changes);
    compare_file_free(&cmp->old_file);
    compare_file_free(&cmp->new_file);
}
