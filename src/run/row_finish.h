/* src/run/row_finish.h: what a row works out once it is measured, the row
 * of several ranks merged, and the scaling of multi-rank rows
 * (row_finish.c). */
#ifndef RB_ROW_FINISH_H
#define RB_ROW_FINISH_H

#include "results/rows.h"
#include "run/runner_state.h"

#include "procs/rank_group.h"

/* The row's bandwidth and share of the peaks, from its median and the
 * device record (-1: none); then its ranks, elements in total and bus
 * bandwidth. Every row is finished this way, measured or not. */
void row_finish(const runner *r, rb_row *row, int device_index);

/* The row of a group whose every rank sent its row (procs[k].row of n;
 * procs/rank_service.h's merge): the worst rank's
 * status and result, the slowest rank's time per call, who was slowest
 * and fastest, the ranks judged wrong. */
void row_merge_ranks(const rb_configuration *cfg, const rank_proc *procs, uint32_t n,
                     rb_row *row);

/* In the parent after the run: each multi-rank row's scaling efficiency
 * against the one-rank row of the same configuration in the same run. */
void rows_scaling(rb_results *res);

/* In the parent after the run: every row's reproducibility level (enum
 * rb_repro, base/names.h): unknown unless ok with repeated runs compared;
 * varies where they differed; exact where the answer cannot round
 * (rules_exact_answer at the elements of its longest answer, which its
 * judge recorded: n, all ranks' slices, a column's rows, the longest
 * ragged row) and was found (an error of 0: every answer of a shape its
 * reference exactly); layout-independent where at least
 * one other layout of the same plugin ran on the same data (the same op,
 * dtype, distribution, bins, ranks, n and seed, in any run section) and
 * every such layout gave the same bits and none varied; else run-to-run.
 * An exact row whose layouts disagree is run-to-run. */
void rows_reproducibility(rb_results *res);

#endif
