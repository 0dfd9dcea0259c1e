/* src/procs/rank_service.h: what the rank processes need of the runner,
 * and all they need of it. procs/ starts the processes, links them to
 * their leader and watches them; the runner measures in them. run/
 * (run/rank_entry.c) fills this table, and procs/ calls nothing of run/
 * but through it. */
#ifndef RB_RANK_SERVICE_H
#define RB_RANK_SERVICE_H

#include <signal.h>
#include <stdint.h>

#include "config/experiment.h"
#include "config/sweep.h"
#include "procs/rank_place.h"
#include "results/rows.h"

struct rank_proc;

typedef struct rank_service {
    const rb_experiment *exp; /* the leader's time limit; the settings of
                                 the experiment file mpirun's ranks read */
    const rb_sweep *sweep;    /* the configurations a leader (NEXT), mpirun's
                                 environment or a hub's request names by
                                 index */
    int verbosity;
    volatile sig_atomic_t *stop_now; /* set: a group is not kept up */
    void *user;               /* the runner of this process */
    /* In a rank: runs configuration `cfg` (the whole configuration: the
     * rank's slice of it is the runner's) as rank at->rank of at->ranks,
     * filling `row`. */
    void (*run)(void *user, const rank_place *at, const rb_configuration *cfg, rb_row *row);
    /* The devices this process has opened: a rank sends its leader the
     * ones it opened, and the leader adds those of its ranks. */
    rb_run_info *(*devices)(void *user);
    /* In a rank: its group ends; in_order: the plugin's group_close for
     * what its group_open made. */
    void (*group_end)(void *user, int in_order);
    /* In a rank process that serves one group after another (a
     * launcher's MPI rank process): the data set of the last dropped. */
    void (*drop_data)(void *user);
    /* In the leader: the row of a group whose every rank sent its row,
     * from the ranks' rows (procs[k].row of n). */
    void (*merge)(const rb_configuration *cfg, const struct rank_proc *procs, uint32_t n,
                  rb_row *row);
} rank_service;

#endif
