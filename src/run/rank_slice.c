/* src/run/rank_slice.c: what a rank works out about the whole data set
 * (run/rank_slice.h): its own slice (count, offset, seed, device), the
 * reference of all slices and the probes' answers, each combined from
 * every rank's part through the exchange of procs/rank_link.h. */
#include "run/rank_slice.h"

#include <stdlib.h>

#include "base/util.h"
#include "procs/rank_link.h"

/* What one rank's reference adds to the whole. */
typedef struct reference_part {
    int64_t i;
    long double f;
    long double abs_sum;
    uint64_t n;
    uint64_t index; /* global */
} reference_part;

/* The whole data set's part from every rank's (count of them): sums
 * added (integers wrapping like the dtype), the extreme of min or max kept
 * with its index, elements and sum|x| added. */
static reference_part combine_parts(int op, int dtype, const reference_part *all, uint32_t count)
{
    int is_float = reference_is_float(dtype);
    reference_part whole = all[0];
    for (uint32_t k = 1; k < count; k++) {
        const reference_part *p = &all[k];
        long double abs_sum = whole.abs_sum + p->abs_sum;
        uint64_t n = whole.n + p->n;
        if (op == RB_OP_SUM) {
            whole.f += p->f;
            whole.i = reference_wrap((uint64_t)whole.i + (uint64_t)p->i, dtype);
        } else if (op == RB_OP_MIN ? (is_float ? p->f < whole.f : p->i < whole.i)
                                   : (is_float ? p->f > whole.f : p->i > whole.i)) {
            whole = *p;
        }
        whole.abs_sum = abs_sum;
        whole.n = n;
    }
    return whole;
}

/* This rank's part sent to every rank and every rank's combined into
 * *whole; -1 when the exchange failed. */
static int exchange_parts(const rank_place *at, int op, int dtype, const reference_part *mine,
                          reference_part *whole)
{
    reference_part *all = xcalloc(at->ranks, sizeof *all);
    int status = rank_exchange(mine, sizeof *mine, all);
    if (status == 0)
        *whole = combine_parts(op, dtype, all, at->ranks);
    free(all);
    return status == 0 ? 0 : -1;
}

int ranks_combine_reference(const rank_place *at, rank_slice *s, rb_reference *ref)
{
    if (at->ranks <= 1)
        return 0;
    s->ref = *ref;
    s->ref_whole = 1;
    reference_part mine = {ref->i, ref->f, ref->abs_sum, ref->n, ref->index + s->offset};
    reference_part whole;
    if (exchange_parts(at, ref->op, ref->dtype, &mine, &whole) != 0)
        return -1;
    ref->i = whole.i;
    ref->f = whole.f;
    ref->abs_sum = whole.abs_sum;
    ref->n = whole.n;
    ref->index = whole.index;
    return 0;
}

void ranks_slice_reference(rank_slice *s, rb_reference *ref, int have_ref)
{
    if (s->ref_whole && have_ref)
        *ref = s->ref;
    s->ref_whole = 0;
}

int ranks_share_probes(const rank_place *at, rb_probe_set *set)
{
    if (at->ranks <= 1)
        return 0;
    for (size_t k = 0; k < set->count; k++) {
        if (k % at->ranks != at->rank)
            probe_keep_background(set, k);
        rb_probe *pr = &set->probes[k];
        reference_part mine = {pr->i, pr->f, 0, 0, 0}, whole;
        if (exchange_parts(at, set->op, set->dtype, &mine, &whole) != 0)
            return -1;
        pr->i = whole.i;
        pr->f = whole.f;
    }
    return 0;
}

uint64_t ranks_seed(uint64_t seed, uint32_t rank)
{
    if (rank == 0)
        return seed;
    uint64_t z = seed + 0x9e3779b97f4a7c15ull * (uint64_t)rank;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t ranks_count(const rb_experiment *exp, uint64_t n, uint32_t rank, uint32_t ranks,
                     uint64_t *offset)
{
    if (ranks <= 1) {
        *offset = 0;
        return n;
    }
    if (!exp->n_total) {
        *offset = n * rank;
        return n;
    }
    uint64_t base = n / ranks, extra = n % ranks;
    *offset = base * rank + (rank < extra ? rank : extra);
    return base + (rank < extra ? 1 : 0);
}

int ranks_device(const rb_experiment *exp, uint32_t rank, int count)
{
    if (exp->n_devices)
        return exp->devices[rank % exp->n_devices];
    if (count <= 0)
        return exp->device;
    return (int)((uint32_t)exp->device + rank) % count;
}
