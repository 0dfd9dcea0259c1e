/* src/run/rounds.h: a run measured in rounds (rounds.c; experiment_rounds
 * says how many): each round in an order of its own, shuffled from the
 * experiment's seed and recorded in the results, and each round's rows
 * merged into the run's. */
#ifndef RB_ROUNDS_H
#define RB_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "config/sweep.h"
#include "results/rows.h"

/* Whether two configurations read the same data (one data group). */
int rounds_same_data(const rb_configuration *a, const rb_configuration *b);

/* The sweep's data groups and worker spans (consecutive groups of one
 * plugin), as ranges of sweep indices, from which each round's order is
 * shuffled. */
typedef struct round_plan {
    size_t *group_first; /* n_groups + 1 bounds */
    size_t n_groups;
    size_t *span_first;  /* n_spans + 1 bounds, in groups */
    size_t n_spans;
} round_plan;

void rounds_plan(const rb_sweep *sweep, round_plan *plan);
void rounds_free_plan(round_plan *plan);

/* Fills `order` with the sweep indices that round `round` of `rounds`
 * measures (every one in the first round, later the rows of `res` still
 * ok), shuffled from `seed` by span, by group within a span and within
 * each group; a single round keeps the sweep's order. Returns how many. */
size_t rounds_order(const round_plan *plan, uint64_t seed, int rounds, const rb_results *res,
                    int round, size_t *order);

/* Takes round `round`'s row of a configuration (at `position` of its
 * order) into the run's row (rounds.c says how); `got` is left without
 * samples. */
void rounds_merge(rb_row *row, rb_row *got, int round, int rounds, size_t position);

/* A round that stopped at place `done` of its `count` (interrupted)
 * records the configurations it began, not those it never reached. */
void rounds_end_order(size_t *order, size_t done, size_t count);

/* After the last round: the row's figures from its rounds. Returns 1 when
 * they changed (the row is then finished again, row_finish). */
int rounds_finish(rb_row *row);

#endif
