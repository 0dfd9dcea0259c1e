/* tests/plugins/too-small.c: broken: its descriptor's size stops before the
 * callbacks, so the host cannot read the required ones. */
#include "test_plugin.h"

static const rb_plugin too_small =
    TEST_PLUGIN("too-small", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR,
                offsetof(rb_plugin, describe), test_run);

RB_PLUGIN_ENTRY(too_small)
