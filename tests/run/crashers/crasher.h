/* tests/run/crashers/crasher.h: what every deliberately broken plugin of
 * tests/run/crashers/ shares: a correct sum of i32 or f32 data on the cpu
 * backend (the strategy of tests/plugins/test_plugin.h), and a parameter
 * `fault` (yes, none) that says whether the plugin misbehaves in this
 * configuration. A run that sweeps `fault = none, yes,
 * none` shows that the configurations after a fault still run. Each plugin
 * replaces one callback with a broken one through CRASHER(). */
#ifndef RB_CRASHER_H
#define RB_CRASHER_H

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include <redbench/plugin.h>

#include "../../plugins/test_plugin.h" /* test_init, ..., TEST_SUM_FIELDS */

static const char *const crasher_fault_words[] = {"none", "yes", NULL};

static const rb_param_spec crasher_params[] = {
    {.name = "fault", .type = RB_PARAM_CHOICE, .default_value = "yes",
     .choices = crasher_fault_words, .help = "misbehave in this configuration (yes) or not"},
};

/* Whether this configuration asks for the fault. */
static inline int crasher_faulty(const rb_config *cfg)
{
    return rb_param_int(cfg, "fault", 1) == 1;
}

/* A real segmentation fault: a store to an address that is never mapped
 * (not NULL, which compilers and sanitizers treat specially). */
static inline void crasher_segfault(void)
{
    volatile int *volatile unmapped = (volatile int *)(uintptr_t)16;
    *unmapped = 1;
}

#define CRASHER(NAME, DESCRIBE, INIT, RUN, VERIFY, TEARDOWN)                   \
    {                                                                          \
        RB_PLUGIN_ABI_FIELDS,                                                  \
        .name = (NAME),                                                        \
        .summary = "deliberately broken test plugin",                          \
        .backend = "cpu",                                                      \
        TEST_SUM_FIELDS,                                                       \
        RB_PLUGIN_PARAMS(crasher_params),                                      \
        .describe = (DESCRIBE),                                                \
        .init = (INIT),                                                        \
        .run = (RUN),                                                          \
        .verify = (VERIFY),                                                    \
        .teardown = (TEARDOWN),                                                \
    }

#endif
