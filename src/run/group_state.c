/* src/run/group_state.c: what the plugin's group_open made for a rank
 * group, opened and closed through the gate (run/group_state.h). */
#include "run/group_state.h"

#include <stddef.h>

#include "base/names.h"
#include "host/services.h"
#include "run/plugin_gate.h"

/* What group_open is handed, for the life of the group. */
static rb_host_state group_host;

int group_state_open(group_state *g, const rank_place *at, int device, int verbosity,
                     const rb_plugin *p, void *queue, rb_row *row)
{
    if (at->ranks <= 1 || !p->group_open || g->plugin == p)
        return 0;
    host_init(&group_host, p->name, verbosity);
    rb_group group = {.size = sizeof group, .rank = at->rank, .n_ranks = at->ranks,
                      .device = device, .queue = queue, .host = &group_host.table};
    void *state = NULL;
    int st = gate_group_open(p, &group, &state);
    if (st != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "the rank group's set-up (group_open) failed: %s",
                       gate_reason(&group_host, "no reason given"));
        return -1;
    }
    g->state = state;
    g->plugin = p;
    return 0;
}

void group_state_close(group_state *g, int in_order)
{
    if (in_order && g->plugin && g->plugin->group_close)
        gate_group_close(g->plugin, g->state);
    g->plugin = NULL;
    g->state = NULL;
}
