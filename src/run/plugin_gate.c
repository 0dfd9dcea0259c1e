/* src/run/plugin_gate.c: the one door to a strategy's callbacks
 * (run/plugin_gate.h): the step marked, then the call. */
#include "run/plugin_gate.h"

int gate_describe(const rb_plugin *p, const rb_config *c, rb_description *d)
{
    isolate_step(RB_STEP_DESCRIBE);
    return p->describe(c, d);
}

int gate_init(const rb_plugin *p, const rb_config *c, void **state)
{
    isolate_step(RB_STEP_INIT);
    return p->init(c, state);
}

int gate_run(const rb_plugin *p, void *state)
{
    isolate_step(RB_STEP_RUN);
    return p->run(state);
}

int gate_verify(const rb_plugin *p, void *state, rb_result *result)
{
    isolate_step(RB_STEP_VERIFY);
    return p->verify(state, result);
}

void gate_teardown(const rb_plugin *p, void *state)
{
    isolate_step(RB_STEP_TEARDOWN);
    p->teardown(state);
}

/* a group's set-up and its end count as init and teardown */
int gate_group_open(const rb_plugin *p, const rb_group *g, void **state)
{
    isolate_step(RB_STEP_INIT);
    return p->group_open(g, state);
}

void gate_group_close(const rb_plugin *p, void *state)
{
    isolate_step(RB_STEP_TEARDOWN);
    p->group_close(state);
}

void gate_enter(int step) { isolate_step(step); }

const char *gate_reason(const rb_host_state *host, const char *otherwise)
{
    return host->error[0] ? host->error : otherwise;
}
