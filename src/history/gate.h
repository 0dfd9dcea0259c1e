/* src/history/gate.h: `redbench history check DB`: the newest run (or the
 * one named) judged against the history before it, configuration by
 * configuration, in compare's words (compare/significance.h):
 *   slower / faster  the history with this run has a step (history/steps.h)
 *                    to a slower (faster) level ending at it, which the
 *                    history before it did not have: the new level is
 *                    confirmed by this run and the one(s) before it
 *   same             within the threshold of the level before it
 *   unclear          beyond the threshold but not a step (yet): one run
 *                    off is a noisy night until the next confirms it; or
 *                    too little history (fewer than 3 earlier runs)
 * A configuration ok in the history's latest row of it before and wrong,
 * failed or unsupported in this run fails too, as in compare. */
#ifndef RB_HISTORY_GATE_H
#define RB_HISTORY_GATE_H

#include <stdio.h>

#include "history/database.h"
#include "history/steps.h"
#include "history/trend.h"

/* Judges run `id` (filtered by `f`, whose last_id is set to it) and writes
 * a line per configuration and a summary to `out` (format: table, csv, md
 * or json). Returns the exit status: 0 nothing got worse, 1 some
 * configuration slower or become bad, 2 after an error naming the history. */
int history_gate(FILE *out, rb_history *h, long long id, rb_history_filter *f,
                 const rb_step_criteria *c, int format);

#endif
