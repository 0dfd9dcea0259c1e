/* src/results/rows.c: ownership and counting of a run's rows, the bytes a
 * row's call reads and its joules per gigabyte. */
#include "results/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"

void results_free(rb_results *res)
{
    for (size_t k = 0; k < res->n_rows; k++) {
        free(res->rows[k].samples_ns);
        free(res->rows[k].rounds);
    }
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
