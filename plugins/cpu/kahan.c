/* plugins/cpu/kahan.c: compensated summation (Kahan-Babuska, in Neumaier's
 * form) in the data type, for accuracy comparisons with the other
 * strategies. Integer sums are exact anyway; min, max and histogram use the
 * plain loop. The compensation term is itself a sum in the data type: once
 * n * eps nears 1 (some 2^24 f32 values of one sign) it stalls too and the
 * sum goes wrong: the method's known limit. serial with acc = f64 gives an
 * accurate f32 sum. */
#include "cpu_reduce.h"

static int kahan_describe(const rb_config *cfg, rb_description *out)
{
    cpu_job job;
    (void)out;
    return cpu_job_setup(cfg, 1, 1, &job);
}

static int kahan_init(const rb_config *cfg, void **state)
{
    cpu_job job;
    int rc = cpu_job_setup(cfg, 1, 1, &job);
    return rc != RB_OK ? rc : cpu_single_init(&job, state);
}

static const rb_plugin kahan_plugin = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "kahan",
    .summary = "compensated (Kahan-Babuska/Neumaier) sum in the data type",
    .version = "1.0",
    .backend = "cpu",
    .ops = CPU_OPS,
    .dtypes = CPU_DTYPES,
    .params = NULL,
    .n_params = 0,
    .describe = kahan_describe,
    .init = kahan_init,
    .run = cpu_single_run,
    .verify = cpu_single_verify,
    .teardown = cpu_single_teardown,
};

RB_PLUGIN_ENTRY(kahan_plugin)
