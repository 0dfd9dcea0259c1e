/* src/cli/plot.c: `redbench plot RESULTS.json [-o DIR] [--baseline NAME]`:
 * read a results file, draw its figures with gnuplot into DIR (a script, an
 * SVG and, where gnuplot can, a PNG per figure; without gnuplot, the SVG
 * that the HTML report draws) and write DIR/report.html,
 * the HTML report of the same results. Files are written through
 * safe_file: a temporary in DIR renamed into place. */
#include "cli/commands.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/safe_file.h"
#include "base/util.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "history/read.h"
#include "plot/figures.h"
#include "report/html.h"
#include "results/read.h"

static void usage(FILE *out)
{
    command_help(command_spec("plot"), out);
}

/* "a/r.json" -> "a/r-plots". */
static char *default_dir(const char *results)
{
    size_t len = strlen(results);
    if (len > 5 && strcmp(results + len - 5, ".json") == 0)
        len -= 5;
    return xasprintf("%.*s-plots", (int)len, results);
}

/* The output folder, made if missing: only its last folder, as the run's
 * and tune's -o make none (its parent must exist). It must be a folder of
 * this user and not a link, since its name is predictable ("r-plots"
 * beside r.json): in a shared folder someone else could have put one
 * there, to aim plot's files elsewhere or change them. `dir` has no
 * trailing '/'. Returns 0, or -1 after saying why. */
static int prepare_dir(const char *dir)
{
    char *shown = printable_text(dir);
    struct stat st;
    int made = 0, status = -1;
    if (lstat(dir, &st) != 0 && errno == ENOENT) {
        const char *slash = strrchr(dir, '/');
        char *parent = !slash ? xstrdup(".") : slash == dir ? xstrdup("/")
                                                            : xstrndup(dir, (size_t)(slash - dir));
        struct stat up;
        if (stat(parent, &up) != 0 || !S_ISDIR(up.st_mode)) {
            char *shown_parent = printable_text(parent);
            diag_error("cannot create the folder %s: the folder %s does not exist (plot makes "
                       "its own folder, not the ones above it)",
                       shown, shown_parent);
            free(shown_parent);
            free(parent);
            free(shown);
            return -1;
        }
        free(parent);
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            diag_error("cannot create the folder %s: %s", shown, strerror(errno));
            free(shown);
            return -1;
        }
        made = 1;
    }
    if (lstat(dir, &st) != 0)
        diag_error("cannot write into the folder %s: %s", shown, strerror(errno));
    else if (S_ISLNK(st.st_mode))
        diag_error("cannot write into %s: it is a symbolic link; plot writes only into a folder "
                   "itself (remove the link, or name another folder with -o)",
                   shown);
    else if (!S_ISDIR(st.st_mode))
        diag_error("cannot write into %s: it exists and is not a folder (name another with -o)",
                   shown);
    else if (st.st_uid != geteuid())
        diag_error("cannot write into %s: the folder belongs to another user (uid %u), who could "
                   "change what plot writes there; name a folder of your own with -o",
                   shown, (unsigned)st.st_uid);
    else if (access(dir, W_OK | X_OK) != 0)
        diag_error("cannot write into the folder %s: %s", shown, strerror(errno));
    else
        status = 0;
    if (status != 0 && made)
        rmdir(dir);
    free(shown);
    return status;
}

static int write_html(const char *dir, const rb_results *res, const plot_set *set,
                      const char *source)
{
    char *path = xasprintf("%s/report.html", dir);
    rb_safe_file f;
    int failed = safe_file_open(&f, path, RB_SAFE_FILE_REGULAR | RB_SAFE_FILE_NO_FOLLOW) != 0;
    if (!failed) {
        if (html_report_write(f.stream, res, set, source, NULL) != 0)
            failed = safe_file_fail(&f, "a write failed") != 0;
        else
            failed = safe_file_commit(&f) != 0;
    }
    char *shown = printable_text(failed ? f.error : path);
    if (failed)
        diag_error("%s", shown);
    else
        printf("%s\n", shown);
    free(shown);
    free(path);
    return failed ? -1 : 0;
}

