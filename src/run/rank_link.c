/* src/run/rank_link.c: a rank's side of its link to its leader
 * (run/rank_link.h): the messages both sides write, the exchange through
 * the leader, the agreements that keep every rank's calls in step, and what
 * a rank works out about the whole data set: its own slice (count, offset,
 * seed, device), the reference of all slices and the probes' answers. */
#include "run/rank_link.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "run/isolate.h"

/* Writes all of `data` to socket fd; a peer that is gone is -1, never
 * SIGPIPE. */
static int send_full(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t put = send(fd, p, len, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        len -= (size_t)put;
    }
    return 0;
}

int rank_send(int fd, int type, uint32_t rank, const void *a, size_t a_len, const void *b,
              size_t b_len)
{
    rank_header h = {.type = (uint32_t)type, .rank = rank, .length = a_len + b_len};
    if (send_full(fd, &h, sizeof h) != 0)
        return -1;
    if (a_len && send_full(fd, a, a_len) != 0)
        return -1;
    if (b_len && send_full(fd, b, b_len) != 0)
        return -1;
    return 0;
}

static int rank_fd = -1;   /* this rank's socket to the leader */
static uint32_t rank_self; /* for messages */

static int rank_exchange(const void *mine, size_t bytes, void *all)
{
    if (rank_send(rank_fd, RM_EXCHANGE, rank_self, mine, bytes, NULL, 0) != 0)
        return -1;
    rank_header h;
    if (read_full(rank_fd, &h, sizeof h) != 0 || h.type != RM_GATHERED)
        return -1;
    return read_full(rank_fd, all, h.length);
}

static void rank_step(int step)
{
    rank_send(rank_fd, RM_STEP, rank_self, &step, sizeof step, NULL, 0);
}

int ranks_agree(runner *r, int failed)
{
    if (r->n_ranks <= 1)
        return failed;
    unsigned char mine = failed ? 1 : 0, all[RB_EXCHANGE_MAX];
    if (r->n_ranks > sizeof all || rank_exchange(&mine, 1, all) != 0)
        return 1;
    for (uint32_t k = 0; k < r->n_ranks; k++)
        if (all[k])
            return 1;
    return 0;
}

int ranks_agree_stop(runner *r, int stop, int failed, int *other_failed)
{
    *other_failed = 0;
    if (r->n_ranks <= 1)
        return stop || failed;
    unsigned char mine = (unsigned char)((stop ? 1 : 0) | (failed ? 2 : 0)), all[RB_EXCHANGE_MAX];
    if (r->n_ranks > sizeof all || rank_exchange(&mine, 1, all) != 0) {
        *other_failed = 1;
        return 1;
    }
    int every = 1;
    for (uint32_t k = 0; k < r->n_ranks; k++) {
        every &= all[k] & 1;
        if ((all[k] & 2) && k != r->rank)
            *other_failed = 1;
    }
    return every || failed || *other_failed;
}

uint32_t ranks_rank0_value(runner *r, uint32_t value)
{
    if (r->n_ranks <= 1)
        return value;
    uint32_t *all = xcalloc(r->n_ranks, sizeof *all);
    uint32_t chosen = rank_exchange(&value, sizeof value, all) == 0 ? all[0] : value;
    free(all);
    return chosen;
}

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
static int exchange_parts(const runner *r, int op, int dtype, const reference_part *mine,
                          reference_part *whole)
{
    reference_part *all = xcalloc(r->n_ranks, sizeof *all);
    int status = rank_exchange(mine, sizeof *mine, all);
    if (status == 0)
        *whole = combine_parts(op, dtype, all, r->n_ranks);
    free(all);
    return status == 0 ? 0 : -1;
}

int ranks_combine_reference(runner *r)
{
    if (r->n_ranks <= 1)
        return 0;
    rb_reference *ref = &r->ref;
    r->ref_slice = *ref;
    r->ref_whole = 1;
    reference_part mine = {ref->i, ref->f, ref->abs_sum, ref->n, ref->index + r->rank_offset};
    reference_part whole;
    if (exchange_parts(r, ref->op, ref->dtype, &mine, &whole) != 0)
        return -1;
    ref->i = whole.i;
    ref->f = whole.f;
    ref->abs_sum = whole.abs_sum;
    ref->n = whole.n;
    ref->index = whole.index;
    return 0;
}

void ranks_slice_reference(runner *r)
{
    if (r->ref_whole && r->have_ref)
        r->ref = r->ref_slice;
    r->ref_whole = 0;
}

int ranks_share_probes(runner *r, rb_probe_set *set)
{
    if (r->n_ranks <= 1)
        return 0;
    for (size_t k = 0; k < set->count; k++) {
        if (k % r->n_ranks != r->rank)
            probe_keep_background(set, k);
        rb_probe *pr = &set->probes[k];
        reference_part mine = {pr->i, pr->f, 0, 0, 0}, whole;
        if (exchange_parts(r, set->op, set->dtype, &mine, &whole) != 0)
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

void rank_link_open(int fd, uint32_t rank)
{
    rank_fd = fd;
    rank_self = rank;
    host_set_exchange(rank_exchange);
    isolate_forward_steps(rank_step);
}
