/* src/run/rank_slice.h: a rank's slice of a configuration's data, and what
 * a rank works out about the whole data set (rank_slice.c): where its
 * slice starts, the elements of all slices, its seed and device, the
 * reference of all slices and the probes' answers, combined from every
 * rank's part through the exchange of procs/rank_link.h. With one rank
 * (at->ranks <= 1) each function here answers alone. */
#ifndef RB_RANK_SLICE_H
#define RB_RANK_SLICE_H

#include <stdint.h>

#include "config/experiment.h"
#include "procs/rank_place.h"
#include "run/probe.h"
#include "run/reference.h"

/* In a rank's process (procs/rank_serve.c): this rank's slice; zero
 * elsewhere. */
typedef struct rank_slice {
    uint64_t offset;  /* where this rank's slice starts in the whole */
    uint64_t n_total; /* elements of all ranks' slices */
    int device;       /* the device this rank opened */
    rb_reference ref; /* the reference of this rank's slice, while */
    int ref_whole;    /* the runner's holds the whole data set's */
} rank_slice;

/* In a rank: replaces *ref, the reference of this rank's slice, with the
 * reference of the whole data set (kept in s->ref). Returns 0, or -1 when a
 * rank is gone. */
int ranks_combine_reference(const rank_place *at, rank_slice *s, rb_reference *ref);

/* In a rank, before a configuration's data is made: *ref back to the
 * reference of this rank's slice, which ranks_combine_reference replaced
 * (a rank group's next configuration may read the same data). */
void ranks_slice_reference(rank_slice *s, rb_reference *ref, int have_ref);

/* In a rank: makes the probes of the whole data set. Probe k is planted on
 * rank k modulo the ranks and is every other rank's background; each
 * probe's answer becomes the combination of the ranks' answers. Returns 0,
 * or -1 when a rank is gone. */
int ranks_share_probes(const rank_place *at, rb_probe_set *set);

/* The seed of rank `rank`'s slice, from the row's seed. */
uint64_t ranks_seed(uint64_t seed, uint32_t rank);

/* The elements of rank `rank` of `ranks` for a configuration of n (n on
 * each rank, or n split across them with `n_scope = total`), and where its
 * slice starts in the whole data set. */
uint64_t ranks_count(const rb_experiment *exp, uint64_t n, uint32_t rank, uint32_t ranks,
                     uint64_t *offset);

/* The device rank `rank` runs on, among `count` devices of its backend. */
int ranks_device(const rb_experiment *exp, uint32_t rank, int count);

#endif
