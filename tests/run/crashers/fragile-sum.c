/* tests/run/crashers/fragile-sum.c: a sum on the `fragile` backend whose run,
 * when `fault = yes`, poisons the backend's context and fails, as a kernel
 * that hits a sticky device error would. The configurations after it must
 * run in a fresh process with a fresh context. */
#include "crasher.h"
#include "fragile.h"

static int fragile_run(void *state)
{
    test_sum *s = state;
    if (crasher_faulty(s->cfg)) {
        fragile_context *device = s->cfg->queue;
        device->sticky = 1;
        s->cfg->host->error(s->cfg->host, "emulated sticky device error");
        return RB_ERROR;
    }
    return test_run(state);
}

static rb_plugin plugin = CRASHER("fragile-sum", NULL, test_init, fragile_run,
                                  test_verify, test_teardown);

RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
RB_EXPORT const rb_plugin *redbench_plugin_entry(void)
{
    plugin.backend = "fragile";
    plugin.summary = "test plugin that poisons the fragile backend";
    return &plugin;
}
