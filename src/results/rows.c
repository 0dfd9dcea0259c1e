/* src/results/rows.c: ownership and counting of a run's rows (what a row
 * owns: its samples, rounds, texts and per-rank energies), the bytes a
 * row's call reads and its joules per gigabyte. */
#include "results/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"

void row_disown(rb_row *row)
{
    row->samples_ns = NULL;
    row->rounds = NULL;
    row->n_rounds = 0;
    row->reason = NULL;
    row->energy_note = NULL;
    row->rank_energy_j = NULL;
    row->energy_ranks = 0;
}

void row_release(rb_row *row)
{
    free(row->samples_ns);
    free(row->rounds);
    free(row->reason);
    free(row->energy_note);
    free(row->rank_energy_j);
    row_disown(row);
}

/* A text formatted and cut to cap - 1 bytes, as the row keeps it: NULL
 * for "". */
static char *row_text(size_t cap, const char *fmt, va_list ap)
{
    char buf[RB_ROW_REASON_MAX > RB_ROW_ENERGY_NOTE_MAX ? RB_ROW_REASON_MAX
                                                        : RB_ROW_ENERGY_NOTE_MAX];
    vsnprintf(buf, cap < sizeof buf ? cap : sizeof buf, fmt, ap);
    return buf[0] ? xstrdup(buf) : NULL;
}

void row_set_reason_v(rb_row *row, const char *fmt, va_list ap)
{
    char *text = row_text(RB_ROW_REASON_MAX, fmt, ap);
    free(row->reason);
    row->reason = text;
}

void row_set_reason(rb_row *row, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    row_set_reason_v(row, fmt, ap);
    va_end(ap);
}

void row_set_status(rb_row *row, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    row->status = status;
    row_set_reason_v(row, fmt, ap);
    va_end(ap);
}

void row_set_energy_note_v(rb_row *row, const char *fmt, va_list ap)
{
    char *text = row_text(RB_ROW_ENERGY_NOTE_MAX, fmt, ap);
    free(row->energy_note);
    row->energy_note = text;
}

void row_set_energy_note(rb_row *row, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    row_set_energy_note_v(row, fmt, ap);
    va_end(ap);
}

const char *row_reason(const rb_row *row) { return row->reason ? row->reason : ""; }

const char *row_energy_note(const rb_row *row)
{
    return row->energy_note ? row->energy_note : "";
}

void row_add_rank_energy(rb_row *row, double joules)
{
    if (row->energy_ranks >= RB_ENERGY_RANKS_MAX)
        return;
    row->rank_energy_j =
        xrealloc(row->rank_energy_j, (row->energy_ranks + 1) * sizeof *row->rank_energy_j);
    row->rank_energy_j[row->energy_ranks++] = joules;
}

void row_clear_rank_energy(rb_row *row)
{
    free(row->rank_energy_j);
    row->rank_energy_j = NULL;
    row->energy_ranks = 0;
}

void results_free(rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++)
        row_release(&res->rows[k]);
    free(res->rows);
    free(res->info.command_line);
    free(res->info.round_order);
    res->info.round_order = NULL;
    res->rows = NULL;
    res->n_rows = 0;
    res->info.command_line = NULL;
}

void results_count(const rb_results *res, size_t counts[])
{
    memset(counts, 0, RB_ROW_COUNT_ * sizeof counts[0]);
    for (size_t k = 0; k < res->n_rows; k++) {
        int s = res->rows[k].status;
        if (s >= 0 && s < RB_ROW_COUNT_)
            counts[s]++;
    }
}

void results_timing_text(const rb_results *res, char *text, size_t cap)
{
    const char *modes[8];
    size_t counts[8], n_modes = 0;
    for (size_t k = 0; k < res->n_rows; k++) {
        const char *t = res->rows[k].timing;
        if (!t)
            continue;
        size_t m = 0;
        while (m < n_modes && strcmp(modes[m], t) != 0)
            m++;
        if (m == n_modes) {
            if (n_modes == sizeof modes / sizeof *modes)
                continue;
            modes[n_modes] = t;
            counts[n_modes++] = 0;
        }
        counts[m]++;
    }
    size_t len = 0;
    if (cap)
        text[0] = '\0';
    for (size_t m = 0; m < n_modes && len < cap; m++) {
        int w = n_modes > 1 ? snprintf(text + len, cap - len, "%s%s (%zu row%s)", m ? ", " : "",
                                       modes[m], counts[m], counts[m] == 1 ? "" : "s")
                            : snprintf(text + len, cap - len, "%s", modes[m]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

double results_row_bytes(const rb_row *row)
{
    uint64_t n = row->ranks > 1 && row->n_total ? row->n_total : sweep_elements(row->config);
    return (double)n * (double)rb_dtype_size(row->config->dtype);
}

double energy_j_per_gb(double joules_per_call, double bytes_per_call)
{
    return joules_per_call > 0 && bytes_per_call > 0 ? joules_per_call / (bytes_per_call / 1e9)
                                                     : 0;
}
