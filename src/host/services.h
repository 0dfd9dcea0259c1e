/* src/host/services.h: the services table handed to plugins (rb_host): logging to
 * standard error, the error text of the callback in progress, and the
 * exchange between ranks. */
#ifndef RB_HOST_H
#define RB_HOST_H

#include <redbench/plugin.h>

/* A host table tagged with a plugin name. */
typedef struct rb_host_state {
    rb_host table;
    const char *plugin;   /* name used in log lines */
    char error[384];      /* last error text, "" if none */
    char refused[160];    /* what the host refused in the callback in
                             progress (an exchange over its limit), "" if
                             nothing: kept in `error` whatever the plugin
                             says after it */
    int verbosity;        /* highest rb_log_level printed */
} rb_host_state;

void host_init(rb_host_state *st, const char *plugin, int verbosity);
/* How a rank's process gathers `bytes` from every rank into `all` (rank k's
 * at k * bytes); returns 0, or -1 when a rank is gone. NULL (the default):
 * one rank, `mine` is copied. */
typedef int (*host_exchange_fn)(const void *mine, size_t bytes, void *all);
void host_set_exchange(host_exchange_fn fn);

/* Clears the error text before a callback. */
void host_clear_error(rb_host_state *st);

#endif
