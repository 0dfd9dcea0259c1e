/* tests/procs/ranks/half-group.c: broken: a strategy across ranks with a rank
 * group's set-up (group_open, ABI 1.4) and no end for it (group_close
 * NULL). The host refuses it, naming both. */
#include <stdlib.h>

#include <redbench/plugin.h>

static int init(const rb_config *cfg, void **state)
{
    (void)cfg;
    *state = NULL;
    return RB_OK;
}

static int run(void *state)
{
    (void)state;
    return RB_OK;
}

static int verify(void *state, rb_result *out)
{
    (void)state;
    (void)out;
    return RB_OK;
}

static void teardown(void *state)
{
    (void)state;
}

static int group_open(const rb_group *group, void **state)
{
    (void)group;
    *state = NULL;
    return RB_OK;
}

static const rb_plugin descriptor = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "half-group",
    .summary = "group_open without group_close (refused)",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32),
    .init = init,
    .run = run,
    .verify = verify,
    .teardown = teardown,
    .collective = RB_COLLECTIVE_ALLREDUCE,
    .group_open = group_open,
};

RB_PLUGIN_ENTRY(descriptor)
