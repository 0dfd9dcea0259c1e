/* src/cli/main.c: the redbench program: parse the command line, discover the
 * plugins, tell what this process is (procs/role.h: the program, or a
 * process that serves ranks), hand over to the command asked for, and
 * check that what it wrote to standard output got there. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/safe_file.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "host/registry.h"
#include "procs/role.h"
#include "run/runner.h"

/* Subcommands: `redbench NAME ARGS...`; each parses its own arguments. */
static const struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
} subcommands[] = {
    {"tune", command_tune},
    {"compare", command_compare},
    {"plot", command_plot},
    {"report", command_report},
    {"dispatch", command_dispatch},
    {"history", command_history},
    {NULL, NULL},
};

static int run_command(int argc, char **argv);

/* A write error on standard output (a full disk, /dev/full) is an error:
 * results or listings that did not get there are not a success. */
int main(int argc, char **argv)
{
    int status = run_command(argc, argv);
    char why[256];
    if (safe_file_flush(stdout, "standard output", why, sizeof why) != 0) {
        diag_error("%s", why);
        if (status == 0)
            status = 1;
    }
    return status;
}

static int run_command(int argc, char **argv)
{
    if (argc > 1)
        for (const struct subcommand *s = subcommands; s->name; s++)
            if (strcmp(argv[1], s->name) == 0)
                return s->run(argc - 1, argv + 1);
    rb_options opt;
    int status = options_parse(argc, argv, &opt);
    if (status != 0) {
        options_free(&opt);
        return status;
    }
    /* A rank that mpirun started, or a launcher's process k > 0, reads
     * the experiment as the others do, then serves ranks (runner_serve) */
    opt.role = process_role();
    if (opt.command == RB_CMD_HELP) {
        options_usage(stdout);
        options_free(&opt);
        return 0;
    }
    if (opt.command == RB_CMD_VERSION) {
        printf("redbench %s (plugin ABI %d.%d)\n", PACKAGE_VERSION, REDBENCH_ABI_MAJOR,
               REDBENCH_ABI_MINOR);
        options_free(&opt);
        return 0;
    }
    rb_registry reg = {0};
    registry_discover(&reg, opt.plugin_paths, opt.n_plugin_paths);
    if (opt.command == RB_CMD_RUN && opt.isolation == RB_ISOLATION_NONE)
        registry_load_here(&reg); /* plugin code in this process, as asked */
    if (opt.command == RB_CMD_LIST)
        status = command_list(&reg);
    else if (opt.command == RB_CMD_DESCRIBE)
        status = command_describe(&reg, opt.describe);
    else
        status = command_experiment(&opt, &reg, argc, argv);
    registry_free(&reg);
    options_free(&opt);
    return status;
}
