/* tests/run/energy/standin-sum.c: the sum of i32 or f32 data of the test
 * plugins (tests/plugins/test_plugin.h) on the `standin` backend
 * (standin-backend.c), whose energy the host reads through the stand-in
 * NVML. */
#include "../../plugins/test_plugin.h"

static const rb_plugin standin_sum_plugin = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "standin-sum",
    .summary = "test plugin: sum of i32 or f32 on the standin backend",
    .backend = "standin",
    TEST_SUM_FIELDS,
    TEST_SUM_CALLBACKS,
};

RB_PLUGIN_ENTRY(standin_sum_plugin)
