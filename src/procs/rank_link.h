/* src/procs/rank_link.h: a rank's side of its link to its leader (procs/ranks.h
 * starts the ranks and leads them). Over a stream socket each message is a
 * header (type, rank, length) and a payload:
 *   rank -> leader: HELLO (a rank the leader did not fork says which it
 *     is, and its process), STEP (the step it begins), EXCHANGE (its bytes),
 *     DEVICE (a device record it opened), ROW (its row; then it ends)
 *   leader -> rank: GATHERED (every rank's bytes, in rank order) or GONE (a
 *     rank ended before it exchanged); after a row, NEXT (the index of the
 *     next configuration the group runs) or END (the group ends in order)
 * The exchange serves rb_host's exchange (what a communicator needs) and the
 * host's own agreements, by which every rank makes the same calls in the
 * same order: after each step that can fail on one rank alone, whether to
 * stop measuring, whether to make the repeated runs and the probes; the
 * runner's combinations of every rank's part (run/rank_slice.h) go
 * through rank_exchange. With one rank (at->ranks <= 1) each agreement
 * answers alone. */
#ifndef RB_RANK_LINK_H
#define RB_RANK_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "procs/rank_place.h"

enum rank_message {
    RM_HELLO = 1, RM_STEP, RM_EXCHANGE, RM_DEVICE, RM_ROW, RM_GATHERED, RM_GONE, RM_NEXT, RM_END
};

typedef struct rank_header {
    uint32_t type;
    uint32_t rank;
    uint64_t length;
} rank_header;

/* A ROW message: these words, the row, then its samples. A row's static
 * words go as text (a rank that mpirun started has its own addresses). */
typedef struct row_words {
    char timing[16];
    char stopped_by[16];
} row_words;

/* Writes one message: the header, then a_len bytes of a and b_len of b.
 * Returns 0, or -1 when the other side is gone. */
int rank_send(int fd, int type, uint32_t rank, const void *a, size_t a_len, const void *b,
              size_t b_len);

/* In a rank: this rank's `bytes` sent to every rank, and every rank's, in
 * rank order, into `all` (ranks x bytes). Returns 0, or -1 when a rank is
 * gone. */
int rank_exchange(const void *mine, size_t bytes, void *all);

/* In a rank's process: its link is socket `fd`; rb_host's exchange and the
 * steps go through it from now on. */
void rank_link_open(int fd, uint32_t rank);

/* In a rank: whether every rank is fine after a step. `failed` is this
 * rank's word; returns 1 when any rank failed (0 with one rank: `failed`
 * itself). */
int ranks_agree(const rank_place *at, int failed);

/* In a rank, in the timed loop: combines this rank's wish to stop (1) or
 * go on (0) and whether it failed. Returns 1 to stop: every rank wants to,
 * or one failed (*other_failed is then set when another rank did). */
int ranks_agree_stop(const rank_place *at, int stop, int failed, int *other_failed);

/* In a rank: rank 0's `value` (a choice every rank must make alike). */
uint32_t ranks_rank0_value(const rank_place *at, uint32_t value);

#endif
