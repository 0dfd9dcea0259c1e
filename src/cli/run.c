/* src/cli/run.c: -c FILE with or without --dry-run: load the experiment,
 * expand it, check where the results go, run it, write the results whole
 * (src/base/safe_file.h) and choose the exit status. SIGINT or SIGTERM
 * abandons the configuration in progress (with isolation off: stops after
 * it); the results of what finished are written and the exit status is 130.
 * Progress goes to standard error (run/progress.h) unless -q. */
#include "config.h"

#include "cli/commands.h"
#include "cli/stop_signals.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/units.h"
#include "base/util.h"
#include "config/experiment.h"
#include "config/sweep.h"
#include "history/append.h"
#include "report/reporters.h"
#include "results/rows.h"
#include "run/metadata.h"
#include "run/progress.h"
#include "run/runner.h"

/* Text made printable (printable_text), kept until a few more are made:
 * enough for one printf. Every name the dry run prints (the file's, the
 * runs', the plugins', the parameters') goes through it. */
static const char *shown(const char *text)
{
    static char *ring[8];
    static size_t at;
    at = (at + 1) % RB_ARRAY_LEN(ring);
    free(ring[at]);
    ring[at] = printable_text(text);
    return ring[at];
}

/* Whether the plugin offers the configuration's op and dtype; a row that
 * it does not is `unsupported` without running (run/runner.c). A
 * histogram counts u8 values (redbench/plugin.h): of another dtype, the
 * plugin declines it. */
static int offered(const rb_plugin *p, const rb_configuration *c)
{
    return (p->ops & RB_OP_BIT(c->op)) && (p->dtypes & RB_DTYPE_BIT(c->dtype)) &&
           (c->op != RB_OP_HISTOGRAM || c->dtype == RB_DTYPE_U8);
}

static int shape_offered(const rb_plugin *p, const rb_configuration *c)
{
    char why[256];
    return !sweep_shape_declined(p, c, why, sizeof why);
}

static size_t unsupported_count(const rb_sweep *sweep)
{
    size_t count = 0;
    for (size_t k = 0; k < sweep->n_configs; k++) {
        const rb_configuration *c = &sweep->configs[k];
        count += !c->skip_reason && c->plugin &&
                 (!offered(c->plugin->desc, c) || !shape_offered(c->plugin->desc, c));
    }
    return count;
}

/* "  (unsupported: serial does not offer op histogram; its ops: sum, min)". */
static void print_unsupported(const rb_plugin *p, const rb_configuration *c)
{
    char declined[256];
    if (offered(p, c) && sweep_shape_declined(p, c, declined, sizeof declined)) {
        printf("  (unsupported: %s)", shown(declined));
        return;
    }
    if (offered(p, c))
        return;
    char *ops = op_mask_text(p->ops), *dtypes = dtype_mask_text(p->dtypes);
    if (!(p->ops & RB_OP_BIT(c->op)))
        printf("  (unsupported: %s does not offer op %s; its ops: %s)", shown(p->name),
               op_name(c->op), ops);
    else if (c->op == RB_OP_HISTOGRAM && c->dtype != RB_DTYPE_U8 &&
             (p->dtypes & RB_DTYPE_BIT(c->dtype)))
        printf("  (unsupported: a histogram counts u8 values, not %s)", dtype_name(c->dtype));
    else
        printf("  (unsupported: %s does not offer dtype %s; its dtypes: %s)", shown(p->name),
               dtype_name(c->dtype), dtypes);
    free(ops);
    free(dtypes);
}

static void print_dry_run(const rb_experiment *exp, const rb_sweep *sweep)
{
    printf("%s: %zu configuration%s\n", shown(exp->path), sweep->n_configs,
           sweep->n_configs == 1 ? "" : "s");
    for (size_t k = 0; k < sweep->n_configs; k++) {
        const rb_configuration *c = &sweep->configs[k];
        char n[32];
        format_size(c->n, n, sizeof n);
        char shape[96];
        sweep_shape_text(c, shape, sizeof shape);
        printf("%4zu  %-14s %-14s %-9s %-4s n=%-6s%s %-11s %s", k + 1, shown(c->run->name),
               shown(c->plugin ? c->plugin->desc->name : c->run->plugin), op_name(c->op),
               dtype_name(c->dtype), n, shape, distribution_name(c->distribution),
               shown(c->params_text));
        if (c->skip_reason)
            printf("  (skipped: %s)", shown(c->skip_reason));
        else if (c->plugin)
            print_unsupported(c->plugin->desc, c);
        putchar('\n');
    }
    if (unsupported_count(sweep))
        printf("%zu configuration%s will be unsupported, as marked (-D RUN.KEY=VALUE sets a key "
               "in chosen runs only)\n",
               unsupported_count(sweep), unsupported_count(sweep) == 1 ? "" : "s");
}

