/* tests/run/crashers/crash-init.c: abort() (SIGABRT) in init. */
#include "crasher.h"

static int crash_init(const rb_config *cfg, void **state)
{
    if (crasher_faulty(cfg))
        abort();
    return test_init(cfg, state);
}

static const rb_plugin plugin = CRASHER("crash-init", NULL, crash_init, test_run,
                                        test_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
