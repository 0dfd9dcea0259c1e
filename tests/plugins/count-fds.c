/* tests/plugins/count-fds.c: the test sum (test_plugin.h) that fails in
 * init, listing them, when its process holds more descriptors above 2 than
 * `allow` (default 1: a worker's pipe to the host). For
 * tests/run/test_isolation.sh: a worker inherits only what it needs. */
#include "open_fds.h"
#include "test_plugin.h"

static const rb_param_spec params[] = {
    {.name = "allow", .type = RB_PARAM_INT, .default_value = "1", .min = 0, .max = 1000,
     .help = "descriptors above 2 allowed (the worker's pipe: 1)"},
};

static int count_init(const rb_config *cfg, void **state)
{
    char list[1024];
    int open_fds = test_open_fds(list, sizeof list);
    if (open_fds < 0) {
        cfg->host->error(cfg->host, "cannot read /proc/self/fd");
        return RB_ERROR;
    }
    if (open_fds > (int)rb_param_int(cfg, "allow", 1)) {
        cfg->host->error(cfg->host, "%d descriptors above 2 are open: %s", open_fds, list);
        return RB_ERROR;
    }
    return test_init(cfg, state);
}

static const rb_plugin count_fds = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "count-fds",
    .summary = "test plugin: sum of i32 or f32, failing when it inherited descriptors",
    .backend = "cpu",
    TEST_SUM_FIELDS,
    RB_PLUGIN_PARAMS(params),
    .init = count_init,
    .run = test_run,
    .verify = test_verify,
    .teardown = test_teardown,
};

RB_PLUGIN_ENTRY(count_fds)
