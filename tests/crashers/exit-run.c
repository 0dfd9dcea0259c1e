/* tests/crashers/exit-run.c: calls exit(7) in run, as a library that gives
 * up on an error would. */
#include "crasher.h"

static int exit_run(void *state)
{
    crasher_state *s = state;
    if (crasher_faulty(s->cfg))
        exit(7);
    return crasher_run(state);
}

static const rb_plugin plugin = CRASHER("exit-run", NULL, crasher_init, exit_run,
                                        crasher_verify, crasher_teardown);
RB_PLUGIN_ENTRY(plugin)
