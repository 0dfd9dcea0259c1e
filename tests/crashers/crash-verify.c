/* tests/crashers/crash-verify.c: a floating-point exception signal (SIGFPE)
 * in verify, after every run went well. */
#include "crasher.h"

static int crash_verify(void *state, rb_result *result)
{
    crasher_state *s = state;
    if (crasher_faulty(s->cfg))
        raise(SIGFPE);
    return crasher_verify(state, result);
}

static const rb_plugin plugin = CRASHER("crash-verify", NULL, crasher_init, crasher_run,
                                        crash_verify, crasher_teardown);
RB_PLUGIN_ENTRY(plugin)
