/* fuzz/fuzz_plugin.c: the plugin module of fuzz/fuzz_descriptor.c: its
 * entry point returns whatever descriptor the harness set last, so that
 * every fuzzed descriptor goes through the same path as a real plugin
 * (dlopen, dlsym, the registry's checks). */
#include <redbench/plugin.h>

static const rb_plugin *current;

RB_EXPORT void fuzz_plugin_set(const rb_plugin *descriptor);
RB_EXPORT void fuzz_plugin_set(const rb_plugin *descriptor)
{
    current = descriptor;
}

RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
RB_EXPORT const rb_plugin *redbench_plugin_entry(void)
{
    return current;
}
