/* plugins/cpu/unrolled.c: several independent accumulators (parameter
 * lanes), so that the compiler keeps them in vector registers and the loop
 * runs at vector speed on one core. Parameter acc picks the type a floating
 * sum accumulates in. */
#include "cpu_reduce.h"

static const rb_param_spec unrolled_params[] = {
    CPU_PARAM_LANES,
    CPU_PARAM_ACC,
};

static const rb_plugin unrolled_plugin = {
    CPU_PACK_DESCRIPTOR_FIELDS,
    .name = "unrolled",
    .summary = "independent accumulators in vector registers, one core",
    RB_PLUGIN_PARAMS(unrolled_params),
    .describe = cpu_single_describe,
    .init = cpu_single_init,
    CPU_SINGLE_CALLBACKS,
};

RB_PLUGIN_ENTRY(unrolled_plugin)
