/* src/host/services.h: the services table handed to plugins (rb_host): logging to
 * standard error and the error text of the callback in progress. */
#ifndef RB_HOST_H
#define RB_HOST_H

#include <redbench/plugin.h>

/* A host table tagged with a plugin name. */
typedef struct rb_host_state {
    rb_host table;
    const char *plugin;   /* name used in log lines */
    char error[384];      /* last error text, "" if none */
    int verbosity;        /* highest rb_log_level printed */
} rb_host_state;

void host_init(rb_host_state *st, const char *plugin, int verbosity);
/* Clears the error text before a callback. */
void host_clear_error(rb_host_state *st);

#endif
