/* tests/host/abi-1-0.c: a plugin as a build against the ABI 1.0 headers
 * makes it: its descriptor declares minor 0 and the size of the 1.0 layout,
 * and the object is exactly that layout, followed by bytes a host must
 * never read (it reads nothing past the declared size). It must keep
 * loading and running in every 1.x redbench. */
#include <stddef.h>

#include "test_plugin.h"

/* rb_plugin as ABI 1.0 defined it: the fields up to teardown. */
struct rb_plugin_1_0 {
    uint32_t abi_major, abi_minor, size;
    const char *name, *summary, *version, *backend;
    uint32_t ops, dtypes;
    const rb_param_spec *params;
    uint32_t n_params;
    int (*describe)(const rb_config *cfg, rb_description *out);
    int (*init)(const rb_config *cfg, void **state);
    int (*run)(void *state);
    int (*verify)(void *state, rb_result *result);
    void (*teardown)(void *state);
};

/* The 1.0 fields keep their places in every later 1.x header. */
_Static_assert(sizeof(struct rb_plugin_1_0) ==
                   offsetof(rb_plugin, teardown) + sizeof(void (*)(void *)),
               "the 1.0 layout of rb_plugin");
_Static_assert(offsetof(struct rb_plugin_1_0, teardown) == offsetof(rb_plugin, teardown),
               "the 1.0 fields of rb_plugin stay where they were");

static const struct {
    struct rb_plugin_1_0 desc;
    unsigned char beyond[256]; /* what a host reading past `size` would find */
} plugin_1_0 = {
    .desc = {
        .abi_major = 1,
        .abi_minor = 0,
        .size = sizeof(struct rb_plugin_1_0),
        .name = "abi-1-0",
        .summary = "test plugin: built against ABI 1.0",
        .backend = "cpu",
        TEST_SUM_FIELDS,
        TEST_SUM_CALLBACKS,
    },
    .beyond = {[0 ... 255] = 0xa5},
};

RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
RB_EXPORT const rb_plugin *redbench_plugin_entry(void)
{
    return (const rb_plugin *)&plugin_1_0.desc;
}
