/* src/cli/tune.c: `redbench tune -c FILE`: searches each run's parameter space
 * at each data set (op, dtype, n, distribution) and writes the winners.
 *
 * Search, per run and data set:
 *  - up to TUNE_EXHAUSTIVE candidates: successive halving, every candidate
 *    measured briefly, the best third kept and measured longer, until one
 *    is left;
 *  - more: coordinate descent from the plugin's defaults, one parameter at a
 *    time (all its values measured, the best kept) until a whole pass
 *    changes nothing, then successive halving among the best points visited.
 * The winner is measured once more with the experiment's own settings. Only
 * `ok` rows compete. What was tried is printed; the winners are written as an
 * experiment file that re-runs exactly them, and as a JSON winner map (best
 * strategy and parameters per op, dtype, distribution and size range, with
 * the device). On SIGINT or SIGTERM the candidate in progress is abandoned
 * (its worker killed), the data set it belongs to is left without a
 * winner, the winners of the data sets done are written, and the exit
 * status is 130. */
#include "config.h"

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/stop_signals.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/json_writer.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/units.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/settings.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "report/fields.h"
#include "run/results.h"
#include "run/rules.h"
#include "run/runner.h"

#define TUNE_EXHAUSTIVE 24 /* candidates searched without descent */
#define TUNE_KEEP_VISITED 6 /* best descent points confirmed by halving */

typedef struct tune_options {
    const char *config;
    const char *output;   /* tuned experiment file */
    const char *map;      /* winner map JSON */
    char **plugin_paths;
    size_t n_plugin_paths;
    int quiet;
} tune_options;

/* One candidate's measurements. */
typedef struct candidate {
    const rb_configuration *config;
    double median_ns;     /* latest measurement; INFINITY when not ok */
    int rounds;           /* times measured */
    int status;           /* latest row status */
    double bandwidth_gbs;
} candidate;

/* A run section at one data set: the configurations that differ only by
 * parameters. */
typedef struct group {
    candidate *cands;
    size_t count;
    size_t winner;        /* index into cands; count if none was ok */
    int interrupted;      /* its search was stopped by a signal */
    double final_median_ns, final_gbs;
} group;

typedef struct tuner {
    const rb_experiment *exp;
    const rb_registry *reg;
    rb_device_record device;
    int have_device;
    size_t measured;      /* configurations measured in all */
} tuner;

/* Measures `count` candidates with settings scaled by `level` (0: brief,
 * larger: longer, up to the experiment's own settings). */
static void time_candidates(tuner *t, candidate **cands, size_t count, int level)
{
    if (count == 0)
        return;
    rb_experiment exp = *t->exp;
    double scale = level >= 3 ? 1.0 : pow(3.0, level - 3);
    exp.min_time = t->exp->min_time * scale;
    exp.max_reps = (long)fmax(3.0, floor((double)t->exp->max_reps * scale));
    exp.min_reps = t->exp->min_reps < exp.max_reps ? t->exp->min_reps : exp.max_reps;
    exp.warmup = level >= 3 ? t->exp->warmup : (t->exp->warmup > 0 ? 1 : 0);

    rb_sweep sweep = {0};
    sweep.configs = xcalloc(count, sizeof *sweep.configs);
    sweep.n_configs = count;
    for (size_t k = 0; k < count; k++)
        sweep.configs[k] = *cands[k]->config; /* shallow: the original owns the parts */
    rb_results res = {0};
    rb_runner_options ropt = {.verbosity = 0, .progress = 0};
    runner_run(&exp, t->reg, &sweep, &ropt, &res);
    for (size_t k = 0; k < count; k++) {
        const rb_row *row = &res.rows[k];
        cands[k]->rounds++;
        cands[k]->status = row->status;
        cands[k]->median_ns = row->status == RB_ROW_OK ? row->stats.median : INFINITY;
        cands[k]->bandwidth_gbs = row->bandwidth_gbs;
    }
    if (!t->have_device && res.info.n_devices > 0) {
        t->device = res.info.devices[0];
        t->have_device = 1;
    }
    t->measured += count;
    results_free(&res);
    free(sweep.configs);
}

