/* src/cli/compare.c: `redbench compare OLD.json NEW.json`: the command line
 * of compare (compare/comparison.c matches and judges, compare/report.c writes
 * the verdicts). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "compare/comparison.h"

static void compare_usage(FILE *out)
{
    fprintf(out,
            "usage: redbench compare OLD.json NEW.json [--threshold PCT] [--allow-device-change]\n"
            "                        [--require-all] [--format %s]\n",
            compare_formats("|"));
    fputs("\n"
          "Matches the configurations of two result files (written with --format json) and\n"
          "says for each whether NEW is the same, faster, slower or unclear, from the stored\n"
          "samples: a Mann-Whitney U test and a bootstrap 99% interval of the ratio of\n"
          "medians (new / old). The samples of a file come from one run, so run-to-run\n"
          "variation is unknown: the interval is widened by 2% each way. p-values are\n"
          "adjusted for the number of configurations compared (Holm's method). A change\n"
          "counts when it is significant and larger than the threshold, or when it is\n"
          "large (1.5x or more) with every new sample beyond the old median; the widened\n"
          "interval decides `same`; anything else is `unclear`.\n"
          "A configuration timed in another mode or with another cache regime in NEW\n"
          "keeps its verdict, is marked in the report, and is named in a warning.\n"
          "\n"
          "  --threshold PCT         smallest change that matters, in percent (default 5)\n"
          "  --allow-device-change   compare results from different devices, saying what differs\n"
          "  --require-all           fail when a configuration of OLD is missing from NEW\n"
          "  --format FORMAT         how the verdicts are written (default: table)\n"
          "\n"
          "Exit status: 0 nothing got worse; 1 some configuration got slower by more than\n"
          "the threshold, or was ok and became wrong, failed or unsupported, or (with\n"
          "--require-all) is missing from NEW; 2 bad usage, an unreadable file, different\n"
          "devices, or no configuration in common.\n",
          out);
}

/* "5", "5%", "0.5" -> 0.05, 0.05, 0.005. */
static int parse_threshold(const char *text, double *out)
{
    char *copy = xstrdup(text);
    size_t len = strlen(copy);
    if (len > 0 && copy[len - 1] == '%')
        copy[len - 1] = '\0';
    double pct;
    const char *why;
    int status = parse_double(copy, &pct, &why) == 0 && pct >= 0 && pct <= 1000 ? 0 : -1;
    free(copy);
    *out = pct / 100;
    return status;
}

int command_compare(int argc, char **argv)
{
    rb_comparison cmp;
    memset(&cmp, 0, sizeof cmp);
    compare_criteria_default(&cmp.criteria);
    const char *paths[2] = {NULL, NULL};
    const char *format = format_name(RB_FORMAT_TABLE);
    int allow_device_change = 0, n_paths = 0;
    enum { OPT_REQUIRE_ALL = 256 };

    static const struct option longs[] = {
        {"threshold", required_argument, NULL, 't'},
        {"allow-device-change", no_argument, NULL, 'a'},
        {"require-all", no_argument, NULL, OPT_REQUIRE_ALL},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        switch (c) {
        case 'h': compare_usage(stdout); return 0;
        case 'a': allow_device_change = 1; break;
        case OPT_REQUIRE_ALL: cmp.require_all = 1; break;
        case 't':
            if (parse_threshold(optarg, &cmp.criteria.threshold) != 0)
                return usage_error("compare", "--threshold '%s' is not a percentage; valid: a "
                                   "number from 0 to 1000, e.g. 5 or 2.5%%", optarg);
            break;
        case 'f':
            if (!compare_reporter_for(optarg))
                return usage_error("compare", "unknown format '%s'; valid: %s", optarg,
                                   compare_formats(", "));
            format = optarg;
            break;
        case ':': return usage_error("compare", "%s needs a value", argv[optind - 1]);
        default:
            return usage_error("compare", "unknown option '%s'; valid: --threshold PCT, "
                               "--allow-device-change, --require-all, --format %s",
                               argv[optind - 1], compare_formats("|"));
        }
    }
    for (int k = optind; k < argc; k++) {
        if (n_paths == 2)
            return usage_error("compare", "one file too many: '%s'; give OLD.json and "
                               "NEW.json", argv[k]);
        paths[n_paths++] = argv[k];
    }
    if (n_paths < 2)
        return usage_error("compare", "give two result files: OLD.json NEW.json");

    int status = 2;
    if (compare_file_load(paths[0], &cmp.old_file) != 0 ||
        compare_file_load(paths[1], &cmp.new_file) != 0)
        goto done;
    comparison_run(&cmp);
    if (cmp.n_device_changes > 0 && !allow_device_change) {
        diag_error("%s and %s were measured on different devices:", paths[0], paths[1]);
        for (size_t k = 0; k < cmp.n_device_changes && k < 20; k++) {
            char *change = printable_text(cmp.device_changes[k]);
            fprintf(stderr, "  %s\n", change);
            free(change);
        }
        if (cmp.n_device_changes > 20)
            fprintf(stderr, "  and %zu more\n", cmp.n_device_changes - 20);
        fprintf(stderr, "redbench compare: nothing compared; --allow-device-change compares "
                        "them anyway\n");
        goto done;
    }
    if (cmp.n_pairs == 0) {
        diag_error("%s and %s have no configuration in common (%zu and %zu configurations); "
                   "nothing compared",
                   paths[0], paths[1], cmp.old_file.n_rows, cmp.new_file.n_rows);
        goto done;
    }
    comparison_warn_measured_differently(&cmp);
    if (compare_reporter_for(format)(stdout, &cmp) != 0) {
        diag_error("cannot write the comparison to standard output");
        goto done;
    }
    status = comparison_status(&cmp);
done:
    comparison_free(&cmp);
    return status;
}
