/* tests/plugins/no-entry.c: broken: exports its descriptor under the wrong
 * name (redbench_entry), so redbench_plugin_entry is missing. */
#include "test_plugin.h"

static const rb_plugin no_entry =
    TEST_PLUGIN("no-entry", REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, sizeof(rb_plugin), test_run);

RB_EXPORT const rb_plugin *redbench_entry(void);
RB_EXPORT const rb_plugin *redbench_entry(void)
{
    return &no_entry;
}