static int by_median(const void *a, const void *b)
{
    double x = (*(candidate *const *)a)->median_ns, y = (*(candidate *const *)b)->median_ns;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Successive halving over `count` candidates; returns the survivor. */
static candidate *halve(tuner *t, candidate **pool, size_t count, int level)
{
    while (count > 0) {
        time_candidates(t, pool, count, level);
        qsort(pool, count, sizeof *pool, by_median);
        if (count == 1 || !isfinite(pool[0]->median_ns))
            break;
        size_t keep = (count + 2) / 3;
        count = keep;
        level++;
    }
    return count ? pool[0] : NULL;
}

static int same_params_but(const rb_configuration *a, const rb_configuration *b, uint32_t skip)
{
    for (uint32_t p = 0; p < a->n_params; p++)
        if (p != skip && a->params[p].i != b->params[p].i)
            return 0;
    return 1;
}

/* Coordinate descent from the defaults; returns the best after confirming
 * the best points visited with successive halving. */
static candidate *descend(tuner *t, group *g)
{
    const rb_plugin *desc = g->cands[0].config->plugin->desc;
    candidate **line = xcalloc(g->count, sizeof *line);
    /* start: the configuration whose parameters are the defaults, else the first */
    candidate *at = &g->cands[0];
    for (size_t k = 0; k < g->count; k++) {
        int all_default = 1;
        for (uint32_t p = 0; p < desc->n_params && all_default; p++)
            all_default = strcmp(g->cands[k].config->params[p].text,
                                 desc->params[p].default_value) == 0;
        if (all_default) {
            at = &g->cands[k];
            break;
        }
    }
    for (int pass = 0; pass < 4; pass++) {
        candidate *start = at;
        for (uint32_t p = 0; p < desc->n_params; p++) {
            size_t n = 0;
            for (size_t k = 0; k < g->count; k++)
                if (same_params_but(g->cands[k].config, at->config, p))
                    line[n++] = &g->cands[k];
            if (n < 2)
                continue;
            size_t fresh = 0;
            for (size_t k = 0; k < n; k++)
                if (line[k]->rounds == 0)
                    line[fresh++] = line[k];
            time_candidates(t, line, fresh, 0);
            for (size_t k = 0; k < g->count; k++)
                if (same_params_but(g->cands[k].config, at->config, p) &&
                    g->cands[k].median_ns < at->median_ns)
                    at = &g->cands[k];
        }
        if (at == start)
            break;
    }
    size_t n = 0;
    for (size_t k = 0; k < g->count; k++)
        if (g->cands[k].rounds > 0 && isfinite(g->cands[k].median_ns))
            line[n++] = &g->cands[k];
    qsort(line, n, sizeof *line, by_median);
    candidate *best = halve(t, line, n < TUNE_KEEP_VISITED ? n : TUNE_KEEP_VISITED, 1);
    free(line);
    return best;
}

static void tune_group(tuner *t, group *g)
{
    candidate *best;
    if (!g->cands[0].config->plugin) {
        best = NULL;
    } else if (g->count <= TUNE_EXHAUSTIVE) {
        candidate **pool = xcalloc(g->count, sizeof *pool);
        for (size_t k = 0; k < g->count; k++)
            pool[k] = &g->cands[k];
        best = halve(t, pool, g->count, 0);
        free(pool);
    } else {
        best = descend(t, g);
    }
    g->winner = g->count;
    if (best && isfinite(best->median_ns)) {
        time_candidates(t, &best, 1, 3);
        if (isfinite(best->median_ns)) {
            g->winner = (size_t)(best - g->cands);
            g->final_median_ns = best->median_ns;
            g->final_gbs = best->bandwidth_gbs;
        }
    }
}

static int same_data(const rb_configuration *a, const rb_configuration *b)
{
    return a->run == b->run && a->op == b->op && a->dtype == b->dtype && a->n == b->n &&
           a->distribution == b->distribution && a->bins == b->bins;
}

/* Consecutive configurations of one run at one data set form a group. */
static size_t make_groups(const rb_sweep *sweep, group **out)
{
    size_t count = 0, cap = 0;
    group *groups = NULL;
    for (size_t k = 0; k < sweep->n_configs;) {
        size_t end = k + 1;
        while (end < sweep->n_configs && same_data(&sweep->configs[k], &sweep->configs[end]))
            end++;
        group *g = grow(&groups, &count, &cap, sizeof *g);
        g->count = end - k;
        g->winner = g->count; /* none until searched */
        g->cands = xcalloc(g->count, sizeof *g->cands);
        for (size_t j = 0; j < g->count; j++) {
            g->cands[j].config = &sweep->configs[k + j];
            g->cands[j].median_ns = INFINITY;
        }
        k = end;
    }
    *out = groups;
    return count;
}

static void print_tried(FILE *out, const group *groups, size_t n_groups)
{
    for (size_t k = 0; k < n_groups; k++) {
        const group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        char n[32];
        format_size(c->n, n, sizeof n);
        size_t tried = 0;
        for (size_t j = 0; j < g->count; j++)
            tried += g->cands[j].rounds > 0;
        fprintf(out, "[%s] %s %s %s n=%s: %zu of %zu configurations tried\n", c->run->name,
                c->plugin ? c->plugin->desc->name : c->run->plugin, op_name(c->op),
                dtype_name(c->dtype), n, tried, g->count);
        for (size_t j = 0; j < g->count; j++) {
            const candidate *cand = &g->cands[j];
            if (cand->rounds == 0)
                continue;
            char t[32];
            format_duration_ns(cand->median_ns, t, sizeof t);
            fprintf(out, "  %s %-40s %10s  %s%s\n", j == g->winner ? "*" : " ",
                    cand->config->params_text,
                    isfinite(cand->median_ns) ? t : "-", row_status_name(cand->status),
                    cand->rounds > 1 ? "" : " (one brief round)");
        }
        if (g->interrupted)
            fprintf(out, "  no winner: interrupted while it was searched\n");
        else if (tried == 0)
            fprintf(out, "  not searched (interrupted before)\n");
        else if (g->winner == g->count)
            fprintf(out, "  no configuration ran ok\n");
    }
}

static void write_param_lines(FILE *out, const rb_configuration *c)
{
    for (uint32_t p = 0; p < c->n_params; p++)
        fprintf(out, "%s = %s\n", c->params[p].name, c->params[p].text);
}

/* The winners as an experiment file that re-runs exactly them. */
static int write_experiment(const char *path, const rb_experiment *exp, const group *groups,
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
        const group *g = &groups[k];
        if (g->winner == g->count)
            continue;
        const rb_configuration *c = g->cands[g->winner].config;
        char n[32];
        format_size(c->n, n, sizeof n);
        fprintf(out, "\n[run %s-%s-%s-%s]\nplugin = %s/%s\nop = %s\ndtype = %s\nn = %s\n"
                "distribution = %s\n", c->run->name, op_name(c->op), dtype_name(c->dtype), n,
                c->plugin->pack, c->plugin->desc->name, op_name(c->op), dtype_name(c->dtype), n,
                distribution_name(c->distribution));
        if (c->op == RB_OP_HISTOGRAM)
            fprintf(out, "bins = %u\n", c->bins);
        write_param_lines(out, c);
    }
    if (safe_file_commit(&file) != 0) {
        diag_error("%s", file.error);
        return -1;
    }
    return 0;
}

