/* src/procs/rank_group.h: the ranks of one configuration as their leader
 * sees them: each rank's process, socket, step and row, and the group's
 * launcher, socket folder and failure. Launched by rank_launch.c, watched
 * by rank_supervise.c, their rows merged by the runner (run/row_finish.c,
 * through procs/rank_service.h); procs/ranks.c leads them. */
#ifndef RB_RANK_GROUP_H
#define RB_RANK_GROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config/sweep.h"
#include "procs/rank_service.h"
#include "results/rows.h"

typedef struct rank_proc {
    pid_t pid;         /* the forked rank; 0 when mpirun started it */
    pid_t started_pid; /* a rank mpirun started: its process, from HELLO */
    int fd;            /* -1 until an mpirun-started rank said HELLO */
    char *buf;
    size_t len, cap;
    int step;          /* the step it said it began */
    int done;          /* its row arrived */
    int ended;         /* its process or socket ended */
    double ended_at;   /* when the leader saw that */
    int status;        /* wait status of a forked rank that ended */
    unsigned char *exchanged; /* bytes of a pending exchange */
    size_t exchanged_len;
    int exchanging;
    rb_row row;
    double *samples;
} rank_proc;

typedef struct rank_group {
    const rank_service *serve; /* the runner's table: what each forked rank runs */
    const rb_configuration *cfg;
    uint32_t n;
    rank_proc *procs;
    pid_t launcher;    /* mpirun, or 0 */
    int listen_fd;     /* for mpirun-started ranks, or -1 */
    char dir[64];      /* the private folder of the socket, "" when none */
    char failure[512]; /* why the group failed, "" while it has not */
    int forwarded_step;
    int hub;           /* ranks 1.. came from the launcher's processes */
    int hub_mpi;       /* every rank is a launcher's process's MPI rank process */
    int in_order;      /* the group is ending in order (END sent to its ranks) */
    /* mpirun's ranks read an experiment file of the group's configurations:
     * configuration k of the sweep is its local_index[k] (SIZE_MAX: not in
     * it); NULL for ranks that share the leader's sweep */
    size_t *local_index;
    size_t configs;    /* configurations the group has run */
} rank_group;

#endif
