/* tests/run/crashers/wrong-sum.c: runs without complaint and hands back a sum
 * off by one: the core must judge it `wrong` (integers are exact). */
#include "crasher.h"

static int wrong_verify(void *state, rb_result *result)
{
    test_sum *s = state;
    int rc = test_verify(state, result);
    if (crasher_faulty(s->cfg)) {
        result->i += 1;
        result->f = result->f * 1.5 + 1.0;
    }
    return rc;
}

static const rb_plugin plugin = CRASHER("wrong-sum", NULL, test_init, test_run,
                                        wrong_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
