/* src/run/ranks.h: configurations that run as several ranks, one process per
 * rank on one device each, that reduce all ranks' data together.
 *
 * The worker that meets such a configuration becomes the ranks' leader: it
 * starts one rank process per rank (forked, or through mpirun for a plugin
 * whose ranks are MPI processes), relays what the ranks exchange (rb_host's
 * exchange, and the host's own agreements: whether every rank got through
 * a step, when to stop measuring, the reference of the whole data set),
 * watches each rank's step, and ends them all when one crashes or stops
 * answering. Each rank makes its own seeded slice of the data, runs the
 * usual steps on it (run/runner.c) and is judged against the reference of
 * all slices; the leader merges the ranks' rows into one: the slowest
 * rank's time per call, the slowest and fastest rank, the ranks judged
 * wrong, algbw and busbw as nccl-tests reports them. */
#ifndef RB_RANKS_H
#define RB_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "run/probe.h"
#include "run/results.h"
#include "run/runner_state.h"

/* Whether a configuration runs through ranks: more than one rank, or a
 * plugin whose ranks are MPI processes. */
int ranks_wanted(const rb_configuration *cfg);

/* In the leader: runs the configuration as cfg->ranks rank processes and
 * fills the row. */
void ranks_run(runner *r, const rb_configuration *cfg, rb_row *row);

/* In a rank: whether every rank is fine after a step. `failed` is this
 * rank's word; returns 1 when any rank failed (0 with one rank: `failed`
 * itself). */
int ranks_agree(runner *r, int failed);

/* In a rank, in the timed loop: combines this rank's wish to stop (1) or
 * go on (0) and whether it failed. Returns 1 to stop: every rank wants to,
 * or one failed (*other_failed is then set when another rank did). */
int ranks_agree_stop(runner *r, int stop, int failed, int *other_failed);

/* In a rank: rank 0's `value` (a choice every rank must make alike). */
uint32_t ranks_rank0_value(runner *r, uint32_t value);

/* In a rank: replaces r->ref, the reference of this rank's slice, with the
 * reference of the whole data set. Returns 0, or -1 when a rank is gone. */
int ranks_combine_reference(runner *r);

/* In a rank: makes the probes of the whole data set. Probe k is planted on
 * rank k modulo the ranks and is every other rank's background; each
 * probe's answer becomes the combination of the ranks' answers. Returns 0,
 * or -1 when a rank is gone. */
int ranks_share_probes(runner *r, rb_probe_set *set);

/* The seed of rank `rank`'s slice, from the row's seed. */
uint64_t ranks_seed(uint64_t seed, uint32_t rank);

/* The elements of rank `rank` of `ranks` for a configuration of n (n on
 * each rank, or n split across them with `n_scope = total`), and where its
 * slice starts in the whole data set. */
uint64_t ranks_count(const rb_experiment *exp, uint64_t n, uint32_t rank, uint32_t ranks,
                     uint64_t *offset);

/* The device rank `rank` runs on, among `count` devices of its backend. */
int ranks_device(const rb_experiment *exp, uint32_t rank, int count);

/* Under a launcher (run/rank_hub.h): process 0 meets the others, which
 * serve it and never return; ranks_stop_hub after the run lets them end. */
void ranks_start_hub(const rb_experiment *exp, const rb_registry *reg, const rb_sweep *sweep,
                     const rb_runner_options *opt);
void ranks_stop_hub(void);

/* In the parent after the run: each multi-rank row's scaling efficiency
 * against the one-rank row of the same configuration in the same run. */
void ranks_scaling(rb_results *res);

/* A process that mpirun started as a rank (REDBENCH_RANK_OF is set):
 * serves configuration 0 of the sweep as its rank, then ends the process.
 * Returns only when this process is not such a rank. */
void ranks_serve_if_asked(const rb_experiment *exp, const rb_registry *reg,
                          const rb_sweep *sweep, const rb_runner_options *opt);

#endif
