/* tests/plugins/tiny-sum.c: a minimal good plugin (sum of i32 or f32 on the
 * cpu backend), dropped into plugin folders by the discovery tests. */
#include "test_plugin.h"

static const rb_plugin tiny_sum =
    TEST_PLUGIN("tiny-sum", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, sizeof(rb_plugin), test_run);

RB_PLUGIN_ENTRY(tiny_sum)
