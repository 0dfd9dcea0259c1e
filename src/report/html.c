/* src/report/html.c: the HTML report (see report/html.h), written from a
 * result set: a run's, or a results file's read back (results/read.c). The
 * plots are drawn in C (plot/svg.c), so the page never needs gnuplot. The
 * results table takes its columns from the fields of a row
 * (results/fields.c): besides its numbers, how each row was measured and
 * how far to trust it (the timing mode, with the batch size of graph
 * timing; what stopped the repetitions; the error in units of the
 * tolerance; whether repeated runs gave the same bits and the
 * reproducibility level the host judged; whether the device was
 * throttled); a cell is empty where the value is not known, and a
 * column that no row fills is left out. The table fits a page 1,280
 * pixels wide: the main numbers have columns of their own, headed with
 * their units, each with a tooltip giving it in full with its unit; how a
 * row was measured is folded into one details cell; the reason and the
 * parameters wrap (the numbers do not). Rows that did not run (skipped,
 * unsupported) are folded under their count, below, then under one line
 * for each distinct reason. With
 * two sizes or more, a map of each strategy's best GB/s at each n
 * (report/html_map.c) leads the plots.
 * A run of several rounds adds each round's order of the configurations,
 * bounded for large result sets, in a closed details section. A caller's
 * section (rb_html_extra: a history's trends) comes after it, linked from
 * under the heading and from each row that has a place in it. */
#include "report/html.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "config/settings.h"
#include "config/sweep.h"
#include "report/html_map.h"
#include "report/output.h"
#include "report/reporters.h"
#include "results/fields.h"

static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#222;"
    "background:#f6f7f9}\n"
    "main{max-width:1600px;margin:0 auto;padding:24px}\n"
    "h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;"
    "border-bottom:1px solid #ddd;padding-bottom:4px}\n"
    ".meta{color:#555;margin:0 0 16px}\n"
    ".summary{display:flex;gap:10px;flex-wrap:wrap}\n"
    ".count{border-radius:8px;padding:10px 16px;min-width:90px;background:#fff;"
    "border:1px solid #ddd}\n"
    ".count b{display:block;font-size:24px}\n"
    ".count.ok b{color:#2e7d32}.count.wrong b{color:#c62828}.count.failed b{color:#8e0000}"
    ".count.unsupported b{color:#6d6d6d}.count.skipped b{color:#9e9e9e}\n"
    ".wide{max-width:100%;overflow-x:auto}\n"
    "table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0}\n"
    "th,td{border:1px solid #e0e0e0;padding:4px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#eef1f5}td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "table.results{font-size:12px;width:100%}table.results th,table.results td{padding:3px 6px}\n"
    "table.results td{white-space:nowrap}\n"
    "table.results td.reason{white-space:normal;overflow-wrap:anywhere;min-width:18em;"
    "max-width:48em}\n"
    "table.results td.params{white-space:normal;overflow-wrap:anywhere;min-width:7em;"
    "max-width:16em}\n"
    "table.results td.more{white-space:normal;min-width:6em;max-width:22em;color:#444}\n"
    "table.results td.more summary{cursor:pointer;color:#1a56a6}\n"
    "table.results td.more summary.caution{color:#b25a00;font-weight:bold}\n"
    "table.results td.more span.caution{color:#b25a00;font-weight:bold}\n"
    "details.folded{margin:10px 0}details.folded>summary{cursor:pointer;color:#555}\n"
    "details.reason{margin:4px 0 4px 18px}details.reason>summary{cursor:pointer;"
    "overflow-wrap:anywhere}\n"
    "p.reason{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0;font-size:13px}\n"
    ".status{font-weight:bold}.status.ok{color:#2e7d32}.status.wrong{color:#c62828}"
    ".status.failed{color:#8e0000}.status.unsupported,.status.skipped{color:#757575}\n"
    "tr.wrong td,tr.failed td{background:#fff3f3}\n"
    "table.rounds td.order{max-width:90em;overflow-wrap:anywhere}\n"
    "td.caution{color:#b25a00;font-weight:bold}\n"
    "figure{margin:0 0 18px;background:#fff;border:1px solid #ddd;padding:8px;"
    "display:inline-block;max-width:100%;overflow-x:auto;box-sizing:border-box}\n"
    "figure svg{display:block;max-width:100%;height:auto}\n"
    ".note{background:#fff8e1;border:1px solid #f0d98c;padding:8px 12px}\n"
    "table.provenance td,td.path,.meta code{overflow-wrap:anywhere;word-break:break-word}\n"
    "table.provenance td{max-width:60em}td.path{min-width:12em;max-width:40em}\n"
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

static void cell(FILE *out, const char *text)
{
    fputs("<td>", out);
    put_markup(out, text ? text : "");
    fputs("</td>", out);
}

/* A number cell: four significant digits (whole numbers from 1000 up);
 * empty unless `known`. */
