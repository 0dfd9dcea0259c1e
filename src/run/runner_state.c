/* src/run/runner_state.c: what every file of the runner shares: the stop
 * flags the signal handlers set (run/runner.h), the clock, a row's status
 * and reason, and the text of a failure. */
#include "run/runner_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "run/plugin_gate.h"

volatile sig_atomic_t runner_stop_requested;

volatile sig_atomic_t runner_stop_now;

double runner_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void runner_set_reason(rb_row *row, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    row->status = status;
    row_set_reason_v(row, fmt, ap);
    va_end(ap);
}

/* Why a step failed: the plugin's text, else the backend's (a failed
 * synchronization or timer), else that none was given. */
const char *runner_failure_text(const rb_host_state *plugin, const open_backend *ob)
{
    return gate_reason(plugin, gate_reason(&ob->host, "no reason given"));
}
