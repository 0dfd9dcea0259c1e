/* src/cli/plot.c: `redbench plot RESULTS.json [-o DIR] [--baseline NAME]`:
 * read a results file, draw its figures with gnuplot into DIR (a script, an
 * SVG and, where gnuplot can, a PNG per figure; without gnuplot, the SVG
 * that the HTML report draws) and write DIR/report.html,
 * the HTML report of the same results. Files are written through
 * safe_file: a temporary in DIR renamed into place. Also `redbench report
 * RESULTS.json -o FILE...`: the same results converted to json, csv, md or
 * html (below). */
#include "cli/commands.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/safe_file.h"
#include "base/util.h"
#include "cli/options.h"
#include "plot/figures.h"
#include "report/html.h"

static void usage(FILE *out)
{
    fputs("usage: redbench plot RESULTS.json [-o DIR] [--baseline RUN|PLUGIN]\n"
          "  Draws, with gnuplot, from a results file (redbench -c FILE --format json):\n"
          "    bandwidth*.svg  GB/s against n, one line per configuration, with the peaks\n"
          "    time.svg        median time against n\n"
          "    speedup.svg     the baseline's time / each configuration's, grouped bars\n"
          "    heatmap-*.svg   GB/s over two swept parameters, for runs that sweep two\n"
          "  each with its gnuplot script (.gp) and a .png where gnuplot can, and\n"
          "  report.html, the HTML report of the same results. Without gnuplot, the\n"
          "  figures are drawn as SVG by redbench itself (a note says so).\n"
          "  -o DIR          where to write (default: RESULTS without .json, plus -plots)\n"
          "  --baseline NAME the run, else the plugin, that speedups are against\n"
          "                  (default: the first run with a time)\n",
          out);
}

/* "a/r.json" -> "a/r-plots". */
static char *default_dir(const char *results)
{
    size_t len = strlen(results);
    if (len > 5 && strcmp(results + len - 5, ".json") == 0)
        len -= 5;
    return xasprintf("%.*s-plots", (int)len, results);
}

/* mkdir -p */
static int make_dir(const char *dir)
{
    char *path = xstrdup(dir);
    int status = 0;
    for (char *p = path + 1; status == 0; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            status = -1;
        *p = saved;
        if (saved == '\0')
            break;
    }
    struct stat st;
    if (status == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        status = -1;
    }
    if (status != 0)
        diag_error("cannot create the folder %s: %s", dir, strerror(errno));
    free(path);
    return status;
}

static int write_html(const char *dir, const json_value *doc, const plot_set *set,
                      const char *source)
{
    char *path = xasprintf("%s/report.html", dir);
    rb_safe_file f;
    int failed = safe_file_open(&f, path, RB_SAFE_FILE_REGULAR) != 0;
    if (!failed) {
        if (html_report_write(f.stream, doc, set, source) != 0) {
            safe_file_abort(&f);
            snprintf(f.error, sizeof f.error, "cannot write %s", path);
            failed = 1;
        } else {
            failed = safe_file_commit(&f) != 0;
        }
    }
    if (failed)
        diag_error("%s", f.error);
    else
        printf("%s\n", path);
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

int command_plot(int argc, char **argv)
{
    const char *results = NULL, *dir = NULL, *baseline = NULL;
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'},
        {"baseline", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'o': dir = optarg; break;
        case 'b': baseline = optarg; break;
        case ':': return usage_error("plot", "%s needs a value", argv[optind - 1]);
        default:
            return usage_error("plot", "unknown option %s; valid: -o DIR, --baseline NAME, "
                               "--help", argv[optind - 1]);
        }
    }
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
    json_value *doc = json_read_results(results);
    if (!doc)
        return 2;
    plot_set set;
    if (plot_build(doc, results, baseline, &set) != 0) {
        json_free(doc);
        return 2;
    }
    int status = 0;
    char *owned_dir = dir ? NULL : default_dir(results);
    dir = dir ? dir : owned_dir;
    if (set.n_figures == 0) {
        diag_error("plot: %s has no row that is ok with a time (%zu rows); nothing to draw",
                   results, set.n_rows);
        status = 1;
    } else if (make_dir(dir) != 0) {
        status = 2;
    } else {
        if (!gnuplot)
            gnuplot_absent_note();
        if ((gnuplot ? plot_gnuplot_draw(&set, gnuplot, dir, results, stdout)
                     : plot_svg_files(&set, dir, stdout)) != 0 ||
            write_html(dir, doc, &set, results) != 0)
            status = 1;
    }
    plot_set_free(&set);
    json_free(doc);
    free(owned_dir);
    return status;
}