static void number_cell(FILE *out, double x, int known)
{
    fputs("<td class=\"num\">", out);
    if (known && fabs(x) >= 1000 && fabs(x) < 1e15)
        fprintf(out, "%.0f", x);
    else if (known && isfinite(x))
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

static void write_heading(FILE *out, const rb_results *res, const char *source,
                          const rb_html_extra *extra)
{
    const rb_run_info *info = &res->info;
    const rb_experiment *exp = info->experiment;
    const char *name = exp && exp->name && *exp->name ? exp->name : source;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
          "redbench: ",
          out);
    put_markup(out, name);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>redbench: ", style);
    put_markup(out, name);
    fputs("</h1>\n<p class=\"meta\">", out);
    /* "Started T on HOST, 3.1 s; cache hot. From FILE." with what is known. */
    strbuf line = {0};
    sb_append(&line, "");
    if (*info->started)
        sb_printf(&line, "Started %s", info->started);
    if (*info->host)
        sb_printf(&line, "%s%s", *info->started ? " on " : "Ran on ", info->host);
    if (info->wall_seconds > 0) {
        char took[40];
        format_seconds(info->wall_seconds, took, sizeof took);
        sb_printf(&line, "%s%s", line.len ? ", " : "Took ", took);
    }
    if (exp)
        sb_printf(&line, "%scache %s", line.len ? "; " : "", cache_mode_name(exp->cache));
    sb_printf(&line, "%sFrom ", line.len ? ". " : "");
    put_markup(out, line.data);
    sb_free(&line);
    fputs("<code>", out);
    put_markup(out, source);
    fputs("</code>.</p>\n", out);
    if (extra) {
        fputs("<p class=\"meta\">See <a href=\"#", out);
        put_markup(out, extra->id);
        fputs("\">", out);
        put_markup(out, extra->title);
        fputs("</a>: ", out);
        put_markup(out, extra->summary);
        fputs(".</p>\n", out);
    }
}

static void write_summary(FILE *out, const rb_results *res)
{
    size_t counts[RB_ROW_COUNT_];
    results_count(res, counts);
    fputs("<h2 id=\"summary\">Status</h2>\n<div class=\"summary\">\n", out);
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        fprintf(out, "<div class=\"count %s\"><b>%zu</b>%s</div>\n", row_status_name(s),
                counts[s], row_status_name(s));
    fputs("</div>\n", out);
}

/* A device property by key ("driver_version"), or "". */
static const char *device_property(const rb_device_info *info, const char *key)
{
    for (uint32_t k = 0; k < info->n_props && k < RB_DEVICE_MAX_PROPS; k++)
        if (strcmp(info->props[k].key, key) == 0)
            return info->props[k].value;
    return "";
}

