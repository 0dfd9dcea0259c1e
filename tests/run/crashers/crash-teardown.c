/* tests/run/crashers/crash-teardown.c: a segmentation fault in teardown, after
 * the result was verified: the configuration is still `failed`. */
#include "crasher.h"

static void crash_teardown(void *state)
{
    test_sum *s = state;
    int faulty = crasher_faulty(s->cfg);
    free(state);
    if (faulty)
        crasher_segfault();
}

static const rb_plugin plugin = CRASHER("crash-teardown", NULL, test_init, test_run,
                                        test_verify, crash_teardown);
RB_PLUGIN_ENTRY(plugin)