/* ---- redbench report RESULTS.json -o FILE...: saved results converted ----
 * There is no reader of a results file back into a run's rows, so report
 * writes what the document itself holds: json (checked, and written again
 * through the JSON writer), html (the page of --format html and plot), csv
 * (every plain member of the rows, params as "key=value ..." text) and md
 * (the document's plain members as a list, and a table of the main
 * columns). The table, a terminal's format, is the run's only. */

enum { REPORT_JSON, REPORT_CSV, REPORT_MD, REPORT_HTML, REPORT_COUNT_ };
static const char *const report_formats_list[REPORT_COUNT_] = {"json", "csv", "md", "html"};

static int report_format(const char *word)
{
    for (int k = 0; k < REPORT_COUNT_; k++)
        if (word && strcmp(word, report_formats_list[k]) == 0)
            return k;
    return -1;
}

static int report_format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && !strchr(dot, '/') ? report_format(dot + 1) : -1;
}

static void write_json_value(json_writer *w, const json_value *v)
{
    uint64_t u;
    int64_t i;
    switch (v->type) {
    case JSON_NULL: jw_null(w); break;
    case JSON_BOOL: jw_bool(w, v->boolean); break;
    case JSON_NUMBER:
        if (json_uint64(v, &u))
            jw_uint(w, u);
        else if (json_int64(v, &i))
            jw_int(w, i);
        else
            jw_double(w, v->number);
        break;
    case JSON_STRING: jw_string(w, v->text); break;
    case JSON_ARRAY:
        jw_begin_array(w);
        for (size_t k = 0; k < v->count; k++)
            write_json_value(w, &v->items[k]);
        jw_end_array(w);
        break;
    case JSON_OBJECT:
        jw_begin_object(w);
        for (size_t k = 0; k < v->count; k++) {
            jw_key(w, v->keys[k]);
            write_json_value(w, &v->items[k]);
        }
        jw_end_object(w);
        break;
    }
}

/* A plain value as text ("" for null), or NULL for an array or an object;
 * params, an object of plain values, as "key=value key=value". */
static char *plain_text(const json_value *v, int params)
{
    switch (v->type) {
    case JSON_NULL: return xstrdup("");
    case JSON_BOOL: return xstrdup(v->boolean ? "true" : "false");
    case JSON_NUMBER: return xstrdup(v->text);
    case JSON_STRING: return xstrdup(v->text);
    case JSON_OBJECT:
        if (params) {
            strbuf sb = {0};
            sb_append(&sb, "");
            for (size_t k = 0; k < v->count; k++) {
                char *item = plain_text(&v->items[k], 0);
                if (item)
                    sb_printf(&sb, "%s%s=%s", k ? " " : "", v->keys[k], item);
                free(item);
            }
            return sb.data;
        }
        return NULL;
    default: return NULL;
    }
}

/* The row members written as columns, in the order first met. */
static size_t row_columns(const json_value *rows, const char ***out)
{
    const char **names = NULL;
    size_t n = 0;
    for (size_t r = 0; r < json_count(rows); r++) {
        const json_value *row = json_at(rows, r);
        for (size_t k = 0; k < json_count(row); k++) {
            const char *key = json_key_at(row, k);
            const json_value *v = json_get(row, key);
            int plain = v->type != JSON_ARRAY &&
                        (v->type != JSON_OBJECT || strcmp(key, "params") == 0);
            size_t j = 0;
            while (j < n && strcmp(names[j], key) != 0)
                j++;
            if (plain && j == n) {
                names = xrealloc(names, (n + 1) * sizeof *names);
                names[n++] = key;
            }
        }
    }
    *out = names;
    return n;
}

