/* src/compare/comparison.c: what `redbench compare OLD.json NEW.json` does
 * between its command line (cli/compare.c) and its reports: reading the two
 * result files back, matching their configurations (same
 * run, plugin, parameters, op, dtype, n, distribution and bins), refusing
 * different devices unless told, judging each pair (compare/significance.c) and
 * noticing pairs measured differently. The files are read by the results
 * reader every consumer uses (results/read.c), then kept compactly: the
 * texts once each, the samples in one block. The reports are written by
 * compare/report.c.
 *
 * A pair whose rows were timed in different modes (launch against graph,
 * say) or with a different cache regime (hot against cold) compares
 * different measurements. Such pairs keep the verdict their samples give
 * and count toward the exit status like any other pair, so a regression
 * gate is neither loosened nor tightened by the difference; a warning on
 * standard error names them with both settings, and every report marks
 * them. Only settings that both rows record are compared: a file written
 * before rows carried their timing mode is taken as it is.
 *
 * Where both rows of a pair measured energy (energy = on), their energy
 * per call is judged beside the time by the same rules, over one figure
 * a round (rounds[].energy_j): two rounds or more on both sides, else
 * unclear; a pair where a row has none says so. A higher energy is a
 * regression of the exit status unless --energy report. */
#include "compare/comparison.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/sweep.h"
#include "results/read.h"

/* ---- reading a result file ---- */

static const char *const setting_names[RB_SETTING_COUNT_] = {
    [RB_SETTING_TIMING] = "timing",
    [RB_SETTING_CACHE] = "cache",
};

const char *compare_setting_name(int setting)
{
    return setting >= 0 && setting < RB_SETTING_COUNT_ ? setting_names[setting] : "?";
}

/* A text, the file's own copy (NULL stays NULL). */
static const char *keep(rb_compare_file *file, const char *text)
{
    return text ? text_index_intern(&file->texts, text) : NULL;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether a configuration's parameter is a number in the results file (an
 * integer parameter; "auto" stays a word), as the JSON report writes it. */
static int param_is_number(const rb_configuration *cfg, uint32_t k)
{
    const rb_plugin *desc = cfg->plugin ? cfg->plugin->desc : NULL;
    const char *text = cfg->params[k].text;
    return desc && k < desc->n_params && desc->params[k].type == RB_PARAM_INT &&
           (!text || strcmp(text, "auto") != 0);
}

/* "block=256 variant=tree": every parameter, keys sorted when `sorted`, so
 * that files written in a different order still match; else in the row's
 * own order (the plugin's), as the run's table shows them. */
static char *params_text(const rb_configuration *cfg, int sorted)
{
    if (cfg->n_params == 0)
        return xstrdup("");
    char **items = xcalloc(cfg->n_params, sizeof *items);
    for (uint32_t k = 0; k < cfg->n_params; k++)
        items[k] = xasprintf("%s=%s", cfg->params[k].name ? cfg->params[k].name : "",
                             cfg->params[k].text ? cfg->params[k].text : "");
    if (sorted)
        qsort(items, cfg->n_params, sizeof *items, compare_strings);
    char *text = join_words((const char *const *)items, cfg->n_params, " ");
    free_list(items, cfg->n_params);
    return text;
}

/* The file's copy of a row's parameters: one per different set, found by
 * the set's text with types (so "1" and 1 stay apart). */