/* The best group of each (op, dtype, distribution, bins, n); -1 if none. */
static long best_at(const group *groups, size_t n_groups, const rb_configuration *key)
{
    long best = -1;
    for (size_t k = 0; k < n_groups; k++) {
        const group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        if (g->winner == g->count || c->op != key->op || c->dtype != key->dtype ||
            c->distribution != key->distribution || c->bins != key->bins || c->n != key->n)
            continue;
        if (best < 0 || g->final_median_ns < groups[best].final_median_ns)
            best = (long)k;
    }
    return best;
}

static int same_winner(const group *a, const group *b)
{
    const rb_configuration *x = a->cands[a->winner].config, *y = b->cands[b->winner].config;
    return x->plugin == y->plugin && strcmp(x->params_text, y->params_text) == 0;
}

static int by_n(const void *a, const void *b)
{
    const rb_configuration *x = (*(const group *const *)a)->cands[0].config;
    const rb_configuration *y = (*(const group *const *)b)->cands[0].config;
    if (x->op != y->op) return x->op - y->op;
    if (x->dtype != y->dtype) return x->dtype - y->dtype;
    if (x->distribution != y->distribution) return x->distribution - y->distribution;
    if (x->bins != y->bins) return x->bins < y->bins ? -1 : 1;
    return x->n < y->n ? -1 : x->n > y->n;
}

