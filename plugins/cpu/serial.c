/* plugins/cpu/serial.c: the baseline strategy: one accumulator, the plain
 * loop over the input. Parameter acc picks the type a floating sum
 * accumulates in. */
#include "cpu_reduce.h"

static const rb_param_spec serial_params[] = {
    CPU_PARAM_ACC,
};

static const rb_plugin serial_plugin = {
    CPU_PACK_DESCRIPTOR_FIELDS,
    .name = "serial",
    .summary = "one accumulator, the plain loop (the baseline)",
    RB_PLUGIN_PARAMS(serial_params),
    .describe = cpu_single_describe,
    .init = cpu_single_init,
    CPU_SINGLE_CALLBACKS,
};

RB_PLUGIN_ENTRY(serial_plugin)