static const rb_compare_params *load_params(rb_compare_file *file, const rb_configuration *cfg)
{
    strbuf id = {0};
    sb_append(&id, "");
    for (uint32_t k = 0; k < cfg->n_params; k++) {
        sb_append(&id, cfg->params[k].name ? cfg->params[k].name : "");
        sb_printf(&id, "\x1f%d\x1f", param_is_number(cfg, k));
        sb_append(&id, cfg->params[k].text ? cfg->params[k].text : "");
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
    set->count = cfg->n_params;
    set->items = xcalloc(set->count ? set->count : 1, sizeof *set->items);
    for (size_t k = 0; k < set->count; k++) {
        set->items[k].key = keep(file, cfg->params[k].name ? cfg->params[k].name : "");
        set->items[k].type = param_is_number(cfg, (uint32_t)k) ? JSON_NUMBER : JSON_STRING;
        set->items[k].text = keep(file, cfg->params[k].text ? cfg->params[k].text : "");
    }
    char *text = params_text(cfg, 1), *shown = params_text(cfg, 0);
    set->text = keep(file, text);
    set->shown = keep(file, shown);
    free(text);
    free(shown);
    text_index_put(&file->params_index, keep(file, id.data), file->n_params_sets - 1, NULL);
    sb_free(&id);
    return set;
}

/* A row's energy per call; 0 when it has none. */
static double row_energy(const rb_row *row)
{
    return row->status == RB_ROW_OK && row->energy_source != RB_ENERGY_NONE &&
                   row->energy_j > 0 && isfinite(row->energy_j)
               ? row->energy_j
               : 0;
}

/* A file's rows as they are loaded: the rows and pools grow as rows come,
 * and each row's plugin is kept until the whole file is read (its
 * SHA-256 is known then). */
typedef struct compare_loading {
    rb_compare_file *file;
    size_t cap_rows, n_samples, cap_samples, n_reps, cap_reps, n_energy, cap_energy;
    const rb_loaded_plugin **plugins; /* each row's */
} compare_loading;

/* Room for `more` items after `count` in *pool (of *cap). */
static void pool_reserve(void *pool_ptr, size_t count, size_t more, size_t *cap, size_t size)
{
    void **pool = pool_ptr;
    if (count + more <= *cap && *pool)
        return;
    size_t want = *cap ? *cap : 1024;
    while (want < count + more)
        want *= 2;
    *pool = xrealloc(*pool, want * size);
    *cap = want;
}

/* A row of the typed set, as compare keeps it: its texts are the file's
 * own copies, its samples, rounds' reps and energies appended to the
 * file's pools (where compare_loaded points it). */
static void load_row(void *user, size_t position, const rb_row *row)
{
    compare_loading *l = user;
    rb_compare_file *file = l->file;
    if (file->n_rows == l->cap_rows) {
        l->cap_rows = l->cap_rows ? l->cap_rows * 2 : 1024;
        file->rows = xrealloc(file->rows, l->cap_rows * sizeof *file->rows);
        l->plugins = xrealloc(l->plugins, l->cap_rows * sizeof *l->plugins);
    }
    rb_compare_row *out = &file->rows[file->n_rows];
    const rb_configuration *cfg = row->config;
    l->plugins[file->n_rows++] = cfg->plugin;
    memset(out, 0, sizeof *out);
    out->position = position;
    out->run = keep(file, cfg->run && cfg->run->name ? cfg->run->name : "");
    out->plugin = keep(file, cfg->plugin ? cfg->plugin->desc->name
                             : cfg->run && cfg->run->plugin ? cfg->run->plugin
                                                            : "");
    out->op = keep(file, op_name(cfg->op));
    out->dtype = keep(file, dtype_name(cfg->dtype));
    out->distribution = keep(file, distribution_name(cfg->distribution));
    out->n = cfg->n;
    out->status = keep(file, row_status_name(row->status));
    out->reason = keep(file, row_reason(row));
    out->repro = keep(file, repro_name(row->repro.level));
    out->device = row->device_index;
    out->params = load_params(file, cfg);
    out->params_text = out->params->text;
    out->settings[RB_SETTING_TIMING] = keep(file, row->timing);
    out->plugin_version = cfg->plugin ? keep(file, cfg->plugin->desc->version) : NULL;
    char bins[32] = "";
    if (cfg->op == RB_OP_HISTOGRAM)
        snprintf(bins, sizeof bins, "%u", cfg->bins);
    out->bins = keep(file, bins);
    char shape[96];
    sweep_shape_text(cfg, shape, sizeof shape);
    out->shape = keep(file, shape);
    out->rows = cfg->rows ? cfg->rows : 1;
    out->axis = cfg->axis;
    out->lengths = cfg->lengths;
    out->n_samples = row->samples_ns ? row->stats.count : 0;
    pool_reserve(&file->samples, l->n_samples, out->n_samples, &l->cap_samples,
                 sizeof *file->samples);
    for (size_t k = 0; k < out->n_samples; k++)
        file->samples[l->n_samples++] = row->samples_ns[k];
    out->n_rounds = out->n_samples ? row->n_rounds : 0;
    pool_reserve(&file->round_reps, l->n_reps, out->n_rounds, &l->cap_reps,
                 sizeof *file->round_reps);
    for (size_t k = 0; k < out->n_rounds; k++)
        file->round_reps[l->n_reps++] = row->rounds[k].reps;
    out->energy_j = row_energy(row);
    pool_reserve(&file->energy_rounds, l->n_energy, row->n_rounds + 1, &l->cap_energy,
                 sizeof *file->energy_rounds);
    for (size_t k = 0; out->energy_j > 0 && k < row->n_rounds; k++)
        if (row->rounds[k].energy_j > 0)
            file->energy_rounds[l->n_energy + out->n_energy_rounds++] = row->rounds[k].energy_j;
    if (out->energy_j > 0 && out->n_energy_rounds == 0)
        file->energy_rounds[l->n_energy + out->n_energy_rounds++] = out->energy_j;
    l->n_energy += out->n_energy_rounds;
    file->n_with_energy += out->energy_j > 0;
}

/* Once every row is loaded: the file's metadata and devices, each row's
 * cache regime (the run's) and plugin's SHA-256, and the rows pointed
 * into the pools. */
static void compare_loaded(compare_loading *l, const rb_results *res)
{
    rb_compare_file *file = l->file;
    const rb_run_info *info = &res->info;
    file->version = keep(file, info->tool_version);
    file->git_revision = keep(file, info->git_revision);
    file->started = *info->started ? keep(file, info->started) : NULL;
    file->host = *info->host ? keep(file, info->host) : NULL;
    file->n_devices = info->n_devices;
    file->devices = xcalloc(info->n_devices ? info->n_devices : 1, sizeof *file->devices);
    for (size_t k = 0; k < info->n_devices; k++) {
        const rb_device_record *d = &info->devices[k];
        file->devices[k].backend = *d->backend ? keep(file, d->backend) : NULL;
        file->devices[k].name = *d->info.name ? keep(file, d->info.name) : NULL;
        file->devices[k].uuid = *d->info.uuid ? keep(file, d->info.uuid) : NULL;
        file->devices[k].index = d->device;
    }
    if (!file->rows)
        file->rows = xcalloc(1, sizeof *file->rows);
    pool_reserve(&file->samples, l->n_samples, 1, &l->cap_samples, sizeof *file->samples);
    pool_reserve(&file->round_reps, l->n_reps, 1, &l->cap_reps, sizeof *file->round_reps);
    pool_reserve(&file->energy_rounds, l->n_energy, 1, &l->cap_energy,
                 sizeof *file->energy_rounds);
    file->energy_reps = xcalloc(l->n_energy ? l->n_energy : 1, sizeof *file->energy_reps);
    for (size_t k = 0; k < l->n_energy; k++)
        file->energy_reps[k] = 1;
    const rb_experiment *exp = info->experiment;
    const char *cache = exp ? keep(file, cache_mode_name(exp->cache)) : NULL;
    double *samples = file->samples, *energy = file->energy_rounds;
    size_t *reps = file->round_reps, *ones = file->energy_reps;
    for (size_t k = 0; k < file->n_rows; k++) {
        rb_compare_row *row = &file->rows[k];
        row->settings[RB_SETTING_CACHE] = cache;
        row->plugin_sha256 = l->plugins[k] ? keep(file, l->plugins[k]->sha256) : NULL;
        row->samples = samples;
        row->round_reps = reps;
        row->energy_rounds = energy;
        row->energy_reps = ones;
        samples += row->n_samples;
        reps += row->n_rounds;
        energy += row->n_energy_rounds;
        ones += row->n_energy_rounds;
    }
    free(l->plugins);
    l->plugins = NULL;
}

int compare_file_from_results(const char *path, const rb_results *res, rb_compare_file *file)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    compare_loading l = {.file = file};
    for (size_t k = 0; k < res->n_rows; k++)
        load_row(&l, k, &res->rows[k]);
    compare_loaded(&l, res);
    return 0;
}