static void write_entry(json_writer *w, const group *g, uint64_t n_min, uint64_t n_max)
{
    const rb_configuration *c = g->cands[g->winner].config;
    jw_begin_object(w);
    jw_key(w, "op"); jw_string(w, op_name(c->op));
    jw_key(w, "dtype"); jw_string(w, dtype_name(c->dtype));
    jw_key(w, "distribution"); jw_string(w, distribution_name(c->distribution));
    if (c->op == RB_OP_HISTOGRAM) { jw_key(w, "bins"); jw_uint(w, c->bins); }
    jw_key(w, "n_min"); jw_uint(w, n_min);
    jw_key(w, "n_max"); jw_uint(w, n_max);
    jw_key(w, "run"); jw_string(w, c->run->name);
    jw_key(w, "plugin"); jw_string(w, c->plugin->desc->name);
    jw_key(w, "pack"); jw_string(w, c->plugin->pack);
    jw_key(w, "params");
    json_write_params(w, c); /* typed as in results files */
    jw_key(w, "median_ns"); jw_double(w, g->final_median_ns);
    jw_key(w, "bandwidth_gbs"); jw_double(w, g->final_gbs);
    jw_end_object(w);
}

/* The winner map: per op/dtype/distribution, size ranges with one winner. */
static int write_map(const char *path, const tuner *t, const group *groups, size_t n_groups)
{
    rb_safe_file file;
    if (safe_file_open(&file, path, 0) != 0) {
        diag_error("%s", file.error);
        return -1;
    }
    FILE *out = file.stream;
    /* the best group at each data set, sorted by op, dtype, ..., n */
    const group **best = xcalloc(n_groups ? n_groups : 1, sizeof *best);
    size_t n_best = 0;
    for (size_t k = 0; k < n_groups; k++) {
        long b = best_at(groups, n_groups, groups[k].cands[0].config);
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
               same_winner(best[k], best[end]))
            end++;
        write_entry(w, best[end - 1], best[k]->cands[0].config->n,
                    best[end - 1]->cands[0].config->n);
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

static int parse_with(int argc, char **argv, const rb_getopt *g, tune_options *opt);

/* Returns 0, 1 after --help, or 2 after a usage error. */
static int parse_tune_options(int argc, char **argv, tune_options *opt)
{
    rb_getopt g = command_getopt(command_spec("tune"));
    int status = parse_with(argc, argv, &g, opt);
    command_getopt_free(&g);
    return status;
}

/* parse_tune_options with getopt's arrays made from the table. */
static int parse_with(int argc, char **argv, const rb_getopt *g, tune_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->output = "tuned.ini";
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, g->shorts, g->longs, NULL)) != -1) {
        switch (c) {
        case 'c': opt->config = optarg; break;
        case 'o': opt->output = optarg; break;
        case 'm': opt->map = optarg; break;
        case 'p':
            opt->plugin_paths = xrealloc(opt->plugin_paths,
                                         (opt->n_plugin_paths + 1) * sizeof *opt->plugin_paths);
            opt->plugin_paths[opt->n_plugin_paths++] = optarg;
            break;
        case 'q': opt->quiet = 1; break;
        case 'h': command_help(command_spec("tune"), stdout); return 1;
        case ':': return usage_error("tune", "this option needs a value: %s", argv[optind - 1]);
        default:
            return usage_error("tune", "unknown option: %s; valid: %s", argv[optind - 1],
                               command_option_names(command_spec("tune")));
        }
    }
    if (optind < argc)
        return usage_error("tune", "unexpected argument: %s", argv[optind]);
    if (!opt->config)
        return usage_error("tune", "give an experiment file with -c FILE");
    return 0;
}

