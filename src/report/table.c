/* src/report/table.c: the terminal reporter. Aligned columns whose widths
 * come from their content (text left, numbers right), then one line per row
 * that is not ok with its reason (one for all the rows that share a status
 * and a reason), one per row with a note (a cap stopped
 * its repetitions, the device was throttled), a summary of the statuses,
 * the cache regime, the timing modes and the devices used. The "%meas" and
 * "%peak" columns (of the measured and of the theoretical peak) appear when
 * some row has them; "err/tol" (the error in units of the tolerance) and
 * "det" (repeated runs gave the same bits: yes or no) when some row was
 * verified, "repro" (the reproducibility level the host judged: varies,
 * run-to-run, layout-independent, exact) when some row has one; "notes" when some row has one; "ranks" and "busbw" (the bus
 * bandwidth of a collective) when some row ran on several ranks or has a
 * collective, "rows" when some row is shaped ("axis" when one reduces
 * columns, "lengths" when one has ragged rows), "scaling" when some row has a one-rank row to scale
 * against, and "J/GB" and "W" (energy per gigabyte read, average power)
 * when some row's energy was measured (`energy = on`). */
#include "report/reporters.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"
#include "host/peak_cache.h"
#include "report/columns.h"
#include "report/output.h"
#include "results/fields.h"

enum column {
    COL_NUM, COL_RUN, COL_PLUGIN, COL_PARAMS, COL_N, COL_ROWS, COL_AXIS, COL_LENGTHS, COL_DTYPE,
    COL_OP, COL_MEDIAN,
    COL_GBS, COL_JPGB, COL_WATTS, COL_RANKS, COL_BUSBW, COL_SCALING, COL_PCT_MEASURED, COL_PCT_PEAK,
    COL_ERROR_RATIO, COL_DETERMINISTIC, COL_REPRO, COL_NOTES, COL_STATUS, COL_COUNT
};

/* Each column's field (results/fields.c), which gives its title and text;
 * '#' and the notes are the table's own. */
static const struct {
    const char *field;
    const char *title;
    int right; /* right-aligned (numbers) */
} columns[COL_COUNT] = {
    [COL_NUM] = {NULL, "#", 1},
    [COL_RUN] = {"run", NULL, 0},
    [COL_PLUGIN] = {"plugin", NULL, 0},
    [COL_PARAMS] = {"params_text", NULL, 0},
    [COL_N] = {"n", NULL, 1},
    [COL_ROWS] = {"rows", NULL, 1},
    [COL_AXIS] = {"axis", NULL, 0},
    [COL_LENGTHS] = {"lengths", NULL, 0},
    [COL_DTYPE] = {"dtype", NULL, 0},
    [COL_OP] = {"op", NULL, 0},
    [COL_MEDIAN] = {"median_ns", NULL, 1},
    [COL_GBS] = {"bandwidth_gbs", NULL, 1},
    [COL_JPGB] = {"j_per_gb", NULL, 1},
    [COL_WATTS] = {"power_w", NULL, 1},
    [COL_RANKS] = {"ranks", NULL, 1},
    [COL_BUSBW] = {"busbw_gbs", NULL, 1},
    [COL_SCALING] = {"scaling", NULL, 1},
    [COL_PCT_MEASURED] = {"pct_measured_peak", NULL, 1},
    [COL_PCT_PEAK] = {"pct_peak", NULL, 1},
    [COL_ERROR_RATIO] = {"error_ratio", NULL, 1},
    [COL_DETERMINISTIC] = {"deterministic", NULL, 0},
    [COL_REPRO] = {"repro", NULL, 0},
    [COL_NOTES] = {NULL, "notes", 0},
    [COL_STATUS] = {"status", NULL, 0},
};

static const char *column_title(int c)
{
    return columns[c].field ? row_field(columns[c].field)->title : columns[c].title;
}

/* What a reader should know about how a row was measured: "probe" when
 * a probe input's answer was wrong (its err/tol, on the row's own input,
 * may be inside the tolerance: the reason under the table says which
 * probe), "1 of 3 rounds" when the run was interrupted before the row's
 * last round,
 * "max_reps" or
 * "timeout" when a cap stopped the repetitions before the noise target,
 * "throttled" when the device slowed itself down. "" when nothing. */