int compare_file_load(const char *path, rb_compare_file *file)
{
    memset(file, 0, sizeof *file);
    file->path = path;
    compare_loading l = {.file = file};
    rb_results_file results;
    /* each row kept compactly as it is read: the file's rows are never
     * all held as the reader has them */
    int status = results_read_each(path, &results, load_row, &l);
    if (status == 0)
        compare_loaded(&l, &results.res);
    results_file_free(&results);
    if (status != 0) {
        free(l.plugins);
        compare_file_free(file);
        file->path = path;
    }
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
    free(file->round_reps);
    free(file->energy_rounds);
    free(file->energy_reps);
    free(file->devices);
    text_index_free(&file->params_index);
    text_index_free(&file->texts);
    memset(file, 0, sizeof *file);
}

/* ---- matching ---- */

/* What identifies a configuration across files: run, plugin, parameters,
 * op, dtype, n, distribution, bins and shape (of the plugin and parameters, what
 * comparison_prepare left: --ignore, --match run). */
static int compare_configurations(const rb_compare_row *x, const rb_compare_row *y)
{
    const char *const xs[] = {x->run, x->match_plugin ? x->match_plugin : x->plugin,
                              x->match_params ? x->match_params : x->params_text, x->op,
                              x->dtype};
    const char *const ys[] = {y->run, y->match_plugin ? y->match_plugin : y->plugin,
                              y->match_params ? y->match_params : y->params_text, y->op,
                              y->dtype};
    for (size_t k = 0; k < RB_ARRAY_LEN(xs); k++) {
        int c = strcmp(xs[k], ys[k]);
        if (c)
            return c;
    }
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    int c = strcmp(x->distribution, y->distribution);
    if (!c)
        c = strcmp(x->bins, y->bins);
    return c ? c : strcmp(x->shape, y->shape);
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

/* ---- what matching compares: --ignore PARAM, --match run ---- */

static int ignored(const rb_comparison *cmp, const char *key)
{
    for (size_t k = 0; k < cmp->n_ignore; k++)
        if (strcmp(cmp->ignore[k], key) == 0)
            return 1;
    return 0;
}

/* Whether a row of either file has parameter `key`; adds every key seen to
 * `keys` (once each). */
static int some_row_has(const rb_comparison *cmp, const char *key, text_index *keys,
                        strbuf *list)
{
    int found = 0;
    const rb_compare_file *files[] = {&cmp->old_file, &cmp->new_file};
    for (size_t f = 0; f < 2; f++)
        for (size_t k = 0; k < files[f]->n_params_sets; k++) {
            const rb_compare_params *set = files[f]->params_sets[k];
            for (size_t j = 0; j < set->count; j++) {
                found |= strcmp(set->items[j].key, key) == 0;
                int added;
                text_index_put(keys, set->items[j].key, 0, &added);
                if (added)
                    sb_printf(list, "%s%s", list->len ? ", " : "", set->items[j].key);
            }
        }
    return found;
}

/* The row's parameters without the ignored ones, keys sorted. */
static const char *kept_params(rb_compare_file *file, const rb_comparison *cmp,
                               const rb_compare_row *row)
{
    const rb_compare_params *set = row->params;
    char **items = xcalloc(set->count + 1, sizeof *items);
    size_t n = 0;
    for (size_t k = 0; k < set->count; k++)
        if (!ignored(cmp, set->items[k].key))
            items[n++] = xasprintf("%s=%s", set->items[k].key, set->items[k].text);
    qsort(items, n, sizeof *items, compare_strings);
    char *text = n ? join_words((const char *const *)items, n, " ") : xstrdup("");
    free_list(items, n);
    const char *kept = keep(file, text);
    free(text);
    return kept;
}

/* Rows of one file that are one configuration for matching: an error
 * naming the first two. Returns 0 when there are none. */
static int refuse_duplicates(const rb_comparison *cmp, const rb_compare_file *file)
{
    const rb_compare_row **rows = sorted_by_key(file);
    int status = 0;
    for (size_t k = 1; k < file->n_rows && status == 0; k++) {
        if (compare_configurations(rows[k - 1], rows[k]) != 0)
            continue;
        char *a = compare_row_title(rows[k - 1]), *b = compare_row_title(rows[k]);
        diag_error("%s: #%zu (%s) and #%zu (%s) are one configuration once %s; they cannot be "
                   "paired: leave out fewer parameters, or compare files of one value each",
                   file->path, rows[k - 1]->position + 1, a, rows[k]->position + 1, b,
                   cmp->match_run ? "matched by run (--match run)"
                                  : "the ignored parameters are left out");
        free(a);
        free(b);
        status = -1;
    }
    free(rows);
    return status;
}

int comparison_prepare(rb_comparison *cmp)
{
    for (size_t k = 0; k < cmp->n_ignore; k++) {
        text_index keys = {0};
        strbuf list = {0};
        sb_append(&list, "");
        int found = some_row_has(cmp, cmp->ignore[k], &keys, &list);
        if (!found) {
            char *shown = printable_text(cmp->ignore[k]), *valid = printable_text(list.data);
            diag_error("--ignore %s: no configuration of %s or %s has a parameter '%s'; their "
                       "parameters: %s", shown, cmp->old_file.path, cmp->new_file.path, shown,
                       *valid ? valid : "(none)");
            free(shown);
            free(valid);
        }
        sb_free(&list);
        text_index_free(&keys);
        if (!found)
            return -1;
    }
    if (cmp->n_ignore == 0 && !cmp->match_run)
        return 0;
    rb_compare_file *files[] = {&cmp->old_file, &cmp->new_file};
    for (size_t f = 0; f < 2; f++)
        for (size_t k = 0; k < files[f]->n_rows; k++) {
            rb_compare_row *row = &files[f]->rows[k];
            row->match_plugin = cmp->match_run ? keep(files[f], "") : row->plugin;
            row->match_params = cmp->match_run ? keep(files[f], "")
                                               : kept_params(files[f], cmp, row);
        }
    return refuse_duplicates(cmp, &cmp->old_file) || refuse_duplicates(cmp, &cmp->new_file)
               ? -1
               : 0;
}

char *compare_pair_params(const rb_compare_pair *p)
{
    const rb_compare_row *a = p->old_row, *b = p->new_row;
    int plugin_differs = strcmp(a->plugin, b->plugin) != 0;
    int params_differ = strcmp(a->params_text, b->params_text) != 0;
    const char *shown_a = a->params->shown, *shown_b = b->params->shown;
    if (!plugin_differs && !params_differ)
        return xstrdup(shown_a);
    strbuf sb = {0};
    if (plugin_differs)
        sb_printf(&sb, "%s%s%s -> %s%s%s", a->plugin, *shown_a ? " " : "", shown_a, b->plugin,
                  *shown_b ? " " : "", shown_b);
    else
        sb_printf(&sb, "%s -> %s", *shown_a ? shown_a : "(none)", *shown_b ? shown_b : "(none)");
    return sb.data;
}

/* ---- plugins that changed between the files ---- */

/* "serial (version 1.0 -> 1.1, SHA-256 ab12cd34... -> ef56ab78...)" when the
 * plugin of both rows is one by name and its version or file (where both
 * files know them) differs; else NULL. */
static char *plugin_change_text(const rb_compare_row *a, const rb_compare_row *b)
{
    if (strcmp(a->plugin, b->plugin) != 0)
        return NULL;
    int version = a->plugin_version && b->plugin_version &&
                  strcmp(a->plugin_version, b->plugin_version) != 0;
    int digest = a->plugin_sha256 && b->plugin_sha256 &&
                 strcmp(a->plugin_sha256, b->plugin_sha256) != 0;
    if (!version && !digest)
        return NULL;
    strbuf sb = {0};
    sb_printf(&sb, "%s (", a->plugin);
    if (version)
        sb_printf(&sb, "version %s -> %s", a->plugin_version, b->plugin_version);
    if (digest)
        sb_printf(&sb, "%sSHA-256 %.12s... -> %.12s...", version ? ", " : "", a->plugin_sha256,
                  b->plugin_sha256);
    sb_append(&sb, ")");
    return sb.data;
}

static void find_plugin_changes(rb_comparison *cmp)
{
    text_index seen = {0};
    size_t cap = 0;
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        char *text = plugin_change_text(cmp->pairs[k].old_row, cmp->pairs[k].new_row);
        int added = 0;
        if (text)
            text_index_put(&seen, text, 0, &added);
        if (added)
            *(char **)grow(&cmp->plugin_changes, &cmp->n_plugin_changes, &cap,
                           sizeof *cmp->plugin_changes) = text;
        else
            free(text);
    }
    text_index_free(&seen);
}

