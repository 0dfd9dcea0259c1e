/* src/run/plugin_gate.h: the one door to a strategy's callbacks. Each gate_*
 * call marks the step it is in (procs/isolate.c: a worker that dies is said to
 * have died in that step, and the parent's clock follows it) and calls the
 * plugin; gate_reason gives the words a row reports when a call fails. The
 * timed loops (run/timing.c, run/energy_row.c) mark RB_STEP_RUN (or the
 * warm-up) once with gate_enter and call run themselves, so that nothing is added to what is
 * measured; the rest of run/ decides what to call next. */
#ifndef RB_PLUGIN_GATE_H
#define RB_PLUGIN_GATE_H

#include <redbench/plugin.h>

#include "host/services.h"
#include "procs/isolate.h" /* the steps, RB_STEP_* */

int gate_describe(const rb_plugin *p, const rb_config *c, rb_description *d);
int gate_init(const rb_plugin *p, const rb_config *c, void **state);
int gate_run(const rb_plugin *p, void *state);
int gate_verify(const rb_plugin *p, void *state, rb_result *result);
void gate_teardown(const rb_plugin *p, void *state);
int gate_group_open(const rb_plugin *p, const rb_group *g, void **state);
void gate_group_close(const rb_plugin *p, void *state);

/* Marks `step` (an RB_STEP_*) for the calls that follow it. */
void gate_enter(int step);

/* Why a call failed: what the plugin said through its host, else
 * `otherwise` ("no reason given", "the plugin declined ..."). */
const char *gate_reason(const rb_host_state *host, const char *otherwise);

#endif
