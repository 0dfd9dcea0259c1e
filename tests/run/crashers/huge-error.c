/* tests/run/crashers/huge-error.c: absurd values at run time: describe fills
 * the whole label with no terminating NUL, logs a 100 000-character line,
 * and init fails with a 100 000-character error text and returns a status
 * that is not in enum rb_status. The row must be `failed` with the text cut
 * to fit, and nothing else may suffer. */
#include <string.h>

#include "crasher.h"

#define HUGE_TEXT 100000

static char huge[HUGE_TEXT + 1];

static int huge_describe(const rb_config *cfg, rb_description *out)
{
    memset(out->label, 'L', sizeof out->label); /* no NUL */
    if (crasher_faulty(cfg)) {
        memset(huge, 'x', HUGE_TEXT);
        cfg->host->log(cfg->host, RB_LOG_ERROR, "%s", huge);
    }
    return RB_OK;
}

static int huge_init(const rb_config *cfg, void **state)
{
    if (!crasher_faulty(cfg))
        return test_init(cfg, state);
    memset(huge, 'e', HUGE_TEXT);
    memcpy(huge, "HUGE-ERROR ", 11);
    cfg->host->error(cfg->host, "%s", huge);
    return 42;
}

static const rb_plugin plugin = CRASHER("huge-error", huge_describe, huge_init, test_run,
                                        test_verify, test_teardown);
RB_PLUGIN_ENTRY(plugin)