void comparison_note_plugin_changes(const rb_comparison *cmp)
{
    for (size_t k = 0; k < cmp->n_plugin_changes; k++) {
        char *shown = printable_text(cmp->plugin_changes[k]);
        diag_warn("plugin %s changed between the files: its verdicts compare two builds of it",
                  shown);
        free(shown);
    }
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
    rb_round_samples old_side = {a->samples, a->n_samples, a->round_reps, a->n_rounds};
    rb_round_samples new_side = {b->samples, b->n_samples, b->round_reps, b->n_rounds};
    int a_ok = strcmp(a->status, "ok") == 0, b_ok = strcmp(b->status, "ok") == 0;
    if (a_ok && b_ok) {
        compare_rounds(&old_side, &new_side, criteria, &p->stats);
        return;
    }
    rb_sample_comparison *s = &p->stats;
    memset(s, 0, sizeof *s);
    s->verdict = RB_VERDICT_UNCLEAR;
    s->n_old = a->n_samples;
    s->n_new = b->n_samples;
    s->median_old = rounds_median(&old_side);
    s->median_new = rounds_median(&new_side);
    s->ratio = s->ci_low = s->ci_high = s->p_value = s->p_adjusted = s->p_smallest = NAN;
    const rb_compare_row *bad = a_ok ? b : a;
    compare_set_why(s, "%s is %s%s%.*s", a_ok ? "new" : "old", bad->status,
                    *bad->reason ? ": " : "", 100, bad->reason);
}

