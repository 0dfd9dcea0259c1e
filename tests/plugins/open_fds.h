/* tests/plugins/open_fds.h: the descriptors above 2 that the process of a
 * test plugin holds, for the tests that check what a plugin inherits from
 * the host (tests/run/test_isolation.sh, tests/run/test_ranks.sh). */
#ifndef RB_TEST_OPEN_FDS_H
#define RB_TEST_OPEN_FDS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How many descriptors above 2 are open (/proc/self/fd, its own listing's
 * left out), each written to `list` as "FD -> TARGET" (comma separated).
 * -1 when /proc/self/fd cannot be read. */
static inline int test_open_fds(char *list, size_t len)
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return -1;
    int count = 0;
    size_t at = 0;
    list[0] = '\0';
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || fd <= 2 || fd == dirfd(dir))
            continue;
        char path[64], target[256];
        snprintf(path, sizeof path, "/proc/self/fd/%ld", fd);
        ssize_t n = readlink(path, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
        if (at < len) {
            int put = snprintf(list + at, len - at, "%s%ld -> %s", count ? ", " : "", fd, target);
            at += put > 0 ? (size_t)put : 0;
        }
        count++;
    }
    closedir(dir);
    return count;
}

#endif
