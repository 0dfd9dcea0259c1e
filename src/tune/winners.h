/* src/tune/winners.h: what `redbench tune` writes of its groups' winners:
 * an experiment file that re-runs exactly them under every setting the
 * search ran under (but `output`), written through base/ini_writer.c, and
 * the winner map (JSON: the best strategy and parameters per op, dtype,
 * distribution, shape (rows, axis, lengths; absent for one reduction) and
 * size range, with the device). */
#ifndef RB_TUNE_WINNERS_H
#define RB_TUNE_WINNERS_H

#include <stdio.h>

#include "tune/search.h"

/* The tuned experiment: a comment naming the experiment tuned (made
 * printable), its [experiment] section, and one [run NAME] per winner,
 * NAME unique over every data key by which winners differ. `path` names
 * the file in messages. 0, or -1 after an error line saying what cannot
 * be written so that it reads back (a plugin's choice word holding ',', a
 * setting with a line break, ...). */
int tuned_experiment_write(FILE *out, const char *path, const rb_tuner *t,
                           const rb_tune_group *groups, size_t n_groups);
/* The winner map. 0, or -1 on a write error. */
int winner_map_write(FILE *out, const rb_tuner *t, const rb_tune_group *groups, size_t n_groups);

/* Both, each whole or not at all: both files are replaced once both are
 * made, else neither is touched. 0, or -1 after an error line. */
int write_winners(const char *ini_path, const char *map_path, const rb_tuner *t,
                  const rb_tune_group *groups, size_t n_groups);

#endif
