/* src/run/group_state.h: what the plugin's group_open made, for the life
 * of a rank group that stays up (group_state.c): opened once per group
 * before the first configuration's init (ABI 1.4), on the device the rank
 * opened, and closed when the group ends in order. */
#ifndef RB_GROUP_STATE_H
#define RB_GROUP_STATE_H

#include <redbench/plugin.h>

#include "procs/rank_place.h"
#include "results/rows.h"

typedef struct group_state {
    void *state;             /* what group_open made; handed to each init */
    const rb_plugin *plugin; /* whose it is; NULL: none */
} group_state;

/* In a rank, before the configuration's init: plugin p's group_open, once
 * per group, with the device's `queue`. Returns 0, or -1 with the row's
 * reason set. Nothing with one rank, or for a plugin without group_open. */
int group_state_open(group_state *g, const rank_place *at, int device, int verbosity,
                     const rb_plugin *p, void *queue, rb_row *row);

/* The group ends; in_order: the plugin's group_close for what its
 * group_open made. */
void group_state_close(group_state *g, int in_order);

#endif
