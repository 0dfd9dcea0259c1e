/* src/procs/role.h: what this process is, told by its environment before
 * anything runs (cli/main.c asks once): the program a user started; a rank
 * that mpirun started for a configuration of the group's experiment file
 * (REDBENCH_RANK_OF, procs/rank_launch.c); or one of a launcher's other
 * processes, which serve process 0 (procs/rank_hub.h). A worker, a rank
 * that a leader forks and the loader of plugins are forked, and never
 * start here. */
#ifndef RB_ROLE_H
#define RB_ROLE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

enum rb_role {
    RB_ROLE_MAIN = 0, /* runs the experiment (or, under a launcher, is its process 0) */
    RB_ROLE_RANK,     /* a rank mpirun started: serves its configuration, then ends */
    RB_ROLE_HUB       /* a launcher's process k > 0: serves process 0, then ends */
};

/* This process's role. */
int process_role(void);

/* A rank that mpirun started: which it is, the configuration it serves
 * first (an index into its experiment file's sweep) and its leader's
 * socket ("unix:PATH"). */
typedef struct rank_asked {
    uint32_t rank;
    size_t config;
    char leader[PATH_MAX + 8];
} rank_asked;

/* Fills *asked from the environment: 0, or -1 when REDBENCH_RANK_OF is
 * set but the rest is not what mpirun's ranks are given. */
int process_rank_asked(rank_asked *asked);

#endif
