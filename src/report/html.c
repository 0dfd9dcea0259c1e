/* src/report/html.c: the HTML report (see report/html.h). The `html`
 * reporter writes the JSON report into memory, reads it back and draws the
 * page from that document, like `redbench plot` does from a file. The
 * plots are drawn in C (plot/svg.c), so the page never needs gnuplot. The
 * results table says for each row, besides its numbers, how it was
 * measured and how far to trust it: the timing mode (with the batch size of
 * graph timing), what stopped the repetitions, the error in units of the
 * tolerance, whether repeated runs gave the same bits, and whether the
 * device was throttled; a cell is empty where the document does not say. */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "report/reporters.h"

static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#222;"
    "background:#f6f7f9}\n"
    "main{max-width:1280px;margin:0 auto;padding:24px}\n"
    "h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;"
    "border-bottom:1px solid #ddd;padding-bottom:4px}\n"
    ".meta{color:#555;margin:0 0 16px}\n"
    ".summary{display:flex;gap:10px;flex-wrap:wrap}\n"
    ".count{border-radius:8px;padding:10px 16px;min-width:90px;background:#fff;"
    "border:1px solid #ddd}\n"
    ".count b{display:block;font-size:24px}\n"
    ".count.ok b{color:#2e7d32}.count.wrong b{color:#c62828}.count.failed b{color:#8e0000}"
    ".count.unsupported b{color:#6d6d6d}.count.skipped b{color:#9e9e9e}\n"
    "table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0}\n"
    "th,td{border:1px solid #e0e0e0;padding:4px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#eef1f5}td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".status{font-weight:bold}.status.ok{color:#2e7d32}.status.wrong{color:#c62828}"
    ".status.failed{color:#8e0000}.status.unsupported,.status.skipped{color:#757575}\n"
    "tr.wrong td,tr.failed td{background:#fff3f3}\n"
    "td.caution{color:#b25a00;font-weight:bold}\n"
    "figure{margin:0 0 18px;background:#fff;border:1px solid #ddd;padding:8px;"
    "display:inline-block;max-width:100%;overflow-x:auto}\n"
    "figure svg{display:block;max-width:100%;height:auto}\n"
    ".note{background:#fff8e1;border:1px solid #f0d98c;padding:8px 12px}\n"
    "pre{background:#fff;border:1px solid #ddd;padding:10px;overflow-x:auto;font-size:12px}\n"
    "code{font-size:12px}\n";

/* Lines of text (a <pre> block): put_html, keeping line breaks and tabs. */
static void put_html_lines(FILE *out, const char *text)
{
    const char *s = text ? text : "";
    while (*s) {
        size_t len = strcspn(s, "\n\t");
        char *part = xstrndup(s, len);
        put_markup(out, part);
        free(part);
        s += len;
        if (*s)
            fputc(*s++, out);
    }
}

/* A scalar member as text ("" when absent or null). */
static const char *text_of(const json_value *obj, const char *key)
{
    const json_value *v = json_get(obj, key);
    if (!v)
        return "";
    switch (v->type) {
    case JSON_STRING:
    case JSON_NUMBER: return v->text;
    case JSON_BOOL: return v->boolean ? "true" : "false";
    default: return "";
    }
}

static void cell(FILE *out, const char *text)
{
    fputs("<td>", out);
    put_markup(out, text);
    fputs("</td>", out);
}

/* A number cell, times `factor`: four significant digits (whole numbers from
 * 1000 up); empty unless a number. */
static void number_cell(FILE *out, const json_value *v, double factor)
{
    fputs("<td class=\"num\">", out);
    double x = v && v->type == JSON_NUMBER ? v->number * factor : NAN;
    if (fabs(x) >= 1000 && fabs(x) < 1e15)
        fprintf(out, "%.0f", x);
    else if (isfinite(x))
        fprintf(out, "%.4g", x);
    fputs("</td>", out);
}

static void header_cells(FILE *out, const char *const *names, size_t count)
{
    fputs("<tr>", out);
    for (size_t k = 0; k < count; k++) {
        fputs("<th>", out);
        put_markup(out, names[k]);
        fputs("</th>", out);
    }
    fputs("</tr>\n", out);
}

static void write_heading(FILE *out, const json_value *doc, const char *source)
{
    const json_value *exp = json_get(doc, "experiment");
    const char *name = text_of(exp, "name");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
          "redbench: ",
          out);
    put_markup(out, *name ? name : source);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>redbench: ", style);
    put_markup(out, *name ? name : source);
    fputs("</h1>\n<p class=\"meta\">", out);
    /* "Started T on HOST, 3.1 s; cache hot. From FILE." with what is known. */
    const char *started = text_of(doc, "started");
    const char *host = text_of(json_get(doc, "host"), "name");
    const char *cache = text_of(json_get(exp, "settings"), "cache");
    double wall = json_number(json_get(doc, "wall_seconds"), NAN);
    strbuf line = {0};
    sb_append(&line, "");
    if (*started)
        sb_printf(&line, "Started %s", started);
    if (*host)
        sb_printf(&line, "%s%s", *started ? " on " : "Ran on ", host);
    if (!isnan(wall))
        sb_printf(&line, "%s%.1f s", line.len ? ", " : "Took ", wall);
    if (*cache)
        sb_printf(&line, "%scache %s", line.len ? "; " : "", cache);
    sb_printf(&line, "%sFrom ", line.len ? ". " : "");
    put_markup(out, line.data);
    sb_free(&line);
    fputs("<code>", out);
    put_markup(out, source);
    fputs("</code>.</p>\n", out);
}