/* Without gnuplot the figures are drawn as the HTML report draws them. */
static void gnuplot_absent_note(void)
{
    const char *env = getenv("REDBENCH_GNUPLOT");
    diag_warn("plot: gnuplot (%s) is not installed or cannot be run, so the figures are drawn "
              "by redbench itself, as SVG only (no .gp scripts, no .png); for those, install "
              "the Debian package %s (apt-get install %s)%s",
              env && *env ? env : "gnuplot", PLOT_GNUPLOT_PACKAGE, PLOT_GNUPLOT_PACKAGE,
              env && *env ? ", or unset REDBENCH_GNUPLOT" : "");
}

/* "3 skipped, 1 failed": the rows of each status, in the statuses' order. */
static char *status_counts(const rb_results *res)
{
    size_t counts[RB_ROW_COUNT_] = {0};
    results_count(res, counts);
    strbuf sb = {0};
    sb_append(&sb, "");
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        if (counts[s])
            sb_printf(&sb, "%s%zu %s", sb.len ? ", " : "", counts[s], row_status_name(s));
    return sb.data;
}

int command_plot(int argc, char **argv)
{
    const char *results = NULL, *dir = NULL, *baseline = NULL;
    const rb_command_spec *spec = command_spec("plot");
    rb_getopt g = command_getopt(spec);
    optind = 1;
    opterr = 0;
    int c, status = 0, help = 0;
    while (status == 0 && !help && (c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
        switch (c) {
        case 'h': help = 1; break;
        case 'o': dir = optarg; break;
        case 'b': baseline = optarg; break;
        case ':': status = usage_error("plot", "%s needs a value", argv[optind - 1]); break;
        default:
            status = usage_error("plot", "unknown option %s; valid: %s", argv[optind - 1],
                                 command_option_names(spec));
        }
    }
    command_getopt_free(&g);
    if (help) {
        usage(stdout);
        return 0;
    }
    if (status)
        return status;
    for (int k = optind; k < argc; k++) {
        if (results)
            return usage_error("plot", "one results file at a time (got %s and %s)", results,
                               argv[k]);
        results = argv[k];
    }
    if (!results)
        return usage_error("plot", "which results file? (a JSON file from redbench -c FILE "
                           "--format json)");
    const char *gnuplot = plot_gnuplot_find();
    rb_results_file file;
    if (history_results_read(results, &file) != 0)
        return 2;
    plot_set set;
    if (plot_build(&file.res, results, baseline, &set) != 0) {
        results_file_free(&file);
        return 2;
    }
    status = 0;
    char *owned_dir = dir ? xstrdup(dir) : default_dir(results);
    for (size_t len = strlen(owned_dir); len > 1 && owned_dir[len - 1] == '/'; len--)
        owned_dir[len - 1] = '\0'; /* "out/" is the folder "out", link or not */
    dir = owned_dir;
    if (set.n_figures == 0) {
        char *statuses = status_counts(&file.res);
        diag_error("plot: %s cannot be plotted: it has no row that is ok with a time (%zu "
                   "row%s%s%s); plot a results file with at least one ok row",
                   results, file.res.n_rows, file.res.n_rows == 1 ? "" : "s",
                   *statuses ? ": " : "", statuses);
        free(statuses);
        status = 2;
    } else if (prepare_dir(dir) != 0) {
        status = 2;
    } else {
        if (!gnuplot)
            gnuplot_absent_note();
        if ((gnuplot ? plot_gnuplot_draw(&set, gnuplot, dir, results, stdout)
                     : plot_svg_files(&set, dir, stdout)) != 0 ||
            write_html(dir, &file.res, &set, results) != 0)
            status = 1;
    }
    plot_set_free(&set);
    results_file_free(&file);
    free(owned_dir);
    return status;
}
