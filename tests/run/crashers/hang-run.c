/* tests/run/crashers/hang-run.c: run never returns (as a kernel that never
 * ends would); the configuration must time out. */
#include <unistd.h>

#include "crasher.h"

static int hang_run(void *state)
{
    test_sum *s = state;
    while (crasher_faulty(s->cfg))
        sleep(1);
    return test_run(state);
}

static const rb_plugin plugin = CRASHER("hang-run", NULL, test_init, hang_run,
                                        test_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
