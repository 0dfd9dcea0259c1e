/* tests/run/timing/old-sum.c: the sum of i32 or f32 data of the test plugins
 * (tests/plugins/test_plugin.h) on the `oldclock` backend (old-clock.c,
 * ABI 1.0), for the tests of how a 1.1 host times a 1.0 backend. */
#include "../../plugins/test_plugin.h"

static const rb_plugin old_sum_plugin = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "old-sum",
    .summary = "test plugin: sum of i32 or f32 on the ABI 1.0 oldclock backend",
    .backend = "oldclock",
    TEST_SUM_FIELDS,
    TEST_SUM_CALLBACKS,
};

RB_PLUGIN_ENTRY(old_sum_plugin)
