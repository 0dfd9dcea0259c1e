/* src/cli/write_completion.c: a program of the build, never installed, that
 * writes the bash completion script of redbench (made from the table of
 * commands and options, cli/option_table.c) to standard output; the build
 * installs the script as $(datadir)/bash-completion/completions/redbench.
 * With --options it lists every option of every command instead, for
 * tests/cli/test_options_table.sh; with --man, the manual page's OPTION SUMMARY
 * section (man/local.mk puts it into man/redbench.1); with --man-settings,
 * --man-data and --man-run, its lists of the [experiment], [data] and [run
 * NAME] keys (config/keys.c). The script's plugin names are
 * redefined here (write_plugin_names): a name that several packs offer is
 * ambiguous on its own, so each pack's PACK/NAME is offered in its place. */
#include <stdio.h>
#include <string.h>

#include "cli/option_table.h"
#include "config/keys.h"

/* _redbench_plugins, defined after the script's own (bash keeps the last
 * definition): the names `redbench --list` prints (NAME PACK BACKEND OPS
 * DTYPES PATH), each once; where two packs or more offer a name, PACK/NAME
 * for each of them, as an experiment or --describe must write it. */
static void write_plugin_names(FILE *out)
{
    fputs("# Plugin names as an experiment may write them: NAME where one pack offers it,\n"
          "# PACK/NAME for each pack where several do (NAME alone is then ambiguous).\n"
          "_redbench_plugins() {\n"
          "    local names\n"
          "    names=$(\"${COMP_WORDS[0]}\" --list 2>/dev/null | awk '\n"
          "        NF > 3 && $NF ~ /\\.so$/ && !(($1, $2) in seen) { seen[$1, $2] = 1; packs[$1]++ }\n"
          "        END { for (k in seen) { split(k, f, SUBSEP);\n"
          "                                print (packs[f[1]] > 1 ? f[2] \"/\" f[1] : f[1]) } }')\n"
          "    COMPREPLY=($(compgen -W \"$names\" -- \"$cur\"))\n"
          "}\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--options") == 0)
        write_option_list(stdout);
    else if (argc > 1 && strcmp(argv[1], "--man-settings") == 0)
        write_man_keys(stdout, RB_SECTION_EXPERIMENT);
    else if (argc > 1 && strcmp(argv[1], "--man-data") == 0)
        write_man_keys(stdout, RB_SECTION_DATA);
    else if (argc > 1 && strcmp(argv[1], "--man-run") == 0)
        write_man_keys(stdout, RB_SECTION_RUN);
    else if (argc > 1 && strcmp(argv[1], "--man") == 0)
        write_man_options(stdout);
    else {
        write_bash_completion(stdout);
        write_plugin_names(stdout);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
