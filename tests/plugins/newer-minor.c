/* tests/plugins/newer-minor.c: broken: built for an ABI minor newer than
 * the host's (it may use fields the host does not have). */
#include "test_plugin.h"

static const rb_plugin newer_minor =
    TEST_PLUGIN("newer-minor", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR + 1, sizeof(rb_plugin),
                test_run);

RB_PLUGIN_ENTRY(newer_minor)