static void write_summary(FILE *out, const json_value *doc)
{
    const json_value *summary = json_get(doc, "summary");
    const json_value *results = json_get(doc, "results");
    fputs("<h2 id=\"summary\">Status</h2>\n<div class=\"summary\">\n", out);
    for (int s = 0; s < RB_ROW_COUNT_; s++) {
        const char *status = row_status_name(s);
        double count = json_number(json_get(summary, status), NAN);
        if (isnan(count)) { /* no summary: count the rows */
            count = 0;
            for (size_t k = 0; k < json_count(results); k++)
                count += strcmp(text_of(json_at(results, k), "status"), status) == 0;
        }
        fprintf(out, "<div class=\"count %s\"><b>%.0f</b>%s</div>\n", status, count, status);
    }
    fputs("</div>\n", out);
}

static void write_devices(FILE *out, const json_value *doc)
{
    static const char *const head[] = {"backend", "device", "name", "theoretical peak GB/s",
                                       "measured peak GB/s", "memory", "compute capability",
                                       "driver", "runtime", "properties"};
    const json_value *devices = json_get(doc, "devices");
    fputs("<h2 id=\"devices\">Devices</h2>\n", out);
    if (json_count(devices) == 0) {
        fputs("<p class=\"note\">No device was opened (no row ran).</p>\n", out);
        return;
    }
    fputs("<table>\n", out);
    header_cells(out, head, RB_ARRAY_LEN(head));
    for (size_t k = 0; k < json_count(devices); k++) {
        const json_value *d = json_at(devices, k);
        fputs("<tr>", out);
        cell(out, text_of(d, "backend"));
        cell(out, text_of(d, "device"));
        cell(out, text_of(d, "name"));
        number_cell(out, json_get(d, "peak_gbs"), 1);
        number_cell(out, json_get(d, "measured_peak_gbs"), 1);
        double bytes = json_number(json_get(d, "memory_bytes"), NAN);
        char mem[32] = "";
        if (bytes > 0)
            snprintf(mem, sizeof mem, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
        cell(out, mem);
        cell(out, text_of(d, "compute_capability"));
        cell(out, text_of(d, "driver_version"));
        cell(out, text_of(d, "runtime_version"));
        const json_value *props = json_get(d, "properties");
        fputs("<td>", out);
        for (size_t p = 0; p < json_count(props); p++) {
            fputs(p ? "; " : "", out);
            put_markup(out, json_key_at(props, p));
            fputs(" = ", out);
            put_markup(out, text_of(props, json_key_at(props, p)));
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void write_plots(FILE *out, const plot_set *set)
{
    fputs("<h2 id=\"plots\">Plots</h2>\n", out);
    if (set->n_figures == 0) {
        fprintf(out, "<p class=\"note\">No plots: none of the %zu rows is ok with a time.</p>\n",
                set->n_rows);
        return;
    }
    for (size_t f = 0; f < set->n_figures; f++) {
        fputs("<figure>\n", out);
        plot_svg_write(out, &set->figures[f]);
        fputs("</figure>\n", out);
    }
}

/* A cell that draws the eye (class "caution") when `caution` holds. */
static void flagged_cell(FILE *out, const char *text, int caution)
{
    fputs(caution ? "<td class=\"caution\">" : "<td>", out);
    put_markup(out, text);
    fputs("</td>", out);
}

/* A member that is true, false or absent/null: "yes", "no" or "". */
static const char *yes_no(const json_value *obj, const char *key)
{
    const json_value *v = json_get(obj, key);
    if (!v || v->type != JSON_BOOL)
        return "";
    return v->boolean ? "yes" : "no";
}

/* "launch", or "graph, 513 calls per batch". */
static void timing_cell(FILE *out, const json_value *r)
{
    const char *timing = text_of(r, "timing");
    uint64_t calls;
    fputs("<td>", out);
    put_markup(out, timing);
    if (*timing && json_uint64(json_get(r, "batch_calls"), &calls))
        fprintf(out, ", %llu calls per batch", (unsigned long long)calls);
    fputs("</td>", out);
}

/* The error in units of the tolerance, as the terminal table writes it:
 * two significant digits, 0 when exact. */
static void error_ratio_cell(FILE *out, const json_value *r)
{
    const json_value *v = json_get(r, "error_ratio");
    fputs("<td class=\"num\">", out);
    if (v && v->type == JSON_NUMBER) {
        if (v->number == 0)
            fputs("0", out);
        else
            fprintf(out, fabs(v->number) < 0.01 ? "%.1e" : "%.2g", v->number);
    }
    fputs("</td>", out);
}

/* "yes (hw_slowdown)", "no", or "" when the clocks were not read. */
static void throttled_cell(FILE *out, const json_value *r)
{
    const char *throttled = yes_no(r, "throttled");
    const char *reasons = text_of(r, "throttle_reasons");
    int is_throttled = strcmp(throttled, "yes") == 0;
    fputs(is_throttled ? "<td class=\"caution\">" : "<td>", out);
    put_markup(out, throttled);
    if (is_throttled && *reasons) {
        fputs(" (", out);
        put_markup(out, reasons);
        fputc(')', out);
    }
    fputs("</td>", out);
}

/* How a row was measured and how far to trust it. */
static void measurement_cells(FILE *out, const json_value *r)
{
    timing_cell(out, r);
    const char *stopped_by = text_of(r, "stopped_by");
    flagged_cell(out, stopped_by,
                 strcmp(stopped_by, "max_reps") == 0 || strcmp(stopped_by, "timeout") == 0);
    error_ratio_cell(out, r);
    const char *deterministic = yes_no(r, "deterministic");
    flagged_cell(out, deterministic, strcmp(deterministic, "no") == 0);
    throttled_cell(out, r);
}

static void write_results(FILE *out, const json_value *doc)
{
    static const char *const head[] = {"#", "run", "plugin", "params", "op", "dtype", "n",
                                       "status", "median", "GB/s", "% peak", "% measured",
                                       "reps", "noise %", "timing", "stopped by", "err/tol",
                                       "deterministic", "throttled", "reason"};
    const json_value *results = json_get(doc, "results");
    fputs("<h2 id=\"results\">Results</h2>\n<table>\n", out);
    header_cells(out, head, RB_ARRAY_LEN(head));
    for (size_t k = 0; k < json_count(results); k++) {
        const json_value *r = json_at(results, k);
        const char *status = text_of(r, "status");
        fputs("<tr class=\"", out);
        put_markup(out, status);
        fprintf(out, "\"><td class=\"num\">%zu</td>", k + 1);
        cell(out, text_of(r, "run"));
        cell(out, text_of(r, "plugin"));
        cell(out, text_of(r, "params_text"));
        cell(out, text_of(r, "op"));
        cell(out, text_of(r, "dtype"));
        char buf[48] = "";
        uint64_t n;
        if (json_uint64(json_get(r, "n"), &n))
            format_size(n, buf, sizeof buf);
        fprintf(out, "<td class=\"num\">%s</td><td class=\"status ", buf);
        put_markup(out, status);
        fputs("\">", out);
        put_markup(out, status);
        fputs("</td>", out);
        double median = json_number(json_get(r, "median_ns"), NAN);
        buf[0] = '\0';
        if (isfinite(median))
            format_duration_ns(median, buf, sizeof buf);
        fprintf(out, "<td class=\"num\">%s</td>", buf);
        number_cell(out, json_get(r, "bandwidth_gbs"), 1);
        number_cell(out, json_get(r, "pct_peak"), 1);
        number_cell(out, json_get(r, "pct_measured_peak"), 1);
        number_cell(out, json_get(r, "reps"), 1);
        number_cell(out, json_get(r, "noise"), 100);
        measurement_cells(out, r);
        cell(out, text_of(r, "reason"));
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void definition(FILE *out, const char *name, const char *value)
{
    if (!value || !*value)
        return;
    fputs("<tr><th>", out);
    put_markup(out, name);
    fputs("</th><td>", out);
    put_markup(out, value);
    fputs("</td></tr>\n", out);
}

static void write_provenance(FILE *out, const json_value *doc)
{
    const json_value *host = json_get(doc, "host");
    const json_value *exp = json_get(doc, "experiment");
    fputs("<h2 id=\"provenance\">Provenance</h2>\n<table>\n", out);
    definition(out, "redbench", text_of(doc, "version"));
    definition(out, "git revision", text_of(doc, "git_revision"));
    definition(out, "plugin ABI", text_of(doc, "plugin_abi"));
    definition(out, "command line", text_of(doc, "command_line"));
    definition(out, "started", text_of(doc, "started"));
    definition(out, "wall seconds", text_of(doc, "wall_seconds"));
    definition(out, "host", text_of(host, "name"));
    definition(out, "operating system", text_of(host, "os"));
    definition(out, "CPU", text_of(host, "cpu"));
    definition(out, "experiment file", text_of(exp, "path"));
    const json_value *settings = json_get(exp, "settings");
    for (size_t k = 0; k < json_count(settings); k++)
        definition(out, json_key_at(settings, k), text_of(settings, json_key_at(settings, k)));
    fputs("</table>\n", out);

    const json_value *plugins = json_get(doc, "plugins");
    if (json_count(plugins) > 0) {
        static const char *const head[] = {"plugin", "pack", "version", "backend", "ABI",
                                           "SHA-256", "path"};
        fputs("<h3>Plugins</h3>\n<table>\n", out);
        header_cells(out, head, RB_ARRAY_LEN(head));
        for (size_t k = 0; k < json_count(plugins); k++) {
            const json_value *p = json_at(plugins, k);
            fputs("<tr>", out);
            cell(out, text_of(p, "name"));
            cell(out, text_of(p, "pack"));
            cell(out, text_of(p, "version"));
            cell(out, text_of(p, "backend"));
            cell(out, text_of(p, "abi"));
            fputs("<td><code>", out);
            put_markup(out, text_of(p, "sha256"));
            fputs("</code></td>", out);
            cell(out, text_of(p, "path"));
            fputs("</tr>\n", out);
        }
        fputs("</table>\n", out);
    }
    const char *text = text_of(exp, "text");
    if (*text) {
        fputs("<h3>Experiment file</h3>\n<pre>", out);
        put_html_lines(out, text);
        fputs("</pre>\n", out);
    }
}

int html_report_write(FILE *out, const json_value *doc, const plot_set *set, const char *source)
{
    write_heading(out, doc, source);
    write_summary(out, doc);
    write_devices(out, doc);
    write_plots(out, set);
    write_results(out, doc);
    write_provenance(out, doc);
    const char *version = text_of(doc, "version");
    fputs("<p class=\"meta\">Written by redbench", out);
    if (*version) {
        fputc(' ', out);
        put_markup(out, version);
    }
    fputs(".</p>\n</main>\n</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}

int report_html(FILE *out, const rb_results *res)
{
    char *json = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&json, &len);
    if (!mem) {
        diag_error("html report: out of memory");
        return -1;
    }
    int status = report_json(mem, res);
    status |= fclose(mem);
    json_error err;
    json_value *doc = status == 0 ? json_parse(json, len, &err) : NULL;
    free(json);
    if (!doc) {
        diag_error("html report: the results could not be read back");
        return -1;
    }
    const rb_experiment *exp = res->info.experiment;
    const char *source = exp && exp->path ? exp->path : "this run";
    plot_set set;
    status = plot_build(doc, source, NULL, &set);
    if (status == 0) {
        status = html_report_write(out, doc, &set, source);
        plot_set_free(&set);
    }
    json_free(doc);
    return status;
}
