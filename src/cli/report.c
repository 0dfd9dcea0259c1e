/* src/cli/report.c: `redbench report RESULTS.json -o FILE...`: saved results
 * read back into the typed set a run produces (results/read.c) and written
 * by the run's own reporters, each -o in the format of its extension
 * (.json .csv .md .html, .txt the table), or standard output in --format's
 * (the table when neither -o nor --format is given).
 * Every path is checked before anything is written; files are written
 * whole or not at all (safe_file), and a SIGINT or SIGTERM while one is
 * written leaves no temporary behind. The HTML report of a history's run
 * (DB@WHICH) adds its configurations' trends over the history
 * (history/report_trends.h). */
#include "cli/commands.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/util.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "history/read.h"
#include "history/report_trends.h"
#include "report/reporters.h"
#include "results/read.h"

static void usage(FILE *out)
{
    command_help(command_spec("report"), out);
}

/* What was typed (a name, a path), made printable for an error message:
 * a copy in one of two slots, kept until the slot is used again or
 * typed_free, so that no control byte reaches the terminal. */
static char *typed_copies[2];

static const char *typed(int slot, const char *text)
{
    free(typed_copies[slot]);
    typed_copies[slot] = printable_text(text);
    return typed_copies[slot];
}

static void typed_free(void)
{
    for (size_t k = 0; k < RB_ARRAY_LEN(typed_copies); k++) {
        free(typed_copies[k]);
        typed_copies[k] = NULL;
    }
}

/* The outputs: each -o's path and format. Returns 0, or 2 after saying why. */
static int plan_outputs(const char **paths, size_t n, const char *format, int *formats)
{
    char why[768];
    for (size_t k = 0; k < n; k++) {
        formats[k] = n == 1 && format ? format_from_name(format) : report_format_of_path(paths[k]);
        if (safe_file_check(paths[k], why, sizeof why) != 0) {
            diag_error("%s; nothing was written", why);
            return 2;
        }
        if (formats[k] < 0) {
            diag_error("cannot tell the format of -o %s from its extension; report writes .json, "
                       ".csv, .md, .html, .txt (the table)%s; nothing was written",
                       paths[k], n == 1 ? ", or give --format" : "");
            return 2;
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(paths[j], paths[k]) == 0) {
                diag_error("-o %s is given twice; nothing was written", paths[k]);
                return 2;
            }
    }
    return 0;
}

/* Writes the report in `format`; the HTML report with `extra` (may be NULL). */
static int write_report(FILE *out, const rb_results *res, int format, const rb_html_extra *extra)
{
    if (format == RB_FORMAT_HTML)
        return report_html_extra(out, res, extra);
    return report_for(format_name(format))(out, res);
}

static int write_outputs(const rb_results *res, const char **paths, size_t n, const int *formats,
                         const rb_html_extra *extra)
{
    for (size_t k = 0; k < n; k++) {
        rb_safe_file f;
        if (safe_file_open(&f, paths[k], 0) != 0) {
            diag_error("%s", f.error);
            return 1;
        }
        if (write_report(f.stream, res, formats[k], extra) != 0) {
            safe_file_fail(&f, "the report could not be made");
            diag_error("%s", f.error);
            return 1;
        }
        if (safe_file_commit(&f) != 0) {
            diag_error("%s", f.error);
            return 1;
        }
    }
    return 0;
}

int command_report(int argc, char **argv)
{
    const rb_command_spec *spec = command_spec("report");
    safe_file_stop_on_signals(); /* Ctrl-C leaves no temporary behind */
    rb_getopt g = command_getopt(spec);
    const char *results = NULL, *format = NULL;
    const char **paths = xcalloc((size_t)argc + 1, sizeof *paths);
    size_t n = 0;
    int status = 0;
    optind = 1;
    opterr = 0;
    int c;
    while (status == 0 && (c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            free(paths);
            command_getopt_free(&g);
            return 0;
        case 'o': paths[n++] = optarg; break;
        case 'f': format = optarg; break;
        case ':': status = usage_error("report", "%s needs a value", typed(0, argv[optind - 1])); break;
        default:
            status = usage_error("report", "unknown option %s; valid: %s",
                                 typed(0, argv[optind - 1]), command_option_names(spec));
        }
    }
    command_getopt_free(&g);
    for (int k = optind; status == 0 && k < argc; k++) {
        if (results)
            status = usage_error("report", "one results file at a time (got %s and %s)",
                                 typed(0, results), typed(1, argv[k]));
        results = argv[k];
    }
    if (status == 0 && !results)
        status = usage_error("report", "which results file? (a JSON file from redbench -c "
                             "FILE -o RESULTS.json)");
    if (status == 0 && format && format_from_name(format) < 0)
        status = usage_error("report", "unknown format '%s'; valid: %s", typed(0, format),
                             format_choices(", "));
    if (status == 0 && n == 0 && !format)
        format = format_name(RB_FORMAT_TABLE); /* no -o: the table, on standard output */
    int *formats = xcalloc(n + 1, sizeof *formats);
    if (status == 0)
        status = plan_outputs(paths, n, format, formats);
    /* a history's run read with its trends where an HTML report is asked for */
    int html = n == 0 && format && format_from_name(format) == RB_FORMAT_HTML;
    for (size_t k = 0; k < n; k++)
        html |= formats[k] == RB_FORMAT_HTML;
    rb_results_file file;
    rb_run_trends trends = {0};
    rb_html_extra extra;
    int with_trends = status == 0 && html ? run_trends_read(results, &file, &trends) : 0;
    int loaded = with_trends == 1 ||
                 (status == 0 && with_trends == 0 && history_results_read(results, &file) == 0);
    if (status == 0 && !loaded)
        status = 2;
    if (with_trends == 1)
        run_trends_section(&trends, &extra);
    const rb_html_extra *added = with_trends == 1 ? &extra : NULL;
    if (status == 0)
        status = write_outputs(&file.res, paths, n, formats, added);
    if (status == 0 && n == 0 &&
        write_report(stdout, &file.res, format_from_name(format), added) != 0) {
        diag_error("cannot write the report to standard output");
        status = 1;
    }
    if (loaded)
        results_file_free(&file);
    run_trends_free(&trends);
    typed_free();
    free(formats);
    free(paths);
    return status;
}
