/* tests/crashers/crash-init.c: abort() (SIGABRT) in init. */
#include "crasher.h"

static int crash_init(const rb_config *cfg, void **state)
{
    if (crasher_faulty(cfg))
        abort();
    return crasher_init(cfg, state);
}

static const rb_plugin plugin = CRASHER("crash-init", NULL, crash_init, crasher_run,
                                        crasher_verify, crasher_teardown);
RB_PLUGIN_ENTRY(plugin)
