/* src/base/descriptors.c: a forked process's descriptors closed but for
 * those it keeps (base/descriptors.h). */
#define _GNU_SOURCE /* syscall */
#include "base/descriptors.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"

/* Closes descriptors lo..hi: close_range where the kernel has it, else
 * those /proc/self/fd lists, else every number up to the limit. */
static void close_span(unsigned lo, unsigned hi)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, lo, hi, 0) == 0)
        return;
#endif
    DIR *dir = opendir("/proc/self/fd");
    if (dir) {
        int *open_fds = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            char *end;
            long fd = strtol(e->d_name, &end, 10);
            if (*end || end == e->d_name || fd < (long)lo || fd > (long)hi || fd == dirfd(dir))
                continue;
            if (n == cap)
                open_fds = xrealloc(open_fds, (cap = cap ? 2 * cap : 16) * sizeof *open_fds);
            open_fds[n++] = (int)fd;
        }
        closedir(dir);
        for (size_t k = 0; k < n; k++)
            close(open_fds[k]);
        free(open_fds);
        return;
    }
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (long fd = lo; fd < max && fd <= (long)hi; fd++)
        close((int)fd);
}

void descriptors_close_all_but(const int *keep, size_t n_keep)
{
    unsigned lo = 3;
    for (;;) {
        unsigned next = UINT_MAX; /* the lowest kept descriptor from lo on */
        for (size_t k = 0; k < n_keep; k++)
            if (keep[k] >= 0 && (unsigned)keep[k] >= lo && (unsigned)keep[k] < next)
                next = (unsigned)keep[k];
        if (next > lo)
            close_span(lo, next == UINT_MAX ? UINT_MAX : next - 1);
        if (next == UINT_MAX)
            return;
        lo = next + 1;
    }
}
