/* tests/plugins/old-minor.c: good, built for ABI 1.4, before the
 * half-precision dtypes: its dtype mask also sets the bits that 1.5 gave
 * f16 and bf16 (bits 1.4 left undefined), and its sum takes any data it is
 * handed as f32. The host reads its mask with the dtypes 1.4 knew: it is
 * listed with i32 and f32 only, and a run asking it for f16 or bf16 is
 * `unsupported` by the host's own check, never run. */
#include "test_plugin.h"

static int old_init(const rb_config *cfg, void **state)
{
    test_sum *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

static const rb_plugin old_minor = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = 4,
    .size = sizeof(rb_plugin),
    .name = "old-minor",
    .summary = "test plugin of ABI 1.4: sum of i32 or f32",
    .backend = "cpu",
    .version = "1.0",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32) | (1u << 5) | (1u << 6),
    .init = old_init,
    .run = test_run,
    .verify = test_verify,
    .teardown = test_teardown,
};

RB_PLUGIN_ENTRY(old_minor)
