/* src/base/parallel.c: the host thread count for the core's parallel work,
 * and the threads that share its chunks. */
#include "base/parallel.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

unsigned host_threads(void)
{
    const char *text = getenv("REDBENCH_THREADS");
    if (text && *text) {
        char *end;
        errno = 0;
        long v = strtol(text, &end, 10);
        if (!errno && *end == '\0' && v >= 1 && v <= RB_MAX_THREADS)
            return (unsigned)v;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > RB_MAX_THREADS ? RB_MAX_THREADS : (unsigned)cores;
}

typedef struct chunk_job {
    uint64_t n_chunks;
    uint64_t next; /* atomic */
    void (*each)(void *ctx, uint64_t chunk);
    void *ctx;
} chunk_job;

static void *chunk_worker(void *arg)
{
    chunk_job *job = arg;
    for (;;) {
        uint64_t chunk = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (chunk >= job->n_chunks)
            return NULL;
        job->each(job->ctx, chunk);
    }
}

void parallel_chunks(uint64_t n_chunks, void (*each)(void *ctx, uint64_t chunk), void *ctx)
{
    chunk_job job = {n_chunks, 0, each, ctx};
    unsigned threads = host_threads();
    if (threads > n_chunks)
        threads = (unsigned)n_chunks;
    pthread_t ids[RB_MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++) {
        if (pthread_create(&ids[started], NULL, chunk_worker, &job) != 0)
            break; /* the threads already started and this one share the work */
        started++;
    }
    chunk_worker(&job);
    for (unsigned t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
}