static void write_devices(FILE *out, const rb_results *res)
{
    static const char *const head[] = {"backend", "device", "name", "theoretical peak GB/s",
                                       "measured peak GB/s", "memory", "compute capability",
                                       "driver", "runtime", "properties"};
    fputs("<h2 id=\"devices\">Devices</h2>\n", out);
    if (res->info.n_devices == 0) {
        fputs("<p class=\"note\">No device was opened (no row ran).</p>\n", out);
        return;
    }
    fputs("<div class=\"wide\"><table>\n", out);
    header_cells(out, head, RB_ARRAY_LEN(head));
    for (size_t k = 0; k < res->info.n_devices && k < RB_ARRAY_LEN(res->info.devices); k++) {
        const rb_device_record *d = &res->info.devices[k];
        const rb_device_info *info = &d->info;
        char text[48];
        fputs("<tr>", out);
        cell(out, d->backend);
        snprintf(text, sizeof text, "%d", d->device);
        cell(out, text);
        cell(out, info->name);
        number_cell(out, info->peak_gbs, info->peak_gbs > 0);
        number_cell(out, d->measured_peak_gbs, d->measured_peak_gbs > 0);
        text[0] = '\0';
        if (info->memory_bytes > 0)
            snprintf(text, sizeof text, "%.1f GiB", info->memory_bytes / (1024.0 * 1024 * 1024));
        cell(out, text);
        text[0] = '\0';
        if (info->cc_major > 0 || info->cc_minor > 0)
            snprintf(text, sizeof text, "%d.%d", info->cc_major, info->cc_minor);
        cell(out, text);
        cell(out, device_property(info, "driver_version"));
        cell(out, device_property(info, "runtime_version"));
        fputs("<td>", out);
        for (uint32_t p = 0; p < info->n_props && p < RB_DEVICE_MAX_PROPS; p++) {
            fputs(p ? "; " : "", out);
            put_markup(out, info->props[p].key);
            fputs(" = ", out);
            put_markup(out, info->props[p].value);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table></div>\n", out);
}

static void write_plots(FILE *out, const rb_results *res, const plot_set *set)
{
    fputs("<h2 id=\"plots\">Plots</h2>\n", out);
    plot_set map;
    size_t maps = html_strategy_map(res, &map);
    if (set->n_figures == 0 && maps == 0) {
        fprintf(out, "<p class=\"note\">No plots: none of the %zu rows is ok with a time.</p>\n",
                set->n_rows);
        return;
    }
    for (size_t f = 0; f < maps; f++) {
        fputs("<figure class=\"strategy-map\">\n", out);
        plot_svg_write(out, &map.figures[f]);
        fputs("</figure>\n", out);
    }
    plot_set_free(&map);
    for (size_t f = 0; f < set->n_figures; f++) {
        fputs("<figure>\n", out);
        plot_svg_write(out, &set->figures[f]);
        fputs("</figure>\n", out);
    }
}

/* The results table's columns: fields of a row (results/fields.c), each
 * with its header (with its unit) and its place: a column of its own, or
 * the row's details (one cell, folded, that keeps the table within a
 * page's width). */
enum { IN_COLUMN, IN_DETAILS };
typedef struct result_column {
    const char *field;  /* the field's name */
    const char *header; /* the header, with the unit; NULL: the field's title */
    int place;          /* IN_COLUMN, IN_DETAILS */
} result_column;

static const result_column result_columns[] = {
    {"run", NULL, IN_COLUMN},
    {"plugin", NULL, IN_COLUMN},
    {"params_text", "params", IN_COLUMN},
    {"op", NULL, IN_COLUMN},
    {"dtype", NULL, IN_COLUMN},
    {"n", "n (elements)", IN_COLUMN},
    {"rows", NULL, IN_COLUMN},
    {"axis", NULL, IN_COLUMN},
    {"lengths", NULL, IN_COLUMN},
    {"status", NULL, IN_COLUMN},
    {"median_ns", "median time", IN_COLUMN},
    {"bandwidth_gbs", "bandwidth (GB/s)", IN_COLUMN},
    {"pct_peak", "% of peak", IN_COLUMN},
    {"ranks", NULL, IN_COLUMN},
    {"busbw_gbs", "busbw (GB/s)", IN_COLUMN},
    {"slowest_rank", NULL, IN_COLUMN},
    {"wrong_ranks", NULL, IN_COLUMN},
    {"scaling", NULL, IN_COLUMN},
    {"noise", "noise (% of median)", IN_COLUMN},
    {"j_per_gb", "energy (J/GB)", IN_DETAILS},
    {"power_w", "power (W)", IN_DETAILS},
    {"sm_clock_min_mhz", "SM clock min (MHz)", IN_DETAILS},
    {"sm_clock_max_mhz", "SM clock max (MHz)", IN_DETAILS},
                {"pct_measured_peak", "% of measured peak", IN_DETAILS},
    {"reps", "repetitions (all rounds)", IN_DETAILS},
    {"timing", NULL, IN_DETAILS},
    {"stopped_by", NULL, IN_DETAILS},
    {"error_ratio", "error / tolerance", IN_DETAILS},
    {"deterministic", "deterministic", IN_DETAILS},
    {"repro", NULL, IN_DETAILS},
    {"throttled", NULL, IN_DETAILS},
    {"energy_note", "energy note", IN_DETAILS},
    {"reason", NULL, IN_COLUMN},
};

/* Whether a field's value draws the eye: a cap that stopped the
 * repetitions before the noise target, results that differed between
 * runs (deterministic: no, repro: varies), a throttled device, a row
 * that measured fewer rounds than asked. */
static int short_of_rounds(const rb_results *res, const rb_row *row);

static int caution(const rb_results *res, const rb_row *row, const char *name)
{
    if (strcmp(name, "reps") == 0 || strcmp(name, "status") == 0)
        return short_of_rounds(res, row);
    if (strcmp(name, "stopped_by") == 0)
        return row->stopped_by && (strcmp(row->stopped_by, "max_reps") == 0 ||
                                   strcmp(row->stopped_by, "timeout") == 0);
    if (strcmp(name, "deterministic") == 0)
        return row->determinism == RB_DETERMINISM_DIFFERS;
    if (strcmp(name, "repro") == 0)
        return row->repro.level == RB_REPRO_VARIES;
    if (strcmp(name, "throttled") == 0)
        return (row->clocks_known || row->sm_clock_max_mhz) && row->throttled;
    return 0;
}

/* Whether the row measured fewer rounds than the run asked for (it was
 * interrupted): its repetitions and status cells say so. */
static int short_of_rounds(const rb_results *res, const rb_row *row)
{
    return row_rounds_short(res, row) > 0;
}

/* Whether a row has a value for the field. */
static int field_known(const rb_results *res, const rb_row *row, const rb_field *f)
{
    rb_row_ref ref = {res, row};
    rb_value v;
    memset(&v, 0, sizeof v);
    f->get(&ref, &v);
    if (v.kind == RB_VALUE_UNKNOWN || v.kind == RB_VALUE_ABSENT ||
        (v.kind == RB_VALUE_TEXT && (!v.text || !*v.text)))
        return 0;
    char *text = field_text(f, &ref);
    int known = text && *text && strcmp(text, "-") != 0;
    free(text);
    return known;
}

/* A field's text as people read it, escaped; nothing when not known;
 * graph timing with its batch size, a throttled device with its reasons. */
static void field_value(FILE *out, const rb_results *res, const rb_row *row, const rb_field *f)
{
    rb_row_ref ref = {res, row};
    rb_value v;
    memset(&v, 0, sizeof v);
    f->get(&ref, &v);
    const char *name = f->name;
    if (v.kind == RB_VALUE_UNKNOWN || v.kind == RB_VALUE_ABSENT ||
        (v.kind == RB_VALUE_TEXT && !v.text))
        return;
    char *text = field_text(f, &ref);
    put_markup(out, text);
    free(text);
    if (strcmp(name, "timing") == 0 && row->batch_calls > 0)
        fprintf(out, ", %u calls per batch", row->batch_calls);
    if (strcmp(name, "reps") == 0 && row->n_rounds > 1) {
        /* the rounds' repetitions added together: say each round's */
        fprintf(out, " in %zu rounds (", row->n_rounds);
        for (size_t k = 0; k < row->n_rounds; k++)
            fprintf(out, "%s%zu", k ? ", " : "", row->rounds[k].reps);
        fputs(" a round)", out);
    }
    if (strcmp(name, "reps") == 0 && short_of_rounds(res, row))
        fprintf(out, ", %zu of %d rounds (interrupted)", row->n_rounds, res->info.rounds);
    if (strcmp(name, "status") == 0 && short_of_rounds(res, row))
        fprintf(out, " (%zu of %d rounds)", row->n_rounds, res->info.rounds);
    if (strcmp(name, "throttled") == 0 && caution(res, row, name) && v.kind == RB_VALUE_BOOL) {
        char reasons[160];
        throttle_reason_text(row->throttle_reasons, reasons, sizeof reasons);
        if (*reasons) {
            fputs(" (", out);
            put_markup(out, reasons);
            fputc(')', out);
        }
    }
}

/* The units of the numbers that the table writes bare, under a header
 * that names the unit: their tooltips say it. */
static const struct {
    const char *field, *what, *unit;
} bare_units[] = {
    {"bandwidth_gbs", "bandwidth", "GB/s"},     {"busbw_gbs", "bus bandwidth", "GB/s"},
    {"j_per_gb", "energy", "J/GB"},             {"power_w", "power", "W"},
    {"sm_clock_min_mhz", "SM clock min", "MHz"}, {"sm_clock_max_mhz", "SM clock max", "MHz"},
    {"reps", "repetitions", ""},                {"ranks", "ranks", ""},
    {"rows", "rows", ""},
};

/* A number cell's tooltip (a title attribute), the value in full with its
 * unit: "median: 1.23 us (1234.5 ns)", "n: 4M (4194304 elements)",
 * "bandwidth: 12.3456 GB/s"; nothing for a value not known or not a
 * number. */
static void number_title(FILE *out, const rb_results *res, const rb_row *row, const rb_field *f)
{
    rb_row_ref ref = {res, row};
    rb_value v;
    memset(&v, 0, sizeof v);
    f->get(&ref, &v);
    double x = v.kind == RB_VALUE_NUMBER ? v.number
               : v.kind == RB_VALUE_UINT ? (double)v.u
               : v.kind == RB_VALUE_INT  ? (double)v.i
                                         : NAN;
    if (!isfinite(x))
        return;
    strbuf title = {0};
    for (size_t k = 0; k < RB_ARRAY_LEN(bare_units); k++)
        if (strcmp(bare_units[k].field, f->name) == 0)
            sb_printf(&title, "%s: %.6g %s", bare_units[k].what, x, bare_units[k].unit);
    if (!title.len) {
        char *text = field_text(f, &ref);
        sb_printf(&title, "%s: %s", f->title ? f->title : f->name, text);
        free(text);
        if (f->unit == RB_UNIT_DURATION && fabs(x) >= 1000)
            sb_printf(&title, " (%.6g ns)", x);
        else if (f->unit == RB_UNIT_SIZE && strcmp(f->name, "n") == 0 &&
                 sweep_is_shaped(row->config))
            sb_printf(&title, " (%.0f elements of each row, %.0f in all)", x,
                      (double)sweep_elements(row->config));
        else if (f->unit == RB_UNIT_SIZE)
            sb_printf(&title, " (%.0f elements)", x);
    }
    fputs(" title=\"", out);
    put_markup(out, title.data);
    fputc('"', out);
    sb_free(&title);
}

/* Whether the field is of the shape (rows, axis, lengths). */
static int shape_field(const char *name)
{
    return strcmp(name, "rows") == 0 || strcmp(name, "axis") == 0 ||
           strcmp(name, "lengths") == 0;
}

/* Whether a shape's column is shown, as the run's table shows them: rows
 * where some row is shaped, axis where some row reduces columns, lengths
 * where some row has ragged lengths; none for results of one reduction. */
static int shape_column_shown(const rb_results *res, const char *name)
{
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_configuration *cfg = res->rows[k].config;
        if (strcmp(name, "rows") == 0 ? sweep_is_shaped(cfg)
            : strcmp(name, "axis") == 0 ? cfg->axis == RB_AXIS_COLUMN
                                        : cfg->lengths == RB_LENGTHS_RAGGED)
            return 1;
    }
    return 0;
}

/* The shape's cell of a row of one reduction among shaped ones: one row
 * of n, along the row, of fixed length (as CSV writes it). */
static void one_reduction_cell(FILE *out, const char *name)
{
    if (strcmp(name, "rows") == 0)
        fputs("<td class=\"num\" title=\"rows: 1 (one reduction of n)\">1</td>", out);
    else
        fprintf(out, "<td>%s</td>", strcmp(name, "axis") == 0 ? axis_name(RB_AXIS_ROW)
                                                              : lengths_name(RB_LENGTHS_FIXED));
}

/* One field's cell: its text as people read it, empty when not known; a
 * number's tooltip gives it in full with its unit. */
static void field_cell(FILE *out, const rb_results *res, const rb_row *row, const rb_field *f)
{
    const char *name = f->name;
    if (shape_field(name) && !sweep_is_shaped(row->config)) {
        one_reduction_cell(out, name);
        return;
    }
    if (strcmp(name, "status") == 0)
        fprintf(out, "<td class=\"status %s\"", row_status_name(row->status));
    else if (caution(res, row, name))
        fputs("<td class=\"caution\"", out);
    else if (field_unit_is_number(f->unit))
        fputs("<td class=\"num\"", out);
    else if (strcmp(name, "reason") == 0 || strcmp(name, "params_text") == 0)
        fprintf(out, "<td class=\"%s\"", name[0] == 'r' ? "reason" : "params");
    else
        fputs("<td", out);
    if (field_unit_is_number(f->unit) || f->unit == RB_UNIT_SIZE)
        number_title(out, res, row, f);
    fputc('>', out);
    field_value(out, res, row, f);
    fputs("</td>", out);
}

/* Whether some row has a value for the field (a column no row fills, such
 * as %peak where no device has a theoretical peak, is left out). */
static int column_used(const rb_results *res, const rb_field *f)
{
    for (size_t k = 0; k < res->n_rows; k++) {
        rb_row_ref ref = {res, &res->rows[k]};
        rb_value v;
        memset(&v, 0, sizeof v);
        f->get(&ref, &v);
        if (v.kind != RB_VALUE_UNKNOWN && v.kind != RB_VALUE_ABSENT &&
            !(v.kind == RB_VALUE_TEXT && (!v.text || !*v.text)))
            return 1;
    }
    return 0;
}

/* Whether the field is about ranks: a column only where some row ran on
 * several. */
static int rank_field(const char *name)
{
    return strcmp(name, "ranks") == 0 || strcmp(name, "slowest_rank") == 0 ||
           strcmp(name, "wrong_ranks") == 0;
}

/* Whether some row ran on several ranks. */
static int some_row_ranked(const rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++)
        if (res->rows[k].ranks > 1)
            return 1;
    return 0;
}

