/* src/tune/winners.c: the winners of `redbench tune` written
 * (tune/winners.h): the tuned experiment, its [experiment] section from
 * config/settings.c's table and one run per winner, written through
 * base/ini_writer.c, and the winner map. */
#include "config.h"

#include "tune/winners.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/ini_writer.h"
#include "base/json_writer.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/units.h"
#include "base/util.h"
#include "config/sweep.h"
#include "config/settings.h"
#include "host/registry.h"
#include "results/fields.h"

/* ---- the tuned experiment ---- */

static int run_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
}

/* Whether two winners' groups differ by `key` but by nothing their run
 * name already holds (run, op, dtype, n, ranks). */
enum { DIFFER_DISTRIBUTION, DIFFER_BINS };
static int clash_by(const rb_configuration *a, const rb_configuration *b, int key)
{
    if (a->run != b->run || a->op != b->op || a->dtype != b->dtype || a->n != b->n ||
        a->ranks != b->ranks || a->rows != b->rows || a->axis != b->axis ||
        a->lengths != b->lengths)
        return 0;
    return key == DIFFER_DISTRIBUTION ? a->distribution != b->distribution : a->bins != b->bins;
}

/* The run name of each winner (NULL for a group without one): its run, op,
 * dtype and n, its distribution and bins where another winner of the
 * same run differs by them only, its ranks above 1; cut to fit the
 * reader's line, and numbered where two would still be the same. */
static char **tuned_run_names(const rb_tune_group *groups, size_t n_groups, size_t longest)
{
    char **names = xcalloc(n_groups ? n_groups : 1, sizeof *names);
    /* "[run " NAME "]" within the line, with room for "-NNNNNNNNNN" */
    size_t most = longest > 6 + 11 + 16 ? longest - 6 - 11 : 16;
    for (size_t k = 0; k < n_groups; k++) {
        if (groups[k].winner == groups[k].count)
            continue;
        const rb_configuration *c = groups[k].cands[0].config;
        int by_dist = 0, by_bins = 0;
        for (size_t j = 0; j < n_groups; j++) {
            if (j == k || groups[j].winner == groups[j].count)
                continue;
            by_dist |= clash_by(c, groups[j].cands[0].config, DIFFER_DISTRIBUTION);
            by_bins |= clash_by(c, groups[j].cands[0].config, DIFFER_BINS);
        }
        char n[32];
        format_size(c->n, n, sizeof n);
        strbuf tail = {0};
        sb_printf(&tail, "-%s-%s-%s", op_name(c->op), dtype_name(c->dtype), n);
        if (by_dist)
            sb_printf(&tail, "-%s", distribution_name(c->distribution));
        if (by_bins)
            sb_printf(&tail, "-b%u", c->bins);
        if (c->ranks > 1)
            sb_printf(&tail, "-r%u", c->ranks);
        if (sweep_is_shaped(c)) {
            char rows[32];
            format_size(c->rows, rows, sizeof rows);
            sb_printf(&tail, "-x%s%s%s", rows, c->axis == RB_AXIS_COLUMN ? "-col" : "",
                      c->lengths == RB_LENGTHS_RAGGED ? "-ragged" : "");
        }
        size_t head = strlen(c->run->name);
        if (head + tail.len > most)
            head = most > tail.len + 1 ? most - tail.len : 1;
        char *name = xasprintf("%.*s%s", (int)head, c->run->name, tail.data);
        sb_free(&tail);
        for (char *p = name; *p; p++)
            if (!run_name_char(*p))
                *p = '_';
        /* numbered while another winner already has it */
        char *unique = xstrdup(name);
        for (unsigned number = 2;; number++) {
            int taken = 0;
            for (size_t j = 0; j < k && !taken; j++)
                taken = names[j] && strcmp(names[j], unique) == 0;
            if (!taken)
                break;
            free(unique);
            unique = xasprintf("%s-%u", name, number);
        }
        free(name);
        names[k] = unique;
    }
    return names;
}

/* The tuned experiment's name: the experiment's, made printable, with
 * nothing the reader would take for a comment, cut to fit its line, and
 * "-tuned" after it. */
static char *tuned_name(const char *name, size_t longest)
{
    static const char suffix[] = "-tuned";
    char *shown = printable_text(name);
    for (char *p = shown; *p; p++)
        if (*p == ';' && (p == shown || p[-1] == ' ' || p[-1] == '\t'))
            *p = '_';
    char *text = trim(shown);
    size_t room = longest > strlen("name = ") + sizeof suffix ? longest - strlen("name = ") -
                                                                  (sizeof suffix - 1)
                                                            : 0;
    size_t len = strlen(text);
    if (len > room) {
        len = room;
        while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
            len--; /* not inside a UTF-8 sequence */
    }
    char *tuned = xasprintf("%.*s%s", (int)len, text, suffix);
    free(shown);
    return tuned;
}

