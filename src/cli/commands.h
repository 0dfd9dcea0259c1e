/* src/cli/commands.h: what each command line mode does (cli/info.c: --list,
 * --describe; cli/run.c: -c FILE and --dry-run; one file per subcommand).
 * Each returns the process exit status (0, 1 or 2, as README.md says). */
#ifndef RB_COMMANDS_H
#define RB_COMMANDS_H

#include "cli/options.h"
#include "host/registry.h"

int command_list(const rb_registry *reg);
int command_describe(const rb_registry *reg, const char *name);
/* -c FILE, with or without --dry-run. */
int command_experiment(const rb_options *opt, const rb_registry *reg, int argc, char **argv);
/* redbench tune -c FILE ...: search the parameters, write the winners (cli/tune.c). */
int command_tune(int argc, char **argv);
/* redbench compare OLD.json NEW.json ...: verdicts per configuration (cli/compare.c). */
int command_compare(int argc, char **argv);
/* redbench plot RESULTS.json [-o DIR] [--baseline NAME]: the figures (cli/plot.c). */
int command_plot(int argc, char **argv);
/* redbench report RESULTS.json -o FILE...: saved results converted (cli/report.c). */
int command_report(int argc, char **argv);
/* redbench dispatch MAP.json [-o FILE.h]: the crossover map as a C header (cli/dispatch.c). */
int command_dispatch(int argc, char **argv);
/* redbench history [add|check|trend] DB ...: a history of runs (cli/history.c). */
int command_history(int argc, char **argv);

#endif