static int tune_interrupted(void) { return runner_stop_requested || runner_stop_now; }

/* SIGINT or SIGTERM: the search stops at once (the runner kills the
 * worker in progress); what was found is written. */
static void on_tune_signal(int sig)
{
    static const char msg[] = "\nredbench tune: interrupted: the data set in progress is "
                              "left without a winner; writing the winners found\n";
    if (runner_stop_now)
        return;
    runner_stop_requested = sig;
    runner_stop_now = sig;
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
}

/* Searches the groups in order until done or interrupted; the group in
 * progress at an interruption keeps no winner. Returns the groups done. */
static size_t search_groups(tuner *t, group *groups, size_t n_groups, int quiet)
{
    size_t k = 0;
    for (; k < n_groups && !tune_interrupted(); k++) {
        tune_group(t, &groups[k]);
        if (tune_interrupted()) {
            groups[k].winner = groups[k].count;
            groups[k].interrupted = 1;
            break;
        }
        if (!quiet)
            fprintf(stderr, "tune: %zu/%zu data sets done\n", k + 1, n_groups);
    }
    return k;
}

int command_tune(int argc, char **argv)
{
    tune_options opt;
    int status = parse_tune_options(argc, argv, &opt);
    if (status != 0) {
        free(opt.plugin_paths);
        return status == 1 ? 0 : status;
    }
    char *map = opt.map ? xstrdup(opt.map) : NULL;
    if (!map) {
        const char *dot = strrchr(opt.output, '.');
        size_t stem = dot && strcmp(dot, ".ini") == 0 ? (size_t)(dot - opt.output)
                                                      : strlen(opt.output);
        map = xasprintf("%.*s.json", (int)stem, opt.output);
    }
    rb_registry reg = {0};
    registry_discover(&reg, opt.plugin_paths, opt.n_plugin_paths);
    rb_experiment exp;
    rb_sweep sweep = {0};
    status = 2;
    char why[768];
    if (experiment_load(opt.config, &exp) != 0 || sweep_expand(&exp, &reg, &sweep) != 0) {
        fprintf(stderr, "redbench: %s has errors; nothing was run\n", opt.config);
    } else if (safe_file_check(opt.output, why, sizeof why) != 0 ||
               safe_file_check(map, why, sizeof why) != 0) {
        /* checked before the search, so that its results are not lost */
        diag_error("%s; nothing was run", why);
    } else {
        tuner t = {.exp = &exp, .reg = &reg};
        group *groups = NULL;
        size_t n_groups = make_groups(&sweep, &groups);
        stop_signals_install(on_tune_signal);
        size_t done = search_groups(&t, groups, n_groups, opt.quiet);
        print_tried(stdout, groups, n_groups);
        size_t winners = 0;
        for (size_t k = 0; k < n_groups; k++)
            winners += groups[k].winner < groups[k].count;
        if (done < n_groups)
            printf("\ninterrupted: %zu of %zu data sets searched", done, n_groups);
        printf("\n%zu configurations measured; %zu winners written to %s and %s\n", t.measured,
               winners, opt.output, map);
        status = write_experiment(opt.output, &exp, groups, n_groups) == 0 &&
                         write_map(map, &t, groups, n_groups) == 0
                     ? (done < n_groups ? 130 : winners == n_groups ? 0 : 1)
                     : 1;
        for (size_t k = 0; k < n_groups; k++)
            free(groups[k].cands);
        free(groups);
    }
    sweep_free(&sweep);
    experiment_free(&exp);
    registry_free(&reg);
    free(map);
    free(opt.plugin_paths);
    return status;
}
