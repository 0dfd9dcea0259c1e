/* src/report/md.c: the Markdown reporter. A heading with the experiment's
 * name, a list of the run's metadata (date, host, devices and where their
 * measured peak came from, cache regime, timing mode, command), the status
 * summary, a table with one line per row (the error in units of the
 * tolerance, whether repeated runs gave the same bits, the reproducibility
 * level the host judged, notes on caps and throttling, and the reason in
 * its last column), and the experiment file
 * as given. Text in the list
 * and the table is escaped ('|', '\', '`', '*', '<'); line breaks and tabs
 * become spaces, so that each row stays one table line, and other control
 * bytes (ESC, DEL, the C1 controls) escapes such as \x1b (printable_text). */
#include "report/reporters.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "report/columns.h"
#include "report/output.h"
#include "results/fields.h"

static void write_metadata(FILE *out, const rb_results *res)
{
    const rb_run_info *info = &res->info;
    const rb_experiment *exp = info->experiment;

    fputs("# redbench: ", out);
    md_text(out, exp && exp->name ? exp->name : "results");
    fputs("\n\n", out);

    fputs("- date: ", out);
    md_text(out, *info->started ? info->started : "unknown");
    fputs("\n- host: ", out);
    md_text(out, *info->host ? info->host : "unknown");
    if (*info->os || *info->cpu) {
        fputs(" (", out);
        md_text(out, info->os);
        fputs(*info->os && *info->cpu ? ", " : "", out);
        md_text(out, info->cpu);
        fputc(')', out);
    }
    fputs("\n- devices:", out);
    if (info->n_devices == 0)
        fputs(" none", out);
    for (size_t k = 0; k < info->n_devices && k < RB_ARRAY_LEN(info->devices); k++) {
        const rb_device_record *d = &info->devices[k];
        fputs(k ? "; " : " ", out);
        md_text(out, *d->info.name ? d->info.name : "(unnamed)");
        fputs(" (", out);
        md_text(out, d->backend);
        fprintf(out, " %d", d->device);
        if (d->measured_peak_gbs > 0) {
            fprintf(out, ", measured peak %.1f GB/s", d->measured_peak_gbs);
            if (d->measured_peak_cached) {
                fputs(" (cached, measured ", out);
                md_text(out, *d->measured_peak_at ? d->measured_peak_at : "earlier");
                fputc(')', out);
            }
        }
        if (d->info.peak_gbs > 0)
            fprintf(out, ", theoretical peak %.1f GB/s", d->info.peak_gbs);
        fputc(')', out);
    }
    if (exp) {
        fprintf(out, "\n- cache: %s", cache_mode_name(exp->cache));
        /* how the rows were timed, as the run's table says it; the
         * experiment's setting where no row was timed or it differs */
        char timed[256];
        results_timing_text(res, timed, sizeof timed);
        const char *asked = timing_mode_name(exp->timing);
        if (!*timed)
            fprintf(out, "\n- timing: %s", asked);
        else if (strcmp(timed, asked) == 0 || !experiment_asked(exp->text, info->command_line, "timing"))
            fprintf(out, "\n- timing: %s", timed);
        else
            fprintf(out, "\n- timing: %s (the experiment asked for %s)", timed, asked);
        if (exp->profile)
            fputs(" (--profile: one run per configuration, no warm-up)", out);
        fputs("\n- experiment: ", out);
        md_code_span(out, exp->path ? exp->path : "");
    }
    fputs("\n- command: ", out);
    md_code_span(out, info->command_line ? info->command_line : "");
    fputs("\n- redbench ", out);
    md_text(out, info->tool_version ? info->tool_version : "");
    fprintf(out, ", wall time %.1f s\n\n", info->wall_seconds);
}

static void write_summary(FILE *out, const rb_results *res)
{
    size_t counts[RB_ROW_COUNT_];
    results_count(res, counts);
    fprintf(out, "**%zu configuration%s:**", res->n_rows, res->n_rows == 1 ? "" : "s");
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        fprintf(out, "%s %zu %s", s ? "," : "", counts[s], row_status_name(s));
    fputs("\n\n", out);
}

/* The table's columns: fields of results/fields.c by name; NULL is the
 * notes, Markdown's own. */
static const char *const columns[] = {
    "run", "plugin", "params_text", "n", "rows", "axis", "lengths", "dtype", "op", "median_ns",
    "bandwidth_gbs",
    "j_per_gb", "power_w", "sm_clock_min_mhz", "sm_clock_max_mhz", "pct_measured_peak", "pct_peak", "error_ratio", "deterministic", "repro", NULL, "status",
    "reason",
};