static char *notes_cell(const rb_results *res, const rb_row *row)
{
    strbuf sb = {0};
    if (row->probes == RB_PROBES_FAILED)
        sb_printf(&sb, "probe");
    size_t rounds = row_rounds_short(res, row);
    if (rounds)
        sb_printf(&sb, "%s%zu of %d rounds", sb.len ? "," : "", rounds, res->info.rounds);
    if (row->stopped_by && (strcmp(row->stopped_by, "max_reps") == 0 ||
                            strcmp(row->stopped_by, "timeout") == 0))
        sb_printf(&sb, "%s%s", sb.len ? "," : "", row->stopped_by);
    if (row->throttled)
        sb_printf(&sb, "%sthrottled", sb.len ? "," : "");
    if (*row_energy_note(row))
        sb_printf(&sb, "%senergy", sb.len ? "," : "");
    return sb.data ? sb.data : xstrdup("");
}

/* fields[c]: the field of columns[c], NULL for a column of the table's own. */
static void fill_cells(const rb_results *res, const rb_row *row, const rb_field *const *fields,
                       char *cells[COL_COUNT])
{
    rb_row_ref ref = {res, row};
    for (int c = 0; c < COL_COUNT; c++) {
        if (!fields[c])
            continue;
        char *text = field_text(fields[c], &ref);
        cells[c] = one_line(text); /* control characters as spaces */
        free(text);
    }
    cells[COL_NUM] = xasprintf("%zu", row->config->index + 1);
    cells[COL_NOTES] = notes_cell(res, row);
}

/* A footnote under the table when %meas passes 100%: those sizes are read
 * from the device's last-level cache, faster than the measured peak (a read
 * of a buffer larger than that cache, from memory). */
static void write_in_cache_note(FILE *out, const rb_results *res)
{
    size_t over = 0;
    double most = 0;
    uint64_t largest = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        if (row->stats.count == 0 || !(row->pct_measured_peak > 100))
            continue;
        over++;
        if (row->pct_measured_peak > most)
            most = row->pct_measured_peak;
        uint64_t bytes = sweep_elements(row->config) * rb_dtype_size(row->config->dtype);
        if (bytes > largest)
            largest = bytes;
    }
    if (over == 0)
        return;
    char size[32];
    format_size(largest, size, sizeof size);
    fprintf(out,
            "%%meas above 100%% (%zu row%s, up to %.0f%%): inputs of up to %s bytes fit in the "
            "device's last-level cache and are read from it, faster than the measured peak, "
            "which reads from memory\n",
            over, over == 1 ? "" : "s", most, size);
}

/* The table's rows being written: the shown columns are found as each
 * row is made the first time (a rb_row_cells_fn). */
typedef struct table_rows {
    const rb_results *res;
    const rb_field *fields[COL_COUNT];
    int shown[COL_COUNT];
} table_rows;

static void row_cells(void *user, size_t k, char **cells)
{
    table_rows *t = user;
    const rb_row *row = &t->res->rows[k];
    int *shown = t->shown;
    fill_cells(t->res, row, t->fields, cells);
    if (row->stats.count > 0 && row->pct_measured_peak > 0)
        shown[COL_PCT_MEASURED] = 1;
    if (row->stats.count > 0 && row->pct_peak > 0)
        shown[COL_PCT_PEAK] = 1;
    if (row->error_ratio_known)
        shown[COL_ERROR_RATIO] = 1;
    if (row->ranks > 1 || row->busbw_gbs > 0)
        shown[COL_RANKS] = shown[COL_BUSBW] = 1;
    if (sweep_is_shaped(row->config))
        shown[COL_ROWS] = 1;
    if (row->config->axis == RB_AXIS_COLUMN)
        shown[COL_AXIS] = 1;
    if (row->config->lengths == RB_LENGTHS_RAGGED)
        shown[COL_LENGTHS] = 1;
    if (row->scaling > 0)
        shown[COL_SCALING] = 1;
    if (row->energy_source != RB_ENERGY_NONE && row->energy_j > 0)
        shown[COL_JPGB] = shown[COL_WATTS] = 1;
    if (row->determinism != RB_DETERMINISM_UNKNOWN)
        shown[COL_DETERMINISTIC] = 1;
    if (row->repro.level != RB_REPRO_UNKNOWN)
        shown[COL_REPRO] = 1;
    if (*cells[COL_NOTES])
        shown[COL_NOTES] = 1;
}