/* Writes the report to `path` whole or not at all (safe_file.h): a regular
 * file through a temporary renamed into place, a device or pipe in place. */
static int write_file(const char *path, rb_reporter reporter, const rb_results *res)
{
    rb_safe_file f;
    if (safe_file_open(&f, path, 0) != 0) {
        diag_error("%s", f.error);
        return -1;
    }
    if (reporter(f.stream, res) != 0 || safe_file_commit(&f) != 0) {
        if (f.stream)
            safe_file_fail(&f, "the report could not be made");
        diag_error("%s", f.error);
        return -1;
    }
    return 0;
}

/* With isolation off a plugin cannot be stopped in the middle of a call:
 * the first signal stops after the configuration in progress, a second ends
 * the process at once, writing nothing. */
static volatile sig_atomic_t running_in_process;
/* A live progress line is on the terminal: a message first clears it. */
static volatile sig_atomic_t live_progress;

static void say(const char *msg, size_t len)
{
    ssize_t ignored = write(STDERR_FILENO, msg, len);
    (void)ignored;
}

/* SIGINT or SIGTERM. In workers, the configuration in progress is
 * abandoned at once (its worker killed within a fraction of a second) and
 * the results of what finished are written; later signals change nothing. */
static void on_signal(int sig)
{
    static const char clear[] = "\r\033[K", newline[] = "\n";
    static const char abandon[] = "redbench: interrupted: the configuration in "
                                  "progress is abandoned; writing the results of what "
                                  "finished\n";
    static const char after[] = "redbench: stopping after the configuration in "
                                "progress (again to stop at once, writing nothing)\n";
    if (runner_stop_now)
        return;
    if (live_progress)
        say(clear, sizeof clear - 1);
    else
        say(newline, sizeof newline - 1); /* after the terminal's ^C */
    if (running_in_process) {
        if (runner_stop_requested) {
            signal(sig, SIG_DFL);
            raise(sig);
            return;
        }
        runner_stop_requested = sig;
        say(after, sizeof after - 1);
    } else {
        runner_stop_requested = sig;
        runner_stop_now = sig;
        say(abandon, sizeof abandon - 1);
    }
}

/* 130 interrupted; 1 a row wrong or failed (with --require-ok: any row
 * not ok); 3 nothing was measured (every row unsupported or skipped: a CI
 * gate must not pass on an empty run); else 0. */
static int exit_status(const rb_results *res, int require_ok)
{
    size_t counts[RB_ROW_COUNT_] = {0};
    results_count(res, counts);
    if (runner_stop_requested || runner_stop_now)
        return 130;
    if (counts[RB_ROW_WRONG] || counts[RB_ROW_FAILED])
        return 1;
    if (require_ok && (counts[RB_ROW_UNSUPPORTED] || counts[RB_ROW_SKIPPED]))
        return 1;
    return counts[RB_ROW_OK] ? 0 : RB_EXIT_NOTHING_MEASURED;
}

/* The status once a file of results could not be written: 1, unless the
 * run was interrupted. */
static int write_failed(int status)
{
    return status == 130 ? status : 1;
}

/* Where the results go: each -o FILE in the format of its extension (or
 * --format's, for a single -o), else the experiment's `output`, and
 * standard output. */
typedef struct output_plan {
    const char **paths;
    rb_reporter *reporters;
    int *formats;
    size_t n;
    rb_reporter out;      /* standard output's reporter; NULL: nothing */
    int out_format;
} output_plan;

static void output_plan_free(output_plan *plan)
{
    free(plan->paths);
    free(plan->reporters);
    free(plan->formats);
}

/* The format of a path's extension, .txt being the table; -1 when none. */
static int format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/') && strcmp(dot, ".txt") == 0)
        return RB_FORMAT_TABLE;
    return format_from_path(path);
}

/* Which file a path names, so that two names of one file (a link, a hard
 * link, "./x" and "x") are known as one: an existing file by its device
 * and inode (links followed, as safe_file writes through them), a path
 * that does not exist yet by its folder's device and inode and its last
 * name. Returns 0, or -1 when neither can be found (no file is the same). */
typedef struct file_id {
    dev_t dev;
    ino_t ino;
    char *name;  /* NULL for an existing file */
    int regular; /* an existing regular file (what a write replaces) */
} file_id;

static int file_id_of(const char *path, file_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (stat(path, &st) == 0) {
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        id->regular = S_ISREG(st.st_mode);
        return 0;
    }
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
    int found = stat(dir, &st) == 0;
    free(dir);
    if (!found)
        return -1;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    id->name = xstrdup(slash ? slash + 1 : path);
    return 0;
}

static int file_id_same(const file_id *a, const file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && !a->name == !b->name &&
           (!a->name || strcmp(a->name, b->name) == 0);
}

/* How an output is named in a message, made printable: "-o PATH" or
 * "output = PATH". */
