/* tests/plugins/loader-fds.c: the test sum (test_plugin.h) whose entry point,
 * called by the process that loads plugins for discovery, writes the
 * descriptors above 2 that its process holds ("COUNT: FD -> TARGET, ...")
 * as a line to the file REDBENCH_TEST_FDS_FILE names, when it is set. For
 * tests/host/test_loader.sh: the loading process inherits its channel to
 * the host and the standard streams, nothing else of the host's. */
#include <fcntl.h>

#include "open_fds.h"
#include "test_plugin.h"

static const rb_plugin loader_fds = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "loader-fds",
    .summary = "test plugin: sum of i32 or f32, saying what its loading process inherited",
    .backend = "cpu",
    TEST_SUM_FIELDS,
    .init = test_init,
    .run = test_run,
    .verify = test_verify,
    .teardown = test_teardown,
};

RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
RB_EXPORT const rb_plugin *redbench_plugin_entry(void)
{
    const char *path = getenv("REDBENCH_TEST_FDS_FILE");
    if (path && *path) {
        char list[2048];
        int count = test_open_fds(list, sizeof list); /* before the file is opened */
        int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
            char line[2200];
            int len = snprintf(line, sizeof line, "%d: %s\n", count, list);
            if (len > 0 && write(fd, line, (size_t)len) < 0)
                len = 0;
            close(fd);
        }
    }
    return &loader_fds;
}
