/* src/cli/stop_signals.c: installs a command's handler of SIGINT and
 * SIGTERM. */
#include "config.h"

#include "cli/stop_signals.h"

#include <signal.h>
#include <string.h>

void stop_signals_install(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