/* The criteria of energy: time's, with two figures a side at least (one
 * per round: energy is measured once a round). */
static rb_compare_criteria energy_criteria(const rb_compare_criteria *criteria)
{
    rb_compare_criteria c = *criteria;
    c.min_samples = 2;
    return c;
}

/* The pair's energy, where both rows are ok and have it: compared over
 * their rounds' energy per call, one figure a round, with time's rules
 * (compare_rounds); with one round on a side, unclear, saying why. */
static void judge_energy(rb_compare_pair *p, const rb_compare_criteria *criteria)
{
    const rb_compare_row *a = p->old_row, *b = p->new_row;
    rb_sample_comparison *s = &p->energy;
    memset(s, 0, sizeof *s);
    s->quantity = RB_QUANTITY_ENERGY;
    s->verdict = RB_VERDICT_UNCLEAR;
    s->ratio = s->ci_low = s->ci_high = s->p_value = s->p_adjusted = s->p_smallest = NAN;
    s->median_old = a->energy_j > 0 ? a->energy_j : NAN;
    s->median_new = b->energy_j > 0 ? b->energy_j : NAN;
    if (strcmp(a->status, "ok") != 0 || strcmp(b->status, "ok") != 0) {
        p->no_energy = "not ok";
        return;
    }
    if (a->energy_j <= 0 || b->energy_j <= 0) {
        p->no_energy = a->energy_j > 0   ? "no energy in new"
                       : b->energy_j > 0 ? "no energy in old"
                                         : "no energy in either";
        return;
    }
    rb_round_samples old_side = {a->energy_rounds, a->n_energy_rounds, a->energy_reps,
                                 a->n_energy_rounds};
    rb_round_samples new_side = {b->energy_rounds, b->n_energy_rounds, b->energy_reps,
                                 b->n_energy_rounds};
    if (a->n_energy_rounds < 2 || b->n_energy_rounds < 2) {
        s->n_old = s->rounds_old = a->n_energy_rounds;
        s->n_new = s->rounds_new = b->n_energy_rounds;
        s->median_old = rounds_median(&old_side);
        s->median_new = rounds_median(&new_side);
        s->ratio = s->median_new / s->median_old;
        compare_set_why(s, "energy of %zu old and %zu new rounds: energy is one figure a round, "
                           "and judging it takes two rounds or more on both sides (rounds = K)",
                        a->n_energy_rounds, b->n_energy_rounds);
        return;
    }
    rb_compare_criteria c = energy_criteria(criteria);
    compare_rounds(&old_side, &new_side, &c, s);
    s->quantity = RB_QUANTITY_ENERGY;
    compare_decide(s, &c);
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

/* The same for energy, over the pairs whose energy was tested. */
static void adjust_energy_for_many(rb_comparison *cmp)
{
    rb_compare_criteria c = energy_criteria(&cmp->criteria);
    double *p = xmalloc((cmp->n_pairs ? cmp->n_pairs : 1) * sizeof *p);
    for (size_t k = 0; k < cmp->n_pairs; k++)
        p[k] = cmp->pairs[k].energy.tested ? cmp->pairs[k].energy.p_value : NAN;
    holm_adjust(p, cmp->n_pairs, p);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        rb_sample_comparison *s = &cmp->pairs[k].energy;
        if (!s->tested)
            continue;
        s->p_adjusted = p[k];
        compare_decide(s, &c);
    }
    free(p);
}

