/* src/cli/dispatch.c: `redbench dispatch MAP.json [-o FILE.h]`: the
 * crossover map as a C header an application dispatches from
 * (tune/dispatch.h), from a winner map (`redbench tune -m`) or from a
 * results file (the best ok row at each data set). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json_reader.h"
#include "base/safe_file.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "history/read.h"
#include "results/read.h"
#include "tune/dispatch.h"

/* A usage error about arguments, shown printable (they may be anything):
 * FMT takes A, then B. Yields 2. */
#define USAGE_SHOWN(status, fmt, a, b)                                                   \
    do {                                                                                 \
        char *a_ = printable_text(a), *b_ = printable_text(b);                           \
        (status) = usage_error("dispatch", fmt, a_, b_);                                 \
        free(a_);                                                                        \
        free(b_);                                                                        \
    } while (0)

/* The table from whichever the file is; 0, or -1 after an error. */
static int read_table(const char *path, rb_dispatch *d)
{
    json_value *doc = history_json_read(path);
    if (!doc)
        return -1;
    int st;
    if (json_get(doc, "winners")) {
        st = dispatch_from_map(path, doc, d);
    } else if (json_get(doc, "results")) {
        rb_results_file file;
        st = results_from_doc(path, doc, &file);
        if (st == 0) {
            st = dispatch_from_results(path, doc, &file, d);
            results_file_free(&file);
        }
    } else {
        diag_at(path, doc->line, "neither a winner map (redbench tune -m MAP.json) nor a results "
                "file (redbench -c FILE -o RESULTS.json)");
        st = -1;
    }
    json_free(doc);
    return st;
}

int command_dispatch(int argc, char **argv)
{
    const char *input = NULL, *output = NULL, *prefix = "rb_dispatch";
    const rb_command_spec *spec = command_spec("dispatch");
    rb_getopt g = command_getopt(spec);
    optind = 1;
    opterr = 0;
    int c, status = 0, help = 0;
    while (status == 0 && !help && (c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
        switch (c) {
        case 'h': help = 1; break;
        case 'o': output = optarg; break;
        case 'p': prefix = optarg; break;
        case ':': USAGE_SHOWN(status, "%s needs a value%s", argv[optind - 1], ""); break;
        default:
            USAGE_SHOWN(status, "unknown option %s; valid: %s", argv[optind - 1],
                        command_option_names(spec));
        }
    }
    command_getopt_free(&g);
    if (help) {
        command_help(spec, stdout);
        return 0;
    }
    if (status)
        return status;
    for (int k = optind; k < argc; k++) {
        if (input) {
            USAGE_SHOWN(status, "one map or results file at a time (got %s and %s)", input,
                        argv[k]);
            return status;
        }
        input = argv[k];
    }
    if (!input)
        return usage_error("dispatch", "which file? (a winner map from redbench tune -m, or a "
                           "results file)");
    if (!dispatch_prefix_valid(prefix)) {
        USAGE_SHOWN(status, "--prefix %s: a C identifier of at most 64 characters "
                    "([A-Za-z_][A-Za-z0-9_]*)%s", prefix, "");
        return status;
    }
    rb_dispatch d;
    if (read_table(input, &d) != 0)
        return 2;
    if (!output) {
        status = dispatch_write_header(stdout, &d, prefix) == 0 ? 0 : 1;
    } else {
        rb_safe_file file;
        if (safe_file_open(&file, output, 0) != 0) {
            diag_error("%s", file.error);
            status = 2;
        } else if (dispatch_write_header(file.stream, &d, prefix) != 0) {
            safe_file_fail(&file, "the header could not be written");
            diag_error("%s", file.error);
            status = 1;
        } else if (safe_file_commit(&file) != 0) {
            diag_error("%s", file.error);
            status = 1;
        }
    }
    dispatch_free(&d);
    return status;
}
