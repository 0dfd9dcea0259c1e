/* src/cli/tune.c: `redbench tune -c FILE`: its options, the experiment
 * read and expanded, the search (tune/search.c) and the winners written
 * (tune/winners.c): what was tried is printed (--dry-run: what would be
 * searched, and nothing else); the winners are written as
 * an experiment file that re-runs exactly them, and as a JSON winner map.
 * On SIGINT or SIGTERM the candidate in progress is abandoned (its worker
 * killed), the data set it belongs to is left without a winner, the
 * winners of the data sets done are written, and the exit status is 130. */
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/stop_signals.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/safe_file.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/sweep.h"
#include "host/registry.h"
#include "run/runner.h"
#include "tune/search.h"
#include "tune/winners.h"

typedef struct tune_options {
    const char *config;
    const char *output;   /* tuned experiment file */
    const char *map;      /* winner map JSON */
    char **plugin_paths;
    size_t n_plugin_paths;
    char **runs;          /* -r PATTERN: the runs kept */
    size_t n_runs;
    rb_override *overrides; /* -D KEY=VALUE, in order */
    size_t n_overrides;
    int quiet;
    int dry_run;          /* --dry-run: list the search, measure nothing */
} tune_options;

static void append(char ***items, size_t *count, char *item)
{
    *items = xrealloc(*items, (*count + 1) * sizeof **items);
    (*items)[(*count)++] = item;
}

static void tune_options_free(tune_options *opt)
{
    free(opt->plugin_paths);
    free(opt->runs);
    overrides_free(opt->overrides, opt->n_overrides);
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
        case 'p': append(&opt->plugin_paths, &opt->n_plugin_paths, optarg); break;
        case 'r': append(&opt->runs, &opt->n_runs, optarg); break;
        case 'D':
            if (parse_override("tune", NULL, optarg, &opt->overrides, &opt->n_overrides) != 0)
                return 2;
            break;
        case 'n': opt->dry_run = 1; break;
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

/* --dry-run: each group (a run at one data set), its candidates and how
 * it would be searched (tune/search.h); nothing is measured. */
static void print_search_plan(const rb_experiment *exp, const rb_tune_group *groups,
                              size_t n_groups)
{
    size_t candidates = 0;
    for (size_t k = 0; k < n_groups; k++)
        candidates += groups[k].count;
    printf("%s: %zu data set%s to search, %zu candidate%s in all\n", exp->path, n_groups,
           n_groups == 1 ? "" : "s", candidates, candidates == 1 ? "" : "s");
    for (size_t k = 0; k < n_groups; k++) {
        const rb_tune_group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        char n[32];
        format_size(c->n, n, sizeof n);
        printf("%4zu  [%s] %s %s %s n=%s: %zu candidate%s, %s\n", k + 1, c->run->name,
               c->plugin ? c->plugin->desc->name : c->run->plugin, op_name(c->op),
               dtype_name(c->dtype), n, g->count, g->count == 1 ? "" : "s",
               !c->plugin ? "not searched (no plugin)"
               : g->count <= TUNE_EXHAUSTIVE
                   ? "successive halving (all measured briefly)"
                   : "coordinate descent from the defaults, then halving of the best");
    }
}

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

int command_tune(int argc, char **argv)
{
    tune_options opt;
    int status = parse_tune_options(argc, argv, &opt);
    if (status != 0) {
        tune_options_free(&opt);
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
    if (sweep_prepare(opt.config, opt.overrides, opt.n_overrides, opt.runs, opt.n_runs, &reg,
                      &exp, &sweep) != 0) {
        /* said why, then "FILE has errors; nothing was run" */
    } else if (opt.dry_run) {
        rb_tune_group *groups = NULL;
        size_t n_groups = make_groups(&sweep, &groups);
        print_search_plan(&exp, groups, n_groups);
        free_groups(groups, n_groups);
        status = 0;
    } else if (safe_file_check(opt.output, why, sizeof why) != 0 ||
               safe_file_check(map, why, sizeof why) != 0) {
        /* checked before the search, so that its results are not lost */
        diag_error("%s; nothing was run", why);
    } else {
        rb_tuner t = {.exp = &exp, .reg = &reg};
        rb_tune_group *groups = NULL;
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
        status = write_tuned_experiment(opt.output, &exp, groups, n_groups) == 0 &&
                         write_winner_map(map, &t, groups, n_groups) == 0
                     ? (done < n_groups ? 130 : winners == n_groups ? 0 : 1)
                     : 1;
        free_groups(groups, n_groups);
    }
    sweep_free(&sweep);
    experiment_free(&exp);
    registry_free(&reg);
    free(map);
    tune_options_free(&opt);
    return status;
}
