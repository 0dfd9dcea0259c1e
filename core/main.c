/* core/main.c: the redbench program: parse the command line, discover the
 * plugins, and hand over to the command asked for. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "options.h"
#include "registry.h"

int main(int argc, char **argv)
{
    rb_options opt;
    int status = options_parse(argc, argv, &opt);
    if (status != 0)
        return status;
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
