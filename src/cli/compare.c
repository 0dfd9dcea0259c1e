/* src/cli/compare.c: `redbench compare OLD.json NEW.json`: the command line
 * of compare (compare/comparison.c matches and judges, compare/report.c writes
 * the verdicts): the threshold, the formats, which rows pair (--ignore
 * PARAM, --match run), whether a higher energy fails (--energy) and the
 * notes on standard error. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "compare/comparison.h"
#include "history/read.h"

typedef struct compare_options {
    const char *paths[2];
    int n_paths;
    const char *format;
    int allow_device_change;
} compare_options;

/* Returns 0, -1 after --help, or 2 after a usage error. */
static int parse_options(int argc, char **argv, const rb_getopt *g, rb_comparison *cmp,
                         compare_options *opt)
{
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, g->shorts, g->longs, NULL)) != -1) {
        switch (c) {
        case 'h': command_help(command_spec("compare"), stdout); return -1;
        case 'a': opt->allow_device_change = 1; break;
        case 'A': cmp->require_all = 1; break;
        case 'i':
            if (!*optarg)
                return usage_error("compare", "--ignore needs a parameter's name");
            cmp->ignore = xrealloc(cmp->ignore, (cmp->n_ignore + 1) * sizeof *cmp->ignore);
            cmp->ignore[cmp->n_ignore++] = optarg;
            break;
        case 'm':
            if (strcmp(optarg, "run") != 0 && strcmp(optarg, "config") != 0)
                return usage_error("compare", "--match '%s': valid: config (the whole "
                                   "configuration), run (the run and data alone)", optarg);
            cmp->match_run = strcmp(optarg, "run") == 0;
            break;
        case 'E':
            if (strcmp(optarg, "gate") != 0 && strcmp(optarg, "report") != 0)
                return usage_error("compare", "--energy '%s': valid: gate (a higher energy "
                                   "fails, as a slower time does), report (it is reported "
                                   "only)", optarg);
            cmp->energy_report_only = strcmp(optarg, "report") == 0;
            break;
        case 't':
            if (parse_percent(optarg, 1, &cmp->criteria.threshold) != 0)
                return usage_error("compare", "--threshold '%s' is not a percentage; valid: a "
                                   "number from 0 to 1000, e.g. 5 or 2.5%%", optarg);
            break;
        case 'f':
            if (!compare_reporter_for(optarg))
                return usage_error("compare", "unknown format '%s'; valid: %s", optarg,
                                   compare_formats(", "));
            opt->format = optarg;
            break;
        case ':': return usage_error("compare", "this option needs a value: %s", argv[optind - 1]);
        default:
            return usage_error("compare", "unknown option: %s; valid: %s", argv[optind - 1],
                               command_option_names(command_spec("compare")));
        }
    }
    for (int k = optind; k < argc; k++) {
        if (opt->n_paths == 2)
            return usage_error("compare", "one file too many: '%s'; give OLD.json and "
                               "NEW.json", argv[k]);
        opt->paths[opt->n_paths++] = argv[k];
    }
    if (opt->n_paths < 2)
        return usage_error("compare", "give two result files: OLD.json NEW.json");
    return 0;
}

int command_compare(int argc, char **argv)
{
    rb_comparison cmp;
    memset(&cmp, 0, sizeof cmp);
    compare_criteria_default(&cmp.criteria);
    compare_options opt = {.format = format_name(RB_FORMAT_TABLE)};
    rb_getopt g = command_getopt(command_spec("compare"));
    int parsed = parse_options(argc, argv, &g, &cmp, &opt);
    command_getopt_free(&g);
    if (parsed != 0) {
        free(cmp.ignore);
        return parsed < 0 ? 0 : parsed;
    }
    const char *const *paths = opt.paths;
    const char *format = opt.format;
    int allow_device_change = opt.allow_device_change;

    int status = 2;
    if (history_compare_file_load(paths[0], &cmp.old_file) != 0 ||
        history_compare_file_load(paths[1], &cmp.new_file) != 0)
        goto done;
    if (comparison_prepare(&cmp) != 0)
        goto done;
    comparison_run(&cmp);
    if (cmp.n_device_changes > 0 && !allow_device_change) {
        diag_error("%s and %s were measured on different devices:", paths[0], paths[1]);
        for (size_t k = 0; k < cmp.n_device_changes && k < 20; k++) {
            char *change = printable_text(cmp.device_changes[k]);
            diag_line("  %s", change);
            free(change);
        }
        if (cmp.n_device_changes > 20)
            diag_line("  and %zu more", cmp.n_device_changes - 20);
        diag_line("redbench compare: nothing compared; --allow-device-change compares "
                        "them anyway");
        goto done;
    }
    if (cmp.n_pairs == 0) {
        diag_error("%s and %s have no configuration in common (%zu and %zu configurations); "
                   "nothing compared%s",
                   paths[0], paths[1], cmp.old_file.n_rows, cmp.new_file.n_rows,
                   cmp.n_ignore || cmp.match_run
                       ? ""
                       : " (--ignore PARAM or --match run pair runs across parameter values)");
        goto done;
    }
    comparison_warn_measured_differently(&cmp);
    comparison_note_plugin_changes(&cmp);
    if (compare_reporter_for(format)(stdout, &cmp) != 0) {
        diag_error("cannot write the comparison to standard output");
        goto done;
    }
    status = comparison_status(&cmp);
done:
    free(cmp.ignore);
    comparison_free(&cmp);
    return status;
}
