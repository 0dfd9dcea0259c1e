/* tests/run/crashers/crash-verify.c: a floating-point exception signal (SIGFPE)
 * in verify, after every run went well. */
#include "crasher.h"

static int crash_verify(void *state, rb_result *result)
{
    test_sum *s = state;
    if (crasher_faulty(s->cfg))
        raise(SIGFPE);
    return test_verify(state, result);
}

static const rb_plugin plugin = CRASHER("crash-verify", NULL, test_init, test_run,
                                        crash_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
