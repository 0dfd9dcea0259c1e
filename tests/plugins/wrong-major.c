/* tests/plugins/wrong-major.c: broken: built for the next ABI major. */
#include "test_plugin.h"

static const rb_plugin wrong_major =
    TEST_PLUGIN("wrong-major", REDBENCH_ABI_MAJOR + 1, 0, sizeof(rb_plugin), test_run);

RB_PLUGIN_ENTRY(wrong_major)