static void write_table(FILE *out, const rb_results *res)
{
    rb_column layout[COL_COUNT];
    table_rows t = {.res = res};
    int *shown = t.shown;
    for (int c = 0; c < COL_COUNT; c++)
        t.fields[c] = columns[c].field ? row_field(columns[c].field) : NULL;

    for (int c = 0; c < COL_COUNT; c++) {
        layout[c] = (rb_column){column_title(c), columns[c].right};
        shown[c] = c != COL_PCT_MEASURED && c != COL_PCT_PEAK && c != COL_ERROR_RATIO &&
                   c != COL_DETERMINISTIC && c != COL_REPRO && c != COL_NOTES && c != COL_RANKS &&
                   c != COL_BUSBW && c != COL_SCALING && c != COL_JPGB && c != COL_WATTS &&
                   c != COL_ROWS && c != COL_AXIS && c != COL_LENGTHS;
    }
    text_table_rows(out, layout, shown, COL_COUNT, res->n_rows, row_cells, &t);
    write_in_cache_note(out, res);
}

/* "#3-18, #21": the numbers of a group's rows, runs of consecutive
 * numbers (rows next to each other in the results) as ranges. */
static char *row_numbers(const rb_results *res, const rb_outcome_groups *g,
                         const rb_outcome_group *group)
{
    strbuf sb = {0};
    const size_t *rows = g->rows + group->first;
    size_t k = 0;
    while (k < group->count) {
        size_t end = k;
        while (end + 1 < group->count && rows[end + 1] == rows[end] + 1 &&
               res->rows[rows[end + 1]].config->index == res->rows[rows[end]].config->index + 1)
            end++;
        const rb_row *a = &res->rows[rows[k]], *b = &res->rows[rows[end]];
        if (end == k)
            sb_printf(&sb, "%s#%zu", sb.len ? ", " : "", a->config->index + 1);
        else
            sb_printf(&sb, "%s#%zu-%zu", sb.len ? ", " : "", a->config->index + 1,
                      b->config->index + 1);
        k = end + 1;
    }
    return sb.data ? sb.data : xstrdup("");
}

static int not_ok(const rb_row *row) { return row->status != RB_ROW_OK; }

/* One line per row that is not ok, with its reason; rows that share a
 * status and a reason (16 configurations skipped because their plugin is
 * absent) are one line: "16 configurations skipped (#3-18): REASON". */
static void write_reasons(FILE *out, const rb_results *res)
{
    rb_outcome_groups g;
    outcome_groups(res, not_ok, &g);
    if (g.n_groups)
        fputc('\n', out);
    for (size_t r = 0; r < g.n_groups; r++) {
        const rb_outcome_group *group = &g.groups[r];
        const rb_row *row = &res->rows[g.rows[group->first]];
        const rb_configuration *cfg = row->config;
        char *reason = one_line(*row_reason(row) ? row_reason(row) : "(no reason given)");
        if (group->count > 1) {
            char *numbers = row_numbers(res, &g, group);
            fprintf(out, "%zu configurations %s (%s): %s\n", group->count,
                    row_status_name(row->status), numbers, reason);
            free(numbers);
            free(reason);
            continue;
        }
        char *run = one_line(cfg->run ? cfg->run->name : "");
        rb_row_ref ref = {res, row};
        char *name = field_text(row_field("plugin"), &ref);
        char *plugin = one_line(name);
        free(name);
        char *params = one_line(cfg->params_text);
        fprintf(out, "#%zu %s %s%s%s: %s: %s\n", cfg->index + 1, run, plugin, *params ? " " : "",
                params, row_status_name(row->status), reason);
        free(run);
        free(plugin);
        free(params);
        free(reason);
    }
    outcome_groups_free(&g);
}

/* One line per row with a note on its energy (run/energy.h): how it was
 * measured, or why it was not. */
static void write_energy_notes(FILE *out, const rb_results *res)
{
    int header_written = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        if (!*row_energy_note(row))
            continue;
        if (!header_written)
            fputc('\n', out);
        header_written = 1;
        const rb_configuration *cfg = row->config;
        char *run = one_line(cfg->run ? cfg->run->name : "");
        char *params = one_line(cfg->params_text);
        char *text = one_line(row_energy_note(row));
        fprintf(out, "#%zu %s%s%s: energy (%s): %s\n", cfg->index + 1, run, *params ? " " : "",
                params, energy_source_name(row->energy_source), text);
        free(text);
        free(run);
        free(params);
    }
}

/* One line per row measured while the device was throttled: the reasons
 * and the clocks before and after. */