static char *output_named(const rb_options *opt, const char *path)
{
    char *shown = printable_text(path);
    char *named = xasprintf(opt->n_outputs ? "-o %s" : "output = %s", shown);
    free(shown);
    return named;
}

/* Says why an output may not be written (`why`, freed here), at the option
 * or the line that named it. Returns 2. */
static int refuse_output(const rb_options *opt, rb_experiment *exp, char *why)
{
    if (opt->n_outputs)
        diag_error("%s; nothing was run", why);
    else
        setting_error(exp, experiment_setting_line(exp, offsetof(rb_experiment, output)),
                      "%s; nothing was run", why);
    free(why);
    return 2;
}

/* A run's outputs never destroy its inputs: no output may be the
 * experiment file or a plugin the run loads (by device and inode, through
 * links too), nor the same file as another output. Returns 0, or 2 after
 * naming both. */
static int check_outputs_apart(const rb_options *opt, rb_experiment *exp,
                               const rb_sweep *sweep, const output_plan *plan)
{
    int status = 0;
    file_id *ids = xcalloc(plan->n ? plan->n : 1, sizeof *ids);
    int *known = xcalloc(plan->n ? plan->n : 1, sizeof *known);
    file_id input;
    int have_input = opt->config && file_id_of(opt->config, &input) == 0 && input.regular;
    for (size_t k = 0; k < plan->n && !status; k++) {
        known[k] = file_id_of(plan->paths[k], &ids[k]) == 0;
        char *named = output_named(opt, plan->paths[k]);
        if (known[k] && have_input && file_id_same(&ids[k], &input)) {
            char *input_shown = printable_text(opt->config);
            status = refuse_output(opt, exp, xasprintf("%s is the experiment file %s: the "
                                                       "results would replace it",
                                                       named, input_shown));
            free(input_shown);
        }
        for (size_t c = 0; c < sweep->n_configs && !status && ids[k].regular; c++) {
            const rb_loaded_plugin *p = sweep->configs[c].plugin;
            file_id lib;
            if (p && p->path && (c == 0 || p != sweep->configs[c - 1].plugin) &&
                file_id_of(p->path, &lib) == 0 && lib.regular && file_id_same(&ids[k], &lib)) {
                char *lib_shown = printable_text(p->path);
                status = refuse_output(opt, exp, xasprintf("%s is the plugin file %s: the "
                                                           "results would replace it",
                                                           named, lib_shown));
                free(lib_shown);
            }
        }
        for (size_t j = 0; j < k && !status; j++)
            if ((strcmp(plan->paths[j], plan->paths[k]) == 0) ||
                (known[j] && (ids[k].regular || ids[k].name) && file_id_same(&ids[j], &ids[k]))) {
                char *first = output_named(opt, plan->paths[j]);
                status = refuse_output(
                    opt, exp,
                    strcmp(plan->paths[j], plan->paths[k]) == 0
                        ? xasprintf("%s is given twice", named)
                        : xasprintf("%s and %s are the same file: one would replace the other",
                                    first, named));
                free(first);
            }
        free(named);
    }
    for (size_t k = 0; k < plan->n; k++)
        free(ids[k].name);
    free(ids);
    free(known);
    return status;
}

/* Checks every path before anything runs. Returns 0, or 2 after saying why. */
static int plan_outputs(const rb_options *opt, rb_experiment *exp, const rb_sweep *sweep,
                        output_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    size_t n = opt->n_outputs ? opt->n_outputs : exp->output ? 1 : 0;
    plan->paths = xcalloc(n ? n : 1, sizeof *plan->paths);
    plan->reporters = xcalloc(n ? n : 1, sizeof *plan->reporters);
    plan->formats = xcalloc(n ? n : 1, sizeof *plan->formats);
    plan->n = n;
    for (size_t k = 0; k < n; k++)
        plan->paths[k] = opt->n_outputs ? opt->outputs[k] : exp->output;
    /* Where the results go is checked before anything runs, so that a
     * missing folder is not found after the whole run. */
    char why[768];
    for (size_t k = 0; k < n; k++) {
        if (safe_file_check(plan->paths[k], why, sizeof why) != 0) {
            if (opt->n_outputs) /* -o names itself */
                diag_error("%s; nothing was run", why);
            else /* the experiment's output: where it was set */
                setting_error(exp, experiment_setting_line(exp, offsetof(rb_experiment, output)),
                              "output = %s: %s; nothing was run", plan->paths[k], why);
            return 2;
        }
    }
    if (check_outputs_apart(opt, exp, sweep, plan) != 0)
        return 2;
    const char *fallback = exp->format ? exp->format : format_name(RB_FORMAT_TABLE);
    if (n == 1) {
        int by_extension = format_of_path(plan->paths[0]);
        const char *format = opt->format                       ? opt->format
                             : by_extension >= 0               ? format_name(by_extension)
                             : exp->format || !opt->n_outputs ? fallback
                                                               : NULL;
        if (!format) {
            diag_error("cannot tell the format of -o %s from its extension; valid: .json, .csv, "
                       ".md, .html, .txt (the table), or give --format; nothing was run",
                       plan->paths[0]);
            return 2;
        }
        if (!report_for(format)) {
            diag_error("unknown format '%s'; valid: %s", format, report_formats());
            return 2;
        }
        plan->formats[0] = format_from_name(format);
        plan->reporters[0] = report_for(format);
        /* the table on standard output too, unless that is the file's (-q
         * changes only what goes to standard error) */
        if (plan->formats[0] != RB_FORMAT_TABLE) {
            plan->out = report_table;
            plan->out_format = RB_FORMAT_TABLE;
        }
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        int f = format_of_path(plan->paths[k]);
        if (f < 0) {
            diag_error("cannot tell the format of -o %s from its extension; valid: .json, .csv, "
                       ".md, .html, .txt (the table); nothing was run", plan->paths[k]);
            return 2;
        }
        plan->formats[k] = f;
        plan->reporters[k] = report_for(format_name(f));
    }
    const char *out = opt->format ? opt->format : n == 0 ? fallback : format_name(RB_FORMAT_TABLE);
    if (out) {
        if (!report_for(out)) {
            diag_error("unknown format '%s'; valid: %s", out, report_formats());
            return 2;
        }
        plan->out = report_for(out);
        plan->out_format = format_from_name(out);
    }
    return 0;
}