/* Whether the row goes to the folded table of rows that did not run. */
static int row_folded(const rb_row *row)
{
    return row->status == RB_ROW_SKIPPED || row->status == RB_ROW_UNSUPPORTED;
}

/* n's header: the elements of each row where some row is shaped (the
 * rows column says how many rows). */
static const char *n_header(const rb_results *res)
{
    return shape_column_shown(res, "rows") ? "n (elements of each row)" : "n (elements)";
}

static void column_header(FILE *out, const rb_field *f, const char *header)
{
    fputs("<th>", out);
    put_markup(out, header ? header : f->title ? f->title : f->name);
    fputs("</th>", out);
}

/* The row's details cell: each detail known, "header: value", a value
 * that draws the eye marked; its summary says when one does. */
static void details_cell(FILE *out, const rb_results *res, const rb_row *row,
                         const rb_field *const *fields, const int *shown)
{
    int any = 0, alert = 0;
    for (size_t c = 0; c < RB_ARRAY_LEN(result_columns); c++)
        if (shown[c] && result_columns[c].place == IN_DETAILS &&
            field_known(res, row, fields[c])) {
            any = 1;
            alert |= caution(res, row, fields[c]->name);
        }
    fputs("<td class=\"more\">", out);
    if (!any) {
        fputs("</td>", out);
        return;
    }
    fprintf(out, "<details><summary%s>%s</summary>", alert ? " class=\"caution\"" : "",
            alert ? "details (check)" : "details");
    const char *sep = "";
    for (size_t c = 0; c < RB_ARRAY_LEN(result_columns); c++) {
        if (!shown[c] || result_columns[c].place != IN_DETAILS ||
            !field_known(res, row, fields[c]))
            continue;
        fprintf(out, "%s<span%s>", sep,
                caution(res, row, fields[c]->name) ? " class=\"caution\"" : "");
        put_markup(out, result_columns[c].header ? result_columns[c].header
                                                 : fields[c]->title ? fields[c]->title
                                                                    : fields[c]->name);
        fputs(": ", out);
        field_value(out, res, row, fields[c]);
        fputs("</span>", out);
        sep = "; ";
    }
    fputs("</details></td>", out);
}

