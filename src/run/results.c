/* src/run/results.c: ownership and counting of a run's rows. */
#include "run/results.h"

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