void comparison_run(rb_comparison *cmp)
{
    match_rows(cmp);
    find_device_changes(cmp);
    find_plugin_changes(cmp);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        rb_compare_pair *p = &cmp->pairs[k];
        judge_pair(p, &cmp->criteria);
        cmp->n_tested += p->stats.tested != 0;
        cmp->n_from_rounds += p->stats.tested && p->stats.from_rounds;
        p->became_bad = strcmp(p->old_row->status, "ok") == 0 && bad_status(p->new_row->status);
        cmp->n_became_bad += p->became_bad != 0;
        p->differs = settings_that_differ(p->old_row, p->new_row);
        cmp->n_differ += p->differs != 0;
        cmp->repro_shown |= p->old_row->repro || p->new_row->repro;
        judge_energy(p, &cmp->criteria);
        cmp->n_energy_pairs += p->no_energy == NULL;
        cmp->n_energy_tested += p->no_energy == NULL && p->energy.tested;
    }
    cmp->energy_shown = cmp->old_file.n_with_energy > 0 || cmp->new_file.n_with_energy > 0;
    adjust_for_many(cmp);
    adjust_energy_for_many(cmp);
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        cmp->counts[cmp->pairs[k].stats.verdict]++;
        if (!cmp->pairs[k].no_energy)
            cmp->energy_counts[cmp->pairs[k].energy.verdict]++;
    }
}