/* A row's member as text for people: control bytes escaped, NULL when
 * absent or not plain. */
static char *cell(const json_value *row, const char *key)
{
    const json_value *v = json_get(row, key);
    char *text = v ? plain_text(v, strcmp(key, "params") == 0) : NULL;
    if (!text)
        return NULL;
    for (char *p = text; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    char *shown = printable_text(text);
    free(text);
    return shown;
}

static void put_csv(FILE *out, const char *text, int first)
{
    if (!first)
        fputc(',', out);
    if (!text)
        return;
    int quote = strpbrk(text, ",\"") != NULL;
    if (quote)
        fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    if (quote)
        fputc('"', out);
}

static int write_csv(FILE *out, const json_value *doc)
{
    const json_value *rows = json_get(doc, "results");
    const char **names;
    size_t n = row_columns(rows, &names);
    for (size_t c = 0; c < n; c++)
        put_csv(out, names[c], c == 0);
    fputc('\n', out);
    for (size_t r = 0; r < json_count(rows); r++) {
        for (size_t c = 0; c < n; c++) {
            char *text = cell(json_at(rows, r), names[c]);
            put_csv(out, text, c == 0);
            free(text);
        }
        fputc('\n', out);
    }
    free(names);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

static void put_md(FILE *out, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        if (strchr("|\\`*_<>[]", *p))
            fputc('\\', out);
        fputc(*p, out);
    }
}

static int write_md(FILE *out, const json_value *doc, const char *source)
{
    static const char *const columns[] = {"run", "plugin", "params", "op", "dtype", "n",
                                          "status", "median_ns", "bandwidth_gbs", "reason"};
    fputs("# redbench results: ", out);
    put_md(out, source);
    fputs("\n\n", out);
    for (size_t k = 0; k < json_count(doc); k++) {
        const char *key = json_key_at(doc, k);
        const json_value *v = json_get(doc, key);
        if (v->type == JSON_ARRAY || v->type == JSON_OBJECT || strcmp(key, "experiment") == 0)
            continue;
        char *text = cell(doc, key);
        fputs("- ", out);
        put_md(out, key);
        fputs(": ", out);
        put_md(out, text);
        fputc('\n', out);
        free(text);
    }
    const json_value *rows = json_get(doc, "results");
    fputs("\n|", out);
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++)
        fprintf(out, " %s |", columns[c]);
    fputs("\n|", out);
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++)
        fputs(" --- |", out);
    fputc('\n', out);
    for (size_t r = 0; r < json_count(rows); r++) {
        fputc('|', out);
        for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++) {
            char *text = cell(json_at(rows, r), columns[c]);
            fputc(' ', out);
            put_md(out, text);
            fputs(" |", out);
            free(text);
        }
        fputc('\n', out);
    }
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

static int write_report(FILE *out, int format, const json_value *doc, const char *source)
{
    if (format == REPORT_JSON) {
        json_writer w;
        jw_init(&w, out, 2);
        write_json_value(&w, doc);
        return jw_finish(&w) != 0 ? -1 : 0;
    }
    if (format == REPORT_CSV)
        return write_csv(out, doc);
    if (format == REPORT_MD)
        return write_md(out, doc, source);
    plot_set set;
    if (plot_build(doc, source, NULL, &set) != 0)
        return -1;
    int status = html_report_write(out, doc, &set, source);
    plot_set_free(&set);
    return status;
}

