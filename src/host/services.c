/* src/host/services.c: the rb_host services table handed to plugins: log lines go to
 * standard error tagged with the plugin's name; error() keeps the text of
 * the callback in progress for the row's reason. Both texts are made
 * printable: a plugin cannot send escape sequences to the terminal.
 * exchange() gathers bytes from every rank through the function the runner
 * installs in a rank's process (procs/rank_link.c); with one rank it copies. */
#include "host/services.h"
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The longest log line printed, in bytes before escaping. */
#define HOST_LOG_MAX 4096

static const char *const level_words[] = {"error", "warning", "info", "debug"};

static void host_log(const rb_host *host, int level, const char *fmt, ...)
{
    const rb_host_state *st = host->host_data;
    if (level > st->verbosity)
        return;
    if (level < RB_LOG_ERROR || level > RB_LOG_DEBUG)
        level = RB_LOG_INFO;
    char line[HOST_LOG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char *name = printable_text(st->plugin), *text = printable_text(line);
    diag_line("[%s] %s: %s", name, level_words[level], text);
    free(name);
    free(text);
}

static void host_error(const rb_host *host, const char *fmt, ...)
{
    rb_host_state *st = host->host_data;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->error, sizeof st->error, fmt, ap);
    va_end(ap);
    char *text = printable_text(st->error);
    /* the plugin's words after the host refused it: the host's too, which
     * the plugin may not know (its own limit) */
    if (st->refused[0] && !strstr(text, st->refused))
        snprintf(st->error, sizeof st->error, "%s (%s)", text, st->refused);
    else
        snprintf(st->error, sizeof st->error, "%s", text);
    free(text);
}

static host_exchange_fn exchange_impl;

void host_set_exchange(host_exchange_fn fn)
{
    exchange_impl = fn;
}

static int host_exchange(const rb_host *host, const void *mine, size_t bytes, void *all)
{
    if (bytes > RB_EXCHANGE_MAX || (bytes && (!mine || !all))) {
        rb_host_state *st = host->host_data;
        if (bytes > RB_EXCHANGE_MAX)
            snprintf(st->refused, sizeof st->refused, "the host refused an exchange of %zu "
                     "bytes: it takes at most %d bytes a rank at once (RB_EXCHANGE_MAX)",
                     bytes, RB_EXCHANGE_MAX);
        else
            snprintf(st->refused, sizeof st->refused, "the host refused an exchange of %zu "
                     "bytes: a buffer was NULL", bytes);
        snprintf(st->error, sizeof st->error, "%s", st->refused);
        return RB_ERROR;
    }
    if (exchange_impl)
        return exchange_impl(mine, bytes, all) == 0 ? RB_OK : RB_ERROR;
    if (bytes)
        memcpy(all, mine, bytes);
    return RB_OK;
}

void host_init(rb_host_state *st, const char *plugin, int verbosity)
{
    memset(st, 0, sizeof *st);
    st->table.size = sizeof st->table;
    st->table.abi_major = REDBENCH_ABI_MAJOR;
    st->table.abi_minor = REDBENCH_ABI_MINOR;
    st->table.log = host_log;
    st->table.error = host_error;
    st->table.host_data = st;
    st->table.exchange = host_exchange;
    st->plugin = plugin;
    st->verbosity = verbosity;
}

void host_clear_error(rb_host_state *st)
{
    st->error[0] = '\0';
    st->refused[0] = '\0';
}
