/* src/run/progress.h: the progress of a run on standard error. On a
 * terminal, one live line rewritten in place: the configuration in progress
 * (i/N, run, parameters, op, dtype, n), the time elapsed and an estimate of
 * the time left from the configurations finished so far. Elsewhere (a CI
 * log), the same as a plain line every few seconds. The parent process
 * drives it: the runner reports each finished row, the isolation's poll
 * loop each configuration a worker starts and a tick while it runs. */
#ifndef RB_PROGRESS_H
#define RB_PROGRESS_H

#include <stddef.h>

#include "config/sweep.h"
#include "results/rows.h"

enum rb_progress_mode {
    RB_PROGRESS_OFF = 0,
    RB_PROGRESS_LIVE,  /* a terminal: one line, rewritten */
    RB_PROGRESS_PLAIN  /* a file or pipe: a line every few seconds */
};

/* The mode for standard error: off when `quiet`, live on a terminal, plain
 * otherwise. */
int progress_mode_for_stderr(int quiet);

/* Seconds between plain lines: $REDBENCH_PROGRESS_SECONDS when it is a
 * positive number, else 10. */
double progress_plain_interval(void);

/* Starts showing the progress of `sweep` in `mode`; the clock starts now. */
void progress_begin(const rb_sweep *sweep, int mode);

/* A round of a run measured in rounds (run/runner.c) begins: from now on
 * the index given to progress_running and progress_finished is a place in
 * `order`, which holds the sweep indices of the round's `count`
 * configurations; with more than one round the line says which round. */
void progress_round(const size_t *order, size_t count, int round, int rounds);

/* Configuration `index` is in progress (a worker announced it). */
void progress_running(size_t index);

/* Configuration `index` has its final row. A row that is wrong or failed
 * gets a line of its own on a terminal, so that it stays in sight. */
void progress_finished(size_t index, const rb_row *row);

/* Time has passed: the live line's clock is redrawn (at most a few times a
 * second), or a plain line written when it is due. Cheap to call often. */
void progress_tick(void);

/* The run is over: the live line is cleared; in plain mode, when any line
 * was written, a last one says how many configurations ran in how long. */
void progress_end(void);

#endif
