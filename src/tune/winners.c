/* src/tune/winners.c: the winners of `redbench tune` written
 * (tune/winners.h): the tuned experiment, its [experiment] section from
 * config/settings.c's table and one run per winner, and the winner map. */
#include "config.h"

#include "tune/winners.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json_writer.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/units.h"
#include "base/util.h"
#include "config/settings.h"
#include "report/fields.h"

static void write_param_lines(FILE *out, const rb_configuration *c)
{
    for (uint32_t p = 0; p < c->n_params; p++)
        fprintf(out, "%s = %s\n", c->params[p].name, c->params[p].text);
}

/* The winners as an experiment file that re-runs exactly them. */
int write_tuned_experiment(const char *path, const rb_experiment *exp, const rb_tune_group *groups,
                           size_t n_groups)
{
    rb_safe_file file;
    if (safe_file_open(&file, path, 0) != 0) {
        diag_error("%s", file.error);
        return -1;
    }
    FILE *out = file.stream;
    fprintf(out, "; The winners of `redbench tune -c %s`, one run each.\n", exp->path);
    /* every setting it was tuned under, so that the re-run measures the same way */
    char *name = xasprintf("%s-tuned", exp->name);
    settings_write_section(out, exp, name);
    free(name);
    for (size_t k = 0; k < n_groups; k++) {
        const rb_tune_group *g = &groups[k];
        if (g->winner == g->count)
            continue;
        const rb_configuration *c = g->cands[g->winner].config;
        char n[32];
        format_size(c->n, n, sizeof n);
        char ranks[32] = "";
        if (c->ranks > 1)
            snprintf(ranks, sizeof ranks, "-r%u", c->ranks);
        fprintf(out, "\n[run %s-%s-%s-%s%s]\nplugin = %s/%s\nop = %s\ndtype = %s\nn = %s\n"
                "distribution = %s\n", c->run->name, op_name(c->op), dtype_name(c->dtype), n, ranks,
                c->plugin->pack, c->plugin->desc->name, op_name(c->op), dtype_name(c->dtype), n,
                distribution_name(c->distribution));
        if (c->op == RB_OP_HISTOGRAM)
            fprintf(out, "bins = %u\n", c->bins);
        if (c->ranks > 1)
            fprintf(out, "ranks = %u\n", c->ranks);
        write_param_lines(out, c);
    }
    if (safe_file_commit(&file) != 0) {
        diag_error("%s", file.error);
        return -1;
    }
    return 0;
}

/* The best group (by the objective's score) of each (op, dtype,
 * distribution, bins, ranks, n) other than `not` (-1: none left out); -1
 * if none. */
static long best_at(const rb_tune_group *groups, size_t n_groups, const rb_configuration *key,
                    long not)
{
    long best = -1;
    for (size_t k = 0; k < n_groups; k++) {
        const rb_tune_group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        if ((long)k == not || g->winner == g->count || c->op != key->op ||
            c->dtype != key->dtype || c->distribution != key->distribution ||
            c->bins != key->bins || c->n != key->n || c->ranks != key->ranks)
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

/* The winner map: per op/dtype/distribution, size ranges with one winner. */
int write_winner_map(const char *path, const rb_tuner *t, const rb_tune_group *groups, size_t n_groups)
{
    rb_safe_file file;
    if (safe_file_open(&file, path, 0) != 0) {
        diag_error("%s", file.error);
        return -1;
    }
    FILE *out = file.stream;
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
               best[end]->cands[0].config->op == best[k]->cands[0].config->op &&
               best[end]->cands[0].config->dtype == best[k]->cands[0].config->dtype &&
               best[end]->cands[0].config->distribution ==
                   best[k]->cands[0].config->distribution &&
               best[end]->cands[0].config->bins == best[k]->cands[0].config->bins &&
               best[end]->cands[0].config->ranks == best[k]->cands[0].config->ranks &&
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
    if (failed) {
        safe_file_fail(&file, "the winner map could not be made");
        diag_error("%s", file.error);
        return -1;
    }
    if (safe_file_commit(&file) != 0) {
        diag_error("%s", file.error);
        return -1;
    }
    return 0;
}