/* The rows that did not run (skipped, unsupported), folded away under
 * their count, then by reason: one line for each distinct status and
 * reason, with how many rows it covers and which runs, opening on the
 * reason in full and the rows (number, run, parameters, data). */
#define REASON_RUNS_NAMED 4

/* The summary of one reason's line: "4 skipped (run a, b): first line of
 * the reason", the reason cut at its first line break or 160 characters.
 * Returns whether it was cut. */
static int reason_summary(FILE *out, const rb_results *res, const rb_outcome_groups *g,
                          const rb_outcome_group *group)
{
    const rb_row *first = &res->rows[g->rows[group->first]];
    fprintf(out, "<summary><b>%zu</b> <span class=\"status %s\">%s</span>", group->count,
            row_status_name(first->status), row_status_name(first->status));
    /* the runs the line covers, each once, in order */
    const char *runs[REASON_RUNS_NAMED];
    size_t n_runs = 0, more = 0;
    for (size_t k = 0; k < group->count; k++) {
        const rb_row *row = &res->rows[g->rows[group->first + k]];
        const char *run = row->config->run && row->config->run->name ? row->config->run->name : "";
        size_t r = 0;
        while (r < n_runs && strcmp(runs[r], run) != 0)
            r++;
        if (r < n_runs)
            continue;
        if (n_runs < REASON_RUNS_NAMED)
            runs[n_runs++] = run;
        else
            more++; /* counted once per row past the named runs: an upper bound */
    }
    fputs(n_runs == 1 ? " (run " : " (runs ", out);
    for (size_t r = 0; r < n_runs; r++) {
        fputs(r ? ", " : "", out);
        put_markup(out, runs[r]);
    }
    if (more)
        fputs(", ...", out);
    fputs("): ", out);
    const char *reason = row_reason(first);
    size_t len = strcspn(reason, "\n");
    int cut = len > 160 || reason[len];
    char *line = xstrndup(reason, len > 160 ? 160 : len);
    put_markup(out, line);
    free(line);
    fputs(cut ? " ...</summary>" : "</summary>", out);
    return cut;
}

