/* src/procs/rank_serve.h: a rank's own run (rank_serve.c): the rank
 * processes that the leader forks, that mpirun starts, or that a
 * launcher's other processes start, each serving its slice of one
 * configuration through the runner's table (procs/rank_service.h). */
#ifndef RB_RANK_SERVE_H
#define RB_RANK_SERVE_H

#include <stdint.h>

#include "procs/rank_service.h"

/* Runs configuration `cfg` as rank `rank` of `ranks` over socket `fd` and
 * sends the row; then each next configuration the leader names (NEXT),
 * until it ends the group (END: group_close) or is gone. Ends the process
 * (with exit when whole_program, so that an MPI plugin finalizes MPI; else
 * with _exit). */
void rank_main(const rank_service *s, const rb_configuration *cfg, uint32_t rank,
               uint32_t ranks, int fd, int whole_program);

/* Under a launcher (procs/rank_hub.h): process 0 meets the others, which
 * serve it with `s` and never return; ranks_stop_hub after the run lets
 * them end. */
void ranks_start_hub(const rank_service *s);
void ranks_stop_hub(void);

/* A process that mpirun started as a rank (procs/role.h): serves
 * configuration REDBENCH_RANK_CONFIG of the sweep as its rank, and the
 * next ones its leader names, then ends the process; never returns. */
void ranks_serve_asked(const rank_service *s) __attribute__((noreturn));

#endif