static void report_usage(FILE *out)
{
    fputs("usage: redbench report RESULTS.json [-o FILE]... [--format json|csv|md|html]\n"
          "  Converts a saved results file (redbench -c FILE -o RESULTS.json) to:\n"
          "    json  the document checked and written again\n"
          "    csv   one line per row: every plain member of the rows, params as\n"
          "          \"key=value ...\" (arrays such as samples_ns are left out)\n"
          "    md    the document's plain members, and a table of run, plugin, params,\n"
          "          op, dtype, n, status, median_ns, bandwidth_gbs and reason\n"
          "    html  the page of --format html, with its figures\n"
          "  (the terminal table is made by the run only).\n"
          "  -o FILE        write FILE in the format of its extension (.json .csv .md\n"
          "                 .html); repeatable; every path is checked before anything\n"
          "                 is written; files are written whole or not at all\n"
          "  -f, --format F with a single -o, that file's format whatever its extension;\n"
          "                 without -o, standard output's\n",
          out);
}

int command_report(int argc, char **argv)
{
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *results = NULL, *format = NULL;
    const char **paths = xcalloc((size_t)argc + 1, sizeof *paths);
    size_t n = 0;
    int status = 0;
    optind = 1;
    opterr = 0;
    int c;
    while (status == 0 && (c = getopt_long(argc, argv, ":o:f:h", longs, NULL)) != -1) {
        switch (c) {
        case 'h': report_usage(stdout); free(paths); return 0;
        case 'o': paths[n++] = optarg; break;
        case 'f': format = optarg; break;
        case ':': status = usage_error("report", "%s needs a value", argv[optind - 1]); break;
        default:
            status = usage_error("report", "unknown option %s; valid: -o FILE, --format F, "
                                 "--help", argv[optind - 1]);
        }
    }
    for (int k = optind; status == 0 && k < argc; k++) {
        if (results)
            status = usage_error("report", "one results file at a time (got %s and %s)",
                                 results, argv[k]);
        results = argv[k];
    }
    if (status == 0 && !results)
        status = usage_error("report", "which results file? (a JSON file from redbench -c "
                             "FILE -o RESULTS.json)");
    if (status == 0 && format && report_format(format) < 0)
        status = usage_error("report", "report writes json, csv, md or html, not '%s'%s",
                             format, strcmp(format, "table") == 0 ? " (the table is the run's "
                             "only)" : "");
    if (status == 0 && n == 0 && !format)
        status = usage_error("report", "where to? give -o FILE (repeatable), or --format F "
                             "for standard output");
    int *formats = xcalloc(n + 1, sizeof *formats);
    char why[768];
    for (size_t k = 0; status == 0 && k < n; k++) {
        formats[k] = n == 1 && format ? report_format(format) : report_format_of_path(paths[k]);
        if (safe_file_check(paths[k], why, sizeof why) != 0) {
            diag_error("%s; nothing was written", why);
            status = 2;
        } else if (formats[k] < 0) {
            diag_error("cannot tell the format of -o %s from its extension; report writes .json, "
                       ".csv, .md, .html%s; nothing was written", paths[k],
                       n == 1 ? " (or give --format)" : "");
            status = 2;
        }
        for (size_t j = 0; status == 0 && j < k; j++)
            if (strcmp(paths[j], paths[k]) == 0) {
                diag_error("-o %s is given twice; nothing was written", paths[k]);
                status = 2;
            }
    }
    json_value *doc = status == 0 ? json_read_results(results) : NULL;
    if (status == 0 && !doc)
        status = 2;
    for (size_t k = 0; status == 0 && k < n; k++) {
        rb_safe_file f;
        if (safe_file_open(&f, paths[k], 0) != 0) {
            diag_error("%s", f.error);
            status = 1;
        } else if (write_report(f.stream, formats[k], doc, results) != 0) {
            safe_file_fail(&f, "the report could not be made");
            diag_error("%s", f.error);
            status = 1;
        } else if (safe_file_commit(&f) != 0) {
            diag_error("%s", f.error);
            status = 1;
        }
    }
    if (status == 0 && n == 0 && write_report(stdout, report_format(format), doc, results) != 0) {
        diag_error("cannot write the report to standard output");
        status = 1;
    }
    json_free(doc);
    free(formats);
    free(paths);
    return status;
}
