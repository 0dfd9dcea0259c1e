/* src/report/csv.c: the CSV reporter. One header line, then exactly one
 * line per row, RFC 4180 quoting (a field holding a comma or a quote is
 * quoted, quotes doubled), lines ending in LF. A line break or tab inside a
 * field is written as a space, so that every row stays one physical line
 * (line counts equal rows + 1), and any other control byte (ESC, DEL, the
 * C1 controls) as an escape such as \x1b (printable_text), so that the file
 * is safe to show on a terminal; the JSON report keeps the exact text. A number
 * that is not known is an empty field.
 *
 * The columns, in order: the configuration (run to distribution), its
 * status and reason, the time statistics, bandwidth and peaks, result and
 * expected value; then, appended so that earlier columns keep their
 * positions, how it was measured and how far to trust it: timing (mode),
 * batch_calls (graph timing), stopped_by, error_ratio (the error in units of
 * the tolerance), deterministic and determinism_results (repeated runs gave
 * the same bits: true or false, empty when not checked), throttled and
 * throttle_reasons (empty where the clocks could not be read). The names
 * are those of the JSON report. */
#include "report/reporters.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "base/util.h"
#include "run/rules.h"

static const char *const header =
    "run,plugin,params,op,dtype,n,distribution,status,reason,median_ns,min_ns,mean_ns,"
    "stddev_ns,noise,reps,bandwidth_gbs,pct_peak,pct_measured_peak,result,expected,"
    "timing,batch_calls,stopped_by,error_ratio,deterministic,determinism_results,throttled,"
    "throttle_reasons";

/* Writes a text field with its leading comma (unless first). */
static void put_text(FILE *out, const char *text, int first)
{
    if (!first)
        fputc(',', out);
    if (!text)
        return;
    char *spaced = xstrdup(text);
    for (char *p = spaced; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    char *shown = printable_text(spaced);
    free(spaced);
    int quote = strpbrk(shown, ",\"") != NULL;
    if (quote)
        fputc('"', out);
    for (const char *p = shown; *p; p++) {
        if (*p == '"')
            fputs("\"\"", out);
        else
            fputc(*p, out);
    }
    if (quote)
        fputc('"', out);
    free(shown);
}

/* A number field: empty unless `known`. */
static void put_number(FILE *out, int known, double value)
{
    fputc(',', out);
    if (known) {
        char text[40];
        json_format_double(value, text, sizeof text);
        fputs(text, out);
    }
}

/* A yes/no field: "true" or "false", empty unless `known`. */
static void put_bool(FILE *out, int known, int value)
{
    put_text(out, known ? (value ? "true" : "false") : NULL, 0);
}

/* How the row was measured and how far to trust it: the appended columns. */
static void write_measurement(FILE *out, const rb_row *row)
{
    char number[32] = "";
    put_text(out, row->timing, 0);
    if (row->batch_calls > 0)
        snprintf(number, sizeof number, "%" PRIu32, row->batch_calls);
    put_text(out, number, 0);
    put_text(out, row->stopped_by, 0);
    put_number(out, row->error_ratio_known, row->error_ratio);
    put_bool(out, row->determinism != RB_DETERMINISM_UNKNOWN,
             row->determinism == RB_DETERMINISM_SAME);
    snprintf(number, sizeof number, "%" PRIu32, row->determinism_results);
    put_text(out, row->determinism != RB_DETERMINISM_UNKNOWN ? number : NULL, 0);
    put_bool(out, row->clocks_known, row->throttled);
    char reasons[160];
    throttle_reason_text(row->throttle_reasons, reasons, sizeof reasons);
    put_text(out, row->clocks_known ? reasons : NULL, 0);
}

static void write_row(FILE *out, const rb_row *row)
{
    const rb_configuration *cfg = row->config;
    const rb_stats *st = &row->stats;
    int has_samples = st->count > 0;
    int has_spread = st->count > 1;
    char number[32];

    put_text(out, cfg->run ? cfg->run->name : "", 1);
    put_text(out, cfg->plugin ? cfg->plugin->desc->name : cfg->run ? cfg->run->plugin : "", 0);
    put_text(out, cfg->params_text, 0);
    put_text(out, op_name(cfg->op), 0);
    put_text(out, dtype_name(cfg->dtype), 0);
    snprintf(number, sizeof number, "%" PRIu64, cfg->n);
    put_text(out, number, 0);
    put_text(out, distribution_name(cfg->distribution), 0);
    put_text(out, row_status_name(row->status), 0);
    put_text(out, row->reason, 0);
    put_number(out, has_samples, st->median);
    put_number(out, has_samples, st->min);
    put_number(out, has_samples, st->mean);
    put_number(out, has_spread, st->stddev);
    put_number(out, has_spread, st->noise);
    snprintf(number, sizeof number, "%zu", st->count);
    put_text(out, number, 0);
    put_number(out, has_samples && row->bandwidth_gbs > 0, row->bandwidth_gbs);
    put_number(out, has_samples && row->pct_peak > 0, row->pct_peak);
    put_number(out, has_samples && row->pct_measured_peak > 0, row->pct_measured_peak);
    put_text(out, row->result_text, 0);
    put_text(out, row->expected_text, 0);
    write_measurement(out, row);
    fputc('\n', out);
}

int report_csv(FILE *out, const rb_results *res)
{
    fputs(header, out);
    fputc('\n', out);
    for (size_t k = 0; k < res->n_rows; k++)
        write_row(out, &res->rows[k]);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
