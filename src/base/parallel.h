/* src/base/parallel.h: how many host threads the core's own parallel work
 * (input generation, reference results) uses. */
#ifndef RB_PARALLEL_H
#define RB_PARALLEL_H

#define RB_MAX_THREADS 256

/* REDBENCH_THREADS when it is a whole number from 1 to RB_MAX_THREADS,
 * otherwise the number of online cores. */
unsigned host_threads(void);

#endif