/* Whether a plugin was found loose, its file straight in a folder of the
 * search path (not in a pack's folder) and that folder with no manifest:
 * its "pack" is only where it lay. */
static int loose_plugin(const rb_registry *reg, const rb_loaded_plugin *p)
{
    const char *slash = strrchr(p->path, '/');
    if (!reg || !slash)
        return 0;
    size_t dir = (size_t)(slash - p->path);
    const rb_pack *pack = registry_pack(reg, p->pack);
    if (pack && pack->manifest)
        return 0;
    for (size_t k = 0; k < reg->n_dirs; k++) {
        size_t len = strlen(reg->dirs[k]);
        while (len > 1 && reg->dirs[k][len - 1] == '/')
            len--;
        if (len == dir && strncmp(reg->dirs[k], p->path, dir) == 0)
            return 1;
    }
    return 0;
}

/* Whether `plugin = PACK/NAME` names the pack as an experiment reads it:
 * one word, with nothing the reader takes for a list or a comment. */
static int pack_writable(const char *pack)
{
    for (const unsigned char *p = (const unsigned char *)pack; *p; p++)
        if (*p <= ' ' || *p == 0x7f || strchr(",;#/", *p))
            return 0;
    return *pack != '\0';
}

/* The plugin as the tuned run names it: PACK/NAME, or its NAME alone where
 * that names it here and the plugin is loose (so that the same file found
 * in another folder of another search path still answers to it) or its
 * pack's name cannot be written; NULL when neither can name it. */
static char *plugin_reference(const rb_registry *reg, const rb_loaded_plugin *p)
{
    int alone = reg && registry_find(reg, p->desc->name) == p;
    if (alone && (loose_plugin(reg, p) || !pack_writable(p->pack)))
        return xstrdup(p->desc->name);
    if (!pack_writable(p->pack))
        return NULL;
    return xasprintf("%s/%s", p->pack, p->desc->name);
}

/* A winner's parameters. A choice word that cannot be written so that it
 * reads back is left out when it is the plugin's default (the default is
 * what a run without the key takes), else refused naming the word. */
static int write_params(rb_ini_writer *w, const char *path, const rb_configuration *c)
{
    const rb_plugin *desc = c->plugin->desc;
    for (uint32_t p = 0; p < c->n_params; p++) {
        const char *key = c->params[p].name, *text = c->params[p].text;
        const char *problem = ini_value_problem(w, key, text, RB_INI_WORD);
        if (!problem) {
            ini_write_key(w, key, text, RB_INI_WORD);
            continue;
        }
        const char *def = p < desc->n_params ? desc->params[p].default_value : NULL;
        char *shown = printable_text(text);
        if (def && strcmp(def, text) == 0) {
            char *note = xasprintf("%s: the plugin's default, '%s' (left out: %s)", key, shown,
                                   problem);
            ini_write_comment(w, note);
            free(note);
            free(shown);
            continue;
        }
        diag_error("%s not written: the winner of [run %s] sets parameter '%s' of plugin '%s' "
                   "to '%s', which cannot be written so that it reads back: %s", path,
                   c->run->name, key, desc->name, shown, problem);
        free(shown);
        return -1;
    }
    return 0;
}

int tuned_experiment_write(FILE *out, const char *path, const rb_tuner *t,
                           const rb_tune_group *groups, size_t n_groups)
{
    const rb_experiment *exp = t->exp;
    rb_ini_writer iw, *w = &iw;
    ini_writer_init(w, out);
    char *line = xasprintf("The winners of `redbench tune -c %s`, one run each.", exp->path);
    ini_write_comment(w, line);
    free(line);
    /* every setting the search ran under, so that a re-run measures the
     * same way; all but `output`, so that running the tuned file does not
     * write over the sweep's results */
    char *name = tuned_name(exp->name ? exp->name : "", w->longest);
    settings_write(w, exp, name, 0);
    free(name);
    char **names = tuned_run_names(groups, n_groups, w->longest);
    int failed = 0;
    for (size_t k = 0; k < n_groups && !failed && !w->failed; k++) {
        const rb_tune_group *g = &groups[k];
        if (g->winner == g->count)
            continue;
        const rb_configuration *c = g->cands[g->winner].config;
        char *header = xasprintf("run %s", names[k]);
        char *plugin = plugin_reference(t->reg, c->plugin);
        if (!plugin) {
            char *pack = printable_text(c->plugin->pack);
            diag_error("%s not written: the winner of [run %s] is plugin '%s' of pack '%s', "
                       "which more than one pack offers, and a run cannot name that pack "
                       "(its name is not one word)", path, c->run->name, c->plugin->desc->name,
                       pack);
            free(pack);
            free(header);
            failed = 1;
            break;
        }
        ini_write_blank(w);
        ini_write_section(w, header);
        ini_write_key(w, "plugin", plugin, RB_INI_WORD);
        data_keys_write(w, c);
        free(header);
        free(plugin);
        failed = !w->failed && write_params(w, path, c) != 0;
    }
    for (size_t k = 0; k < n_groups; k++)
        free(names[k]);
    free(names);
    if (w->failed && !failed)
        diag_error("%s not written: %s", path, w->error);
    return failed || w->failed ? -1 : 0;
}