static void write_folded(FILE *out, const rb_results *res, size_t count)
{
    static const char *const names[] = {"run", "params_text", "op", "dtype", "n",
                                        "rows", "axis", "lengths"};
    int shown[RB_ARRAY_LEN(names)];
    const rb_field *fields[RB_ARRAY_LEN(names)];
    for (size_t c = 0; c < RB_ARRAY_LEN(names); c++) {
        shown[c] = !shape_field(names[c]) || shape_column_shown(res, names[c]);
        fields[c] = row_field(names[c]);
    }
    rb_outcome_groups g;
    outcome_groups(res, row_folded, &g);
    size_t reasons = g.n_groups;
    fprintf(out, "<details class=\"folded\"><summary>%zu row%s skipped or unsupported "
                 "(not run), for %zu reason%s</summary>\n",
            count, count == 1 ? "" : "s", reasons, reasons == 1 ? "" : "s");
    for (size_t r = 0; r < g.n_groups; r++) {
        const rb_outcome_group *group = &g.groups[r];
        const rb_row *first = &res->rows[g.rows[group->first]];
        fputs("<details class=\"reason\">", out);
        if (reason_summary(out, res, &g, group)) { /* the reason in full */
            fputs("\n<p class=\"reason\">", out);
            put_html_lines(out, row_reason(first));
            fputs("</p>", out);
        }
        fputs("\n<div class=\"wide\"><table class=\"results folded\">\n<tr><th>#</th>", out);
        for (size_t c = 0; c < RB_ARRAY_LEN(names); c++)
            if (shown[c])
                column_header(out, fields[c],
                              strcmp(names[c], "params_text") == 0 ? "params"
                              : strcmp(names[c], "n") == 0        ? n_header(res)
                                                                  : NULL);
        fputs("</tr>\n", out);
        for (size_t j = 0; j < group->count; j++) {
            const rb_row *row = &res->rows[g.rows[group->first + j]];
            fprintf(out, "<tr class=\"%s\"><td class=\"num\">%zu</td>",
                    row_status_name(row->status), row->config->index + 1);
            for (size_t c = 0; c < RB_ARRAY_LEN(names); c++)
                if (shown[c])
                    field_cell(out, res, row, fields[c]);
            fputs("</tr>\n", out);
        }
        fputs("</table></div>\n</details>\n", out);
    }
    fputs("</details>\n", out);
    outcome_groups_free(&g);
}

/* A row's link to its place in the caller's section: a cell of its own,
 * empty where the row has none. */
static void extra_cell(FILE *out, const rb_html_extra *extra, size_t row)
{
    char anchor[64];
    fputs("<td class=\"extra\">", out);
    if (extra->row_anchor(extra->data, row, anchor, sizeof anchor)) {
        fputs("<a href=\"#", out);
        put_markup(out, anchor);
        fputs("\">", out);
        put_markup(out, extra->link_text);
        fputs("</a>", out);
    }
    fputs("</td>", out);
}

static void write_results(FILE *out, const rb_results *res, const rb_html_extra *extra)
{
    const rb_field *fields[RB_ARRAY_LEN(result_columns)];
    int shown[RB_ARRAY_LEN(result_columns)];
    size_t folded = 0, details = 0;
    for (size_t k = 0; k < res->n_rows; k++)
        folded += row_folded(&res->rows[k]);
    fputs("<h2 id=\"results\">Results</h2>\n", out);
    for (size_t c = 0; c < RB_ARRAY_LEN(result_columns); c++) {
        fields[c] = row_field(result_columns[c].field);
        shown[c] = res->n_rows == 0 || column_used(res, fields[c]);
        if (rank_field(fields[c]->name)) /* known on every row, 1 or 0 on one device */
            shown[c] = some_row_ranked(res);
        if (shape_field(fields[c]->name))
            shown[c] = shape_column_shown(res, fields[c]->name);
        details += shown[c] && result_columns[c].place == IN_DETAILS;
    }
    if (folded < res->n_rows || res->n_rows == 0) {
        fputs("<div class=\"wide\"><table class=\"results\">\n<tr><th>#</th>", out);
        for (size_t c = 0; c < RB_ARRAY_LEN(result_columns); c++) {
            if (!shown[c] || result_columns[c].place != IN_COLUMN)
                continue;
            if (details && strcmp(fields[c]->name, "reason") == 0)
                fputs("<th>how measured</th>", out);
            column_header(out, fields[c], strcmp(fields[c]->name, "n") == 0
                                              ? n_header(res) : result_columns[c].header);
        }
        if (details && !shown[RB_ARRAY_LEN(result_columns) - 1])
            fputs("<th>how measured</th>", out);
        if (extra) {
            fputs("<th class=\"extra\">", out);
            put_markup(out, extra->link_text);
            fputs("</th>", out);
        }
        fputs("</tr>\n", out);
        for (size_t k = 0; k < res->n_rows; k++) {
            const rb_row *row = &res->rows[k];
            if (row_folded(row))
                continue;
            fprintf(out, "<tr class=\"%s\"><td class=\"num\">%zu</td>",
                    row_status_name(row->status), row->config->index + 1);
            for (size_t c = 0; c < RB_ARRAY_LEN(result_columns); c++) {
                if (!shown[c] || result_columns[c].place != IN_COLUMN)
                    continue;
                if (details && strcmp(fields[c]->name, "reason") == 0)
                    details_cell(out, res, row, fields, shown);
                field_cell(out, res, row, fields[c]);
            }
            if (details && !shown[RB_ARRAY_LEN(result_columns) - 1])
                details_cell(out, res, row, fields, shown);
            if (extra)
                extra_cell(out, extra, k);
            fputs("</tr>\n", out);
        }
        fputs("</table></div>\n", out);
    }
    if (folded)
        write_folded(out, res, folded);
}

