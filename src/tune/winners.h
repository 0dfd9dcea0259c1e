/* src/tune/winners.h: what `redbench tune` writes of its groups' winners:
 * an experiment file that re-runs exactly them under every setting the
 * search ran under, and the winner map (JSON: the best strategy and
 * parameters per op, dtype, distribution and size range, with the device). */
#ifndef RB_TUNE_WINNERS_H
#define RB_TUNE_WINNERS_H

#include "tune/search.h"

/* Each writes its file whole or not at all; 0, or -1 after an error line. */
int write_tuned_experiment(const char *path, const rb_experiment *exp, const rb_tune_group *groups,
                           size_t n_groups);
int write_winner_map(const char *path, const rb_tuner *t, const rb_tune_group *groups, size_t n_groups);

#endif
