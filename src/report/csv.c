/* src/report/csv.c: the CSV reporter. One header line, then exactly one
 * line per row, RFC 4180 quoting (a field holding a comma or a quote is
 * quoted, quotes doubled), lines ending in LF. A line break or tab inside a
 * field is written as a space, so that every row stays one physical line
 * (line counts equal rows + 1), and any other control byte (ESC, DEL, the
 * C1 controls) as an escape such as \x1b (printable_text), so that the file
 * is safe to show on a terminal; the JSON report keeps the exact text. A text
 * cell that a spreadsheet could take for a formula (=, +, -, @, tab, CR)
 * starts with a single quote inside its quotes (csv_field); numbers are
 * written as numbers (csv_number_field). A number that is not known is an
 * empty field.
 *
 * The columns, in order: the configuration (run to distribution), its
 * status and reason, the time statistics, bandwidth and peaks, result and
 * expected value; then, appended so that earlier columns keep their
 * positions, how it was measured and how far to trust it: timing (mode),
 * batch_calls (graph and eager timing), stopped_by, error_ratio (the
 * error in units of the tolerance), deterministic and determinism_results
 * (repeated runs gave the same bits: true or false, empty when not
 * checked), throttled and throttle_reasons (empty where the clocks could
 * not be read), ...; then rounds_measured and rounds_asked (a row that
 * measured 1 of 3 rounds before the run was interrupted says 1 and 3);
 * then rows, axis and lengths where some row is shaped; last, repro (the
 * reproducibility level the host judged, empty where it has none), so
 * that every column before it keeps its place in files of either kind.
 * The columns but rounds_measured and rounds_asked are fields of
 * results/fields.c, named as in the JSON report. */
#include "report/reporters.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "base/util.h"
#include "report/output.h"
#include "results/fields.h"

/* The columns: a field of results/fields.c each, by name, in an order that
 * only ever grows at the end. The header names them as the fields are
 * named, but for params (the field params_text). */
static const char *const columns[] = {
    "run", "plugin", "params_text", "op", "dtype", "n", "distribution", "status", "reason",
    "median_ns", "min_ns", "mean_ns", "stddev_ns", "noise", "reps", "bandwidth_gbs",
    "pct_peak", "pct_measured_peak", "result", "expected", "timing", "batch_calls",
    "stopped_by", "error_ratio", "deterministic", "determinism_results", "throttled",
    "throttle_reasons", "ranks", "n_total", "busbw_gbs", "slowest_rank", "slowest_rank_ns",
    "fastest_rank", "fastest_rank_ns", "wrong_ranks", "scaling", "energy_source", "energy_j",
    "j_per_gb", "power_w", "sm_clock_min_mhz", "sm_clock_max_mhz", "energy_note",
};

/* The shape's columns, after the others, when some row is shaped (a run
 * of one reduction each has the columns it always had). */
static const char *const shape_columns[] = {"rows", "axis", "lengths"};

/* The last column, after the shape's where they are. */
static const char last_column[] = "repro";

static int any_shaped(const rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++)
        if (sweep_is_shaped(res->rows[k].config))
            return 1;
    return 0;
}

static const char *header_of(const char *field)
{
    return strcmp(field, "params_text") == 0 ? "params" : field;
}

/* A field's value (results/fields.h) as CSV: empty when unknown. */
static void put_value(FILE *out, const rb_value *v, int first)
{
    char text[40] = "";
    switch (v->kind) {
    case RB_VALUE_TEXT: csv_field(out, v->text, first); return;
    case RB_VALUE_UINT: snprintf(text, sizeof text, "%" PRIu64, v->u); break;
    case RB_VALUE_COUNT:
        if (v->counted)
            snprintf(text, sizeof text, "%" PRIu64, v->u);
        break;
    case RB_VALUE_INT: snprintf(text, sizeof text, "%" PRId64, v->i); break;
    case RB_VALUE_NUMBER: json_format_double(v->number, text, sizeof text); break;
    case RB_VALUE_BOOL: snprintf(text, sizeof text, "%s", v->flag ? "true" : "false"); break;
    default: break;
    }
    csv_number_field(out, text, first);
}

static void write_row(FILE *out, const rb_results *res, const rb_row *row,
                      const rb_field *const fields[], const rb_field *last, int shaped)
{
    rb_row_ref ref = {res, row};
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++) {
        rb_value v;
        memset(&v, 0, sizeof v);
        fields[c]->get(&ref, &v);
        put_value(out, &v, c == 0);
    }
    /* the rounds it measured, of those asked for: fewer when interrupted */
    char text[48];
    snprintf(text, sizeof text, "%zu", row->n_rounds ? row->n_rounds : row->stats.count > 0);
    csv_number_field(out, text, 0);
    snprintf(text, sizeof text, "%d", res->info.rounds > 0 ? res->info.rounds : 1);
    csv_number_field(out, text, 0);
    if (shaped) { /* the shape_columns; an unshaped row among shaped ones is one row */
        const rb_configuration *cfg = row->config;
        snprintf(text, sizeof text, "%" PRIu64, cfg->rows ? cfg->rows : 1);
        csv_number_field(out, text, 0);
        csv_field(out, axis_name(cfg->axis), 0);
        csv_field(out, lengths_name(cfg->lengths), 0);
    }
    rb_value v;
    memset(&v, 0, sizeof v);
    last->get(&ref, &v);
    put_value(out, &v, 0);
    fputc('\n', out);
}

static int write_csv_report(FILE *out, const rb_results *res)
{
    const rb_field *fields[RB_ARRAY_LEN(columns)];
    for (size_t c = 0; c < RB_ARRAY_LEN(columns); c++) {
        fields[c] = row_field(columns[c]);
        fprintf(out, "%s%s", c ? "," : "", header_of(columns[c]));
    }
    fputs(",rounds_measured,rounds_asked", out);
    int shaped = any_shaped(res);
    for (size_t c = 0; shaped && c < RB_ARRAY_LEN(shape_columns); c++)
        fprintf(out, ",%s", shape_columns[c]);
    fprintf(out, ",%s\n", last_column);
    const rb_field *last = row_field(last_column);
    for (size_t k = 0; k < res->n_rows; k++)
        write_row(out, res, &res->rows[k], fields, last, shaped);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int report_csv(FILE *out, const rb_results *res)
{
    int locking = stream_unlocked(out);
    int status = write_csv_report(out, res);
    stream_relock(out, locking);
    return status;
}
