/* src/procs/row_wire.h: a row as the bytes of one message between processes:
 * a worker and the runner (procs/isolate.c), a rank and its leader
 * (procs/rank_serve.c, procs/rank_supervise.c). The message holds the row's
 * members, then the counts of what it owns, then its samples, reason,
 * energy note and each rank's energy. The pointers among the row's members
 * are the sender's: the receiver gets its own copies of what the row owns,
 * and sets what the row points to (its configuration, backend, words). */
#ifndef RB_ROW_WIRE_H
#define RB_ROW_WIRE_H

#include <stddef.h>

#include "results/rows.h"

/* The bytes of `row` as a message: a new buffer (the caller frees it) of
 * *length bytes. Its samples are the first stats.count of samples_ns. */
char *row_wire_pack(const rb_row *row, size_t *length);

/* A row from a message's `length` bytes, into *row (which owns its copies,
 * row_release). The samples are cut to its stats.count, and stats.count to
 * the samples sent. Returns 0, or -1 when the bytes are not a row's (*row
 * is then left zeroed). */
int row_wire_unpack(const char *payload, size_t length, rb_row *row);

#endif
