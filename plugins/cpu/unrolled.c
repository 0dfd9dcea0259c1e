/* plugins/cpu/unrolled.c: several independent accumulators (parameter
 * lanes), so that the compiler keeps them in vector registers and the loop
 * runs at vector speed on one core. Parameter acc picks the type a floating
 * sum accumulates in. */
#include "cpu_reduce.h"

static const rb_param_spec unrolled_params[] = {
    CPU_PARAM_LANES,
    CPU_PARAM_ACC,
};

static int unrolled_setup(const rb_config *cfg, cpu_job *job)
{
    unsigned lanes = (unsigned)rb_param_int(cfg, "lanes", CPU_LANES_DEFAULT);
    return cpu_job_setup(cfg, lanes, 0, job);
}

static int unrolled_describe(const rb_config *cfg, rb_description *out)
{
    cpu_job job;
    (void)out;
    return unrolled_setup(cfg, &job);
}

static int unrolled_init(const rb_config *cfg, void **state)
{
    cpu_job job;
    int rc = unrolled_setup(cfg, &job);
    return rc != RB_OK ? rc : cpu_single_init(&job, state);
}

static const rb_plugin unrolled_plugin = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "unrolled",
    .summary = "independent accumulators in vector registers, one core",
    .version = "1.0",
    .backend = "cpu",
    .ops = CPU_OPS,
    .dtypes = CPU_DTYPES,
    .params = unrolled_params,
    .n_params = sizeof unrolled_params / sizeof unrolled_params[0],
    .describe = unrolled_describe,
    .init = unrolled_init,
    .run = cpu_single_run,
    .verify = cpu_single_verify,
    .teardown = cpu_single_teardown,
};

RB_PLUGIN_ENTRY(unrolled_plugin)
