/* tests/run/crashers/crash-describe.c: a segmentation fault in describe. */
#include "crasher.h"

static int crash_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    if (crasher_faulty(cfg))
        crasher_segfault();
    return RB_OK;
}

static const rb_plugin plugin = CRASHER("crash-describe", crash_describe, test_init,
                                        test_run, test_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