/* The best group (by the objective's score) of each (op, dtype,
 * distribution, bins, ranks, rows, axis, lengths, n) other than `not` (-1:
 * none left out); -1 if none. */
static long best_at(const rb_tune_group *groups, size_t n_groups, const rb_configuration *key,
                    long not)
{
    long best = -1;
    for (size_t k = 0; k < n_groups; k++) {
        const rb_tune_group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        if ((long)k == not || g->winner == g->count || c->op != key->op ||
            c->dtype != key->dtype || c->distribution != key->distribution ||
            c->bins != key->bins || c->n != key->n || c->ranks != key->ranks ||
            c->rows != key->rows || c->axis != key->axis || c->lengths != key->lengths)
            continue;
        if (best < 0 || g->final_score < groups[best].final_score)
            best = (long)k;
    }
    return best;
}

static int same_winner(const rb_tune_group *a, const rb_tune_group *b)
{
    const rb_configuration *x = a->cands[a->winner].config, *y = b->cands[b->winner].config;
    return x->plugin == y->plugin && strcmp(x->params_text, y->params_text) == 0;
}

/* Whether two data sets differ by n alone (op, dtype, distribution,
 * bins, ranks and shape the same): one range of n may hold both. */
static int same_cell_but_n(const rb_configuration *a, const rb_configuration *b)
{
    return a->op == b->op && a->dtype == b->dtype && a->distribution == b->distribution &&
           a->bins == b->bins && a->ranks == b->ranks && a->rows == b->rows &&
           a->axis == b->axis && a->lengths == b->lengths;
}

static int by_n(const void *a, const void *b)
{
    return sweep_data_order((*(const rb_tune_group *const *)a)->cands[0].config,
                            (*(const rb_tune_group *const *)b)->cands[0].config);
}

/* A winner's entry: its range of n, its strategy and time, and its margin
 * over the runner-up (the best other run at the range's largest n):
 * runner-up time / winner time - 1, and the confidence, that margin over
 * the two measurements' combined noise (above 1: the rounds tell them
 * apart; below: within the noise). */
static void write_entry(json_writer *w, const rb_tune_group *g, const rb_tune_group *runner_up,
                        uint64_t n_min, uint64_t n_max)
{
    const rb_configuration *c = g->cands[g->winner].config;
    jw_begin_object(w);
    jw_key(w, "op"); jw_string(w, op_name(c->op));
    jw_key(w, "dtype"); jw_string(w, dtype_name(c->dtype));
    jw_key(w, "distribution"); jw_string(w, distribution_name(c->distribution));
    if (c->op == RB_OP_HISTOGRAM) { jw_key(w, "bins"); jw_uint(w, c->bins); }
    jw_key(w, "ranks"); jw_uint(w, c->ranks ? c->ranks : 1);
    if (sweep_is_shaped(c)) { /* absent for one reduction, as in results files */
        jw_key(w, "rows"); jw_uint(w, c->rows);
        jw_key(w, "axis"); jw_string(w, axis_name(c->axis));
        jw_key(w, "lengths"); jw_string(w, lengths_name(c->lengths));
    }
    jw_key(w, "n_min"); jw_uint(w, n_min);
    jw_key(w, "n_max"); jw_uint(w, n_max);
    jw_key(w, "run"); jw_string(w, c->run->name);
    jw_key(w, "plugin"); jw_string(w, c->plugin->desc->name);
    jw_key(w, "pack"); jw_string(w, c->plugin->pack);
    jw_key(w, "params");
    json_write_params(w, c); /* typed as in results files */
    jw_key(w, "median_ns"); jw_double(w, g->final_median_ns);
    jw_key(w, "bandwidth_gbs"); jw_double(w, g->final_gbs);
    jw_key(w, "runner_up");
    if (runner_up) {
        const rb_configuration *r = runner_up->cands[runner_up->winner].config;
        double margin = runner_up->final_median_ns / g->final_median_ns - 1.0;
        double noise = g->final_noise + runner_up->final_noise;
        jw_begin_object(w);
        jw_key(w, "pack"); jw_string(w, r->plugin->pack);
        jw_key(w, "plugin"); jw_string(w, r->plugin->desc->name);
        jw_key(w, "params");
        json_write_params(w, r);
        jw_key(w, "median_ns"); jw_double(w, runner_up->final_median_ns);
        jw_end_object(w);
        jw_key(w, "margin"); jw_double(w, margin);
        jw_key(w, "confidence");
        if (noise > 0)
            jw_double(w, margin / noise);
        else
            jw_null(w);
    } else {
        jw_null(w);
    }
    jw_end_object(w);
}