/* What a reader should know about how a row was measured: a probe input's
 * answer was wrong (its err/tol, on the row's own input, may pass); it measured
 * fewer rounds than asked (interrupted); a cap stopped the repetitions; throttled, with the reasons. "-" when nothing. */
static char *notes_text(const rb_results *res, const rb_row *row)
{
    strbuf sb = {0};
    if (row->probes == RB_PROBES_FAILED)
        sb_printf(&sb, "wrong on a probe input (err/tol is the row's own input's)");
    size_t rounds = row_rounds_short(res, row);
    if (rounds)
        sb_printf(&sb, "%s%zu of %d rounds (interrupted)", sb.len ? "; " : "", rounds,
                  res->info.rounds);
    if (row->stopped_by && (strcmp(row->stopped_by, "max_reps") == 0 ||
                            strcmp(row->stopped_by, "timeout") == 0))
        sb_printf(&sb, "%sstopped by %s", sb.len ? "; " : "", row->stopped_by);
    if (row->throttled) {
        char reasons[160];
        throttle_reason_text(row->throttle_reasons, reasons, sizeof reasons);
        sb_printf(&sb, "%sthrottled: %s", sb.len ? "; " : "", reasons);
    }
    if (*row_energy_note(row))
        sb_printf(&sb, "%senergy (%s): %s", sb.len ? "; " : "",
                  energy_source_name(row->energy_source), row_energy_note(row));
    return sb.data ? sb.data : xstrdup("-");
}

/* Whether a column is shown: the energy columns where some row has the
 * value (`energy = on`), every other always. */
static int md_column_shown(const rb_results *res, const char *name)
{
    /* these when some row has them: energy, clocks, shapes */
    if (!name || (strcmp(name, "j_per_gb") && strcmp(name, "power_w") &&
                  strncmp(name, "sm_clock_", 9) && strcmp(name, "rows") &&
                  strcmp(name, "axis") && strcmp(name, "lengths")))
        return 1;
    const rb_field *f = row_field(name);
    for (size_t k = 0; k < res->n_rows; k++) {
        rb_row_ref ref = {res, &res->rows[k]};
        rb_value v;
        memset(&v, 0, sizeof v);
        f->get(&ref, &v);
        if (v.kind != RB_VALUE_UNKNOWN && v.kind != RB_VALUE_ABSENT)
            return 1;
    }
    return 0;
}

/* A row of the table; fields[c] is the field of columns[c] (NULL: the notes). */
static void write_row(FILE *out, const rb_results *res, const rb_row *row,
                      const rb_field *const *fields, const int *shown)
{
    rb_row_ref ref = {res, row};
    char *cells[RB_ARRAY_LEN(columns)];
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++)
        cells[c] = fields[c] ? field_text(fields[c], &ref) : notes_text(res, row);
    md_table_row(out, cells, shown, RB_ARRAY_LEN(columns));
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++)
        free(cells[c]);
}

static void write_table(FILE *out, const rb_results *res)
{
    if (res->n_rows == 0)
        return;
    rb_column layout[RB_ARRAY_LEN(columns)];
    const rb_field *fields[RB_ARRAY_LEN(columns)];
    int shown[RB_ARRAY_LEN(columns)];
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++) {
        const rb_field *f = fields[c] = columns[c] ? row_field(columns[c]) : NULL;
        layout[c] = (rb_column){f ? f->title : "notes", f && field_unit_is_number(f->unit)};
        shown[c] = md_column_shown(res, columns[c]);
    }
    md_table_head(out, layout, shown, RB_ARRAY_LEN(columns), "--:");
    for (size_t k = 0; k < res->n_rows; k++)
        write_row(out, res, &res->rows[k], fields, shown);
    fputc('\n', out);
}

/* The experiment file as given, folded, each line made printable (a
 * control byte as an escape such as \x1b), in a fence longer than any run
 * of backticks in it, so that no line of it can close the fence. */
static void write_experiment_file(FILE *out, const rb_experiment *exp)
{
    if (!exp || !exp->text)
        return;
    size_t ticks = md_fence_length(exp->text);
    fputs("<details><summary>Experiment file</summary>\n\n", out);
    md_backticks(out, ticks);
    fputs("ini\n", out);
    md_lines(out, exp->text);
    size_t len = strlen(exp->text);
    if (len > 0 && exp->text[len - 1] != '\n')
        fputc('\n', out);
    md_backticks(out, ticks);
    fputs("\n\n</details>\n", out);
}

static int write_md_report(FILE *out, const rb_results *res)
{
    write_metadata(out, res);
    write_summary(out, res);
    write_table(out, res);
    write_experiment_file(out, res->info.experiment);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int report_md(FILE *out, const rb_results *res)
{
    int locking = stream_unlocked(out);
    int status = write_md_report(out, res);
    stream_relock(out, locking);
    return status;
}