/* The rounds' orders: at most this many configurations a round and this
 * many rounds are listed; the JSON results hold every one. */
#define ROUND_ENTRIES_SHOWN 200
#define ROUNDS_SHOWN 100

/* One configuration of a round's order: its number in the results table,
 * then its run, parameters and data, as the table writes them. */
static void round_entry(FILE *out, const rb_results *res, const rb_row *row)
{
    static const char *const names[] = {"run", "params_text", "op", "dtype", "n"};
    rb_row_ref ref = {res, row};
    fprintf(out, "<b>#%zu</b>", row->config->index + 1);
    for (size_t k = 0; k < RB_ARRAY_LEN(names); k++) {
        char *text = field_text(row_field(names[k]), &ref);
        if (text && *text) {
            fputc(' ', out);
            put_markup(out, text);
        }
        free(text);
    }
}

/* Round `round`'s order, on one line of the page. */
static void write_round_order(FILE *out, const rb_results *res, int round)
{
    const size_t *order = res->info.round_order + (size_t)round * res->n_rows;
    size_t count = 0;
    while (count < res->n_rows && order[count] != SIZE_MAX)
        count++;
    fprintf(out, "<tr class=\"round\"><td class=\"num\">%d</td><td class=\"order\">", round + 1);
    size_t shown = 0;
    for (size_t k = 0; k < count && shown < ROUND_ENTRIES_SHOWN; k++) {
        if (order[k] >= res->n_rows)
            continue;
        fputs(shown++ ? ", " : "", out);
        round_entry(out, res, &res->rows[order[k]]);
    }
    if (count > shown)
        fprintf(out, "%s... and %zu more", shown ? ", " : "", count - shown);
    fputs("</td></tr>\n", out);
}

/* The order in which each round measured the configurations, shuffled
 * from the seed (run/runner.c); only for a run of several rounds. */
