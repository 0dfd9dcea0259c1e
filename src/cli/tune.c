/* src/cli/tune.c: `redbench tune -c FILE`: its options, the experiment
 * read and expanded, the search (tune/search.c) and the winners written
 * (tune/winners.c): what was tried is printed (--dry-run: what would be
 * searched, and nothing else); the winners are written as
 * an experiment file that re-runs exactly them, and as a JSON winner map.
 * -o and -m may name neither the experiment nor each other (refused before
 * anything runs), and both files are replaced only when every data set
 * searched has a winner; else they are kept, saying why.
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
#include <sys/stat.h>
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

/* A usage error about an argument, shown printable (it may be anything):
 * FMT takes the argument first. Returns 2. */
#define USAGE_SHOWN(fmt, arg, ...)                                                       \
    do {                                                                                 \
        char *shown_ = printable_text(arg);                                              \
        int status_ = usage_error("tune", fmt, shown_, __VA_ARGS__);                     \
        free(shown_);                                                                    \
        return status_;                                                                  \
    } while (0)

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
        case ':': USAGE_SHOWN("this option needs a value: %s%s", argv[optind - 1], "");
        default:
            USAGE_SHOWN("unknown option: %s; valid: %s", argv[optind - 1],
                               command_option_names(command_spec("tune")));
        }
    }
    if (optind < argc)
        USAGE_SHOWN("unexpected argument: %s%s", argv[optind], "");
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
    char *path = printable_text(exp->path);
    printf("%s: %zu data set%s to search, %zu candidate%s in all\n", path, n_groups,
           n_groups == 1 ? "" : "s", candidates, candidates == 1 ? "" : "s");
    free(path);
    for (size_t k = 0; k < n_groups; k++) {
        const rb_tune_group *g = &groups[k];
        const rb_configuration *c = g->cands[0].config;
        char n[32];
        format_size(c->n, n, sizeof n);
        char *run = printable_text(c->run->name);
        char *plugin = printable_text(c->plugin ? c->plugin->desc->name : c->run->plugin);
        printf("%4zu  [%s] %s %s %s n=%s: %zu candidate%s, %s\n", k + 1, run, plugin,
               op_name(c->op), dtype_name(c->dtype), n, g->count, g->count == 1 ? "" : "s",
               !c->plugin ? "not searched (no plugin)"
               : g->count <= TUNE_EXHAUSTIVE
                   ? "successive halving (all measured briefly)"
                   : "coordinate descent from the defaults, then halving of the best");
        free(run);
        free(plugin);
    }
}

/* The file a path names once its folder is resolved (through links), for
 * a path that does not exist yet; NULL when its folder cannot be. */
static char *resolved_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
    char *real = realpath(dir, NULL);
    free(dir);
    if (!real)
        return NULL;
    char *whole = xasprintf("%s/%s", real, slash ? slash + 1 : path);
    free(real);
    return whole;
}

/* Whether two paths name one file: the same device and inode where both
 * exist (links followed), else the same place once their folders are
 * resolved. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int has_a = stat(a, &sa) == 0, has_b = stat(b, &sb) == 0;
    if (has_a && has_b) /* a device (/dev/null) written twice destroys nothing */
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (has_a || has_b)
        return 0;
    char *ra = resolved_path(a), *rb = resolved_path(b);
    int same = ra && rb && strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

/* Outputs that would destroy an input or each other, refused before
 * anything runs: the tuned experiment and the map are two files, and
 * neither is the experiment tuned. 0, or -1 after an error line. */
static int check_outputs(const char *config, const char *output, const char *map)
{
    if (same_file(output, map)) {
        diag_error("-o %s and the winner map %s are the same file; give -m another name "
                   "(nothing was run)", output, map);
        return -1;
    }
    const char *const outputs[] = {output, map};
    const char *const options[] = {"-o", "-m"};
    for (size_t k = 0; k < RB_ARRAY_LEN(outputs); k++) {
        if (same_file(outputs[k], config)) {
            diag_error("%s %s is the experiment file %s: tune would replace what it reads; "
                       "give %s another name (nothing was run)", options[k], outputs[k], config,
                       options[k]);
            return -1;
        }
    }
    return 0;
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

/* After the search: the summary, and the winners written when every data
 * set searched has one (else the files as they were are kept, saying
 * why). The exit status: 130 when interrupted, 1 when a data set has no
 * winner or a file cannot be written, else 0. */
static int finish_tune(const tune_options *opt, const char *map, const rb_tuner *t,
                       const rb_tune_group *groups, size_t n_groups, size_t done)
{
    print_tried(stdout, groups, n_groups);
    size_t winners = 0, failed = 0;
    for (size_t k = 0; k < n_groups; k++) {
        winners += groups[k].winner < groups[k].count;
        failed += k < done && groups[k].cands[0].config->plugin &&
                  groups[k].winner == groups[k].count;
    }
    if (done < n_groups)
        printf("\ninterrupted: %zu of %zu data sets searched", done, n_groups);
    char *output = printable_text(opt->output), *shown_map = printable_text(map);
    int status;
    if (winners > 0 && failed == 0) {
        status = write_winners(opt->output, map, t, groups, n_groups) == 0 ? 0 : 1;
        if (status == 0)
            printf("\n%zu configurations measured; %zu winners written to %s and %s\n",
                   t->measured, winners, output, shown_map);
        else
            printf("\n%zu configurations measured; nothing written: %s and %s are as they "
                   "were\n", t->measured, output, shown_map);
    } else {
        const char *why = winners == 0 && done < n_groups
                              ? "interrupted before its first winner"
                          : winners == 0 ? "no configuration ran ok"
                                         : "a data set searched has no winner (no "
                                           "configuration of it ran ok)";
        printf("\n%zu configurations measured; 0 winners written (%s): %s and %s are as "
               "they were\n", t->measured, why, output, shown_map);
        diag_error("no tuned experiment written: %s; %s and %s are as they were", why,
                   opt->output, map);
        status = 1;
    }
    free(output);
    free(shown_map);
    if (done < n_groups)
        return 130;
    return status == 0 && winners == n_groups ? 0 : 1;
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
    rb_experiment exp = {0}; /* freed whole even when it is never loaded */
    rb_sweep sweep = {0};
    status = 2;
    char why[768];
    if (check_outputs(opt.config, opt.output, map) != 0) {
        /* said why */
    } else if (sweep_prepare(opt.config, opt.overrides, opt.n_overrides, opt.runs, opt.n_runs,
                             &reg, &exp, &sweep) != 0) {
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
        diag_error("%s; nothing was run", why); /* made printable there */
    } else {
        rb_tuner t = {.exp = &exp, .reg = &reg};
        rb_tune_group *groups = NULL;
        size_t n_groups = make_groups(&sweep, &groups);
        stop_signals_install(on_tune_signal);
        size_t done = search_groups(&t, groups, n_groups, opt.quiet);
        status = finish_tune(&opt, map, &t, groups, n_groups, done);
        free_groups(groups, n_groups);
    }
    sweep_free(&sweep);
    experiment_free(&exp);
    registry_free(&reg);
    free(map);
    tune_options_free(&opt);
    return status;
}
