/* plugins/cpu/serial.c: the baseline strategy: one accumulator, the plain
 * loop over the input. Parameter acc picks the type a floating sum
 * accumulates in. */
#include "cpu_reduce.h"

static const rb_param_spec serial_params[] = {
    CPU_PARAM_ACC,
};

static int serial_describe(const rb_config *cfg, rb_description *out)
{
    cpu_job job;
    (void)out;
    return cpu_job_setup(cfg, 1, 0, &job);
}

static int serial_init(const rb_config *cfg, void **state)
{
    cpu_job job;
    int rc = cpu_job_setup(cfg, 1, 0, &job);
    return rc != RB_OK ? rc : cpu_single_init(&job, state);
}

static const rb_plugin serial_plugin = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "serial",
    .summary = "one accumulator, the plain loop (the baseline)",
    .version = "1.0",
    .backend = "cpu",
    .ops = CPU_OPS,
    .dtypes = CPU_DTYPES,
    .params = serial_params,
    .n_params = sizeof serial_params / sizeof serial_params[0],
    .describe = serial_describe,
    .init = serial_init,
    .run = cpu_single_run,
    .verify = cpu_single_verify,
    .teardown = cpu_single_teardown,
};

RB_PLUGIN_ENTRY(serial_plugin)