static void write_rounds(FILE *out, const rb_results *res)
{
    const rb_run_info *info = &res->info;
    if (info->rounds_run < 2 || !info->round_order)
        return;
    fputs("<h2 id=\"rounds\">Rounds</h2>\n<p class=\"meta\">", out);
    fprintf(out, "%d of %d rounds ran, each measuring the configurations in an order of its own, "
            "shuffled from the seed", info->rounds_run, info->rounds);
    if (info->experiment)
        fprintf(out, " (%llu)", (unsigned long long)info->experiment->seed);
    fputs("; each configuration is named by its number (#) in the results table.", out);
    if (info->rounds_run < info->rounds)
        fputs(" Fewer rounds ran than were asked for (the run was interrupted, or no "
              "configuration was left to measure); an interrupted round lists the "
              "configurations it began.", out);
    fprintf(out, "</p>\n<details class=\"folded rounds\"><summary>Each round's order (%d "
                 "round%s)</summary>\n<div class=\"wide\"><table class=\"rounds\">\n"
                 "<tr><th>round</th><th>order</th></tr>\n",
            info->rounds_run, info->rounds_run == 1 ? "" : "s");
    int rounds = info->rounds_run < ROUNDS_SHOWN ? info->rounds_run : ROUNDS_SHOWN;
    for (int r = 0; r < rounds; r++)
        write_round_order(out, res, r);
    if (info->rounds_run > rounds)
        fprintf(out, "<tr><td></td><td>... and %d more rounds</td></tr>\n",
                info->rounds_run - rounds);
    fputs("</table></div>\n</details>\n", out);
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

static void definition_number(FILE *out, const char *name, double value)
{
    char text[40];
    snprintf(text, sizeof text, "%.15g", value);
    definition(out, name, text);
}

/* The experiment's settings, as the JSON report names them
 * (config/settings.c's rows that the results carry). */
static void write_settings(FILE *out, const rb_results *res, const char *timed)
{
    const rb_experiment *exp = res->info.experiment;
    size_t count;
    const rb_setting_spec *const *specs = settings_in_results(&count);
    char text[64];
    for (size_t k = 0; k < count; k++) {
        const rb_setting_spec *s = specs[k];
        if (s->results == RB_RESULTS_RUN)
            continue;
        if (strcmp(s->name, "timing") == 0 && *timed) {
            /* what the experiment asked for, only where it asked and the
             * rows were timed otherwise ("rows timed with" says how) */
            const char *asked = timing_mode_name(exp->timing);
            if (strcmp(asked, timed) != 0 &&
                experiment_asked(exp->text, res->info.command_line, "timing")) {
                char *line = xasprintf("%s asked (the rows were timed with %s)", asked, timed);
                definition(out, s->name, line);
                free(line);
            }
            continue;
        }
        if (s->results == RB_RESULTS_BOOL)
            definition(out, s->name, setting_whole(s, exp) ? "true" : "false");
        else if (s->kind == RB_SETTING_NUMBER && s->unit && strcmp(s->unit, "s") == 0) {
            format_seconds(*setting_number(s, (rb_experiment *)exp), text, sizeof text);
            definition(out, s->name, text);
        } else if (s->kind == RB_SETTING_NUMBER && s->unit && strcmp(s->unit, "%") == 0) {
            snprintf(text, sizeof text, "%.4g%%", *setting_number(s, (rb_experiment *)exp) * 100);
            definition(out, s->name, text);
        } else if (s->kind == RB_SETTING_NUMBER)
            definition_number(out, s->name, *setting_number(s, (rb_experiment *)exp));
        else if (setting_text(s, exp, text, sizeof text) || s->kind == RB_SETTING_COUNT)
            definition(out, s->name, text);
    }
}

/* Each plugin the rows used, once, in order of first use. */
static void write_plugins(FILE *out, const rb_results *res)
{
    static const char *const head[] = {"plugin", "pack", "version", "backend", "ABI",
                                       "SHA-256", "path"};
    int any = 0;
    size_t n_plugins;
    const rb_loaded_plugin **plugins = results_plugins(res, &n_plugins);
    for (size_t k = 0; k < n_plugins; k++) {
        const rb_loaded_plugin *p = plugins[k];
        if (!any) {
            fputs("<h3>Plugins</h3>\n<div class=\"wide\"><table>\n", out);
            header_cells(out, head, RB_ARRAY_LEN(head));
        }
        any = 1;
        char abi[32], digest[65];
        snprintf(abi, sizeof abi, "%u.%u", (unsigned)p->desc->abi_major,
                 (unsigned)p->desc->abi_minor);
        fputs("<tr>", out);
        cell(out, p->desc->name);
        cell(out, p->pack);
        cell(out, p->desc->version);
        cell(out, p->desc->backend);
        cell(out, abi);
        fputs("<td><code>", out);
        put_markup(out, plugin_digest(p, digest) == 0 ? digest : "");
        fputs("</code></td><td class=\"path\">", out);
        put_markup(out, p->path ? p->path : "");
        fputs("</td>", out);
        fputs("</tr>\n", out);
    }
    if (any)
        fputs("</table></div>\n", out);
    free(plugins);
}

static void write_provenance(FILE *out, const rb_results *res)
{
    const rb_run_info *info = &res->info;
    const rb_experiment *exp = info->experiment;
    char text[64];
    fputs("<h2 id=\"provenance\">Provenance</h2>\n<div class=\"wide\"><table class=\"provenance\">\n", out);
    definition(out, "redbench", info->tool_version);
    definition(out, "git revision", info->git_revision);
    snprintf(text, sizeof text, "%d.%d", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR);
    definition(out, "plugin ABI", text);
    definition(out, "command line", info->command_line);
    definition(out, "started", info->started);
    if (info->wall_seconds > 0) {
        format_seconds(info->wall_seconds, text, sizeof text);
        definition(out, "wall time", text);
    }
    definition(out, "host", info->host);
    definition(out, "operating system", info->os);
    definition(out, "CPU", info->cpu);
    /* how the rows were timed, as the run's table says it: the setting
     * below is what the experiment asked for (a backend may time otherwise) */
    char timed[256];
    results_timing_text(res, timed, sizeof timed);
    if (*timed)
        definition(out, "rows timed with", timed);
    if (exp) {
        definition(out, "experiment file", exp->path);
        write_settings(out, res, timed);
    }
    fputs("</table></div>\n", out);
    write_plugins(out, res);
    if (exp && exp->text && *exp->text) {
        fputs("<h3>Experiment file</h3>\n<pre>", out);
        put_html_lines(out, exp->text);
        fputs("</pre>\n", out);
    }
}

/* The caller's section, whole: the first line and the last are its own
 * (<section class="extra"> ... </section>). */
static int write_extra(FILE *out, const rb_html_extra *extra)
{
    fputs("<section class=\"extra\">\n<h2 id=\"", out);
    put_markup(out, extra->id);
    fputs("\">", out);
    put_markup(out, extra->title);
    fputs("</h2>\n", out);
    int status = extra->write(out, extra->data);
    fputs("</section>\n", out);
    return status;
}

int html_report_write(FILE *out, const rb_results *res, const plot_set *set, const char *source,
                      const rb_html_extra *extra)
{
    write_heading(out, res, source, extra);
    write_summary(out, res);
    write_devices(out, res);
    write_plots(out, res, set);
    write_results(out, res, extra);
    write_rounds(out, res);
    if (extra && write_extra(out, extra) != 0)
        return -1;
    write_provenance(out, res);
    fputs("<p class=\"meta\">Written by redbench", out);
    if (res->info.tool_version && *res->info.tool_version) {
        fputc(' ', out);
        put_markup(out, res->info.tool_version);
    }
    fputs(".</p>\n</main>\n</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}

static int write_html_report(FILE *out, const rb_results *res, const rb_html_extra *extra)
{
    const rb_experiment *exp = res->info.experiment;
    const char *source = exp && exp->path ? exp->path : "this run";
    plot_set set;
    int status = plot_build(res, source, NULL, &set);
    if (status == 0) {
        status = html_report_write(out, res, &set, source, extra);
        plot_set_free(&set);
    }
    return status;
}

int report_html_extra(FILE *out, const rb_results *res, const rb_html_extra *extra)
{
    int locking = stream_unlocked(out);
    int status = write_html_report(out, res, extra);
    stream_relock(out, locking);
    return status;
}

int report_html(FILE *out, const rb_results *res)
{
    return report_html_extra(out, res, NULL);
}