static void write_throttled(FILE *out, const rb_results *res)
{
    int header_written = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const rb_row *row = &res->rows[k];
        if (!row->throttled)
            continue;
        if (!header_written)
            fputc('\n', out);
        header_written = 1;
        const rb_configuration *cfg = row->config;
        char reasons[160];
        throttle_reason_text(row->throttle_reasons, reasons, sizeof reasons);
        char *run = one_line(cfg->run ? cfg->run->name : "");
        char *params = one_line(cfg->params_text);
        if (row->clocks_known)
            fprintf(out, "#%zu %s%s%s: throttled (%s): clock %u -> %u MHz, memory %u -> %u MHz\n",
                    cfg->index + 1, run, *params ? " " : "", params, reasons,
                    row->clocks_before.core_mhz, row->clocks_after.core_mhz,
                    row->clocks_before.memory_mhz, row->clocks_after.memory_mhz);
        else
            fprintf(out, "#%zu %s%s%s: throttled (%s): SM clock %u to %u MHz during the calls\n",
                    cfg->index + 1, run, *params ? " " : "", params, reasons,
                    row->sm_clock_min_mhz, row->sm_clock_max_mhz);
        free(run);
        free(params);
    }
}

/* "timing: device" when every timed row used one mode, else each mode with
 * its count of rows (results/rows.h). */
static void write_timing(FILE *out, const rb_results *res)
{
    char text[256];
    results_timing_text(res, text, sizeof text);
    if (*text)
        fprintf(out, "timing: %s\n", text);
}

static void write_summary(FILE *out, const rb_results *res)
{
    size_t counts[RB_ROW_COUNT_];
    results_count(res, counts);
    if (res->n_rows > 0)
        fputc('\n', out);
    fprintf(out, "%zu configuration%s:", res->n_rows, res->n_rows == 1 ? "" : "s");
    for (int s = 0; s < RB_ROW_COUNT_; s++)
        fprintf(out, "%s %zu %s", s ? "," : "", counts[s], row_status_name(s));
    fputc('\n', out);

    const rb_experiment *exp = res->info.experiment;
    if (exp)
        fprintf(out, "cache: %s\n", exp->cache == RB_CACHE_COLD ? "cold (flushed between repetitions)"
                                                               : "hot");
    write_timing(out, res);
    for (size_t k = 0; k < res->info.n_devices && k < RB_ARRAY_LEN(res->info.devices); k++) {
        const rb_device_record *d = &res->info.devices[k];
        char *name = one_line(*d->info.name ? d->info.name : "(unnamed)");
        char *backend = one_line(d->backend);
        fprintf(out, "device: %s %d: %s, ", backend, d->device, name);
        free(backend);
        if (d->measured_peak_gbs > 0) {
            /* a cached figure says when it was measured, and how long
             * before the run started (the same words whenever the results
             * are read back); without a start, how long ago */
            char age[64] = "";
            const time_t now = time(NULL);
            long seconds = peak_cache_age(d->measured_peak_at, now);
            const long since_start = peak_cache_age(res->info.started, now);
            if (seconds >= 0 && since_start >= 0)
                seconds = seconds > since_start ? seconds - since_start : 0;
            if (d->measured_peak_cached && seconds >= 0) {
                char words[32];
                peak_cache_age_text(seconds, words, sizeof words);
                snprintf(age, sizeof age, ", %s %s", words,
                         since_start >= 0 ? "before the run" : "ago");
            }
            char *at = one_line(*d->measured_peak_at ? d->measured_peak_at : "earlier");
            fprintf(out, "measured peak %.1f GB/s%s%s%s%s", d->measured_peak_gbs,
                    d->measured_peak_cached ? " (cached, measured " : "",
                    d->measured_peak_cached ? at : "", age,
                    d->measured_peak_cached ? ")" : "");
            free(at);
        } else
            fputs("measured peak unknown", out);
        if (d->info.peak_gbs > 0)
            fprintf(out, ", theoretical %.1f GB/s", d->info.peak_gbs);
        fputc('\n', out);
        free(name);
    }
}

static int write_table_report(FILE *out, const rb_results *res)
{
    if (res->n_rows > 0)
        write_table(out, res);
    write_reasons(out, res);
    write_throttled(out, res);
    write_energy_notes(out, res);
    write_summary(out, res);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int report_table(FILE *out, const rb_results *res)
{
    int locking = stream_unlocked(out);
    int status = write_table_report(out, res);
    stream_relock(out, locking);
    return status;
}
