/* src/procs/rank_place.h: where a process stands among the ranks of the
 * configuration it runs: its rank and how many there are. What procs/
 * needs of a rank, and all it needs: the rank's link to its leader is
 * procs/rank_link.c's, and what a rank's slice of the data is belongs to
 * the runner (run/rank_slice.h). */
#ifndef RB_RANK_PLACE_H
#define RB_RANK_PLACE_H

#include <stdint.h>

typedef struct rank_place {
    uint32_t rank;  /* 0 in a process that is no rank */
    uint32_t ranks; /* 0 or 1: this process runs alone */
} rank_place;

#endif
