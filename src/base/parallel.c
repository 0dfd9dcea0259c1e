/* src/base/parallel.c: the host thread count for the core's parallel work. */
#include "base/parallel.h"

#include <errno.h>
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
