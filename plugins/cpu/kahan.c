/* plugins/cpu/kahan.c: compensated summation (Kahan-Babuska, in Neumaier's
 * form) in the data type, for accuracy comparisons with the other
 * strategies. Integer sums are exact anyway; min, max and histogram use the
 * plain loop. The compensation term is itself a sum in the data type: once
 * n * eps nears 1 (some 2^24 f32 values of one sign) it stalls too and the
 * sum goes wrong: the method's known limit. serial with acc = f64 gives an
 * accurate f32 sum. f16 and bf16 are summed, with their compensation, in
 * f32 (never in the half type). */
#include "cpu_reduce.h"

static int kahan_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    return cpu_single_setup(cfg, 1, NULL);
}

static int kahan_init(const rb_config *cfg, void **state)
{
    return cpu_single_setup(cfg, 1, state);
}

static const rb_plugin kahan_plugin = {
    CPU_PACK_DESCRIPTOR_FIELDS,
    .name = "kahan",
    .summary = "compensated (Kahan-Babuska/Neumaier) sum in the data type",
    .describe = kahan_describe,
    .init = kahan_init,
    CPU_SINGLE_CALLBACKS,
};

RB_PLUGIN_ENTRY(kahan_plugin)
