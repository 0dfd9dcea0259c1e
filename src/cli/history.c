/* src/cli/history.c: `redbench history`: the command line of a history of
 * runs (src/history/):
 *   redbench history DB [filters]            the runs, one line each
 *   redbench history add DB RESULTS.json...  saved results added, one run each
 *   redbench history check DB [--run WHICH]  the newest run judged (exit 1: slower)
 *   redbench history trend DB [-o PAGE.html] each configuration over the runs
 * A run is appended by a run itself with -o FILE.db (cli/run.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json_reader.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/units.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "history/append.h"
#include "history/gate.h"
#include "history/listing.h"
#include "history/read.h"
#include "history/trend.h"
#include "results/read.h"

typedef struct history_options {
    rb_history_filter filter;
    rb_step_criteria criteria;
    const char *which;     /* --run */
    const char *format;    /* --format */
    const char *output;    /* -o */
    int threshold_given;   /* --threshold */
    char **operands;
    int n_operands;
} history_options;

/* A date as --since and --until take it: YYYY-MM-DD, optionally with a time. */
static int valid_date(const char *text)
{
    size_t len = strlen(text);
    return len >= 4 && len <= 25 && strspn(text, "0123456789-:TZ.") == len;
}

/* Returns 0, -1 after --help, or 2 after a usage error. */
static int parse(int argc, char **argv, history_options *o)
{
    memset(o, 0, sizeof *o);
    steps_criteria_default(&o->criteria);
    const rb_command_spec *spec = command_spec("history");
    rb_getopt g = command_getopt(spec);
    optind = 1;
    opterr = 0;
    int c, status = 0;
    while (status == 0 && (c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
        switch (c) {
        case 'h': command_help(spec, stdout); status = -1; break;
        case 'x': o->filter.experiment = optarg; break;
        case 'e': o->filter.device = optarg; break;
        case 'p': o->filter.plugin = optarg; break;
        case 'C': o->filter.config = optarg; break;
        case 's':
        case 'u':
            if (!valid_date(optarg))
                status = usage_error("history", "%s '%s' is not a date; valid: YYYY-MM-DD (or "
                                     "an ISO 8601 time, 2026-12-01T08:00)", argv[optind - 1],
                                     optarg);
            *(c == 's' ? &o->filter.since : &o->filter.until) = optarg;
            break;
        case 'b':
            if (strcmp(optarg, "date") != 0 && strcmp(optarg, "revision") != 0)
                status = usage_error("history", "--by '%s': valid: date (the runs' start), "
                                     "revision (each revision where it was first run)", optarg);
            o->filter.by_revision = strcmp(optarg, "revision") == 0;
            break;
        case 'r': o->which = optarg; break;
        case 't':
            o->threshold_given = 1;
            if (parse_percent(optarg, 0, &o->criteria.threshold) != 0)
                status = usage_error("history", "--threshold '%s' is not a percentage; valid: "
                                     "a number above 0 up to 1000, e.g. 5 or 2.5%%", optarg);
            break;
        case 'f':
            if (format_from_name(optarg) < 0 || format_from_name(optarg) == RB_FORMAT_HTML ||
                format_from_name(optarg) == RB_FORMAT_SQLITE)
                status = usage_error("history", "unknown format '%s'; valid: table, csv, json, "
                                     "md", optarg);
            o->format = optarg;
            break;
        case 'o': o->output = optarg; break;
        case ':': status = usage_error("history", "%s needs a value", argv[optind - 1]); break;
        default:
            status = usage_error("history", "unknown option %s; valid: %s", argv[optind - 1],
                                 command_option_names(spec));
        }
    }
    command_getopt_free(&g);
    o->operands = argv + optind;
    o->n_operands = argc - optind;
    return status;
}

static int format_of(const history_options *o)
{
    return o->format ? format_from_name(o->format) : RB_FORMAT_TABLE;
}

/* Options that a subcommand does not use are refused rather than ignored. */
static int refuse(const char *what, const char *option, int given)
{
    return given ? usage_error("history", "%s does not take %s", what, option) : 0;
}

static int command_add(const history_options *o)
{
    if (o->n_operands < 2)
        return usage_error("history", "history add DB RESULTS.json...: which results?");
    const char *db = o->operands[0];
    rb_history h = {0};
    int status = 0;
    for (int k = 1; k < o->n_operands && status == 0; k++) {
        const char *path = o->operands[k];
        rb_results_file file;
        char *text = NULL;
        size_t len = 0;
        FILE *in = fopen(path, "rb");
        if (in) {
            FILE *mem = open_memstream(&text, &len);
            char buf[65536];
            size_t got;
            while (mem && (got = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, got, mem);
            if (mem)
                fclose(mem);
            fclose(in);
        }
        if (!text || results_read(path, &file) != 0) {
            if (!text)
                diag_error("%s: cannot read the results file", path);
            diag_error("%s: nothing was added (%d of %d added before it)", db, k - 1,
                       o->n_operands - 1);
            free(text);
            status = 2;
            break;
        }
        long long id;
        if (!h.db && history_open(&h, db, RB_HISTORY_WRITE) != 0) /* once a file is good */
            status = 2;
        else if (history_append(&h, text, len, &file.res, path, &id) == 0)
            printf("%s: run %lld added from %s (%zu rows)\n", db, id, path, file.res.n_rows);
        else
            status = 1;
        results_file_free(&file);
        free(text);
    }
    history_close(&h);
    return status;
}

static int command_runs(const history_options *o)
{
    if (o->n_operands != 1)
        return usage_error("history", "history DB: one history at a time");
    rb_history h;
    if (history_open(&h, o->operands[0], RB_HISTORY_READ) != 0)
        return 2;
    int st = history_list(stdout, &h, &o->filter, format_of(o));
    history_close(&h);
    return st < 0 ? 2 : st;
}

static int command_check(history_options *o)
{
    if (o->n_operands != 1)
        return usage_error("history", "history check DB: one history at a time");
    const char *db = o->operands[0];
    rb_history h;
    if (history_open(&h, db, RB_HISTORY_READ) != 0)
        return 2;
    long long id;
    char *spec = xasprintf("%s@%s", db, o->which ? o->which : "latest");
    int status = history_select_run(&h, spec, o->which ? o->which : "latest", &id) == 0
                     ? history_gate(stdout, &h, id, &o->filter, &o->criteria, format_of(o))
                     : 2;
    free(spec);
    history_close(&h);
    return status;
}

static int command_trend(const history_options *o)
{
    if (o->n_operands != 1)
        return usage_error("history", "history trend DB: one history at a time");
    int format = format_of(o);
    if (o->output) {
        const char *dot = strrchr(o->output, '.');
        format = o->format                            ? format_from_name(o->format)
                 : dot && strcmp(dot, ".txt") == 0 ? RB_FORMAT_TABLE
                                                   : format_from_path(o->output);
        char why[768];
        if (format < 0 || format == RB_FORMAT_SQLITE)
            return usage_error("history", "cannot tell the format of -o %s from its "
                               "extension; valid: .html (the trend page), .json, .csv, .md, "
                               ".txt", o->output);
        if (safe_file_check(o->output, why, sizeof why) != 0) {
            diag_error("%s; nothing was written", why);
            return 2;
        }
    }
    rb_history h;
    if (history_open(&h, o->operands[0], RB_HISTORY_READ) != 0)
        return 2;
    rb_trend t;
    int status = trend_load(&h, &o->filter, &o->criteria, &t) == 0 ? 0 : 2;
    history_close(&h);
    if (status != 0)
        return status;
    char *title = xasprintf("redbench history: %s", o->operands[0]);
    if (o->output) {
        rb_safe_file f;
        if (safe_file_open(&f, o->output, 0) != 0) {
            diag_error("%s", f.error);
            status = 1;
        } else if ((format == RB_FORMAT_HTML ? trend_page(f.stream, &t, title)
                                             : trend_report(f.stream, &t, format)) != 0) {
            safe_file_fail(&f, "the trend could not be written");
            diag_error("%s", f.error);
            status = 1;
        } else if (safe_file_commit(&f) != 0) {
            diag_error("%s", f.error);
            status = 1;
        }
    } else if (trend_report(stdout, &t, format) != 0) {
        diag_error("cannot write the trend to standard output");
        status = 1;
    }
    free(title);
    trend_free(&t);
    return status;
}

int command_history(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : "";
    int is_sub = strcmp(sub, "add") == 0 || strcmp(sub, "check") == 0 ||
                 strcmp(sub, "trend") == 0;
    history_options o;
    int status = parse(is_sub ? argc - 1 : argc, is_sub ? argv + 1 : argv, &o);
    if (status != 0)
        return status < 0 ? 0 : status;
    const history_options *c = &o;
    int check = strcmp(sub, "check") == 0, trend = strcmp(sub, "trend") == 0,
        add = strcmp(sub, "add") == 0;
    if (!check && (status = refuse(is_sub ? sub : "history DB", "--run", o.which != NULL)) != 0)
        return status;
    if (!check && !trend &&
        (status = refuse(is_sub ? sub : "history DB", "--threshold",
                         o.threshold_given)) != 0)
        return status;
    if (!trend && (status = refuse(is_sub ? sub : "history DB", "-o, --by or --config",
                                   o.output || o.filter.by_revision || o.filter.config)) != 0)
        return status;
    if (add && (status = refuse("add", "filters or --format",
                                c->filter.experiment || c->filter.device || c->filter.plugin ||
                                    c->filter.since || c->filter.until || c->format)) != 0)
        return status;
    if (o.n_operands == 0)
        return usage_error("history", "which history? (a database written by -o FILE.db)");
    if (add)
        return command_add(&o);
    if (check)
        return command_check(&o);
    if (trend)
        return command_trend(&o);
    return command_runs(&o);
}
