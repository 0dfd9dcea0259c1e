/* src/procs/rank_supervise.h: the ranks' leader watching its group
 * (rank_supervise.c). */
#ifndef RB_RANK_SUPERVISE_H
#define RB_RANK_SUPERVISE_H

#include "procs/rank_group.h"

/* Records why the group failed; only the first reason is kept. */
void group_fail(rank_group *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Waits on the ranks until every row is in, or the group fails: a rank
 * that crashes or ends without its row, or a group that sends nothing for
 * most of `timeout` seconds (longer while a rank prepares). */
void supervise_group(rank_group *g, double timeout);

#endif
