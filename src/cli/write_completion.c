/* src/cli/write_completion.c: a program of the build, never installed, that
 * writes the bash completion script of redbench (made from the table of
 * commands and options, cli/option_table.c) to standard output; the build
 * installs the script as $(datadir)/bash-completion/completions/redbench.
 * With --options it lists every option of every command instead, for
 * tests/cli/test_options_table.sh; with --man, the manual page's OPTION SUMMARY
 * section (man/local.mk puts it into man/redbench.1); with --man-settings,
 * its list of the [experiment] keys. */
#include <stdio.h>
#include <string.h>

#include "cli/option_table.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--options") == 0)
        write_option_list(stdout);
    else if (argc > 1 && strcmp(argv[1], "--man-settings") == 0)
        write_man_settings(stdout);
    else if (argc > 1 && strcmp(argv[1], "--man") == 0)
        write_man_options(stdout);
    else
        write_bash_completion(stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
