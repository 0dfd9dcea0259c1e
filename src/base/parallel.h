/* src/base/parallel.h: how many host threads the core's own parallel work
 * (input generation, reference results) uses, and that work cut into
 * chunks that those threads take in turn. */
#ifndef RB_PARALLEL_H
#define RB_PARALLEL_H

#include <stdint.h>

#define RB_MAX_THREADS 256

/* REDBENCH_THREADS when it is a whole number from 1 to RB_MAX_THREADS,
 * otherwise the number of online cores. */
unsigned host_threads(void);

/* Calls each(ctx, c) once for every chunk c in [0, n_chunks), on
 * host_threads() threads (this one among them, no more than there are
 * chunks) that take the chunks in turn from a shared counter; returns when
 * every chunk is done. */
void parallel_chunks(uint64_t n_chunks, void (*each)(void *ctx, uint64_t chunk), void *ctx);

#endif
