/* src/procs/ranks.h: configurations that run as several ranks, one process per
 * rank on one device each, that reduce all ranks' data together.
 *
 * The worker that meets such a configuration becomes the ranks' leader: it
 * starts one rank process per rank (forked, or through mpirun for a plugin
 * whose ranks are MPI processes; under a launcher, from its processes,
 * procs/rank_hub.h), relays what the ranks exchange (rb_host's
 * exchange, and the host's own agreements: whether every rank got through
 * a step, when to stop measuring, the reference of the whole data set),
 * watches each rank's step, and ends them all when one crashes or stops
 * answering. Each rank makes its own seeded slice of the data, runs the
 * usual steps on it (the runner's, handed in by procs/rank_service.h) and
 * is judged against the reference of all slices (run/rank_slice.h); the
 * leader merges the ranks' rows into one through the same table: the
 * slowest rank's time per call, the slowest and fastest rank, the ranks
 * judged wrong, algbw and busbw as nccl-tests reports them
 * (run/row_finish.h).
 * A rank's own run, and the entry points of the ranks that mpirun or a
 * launcher starts, are procs/rank_serve.h. */
#ifndef RB_RANKS_H
#define RB_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "procs/rank_link.h"
#include "procs/rank_serve.h"
#include "procs/rank_service.h"
#include "results/rows.h"

/* Whether a configuration runs through ranks: more than one rank, or a
 * plugin whose ranks are MPI processes. */
int ranks_wanted(const rb_configuration *cfg);

/* In the leader: runs the configuration as cfg->ranks rank processes, each
 * running it through `s`, and fills the row with their merged rows
 * (s->merge). devices_open: this process has opened a device, from which
 * no rank process may start. The group stays up for the next
 * configuration of the same plugin and ranks (its rank processes, their
 * devices, data sets and what the plugin's group_open made); any other
 * configuration, or a fault, ends it, and a fresh group starts. */
void ranks_run(const rank_service *s, const rb_configuration *cfg, rb_row *row,
               int devices_open);

/* In the leader, after its last configuration: ends the group it kept up,
 * in order (group_close, MPI's finalize), if any. */
void ranks_end_kept(void);

#endif