/* The winner map: per op/dtype/distribution (and shape: rows, axis and
 * lengths), size ranges with one winner. */
int winner_map_write(FILE *out, const rb_tuner *t, const rb_tune_group *groups, size_t n_groups)
{
    /* the best group at each data set, sorted by op, dtype, ..., n */
    const rb_tune_group **best = xcalloc(n_groups ? n_groups : 1, sizeof *best);
    size_t n_best = 0;
    for (size_t k = 0; k < n_groups; k++) {
        long b = best_at(groups, n_groups, groups[k].cands[0].config, -1);
        if (b == (long)k)
            best[n_best++] = &groups[k];
    }
    qsort(best, n_best, sizeof *best, by_n);

    json_writer jw, *w = &jw;
    jw_init(w, out, 1);
    jw_begin_object(w);
    jw_key(w, "tool"); jw_string(w, "redbench");
    jw_key(w, "schema_version"); jw_int(w, RB_RESULTS_SCHEMA_VERSION);
    jw_key(w, "version"); jw_string(w, PACKAGE_VERSION);
    jw_key(w, "experiment"); jw_string(w, t->exp->path);
    jw_key(w, "device");
    if (t->have_device) {
        jw_begin_object(w);
        jw_key(w, "backend"); jw_string(w, t->device.backend);
        jw_key(w, "name"); jw_string(w, t->device.info.name);
        jw_key(w, "uuid"); jw_string(w, t->device.info.uuid);
        jw_end_object(w);
    } else {
        jw_null(w);
    }
    jw_key(w, "configurations_measured"); jw_uint(w, t->measured);
    jw_key(w, "winners");
    jw_begin_array(w);
    for (size_t k = 0; k < n_best;) {
        size_t end = k + 1;
        while (end < n_best && by_n(&best[k], &best[end]) != 0 &&
               same_cell_but_n(best[k]->cands[0].config, best[end]->cands[0].config) &&
               same_winner(best[k], best[end]))
            end++;
        const rb_tune_group *last = best[end - 1];
        long second = best_at(groups, n_groups, last->cands[0].config, (long)(last - groups));
        write_entry(w, last, second >= 0 ? &groups[second] : NULL, best[k]->cands[0].config->n,
                    last->cands[0].config->n);
        k = end;
    }
    jw_end_array(w);
    jw_end_object(w);
    int failed = jw_finish(w) != 0;
    failed |= fputc('\n', out) == EOF;
    free(best);
    return failed ? -1 : 0;
}

/* Both files, each to a temporary beside it; both replaced once both are
 * whole, else neither. */
int write_winners(const char *ini_path, const char *map_path, const rb_tuner *t,
                  const rb_tune_group *groups, size_t n_groups)
{
    rb_safe_file ini, map;
    if (safe_file_open(&ini, ini_path, 0) != 0) {
        diag_error("%s", ini.error);
        return -1;
    }
    if (safe_file_open(&map, map_path, 0) != 0) {
        diag_error("%s", map.error);
        safe_file_abort(&ini);
        return -1;
    }
    if (tuned_experiment_write(ini.stream, ini_path, t, groups, n_groups) != 0) {
        safe_file_abort(&ini);
        safe_file_abort(&map);
        return -1;
    }
    if (winner_map_write(map.stream, t, groups, n_groups) != 0) {
        safe_file_fail(&map, "the winner map could not be made");
        diag_error("%s", map.error);
        safe_file_abort(&ini);
        return -1;
    }
    if (safe_file_commit(&ini) != 0) {
        diag_error("%s", ini.error);
        safe_file_abort(&map);
        return -1;
    }
    if (safe_file_commit(&map) != 0) {
        diag_error("%s", map.error);
        return -1;
    }
    return 0;
}
