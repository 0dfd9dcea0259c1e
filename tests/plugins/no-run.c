/* tests/plugins/no-run.c: broken: the required run callback is NULL. */
#include "test_plugin.h"

static const rb_plugin no_run =
    TEST_PLUGIN("no-run", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, sizeof(rb_plugin), NULL);

RB_PLUGIN_ENTRY(no_run)
