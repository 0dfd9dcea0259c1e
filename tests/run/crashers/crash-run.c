/* tests/run/crashers/crash-run.c: a segmentation fault in run, on its third
 * call (so in the warm-up or the measurement, after good calls). */
#include "crasher.h"

typedef struct crash_run_state {
    test_sum sum; /* first: test_verify and test_teardown read it */
    unsigned calls;
} crash_run_state;

static int crash_init(const rb_config *cfg, void **state)
{
    test_sum *inner;
    int rc = test_init(cfg, (void **)&inner);
    if (rc != RB_OK)
        return rc;
    crash_run_state *s = realloc(inner, sizeof *s);
    if (!s) {
        free(inner);
        return RB_ERROR;
    }
    s->calls = 0;
    *state = s;
    return RB_OK;
}

static int crash_run(void *state)
{
    crash_run_state *s = state;
    if (++s->calls == 3 && crasher_faulty(s->sum.cfg))
        crasher_segfault();
    return test_run(&s->sum);
}

static const rb_plugin plugin = CRASHER("crash-run", NULL, crash_init, crash_run,
                                        test_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
