/* src/procs/rank_link.c: a rank's side of its link to its leader
 * (procs/rank_link.h): the messages both sides write, the exchange through
 * the leader and the agreements that keep every rank's calls in step. What
 * a rank works out about the whole data set is run/rank_slice.c's. */
#include "procs/rank_link.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <redbench/plugin.h>

#include "base/util.h"
#include "host/services.h"
#include "procs/isolate.h"

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

int rank_exchange(const void *mine, size_t bytes, void *all)
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

int ranks_agree(const rank_place *at, int failed)
{
    if (at->ranks <= 1)
        return failed;
    unsigned char mine = failed ? 1 : 0, all[RB_EXCHANGE_MAX];
    if (at->ranks > sizeof all || rank_exchange(&mine, 1, all) != 0)
        return 1;
    for (uint32_t k = 0; k < at->ranks; k++)
        if (all[k])
            return 1;
    return 0;
}

int ranks_agree_stop(const rank_place *at, int stop, int failed, int *other_failed)
{
    *other_failed = 0;
    if (at->ranks <= 1)
        return stop || failed;
    unsigned char mine = (unsigned char)((stop ? 1 : 0) | (failed ? 2 : 0)), all[RB_EXCHANGE_MAX];
    if (at->ranks > sizeof all || rank_exchange(&mine, 1, all) != 0) {
        *other_failed = 1;
        return 1;
    }
    int every = 1;
    for (uint32_t k = 0; k < at->ranks; k++) {
        every &= all[k] & 1;
        if ((all[k] & 2) && k != at->rank)
            *other_failed = 1;
    }
    return every || failed || *other_failed;
}

uint32_t ranks_rank0_value(const rank_place *at, uint32_t value)
{
    if (at->ranks <= 1)
        return value;
    uint32_t *all = xcalloc(at->ranks, sizeof *all);
    uint32_t chosen = rank_exchange(&value, sizeof value, all) == 0 ? all[0] : value;
    free(all);
    return chosen;
}

void rank_link_open(int fd, uint32_t rank)
{
    rank_fd = fd;
    rank_self = rank;
    host_set_exchange(rank_exchange);
    isolate_forward_steps(rank_step);
}
