/* src/cli/options.c: parsing and checking of the command line. */
#include "cli/options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/util.h"
#include "host/paths.h"
#include "report/reporters.h"
#include "run/runner.h"

void options_usage(void *stream)
{
    fprintf((FILE *)stream,
            "Usage:\n"
            "  redbench -c FILE [-r RUN]... [-D KEY=VALUE]... [-o FILE]... [--format %s]\n"
            "                   [--plugin-path DIR]...\n",
            format_choices("|"));
    fputs("  redbench --dry-run -c FILE     validate and print the configurations; run nothing\n"
          "  redbench --list                plugins found and rejected (with the reason)\n"
          "  redbench --describe PLUGIN     a plugin's parameters, ops and dtypes\n"
          "  redbench report RESULTS.json -o FILE...  saved results converted to json, csv,\n"
          "                                 md or html (redbench report --help)\n"
          "  redbench compare OLD.json NEW.json  verdicts per configuration (compare --help)\n"
          "  redbench tune -c FILE          search each run's parameters (tune --help)\n"
          "  redbench plot RESULTS.json     figures and the HTML report (plot --help)\n"
          "  redbench --help | --version\n"
          "\n"
          "Options:\n"
          "  -c, --config FILE      the experiment file (INI)\n"
          "  -r, --run PATTERN      run only the [run NAME] sections whose NAME matches the\n"
          "                         glob PATTERN (repeatable: a run matching any is kept)\n"
          "  -D KEY=VALUE           set or sweep an [experiment], [data] or run key as if\n"
          "                         written in the file (repeatable; later ones win): a\n"
          "                         data or run key applies to every run, replacing the\n"
          "                         file's; e.g. -D n=1M,1G -D dtype=f32 -D warmup=2\n"
          "      --device N         the same as -D device=N\n"
          "  -o, --output FILE      write the results to FILE (written whole, or not at all);\n"
          "                         repeatable, each in the format of its extension: .json\n"
          "                         .csv .md .html .txt (the table); every path is checked\n"
          "                         before anything runs\n"
          "  -f, --format FORMAT    one of the formats above: standard output's format, or,\n"
          "                         with a single -o, that file's (whatever its extension);\n"
          "                         default: the experiment's `format`, else table\n"
          "  -p, --plugin-path DIR  search DIR for plugins first (repeatable)\n"
          "  -v, --verbose          more messages on standard error (repeatable)\n"
          "  -q, --quiet            no progress on standard error\n"
          "      --isolation MODE   where plugins run: worker (the default: in a worker\n"
          "                         process, replaced after a crash, hang or lost device),\n"
          "                         group (a fresh worker per data group) or none\n"
          "      --no-isolation     the same as --isolation none: in this process, for\n"
          "                         debugging (a crash or a hang then ends the run)\n"
          "      --no-probes        judge results on the random input only, not on probe\n"
          "                         inputs of exact answer (rows are then unproven)\n"
          "      --profile          run each configuration once, with no warm-up and\n"
          "                         launch timing, inside an NVTX range named after it:\n"
          "                         for ncu --nvtx --nvtx-include (docs/profiling.md)\n"
          "\n"
          "Plugins are searched in: each --plugin-path, then $REDBENCH_PLUGIN_PATH\n"
          "(colon-separated), then ./plugins, then " RB_PLUGIN_DIR ".\n"
          "Exit status: 0 all configurations ok; 1 some wrong or failed; 2 bad usage,\n"
          "bad experiment file or unknown plugin (nothing run); 130 interrupted by SIGINT\n"
          "or SIGTERM (the configuration in progress is abandoned; the results of what\n"
          "finished are written).\n",
          (FILE *)stream);
}

int usage_error(const char *command, const char *fmt, ...)
{
    const char *space = command ? " " : "", *name = command ? command : "";
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "redbench%s%s: error: ", space, name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(redbench%s%s --help says more)\n", space, name);
    va_end(ap);
    return 2;
}

static void append(char ***items, size_t *count, char *item)
{
    *items = xrealloc(*items, (*count + 1) * sizeof **items);
    (*items)[(*count)++] = item;
}

/* -D KEY=VALUE, or --device N (`device`). */
static int add_override(rb_options *opt, int device, const char *arg)
{
    char *key, *value;
    const char *eq = strchr(arg, '=');
    if (device) {
        key = xstrdup("device");
        value = xstrdup(arg);
    } else if (!eq) {
        return usage_error(NULL, "-D takes KEY=VALUE (e.g. -D n=1M,1G), not: %s", arg);
    } else {
        char *k = xstrndup(arg, (size_t)(eq - arg)), *v = xstrdup(eq + 1);
        key = xstrdup(trim(k));
        value = xstrdup(trim(v));
        free(k);
        free(v);
        if (*key == '\0') {
            free(key);
            free(value);
            return usage_error(NULL, "-D %s has no key; -D takes KEY=VALUE (e.g. -D n=1M,1G)",
                               arg);
        }
    }
    opt->overrides = xrealloc(opt->overrides, (opt->n_overrides + 1) * sizeof *opt->overrides);
    opt->overrides[opt->n_overrides++] = (rb_override){
        .option = device ? xasprintf("--device %s", arg) : xasprintf("-D %s", arg),
        .key = key,
        .value = value};
    return 0;
}

int options_parse(int argc, char **argv, rb_options *opt)
{
    static const struct option longs[] = {
        {"config", required_argument, NULL, 'c'},
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"plugin-path", required_argument, NULL, 'p'},
        {"list", no_argument, NULL, 'L'},
        {"describe", required_argument, NULL, 'd'},
        {"run", required_argument, NULL, 'r'},
        {"device", required_argument, NULL, 'e'},
        {"dry-run", no_argument, NULL, 'n'},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"no-isolation", no_argument, NULL, 'I'},
        {"isolation", required_argument, NULL, 'i'},
        {"profile", no_argument, NULL, 'P'},
        {"no-probes", no_argument, NULL, 'N'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    memset(opt, 0, sizeof *opt);
    opt->verbosity = 1;
    int list = 0, dry = 0, help = 0, version = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":c:o:f:p:r:D:vqh", longs, NULL)) != -1) {
        switch (c) {
        case 'c': opt->config = optarg; break;
        case 'o': append(&opt->outputs, &opt->n_outputs, optarg); break;
        case 'r': append(&opt->runs, &opt->n_runs, optarg); break;
        case 'D':
        case 'e':
            if (add_override(opt, c == 'e', optarg) != 0)
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
        default: return usage_error(NULL, "unknown option: %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error(NULL, "unexpected argument: %s", argv[optind]);
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
    for (size_t k = 0; k < opt->n_overrides; k++) {
        free((char *)opt->overrides[k].option);
        free((char *)opt->overrides[k].key);
        free((char *)opt->overrides[k].value);
    }
    free(opt->overrides);
    memset(opt, 0, sizeof *opt);
}