int command_experiment(const rb_options *opt, const rb_registry *reg, int argc, char **argv)
{
    rb_experiment exp;
    rb_sweep sweep;
    if (sweep_prepare(opt->config, opt->overrides, opt->n_overrides, opt->runs, opt->n_runs, reg,
                      &exp, &sweep) != 0) {
        sweep_free(&sweep);
        experiment_free(&exp);
        return 2;
    }
    exp.profile = opt->profile;
    if (opt->no_probes)
        exp.probes = 0;
    output_plan outputs;
    if (plan_outputs(opt, &exp, &sweep, &outputs) != 0 ||
        history_outputs_check(outputs.paths, outputs.formats, outputs.n,
                              outputs.out ? outputs.out_format : -1) != 0) {
        output_plan_free(&outputs);
        sweep_free(&sweep);
        experiment_free(&exp);
        return 2;
    }
    if (opt->command == RB_CMD_DRY_RUN) {
        print_dry_run(&exp, &sweep);
        output_plan_free(&outputs);
        sweep_free(&sweep);
        experiment_free(&exp);
        return 0;
    }

    stop_signals_install(on_signal);

    rb_results res;
    memset(&res, 0, sizeof res);
    metadata_collect(&res.info, argc, argv);
    res.info.tool_version = PACKAGE_VERSION;
    int progress_mode = progress_mode_for_stderr(opt->quiet);
    rb_runner_options ropt = {.verbosity = opt->verbosity,
                              .progress = progress_mode != RB_PROGRESS_OFF,
                              .isolation = opt->isolation};
    running_in_process = opt->isolation == RB_ISOLATION_NONE;
    /* Plugins run in this process: what they print goes to standard error
     * while they run (workers do the same for themselves). */
    int saved_stdout = -1;
    if (running_in_process) {
        fflush(stdout);
        saved_stdout = dup(STDOUT_FILENO);
        if (saved_stdout >= 0)
            dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    live_progress = progress_mode == RB_PROGRESS_LIVE;
    progress_begin(&sweep, progress_mode);
    if (opt->role != RB_ROLE_MAIN)
        runner_serve(&exp, reg, &sweep, &ropt, opt->role); /* ends the process */
    runner_run(&exp, reg, &sweep, &ropt, &res);
    progress_end();
    if (saved_stdout >= 0) {
        fflush(stdout);
        dup2(saved_stdout, STDOUT_FILENO);
        close(saved_stdout);
    }

    int status = exit_status(&res, opt->require_ok);
    for (size_t k = 0; k < outputs.n; k++)
        if ((outputs.formats[k] == RB_FORMAT_SQLITE
                 ? history_output(outputs.paths[k], &res, status)
                 : write_file(outputs.paths[k], outputs.reporters[k], &res)) != 0)
            status = write_failed(status);
    if (outputs.out && (errno = 0, outputs.out(stdout, &res) != 0)) {
        /* said here, with the reason, rather than by main's later check */
        diag_error("cannot write the results to standard output: %s",
                   errno ? strerror(errno) : "a write failed");
        clearerr(stdout);
        status = write_failed(status);
    }
    output_plan_free(&outputs);
    results_free(&res);
    sweep_free(&sweep);
    experiment_free(&exp);
    return status;
}
