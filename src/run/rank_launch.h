/* src/run/rank_launch.h: starting a configuration's rank processes and
 * ending them (rank_launch.c). Each returns 0, or -1 after group_fail. */
#ifndef RB_RANK_LAUNCH_H
#define RB_RANK_LAUNCH_H

#include <stdint.h>

#include "run/rank_group.h"

/* Forks one process per rank (the first `count`), each with its end of a
 * socketpair. */
int fork_ranks(rank_group *g, uint32_t count);
/* Under a launcher (run/rank_hub.h): rank 0 forked here, rank k started
 * by the launcher's process k, all reporting to this leader. */
int launch_hub_ranks(rank_group *g);
/* Starts `mpirun -np N` on this program, each rank told the socket to
 * answer on through REDBENCH_RANK_OF. */
int launch_mpi_ranks(rank_group *g);

/* Ends every process of the group that is left (ranks, mpirun and what it
 * started), closes its sockets and removes its folder. */
void end_group(rank_group *g);

#endif