int comparison_status(const rb_comparison *cmp)
{
    return cmp->counts[RB_VERDICT_SLOWER] > 0 || cmp->n_became_bad > 0 ||
           (!cmp->energy_report_only && cmp->energy_counts[RB_VERDICT_SLOWER] > 0) ||
           (cmp->require_all && cmp->n_only_old > 0);
}

/* "plain serial block=4 sum f32 n=1K": one configuration on one line. */
char *compare_row_title(const rb_compare_row *row)
{
    char n[32];
    format_size(row->n, n, sizeof n);
    const char *params = row->params->shown;
    char *text = xasprintf("%s %s%s%s %s %s n=%s%s%s%s", row->run, row->plugin,
                           *params ? " " : "", params, row->op, row->dtype, n, row->shape,
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
            diag_line("  #%zu %s", g->named[j] + 1, title);
            free(title);
        }
        if (g->count > named)
            diag_line("  and %zu more", g->count - named);
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
    for (size_t k = 0; k < cmp->n_pairs; k++) {
        compare_result_free(&cmp->pairs[k].stats);
        compare_result_free(&cmp->pairs[k].energy);
    }
    free(cmp->pairs);
    free(cmp->only_old);
    free(cmp->only_new);
    free_list(cmp->device_changes, cmp->n_device_changes);
    free_list(cmp->plugin_changes, cmp->n_plugin_changes);
    compare_file_free(&cmp->old_file);
    compare_file_free(&cmp->new_file);
}
