/* src/cli/options.c: parsing and checking of the command line of a run
 * (its options are described in cli/option_table.c), and the one form of a
 * usage error. */
#include "cli/options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "cli/option_table.h"
#include "report/reporters.h"
#include "run/runner.h"

void options_usage(void *stream)
{
    command_help(command_spec(""), (FILE *)stream);
}

int usage_error(const char *command, const char *fmt, ...)
{
    const char *space = command ? " " : "", *name = command ? command : "";
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap); /* it quotes the command line: printed printable */
    va_end(ap);
    diag_line("redbench%s%s: error: %s", space, name, text);
    diag_line("(redbench%s%s --help says more)", space, name);
    free(text);
    return 2;
}

static void append(char ***items, size_t *count, char *item)
{
    *items = xrealloc(*items, (*count + 1) * sizeof **items);
    (*items)[(*count)++] = item;
}

int parse_override(const char *command, const char *named, const char *arg,
                   rb_override **overrides, size_t *count)
{
    char *key, *value;
    const char *eq = strchr(arg, '=');
    if (named) {
        key = xstrdup(named);
        value = xstrdup(arg);
    } else if (!eq) {
        return usage_error(command, "-D takes KEY=VALUE (e.g. -D n=1M,1G), not: %s", arg);
    } else {
        char *k = xstrndup(arg, (size_t)(eq - arg)), *v = xstrdup(eq + 1);
        key = xstrdup(trim(k));
        value = xstrdup(trim(v));
        free(k);
        free(v);
        if (*key == '\0') {
            free(key);
            free(value);
            return usage_error(command,
                               "-D %s has no key; -D takes KEY=VALUE (e.g. -D n=1M,1G)", arg);
        }
    }
    *overrides = xrealloc(*overrides, (*count + 1) * sizeof **overrides);
    (*overrides)[(*count)++] = (rb_override){
        .option = named ? xasprintf("--%s %s", named, arg) : xasprintf("-D %s", arg),
        .key = key,
        .value = value};
    return 0;
}

void overrides_free(rb_override *overrides, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        free((char *)overrides[k].option);
        free((char *)overrides[k].key);
        free((char *)overrides[k].value);
    }
    free(overrides);
}

static int parse_with(int argc, char **argv, rb_options *opt, const rb_getopt *g);

/* An operand where the run takes none. An experiment file given without -c
 * (a name ending in .ini, or a file that exists) is shown the way to run
 * it. Returns 2. */
static int unexpected_argument(const char *arg, const char *config)
{
    char *shown = printable_text(arg);
    size_t len = strlen(arg);
    int looks_like_file = (len > 4 && strcmp(arg + len - 4, ".ini") == 0) || access(arg, F_OK) == 0;
    if (looks_like_file && !config)
        usage_error(NULL, "unexpected argument: %s; an experiment file is given with -c: "
                    "redbench -c %s", shown, shown);
    else
        usage_error(NULL, "unexpected argument: %s", shown);
    free(shown);
    return 2;
}

int options_parse(int argc, char **argv, rb_options *opt)
{
    rb_getopt g = command_getopt(command_spec(""));
    int status = parse_with(argc, argv, opt, &g);
    command_getopt_free(&g);
    return status;
}

/* options_parse with getopt's arrays made from the table. */
static int parse_with(int argc, char **argv, rb_options *opt, const rb_getopt *g)
{
    memset(opt, 0, sizeof *opt);
    opt->verbosity = 1;
    int list = 0, dry = 0, help = 0, version = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, g->shorts, g->longs, NULL)) != -1) {
        switch (c) {
        case 'c': opt->config = optarg; break;
        case 'o': append(&opt->outputs, &opt->n_outputs, optarg); break;
        case 'r': append(&opt->runs, &opt->n_runs, optarg); break;
        case 'D':
        case 'e':
        case 'R':
            if (parse_override(NULL, c == 'e' ? "device" : c == 'R' ? "rounds" : NULL, optarg,
                               &opt->overrides, &opt->n_overrides) != 0)
                return 2;
            break;
        case 'f': opt->format = optarg; break;
        case 'p':
            append(&opt->plugin_paths, &opt->n_plugin_paths, optarg);
            break;
        case 'L': list = 1; break;
        case 'd': opt->describe = optarg; break;
        case 'n': dry = 1; break;
        case 'v': opt->verbosity++; break;
        case 'q': opt->quiet = 1; break;
        case 'I': opt->isolation = RB_ISOLATION_NONE; break;
        case 'P': opt->profile = 1; break;
        case 'N': opt->no_probes = 1; break;
        case 'O': opt->require_ok = 1; break;
        case 'i':
            if (strcmp(optarg, "worker") == 0)
                opt->isolation = RB_ISOLATION_WORKER;
            else if (strcmp(optarg, "group") == 0)
                opt->isolation = RB_ISOLATION_GROUP;
            else if (strcmp(optarg, "none") == 0)
                opt->isolation = RB_ISOLATION_NONE;
            else
                return usage_error(NULL, "--isolation takes worker, group or none, not: %s",
                                   optarg);
            break;
        case 'h': help = 1; break;
        case 'V': version = 1; break;
        case ':': return usage_error(NULL, "this option needs a value: %s", argv[optind - 1]);
        default:
            return usage_error(NULL, "unknown option: %s; valid: %s", argv[optind - 1],
                               command_option_names(command_spec("")));
        }
    }
    if (optind < argc)
        return unexpected_argument(argv[optind], opt->config);
    if (opt->format && !report_for(opt->format))
        return usage_error(NULL, "unknown format '%s'; valid: %s", opt->format, report_formats());
    if (help)
        opt->command = RB_CMD_HELP;
    else if (version)
        opt->command = RB_CMD_VERSION;
    else if (list)
        opt->command = RB_CMD_LIST;
    else if (opt->describe)
        opt->command = RB_CMD_DESCRIBE;
    else if (!opt->config)
        return usage_error(NULL, "nothing to do: give an experiment file with -c FILE");
    else
        opt->command = dry ? RB_CMD_DRY_RUN : RB_CMD_RUN;
    return 0;
}

void options_free(rb_options *opt)
{
    free(opt->plugin_paths);
    free(opt->outputs);
    free(opt->runs);
    overrides_free(opt->overrides, opt->n_overrides);
    memset(opt, 0, sizeof *opt);
}

int parse_percent(const char *text, int allow_zero, double *out)
{
    char *copy = xstrdup(text);
    size_t len = strlen(copy);
    if (len > 0 && copy[len - 1] == '%')
        copy[len - 1] = '\0';
    double pct;
    const char *why;
    int ok = parse_double(copy, &pct, &why) == 0 && (allow_zero ? pct >= 0 : pct > 0) &&
             pct <= 1000;
    free(copy);
    *out = pct / 100;
    return ok ? 0 : -1;
}
