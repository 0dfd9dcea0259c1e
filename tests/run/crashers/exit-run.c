/* tests/run/crashers/exit-run.c: calls exit(7) in run, as a library that gives
 * up on an error would. */
#include "crasher.h"

static int exit_run(void *state)
{
    test_sum *s = state;
    if (crasher_faulty(s->cfg))
        exit(7);
    return test_run(state);
}

static const rb_plugin plugin = CRASHER("exit-run", NULL, test_init, exit_run,
                                        test_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
