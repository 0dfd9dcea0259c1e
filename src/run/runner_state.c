/* src/run/runner_state.c: what every file of the runner shares: the stop
 * flags the signal handlers set (run/runner.h), the clock, a row's status
 * and reason, and the text of a failure. */
#include "run/runner_state.h"

#include <stdio.h>

#include "base/util.h"
#include "run/plugin_gate.h"

volatile sig_atomic_t runner_stop_requested;

volatile sig_atomic_t runner_stop_now;

double runner_now(void)
{
    return monotonic_seconds();
}

/* Why a step failed: the plugin's text, else the backend's (a failed
 * synchronization or timer), else that none was given. */
const char *runner_failure_text(const rb_host_state *plugin, const open_backend *ob)
{
    return gate_reason(plugin, gate_reason(&ob->host, "no reason given"));
}
