/* tests/run/crashers/slow-sum.c: a correct sum that takes 20 ms a run when
 * `fault = yes`, and whose init creates the file named by SLOW_SUM_MARK, so
 * that a test knows a configuration is in progress before it sends a
 * signal (tests/run/test_interrupt.sh). */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "crasher.h"

static int slow_init(const rb_config *cfg, void **state)
{
    const char *mark = getenv("SLOW_SUM_MARK");
    if (mark && *mark) {
        int fd = open(mark, O_CREAT | O_WRONLY, 0644);
        if (fd >= 0)
            close(fd);
    }
    return test_init(cfg, state);
}

static int slow_run(void *state)
{
    test_sum *s = state;
    if (crasher_faulty(s->cfg)) {
        struct timespec pause = {0, 20000000};
        nanosleep(&pause, NULL);
    }
    return test_run(state);
}

static const rb_plugin plugin = CRASHER("slow-sum", NULL, slow_init, slow_run, test_verify,
                                        test_teardown);
RB_PLUGIN_ENTRY(plugin)
