/* src/procs/rank_launch.h: starting a configuration's rank processes and
 * ending them (rank_launch.c). Each returns 0, or -1 after group_fail. */
#ifndef RB_RANK_LAUNCH_H
#define RB_RANK_LAUNCH_H

#include <stdint.h>

#include "procs/rank_group.h"

/* Forks one process per rank (the first `count`), each with its end of a
 * socketpair. */
int fork_ranks(rank_group *g, uint32_t count);
/* Under a launcher (procs/rank_hub.h): rank 0 forked here, rank k started
 * by the launcher's process k, all reporting to this leader. */
int launch_hub_ranks(rank_group *g);
/* Under a launcher, a plugin whose ranks are MPI processes with the
 * launcher's N ranks: rank k is the MPI rank process of the launcher's
 * process k (process 0's too), kept for the run (procs/rank_hub.h). */
int launch_hub_mpi_ranks(rank_group *g);
/* Starts `mpirun -np N` on this program, each rank told the socket to
 * answer on through REDBENCH_RANK_OF. */
int launch_mpi_ranks(rank_group *g);

/* Whether configuration `cfg` can run in group `g`: the same plugin and
 * ranks (and, for mpirun's ranks, a configuration of their file). */
int group_fits(const rank_group *g, const rb_configuration *cfg);

/* A group kept up after its last configuration: the ranks, if they are
 * all still there, told to run `cfg` next (NEXT). Returns 0, or -1 when
 * the group cannot run it (it must end; a fresh group runs it). */
int restart_group(rank_group *g, const rb_configuration *cfg);

/* Ends a group in order: each rank told END (its plugin's group_close,
 * MPI's finalize), a few seconds to end, then end_group. */
void end_group_in_order(rank_group *g);

/* Ends every process of the group that is left (ranks, mpirun and what it
 * started), closes its sockets and removes its folder. */
void end_group(rank_group *g);

#endif
