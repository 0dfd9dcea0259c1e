/* src/cli/stop_signals.h: the handler of SIGINT and SIGTERM for a command
 * that stops its work and writes what it has (run, tune). */
#ifndef REDBENCH_CLI_STOP_SIGNALS_H
#define REDBENCH_CLI_STOP_SIGNALS_H

/* Calls handler(sig) on SIGINT and SIGTERM, with no flags (a blocking call
 * such as waitpid then returns EINTR, so the command sees the stop). */
void stop_signals_install(void (*handler)(int));

#endif
