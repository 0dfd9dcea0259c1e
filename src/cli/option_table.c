/* src/cli/option_table.c: the commands of redbench and their options,
 * described once (option_table.h), and what is made from them: getopt's
 * arrays, the help of every command, in one style, and the bash completion
 * script. An option added to a command goes into its table here, and is
 * then parsed, listed by --help and completed; the manual page must name it
 * too (tests/cli/test_options_table.sh fails until it does). */
#include "cli/option_table.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"
#include "compare/comparison.h"
#include "config/keys.h"
#include "config/settings.h"
#include "host/paths.h"

#define HELP_WIDTH 79
#define HELP_COLUMN 26

static const char *isolation_choices(const char *sep)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "worker%sgroup%snone", sep, sep);
    return buf;
}

/* The options that choose and change what an experiment file asks for,
 * the same for the run and for tune (written once, here). */
#define OPTION_RUN_PATTERN                                                                      \
    {"run", 'r', 'r', "PATTERN", RB_OPERAND_WORD, NULL,                                         \
     "run only the [run NAME] sections whose NAME matches the glob PATTERN (repeatable: a run " \
     "matching any is kept)"}
#define OPTION_SET_KEY                                                                          \
    {NULL, 'D', 'D', "KEY=VALUE", RB_OPERAND_SETTING, NULL,                                     \
     "set or sweep an [experiment], [data] or run key as if written in the file (repeatable; "  \
     "later ones win): a data key applies to every run, a plugin parameter to every run whose " \
     "plugin has it, replacing the file's; RUN.KEY=VALUE (RUN a name or glob) to the runs "     \
     "named only; e.g. -D n=1K..1G:x4 -D dtype=f32 -D 'cpu-un*.lanes=8'"}

static const rb_option_spec run_options[] = {
    {"config", 'c', 'c', "FILE", RB_OPERAND_INI, NULL, "the experiment file (INI)"},
    OPTION_RUN_PATTERN,
    OPTION_SET_KEY,
    {"device", 0, 'e', "N", RB_OPERAND_WORD, NULL, "the same as -D device=N"},
    {"rounds", 0, 'R', "K", RB_OPERAND_WORD, NULL,
     "the same as -D rounds=K: measure every configuration K times, each round in fresh "
     "workers and an order shuffled from the seed (default: auto, 3)"},
    {"output", 'o', 'o', "FILE", RB_OPERAND_FILE, NULL,
     "write the results to FILE (written whole, or not at all); repeatable, each in the format "
     "of its extension: .json .csv .md .html .txt (the table); every path is checked before "
     "anything runs"},
    {"format", 'f', 'f', "FORMAT", RB_OPERAND_WORD, format_choices,
     "standard output's format, or, with a single -o, that file's (whatever its extension); "
     "default: the experiment's `format`, else table"},
    {"plugin-path", 'p', 'p', "DIR", RB_OPERAND_DIR, NULL,
     "search DIR for plugins first (repeatable)"},
    {"dry-run", 0, 'n', NULL, RB_OPERAND_NONE, NULL,
     "validate the experiment and print its configurations; run nothing"},
    {"list", 0, 'L', NULL, RB_OPERAND_NONE, NULL,
     "the plugins found (by pack) and those rejected, with the reason"},
    {"describe", 0, 'd', "PLUGIN", RB_OPERAND_PLUGIN, NULL,
     "a plugin's parameters (type, default, valid values, help), ops and dtypes"},
    {"verbose", 'v', 'v', NULL, RB_OPERAND_NONE, NULL,
     "more messages on standard error (repeatable)"},
    {"quiet", 'q', 'q', NULL, RB_OPERAND_NONE, NULL,
     "no progress on standard error (by default: one line rewritten in place on a terminal, a "
     "plain line every 10 seconds elsewhere)"},
    {"isolation", 0, 'i', "MODE", RB_OPERAND_WORD, isolation_choices,
     "where plugins run; worker: in a worker process, replaced after a crash, hang or lost "
     "device (the default); group: a fresh worker per data group; none: in this process"},
    {"no-isolation", 0, 'I', NULL, RB_OPERAND_NONE, NULL,
     "the same as --isolation none: in this process, for debugging (a crash or a hang then "
     "ends the run)"},
    {"no-probes", 0, 'N', NULL, RB_OPERAND_NONE, NULL,
     "judge results on the random input only, not on probe inputs of exact answer (rows are "
     "then unproven)"},
    {"require-ok", 0, 'O', NULL, RB_OPERAND_NONE, NULL,
     "exit 1 unless every row is ok (an unsupported or skipped row fails the run too), for CI "
     "gates"},
    {"profile", 0, 'P', NULL, RB_OPERAND_NONE, NULL,
     "run each configuration once, with no warm-up and launch timing, inside an NVTX range "
     "named after it: for ncu --nvtx --nvtx-include (docs/profiling.md)"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help; COMMAND --help: a command's"},
    {"version", 0, 'V', NULL, RB_OPERAND_NONE, NULL, "the version and the plugin ABI's"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

static const rb_option_spec report_options[] = {
    {"output", 'o', 'o', "FILE", RB_OPERAND_FILE, NULL,
     "write FILE in the format of its extension (.json .csv .md .html, .txt the table); "
     "repeatable; every path is checked before anything is written; files are written whole "
     "or not at all"},
    {"format", 'f', 'f', "FORMAT", RB_OPERAND_WORD, format_choices,
     "with a single -o, that file's format whatever its extension; without -o, standard "
     "output's (default: the table)"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

static const rb_option_spec dispatch_options[] = {
    {"output", 'o', 'o', "FILE", RB_OPERAND_FILE, NULL,
     "write the header to FILE (whole or not at all; default: standard output)"},
    {"prefix", 0, 'p', "NAME", RB_OPERAND_WORD, NULL,
     "the C identifier every symbol of the header starts with (default: rb_dispatch)"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

static const rb_option_spec compare_options[] = {
    {"threshold", 0, 't', "PCT", RB_OPERAND_WORD, NULL,
     "the smallest change that matters, in percent (default 5)"},
    {"allow-device-change", 0, 'a', NULL, RB_OPERAND_NONE, NULL,
     "compare results from different devices, saying what differs"},
    {"require-all", 0, 'A', NULL, RB_OPERAND_NONE, NULL,
     "fail when a configuration of OLD is missing from NEW"},
    {"ignore", 0, 'i', "PARAM", RB_OPERAND_WORD, NULL,
     "match configurations whatever their value of PARAM (repeatable): an A/B of lanes=16 "
     "against lanes=1; the reports show both values (JSON: OLD's params, and new_params)"},
    {"match", 0, 'm', "config|run", RB_OPERAND_WORD, NULL,
     "what pairs rows: the whole configuration (default), or the run and data alone, "
     "whatever the plugin and parameters"},
    {"energy", 0, 'E', "gate|report", RB_OPERAND_WORD, NULL,
     "whether energy per call found higher beyond the threshold (rows measured with energy = "
     "on, in rounds) fails the exit status as a slower time does: gate (default), or report "
     "it only"},
    {"format", 'f', 'f', "FORMAT", RB_OPERAND_WORD, compare_formats,
     "how the verdicts are written; default: table"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

static const rb_option_spec tune_options[] = {
    {"config", 'c', 'c', "FILE", RB_OPERAND_INI, NULL, "the experiment file (INI)"},
    OPTION_RUN_PATTERN,
    OPTION_SET_KEY,
    {"dry-run", 0, 'n', NULL, RB_OPERAND_NONE, NULL,
     "validate the experiment and list what would be searched: each run's data sets, their "
     "candidates and how each is searched; measure nothing, write nothing"},
    {"output", 'o', 'o', "TUNED.ini", RB_OPERAND_FILE, NULL,
     "the experiment file of the winners (default: tuned.ini)"},
    {"map", 'm', 'm', "WINNERS.json", RB_OPERAND_FILE, NULL,
     "the JSON winner map (default: the -o file's name with .json)"},
    {"plugin-path", 'p', 'p', "DIR", RB_OPERAND_DIR, NULL,
     "search DIR for plugins first (repeatable)"},
    {"quiet", 'q', 'q', NULL, RB_OPERAND_NONE, NULL, "no progress on standard error"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

static const rb_option_spec plot_options[] = {
    {"output", 'o', 'o', "DIR", RB_OPERAND_DIR, NULL,
     "where to write (default: RESULTS without .json, plus -plots)"},
    {"baseline", 0, 'b', "NAME", RB_OPERAND_WORD, NULL,
     "the run, else the plugin, else PACK/PLUGIN, that speedups are against (default: the "
     "first run with a time; for the winner maps, cuda/segmented where it ran, else none)"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

static const rb_option_spec history_options[] = {
    {"experiment", 0, 'x', "PATTERN", RB_OPERAND_WORD, NULL,
     "only the runs of experiments whose name matches the glob PATTERN"},
    {"device", 0, 'e', "TEXT", RB_OPERAND_WORD, NULL,
     "only the runs on a device whose backend and name hold TEXT (any case), e.g. H100"},
    {"plugin", 0, 'p', "PATTERN", RB_OPERAND_WORD, NULL,
     "only the runs (trend, check: the rows) of plugins matching the glob PATTERN"},
    {"since", 0, 's', "DATE", RB_OPERAND_WORD, NULL,
     "only the runs started on DATE (YYYY-MM-DD, UTC) or later"},
    {"until", 0, 'u', "DATE", RB_OPERAND_WORD, NULL, "only the runs started up to DATE included"},
    {"config", 0, 'C', "PATTERN", RB_OPERAND_WORD, NULL,
     "trend: only the configurations whose key (as the trend lists it) matches the glob "
     "PATTERN"},
    {"by", 0, 'b', "date|revision", RB_OPERAND_WORD, NULL,
     "trend and check: the runs' order, by start date (default) or by revision (each "
     "revision where it was first run, then date)"},
    {"run", 0, 'r', "WHICH", RB_OPERAND_WORD, NULL,
     "check: the run judged: latest (default), -N (the run N before the newest) or a run's "
     "id; the runs after it are left out"},
    {"threshold", 0, 't', "PCT", RB_OPERAND_WORD, NULL,
     "check and trend: the smallest step that matters, in percent (default 5)"},
    {"output", 'o', 'o', "FILE", RB_OPERAND_FILE, NULL,
     "trend: write FILE in the format of its extension: .html the trend page (figures of "
     "each configuration's median, and energy where measured, their steps marked), .json, "
     ".csv, .md, .txt the table"},
    {"format", 'f', 'f', "FORMAT", RB_OPERAND_WORD, NULL,
     "table (default), csv, json or md"},
    {"help", 'h', 'h', NULL, RB_OPERAND_NONE, NULL, "this help"},
    {NULL, 0, 0, NULL, 0, NULL, NULL},
};

const rb_command_spec rb_commands[] = {
    {"", "", RB_OPERAND_NONE, "run an experiment (-c FILE), or --list, --describe PLUGIN",
     "Runs every configuration of an experiment file and reports one row for each: ok, "
     "wrong, failed, unsupported or skipped, with the reason.",
     "Plugins are searched in: each --plugin-path, then $REDBENCH_PLUGIN_PATH "
     "(colon-separated), then ./plugins, then " RB_PLUGIN_DIR ".\n"
     "Exit status: 0 every configuration that ran verified, at least one ok (unsupported and "
     "skipped rows aside); 1 some wrong or failed (with --require-ok: some not ok), or the "
     "results could not be written; 2 bad usage, bad experiment file or unknown plugin "
     "(nothing run); 3 nothing was measured: every row unsupported or skipped; 130 "
     "interrupted by SIGINT or SIGTERM (the configuration in progress is abandoned; the "
     "results of what finished are written).",
     run_options},
    {"report", "RESULTS.json", RB_OPERAND_JSON,
     "saved results written again in any format",
     "Writes a saved results file (redbench -c FILE -o RESULTS.json) again, as a run writes "
     "its results: the table, csv, json, md (Markdown) or html (the page with its figures). "
     "The HTML report of a history's run (DB@latest, DB@-N, DB@ID) adds its configurations' "
     "trends over the history: each one's median, and energy where measured, run by run, "
     "the steps marked, linked from its row.",
     NULL, report_options},
    {"compare", "OLD.json NEW.json", RB_OPERAND_JSON, "verdicts per configuration",
     "Matches the configurations of two result files (written with --format json) and says "
     "for each whether NEW is the same, faster, slower or unclear, from the stored samples. "
     "Rows measured in rounds (rounds = K) are judged over them: the median of the rounds' "
     "medians and a hierarchical bootstrap 99% interval of the ratio (new / old; rounds, "
     "then samples within a round). With one round on a side, a Mann-Whitney U test and a "
     "bootstrap 99% interval of the ratio of medians, widened by 2% each way since "
     "run-to-run variation is then unknown. p-values are adjusted for the number of "
     "configurations compared (Holm's method). A change counts when it is significant and "
     "its whole interval lies beyond the threshold, or when it is large (1.5x or more) with "
     "every new sample beyond the old median; the interval decides `same`; anything else "
     "is `unclear`. A configuration timed in another mode or with another cache regime in NEW "
     "keeps its verdict, is marked in the report, and is named in a warning. Where both rows "
     "measured energy (energy = on), their energy per call is judged beside the time by the "
     "same rules, over one figure a round (two rounds or more a side, else unclear; p-values "
     "adjusted over the pairs with energy): same, lower, higher or unclear; a row without "
     "energy says so.",
     "Exit status: 0 nothing got worse; 1 some configuration got slower by more than the "
     "threshold, or its energy higher by more than the threshold (unless --energy report), or "
     "was ok and became wrong, failed or unsupported, or (with --require-all) "
     "is missing from NEW; 2 bad usage, an unreadable file, different devices, or no "
     "configuration in common.",
     compare_options},
    {"tune", "-c FILE", RB_OPERAND_NONE, "search each run's parameters",
     "Searches each run's parameters at each data set, prints what it tried, and writes the "
     "winners as an experiment file and a JSON winner map.",
     NULL, tune_options},
    {"plot", "RESULTS.json", RB_OPERAND_JSON, "figures and the HTML report",
     "Draws, with gnuplot, from a results file (redbench -c FILE --format json): "
     "bandwidth*.svg (GB/s against n, one line per configuration, with the peaks; at a "
     "single n, one bar per configuration, fastest first), time.svg (median time against n; "
     "none at a single n), energy*.svg (J/GB read against n, one per op and dtype, where "
     "rows measured energy), speedup.svg (the baseline's time / each configuration's, "
     "grouped bars), winners-*.svg (for shaped results, the fastest strategy at each rows "
     "x n, with its speedup over the baseline or its GB/s, one per op, dtype, axis and "
     "lengths) and heatmap-*.svg (GB/s over two swept parameters, for runs that sweep "
     "two), each with its gnuplot script (.gp) and a .png where gnuplot can, and report.html, "
     "the HTML report of the same results. Without gnuplot, the figures are drawn as SVG by "
     "redbench itself (a note says so).",
     NULL, plot_options},
    {"dispatch", "MAP.json", RB_OPERAND_JSON, "the crossover map as a C header",
     "Writes a C header an application can choose a strategy from: for each op, dtype, "
     "distribution and number of ranks, the ranges of n (elements per rank) over which one "
     "strategy won, with its time, the best other strategy, the margin (its time / the "
     "winner's - 1) and the confidence (the margin over the two times' noise; above 1 the "
     "rounds tell them apart), and a function PREFIX_find(op, dtype, ranks, n) that returns "
     "the entry for n; from a map with shapes, each entry's rows, axis and lengths too, and "
     "PREFIX_find(op, dtype, ranks, rows, axis, lengths, n), the nearest cell on log scales "
     "of rows and n. Reads a winner map (redbench tune -m MAP.json) or a results file "
     "(redbench -c FILE -o RESULTS.json: the best ok row at each data set, the runner-up the "
     "best row of another plugin).",
     "Exit status: 0 written; 1 a write error; 2 bad usage, or a file that is neither a "
     "winner map nor a results file, or has no winner.",
     dispatch_options},
    {"history", "DB | add DB RESULTS.json... | check DB | trend DB", RB_OPERAND_FILE,
     "a history of runs: list, add, check, trend",
     "A history is an SQLite database of runs (docs/results-schema.md): a run appends to one "
     "with -o FILE.db (or .sqlite), `history add DB RESULTS.json...` adds saved results, one "
     "run each. `history DB` lists the runs (id, start, revision, device, experiment, the "
     "count of each status). `history check DB` judges the newest run against the history "
     "before it, each configuration same, faster, slower or unclear: slower only where the "
     "history with the run has a step to a slower level that the history before it did not "
     "have (a level needs two runs: one slow night is unclear, not a step). `history trend "
     "DB` lists each configuration's median over the runs with the steps found in it (a "
     "robust binary segmentation of the log medians: a step is beyond the threshold and 5 "
     "times the series' own noise), and the steps of its energy per call where measured; "
     "-o PAGE.html draws them. The check judges time alone. Every command that reads "
     "results takes a history's run as DB@latest, DB@-N or DB@ID. A history of an older "
     "schema is upgraded, in one transaction, when it is next written.",
     "Exit status: 0 done (check: nothing got slower); 1 check: some configuration stepped "
     "slower, or was ok and is now wrong, failed or unsupported; or a write error; 2 bad "
     "usage, or a file that is not a history (foreign, damaged, of a newer schema, locked or "
     "read-only to add); nothing was changed.",
     history_options},
    {NULL, NULL, 0, NULL, NULL, NULL, NULL},
};

const rb_command_spec *command_spec(const char *name)
{
    for (const rb_command_spec *c = rb_commands; c->name; c++)
        if (strcmp(c->name, name ? name : "") == 0)
            return c;
    return NULL;
}

rb_getopt command_getopt(const rb_command_spec *cmd)
{
    size_t n = 0;
    for (const rb_option_spec *o = cmd->options; o->help; o++)
        n++;
    rb_getopt g = {xcalloc(n + 1, sizeof *g.longs), xcalloc(2 * n + 2, 1)};
    size_t nl = 0, ns = 0;
    g.shorts[ns++] = ':';
    for (const rb_option_spec *o = cmd->options; o->help; o++) {
        int has_arg = o->argument ? required_argument : no_argument;
        if (o->long_name)
            g.longs[nl++] = (struct option){o->long_name, has_arg, NULL, o->id};
        if (o->short_name) {
            g.shorts[ns++] = (char)o->short_name;
            if (o->argument)
                g.shorts[ns++] = ':';
        }
    }
    return g;
}

void command_getopt_free(rb_getopt *g)
{
    free(g->longs);
    free(g->shorts);
}

const char *command_option_names(const rb_command_spec *cmd)
{
    static char buf[1024];
    size_t used = 0;
    buf[0] = '\0';
    for (const rb_option_spec *o = cmd->options; o->help && used < sizeof buf; o++) {
        if (o->long_name)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s--%s",
                                     used ? ", " : "", o->long_name);
        else
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s-%c", used ? ", " : "",
                                     o->short_name);
    }
    return buf;
}

void option_synopsis(const rb_option_spec *opt, char *buf, size_t len)
{
    const char *arg = opt->argument ? opt->argument : "";
    const char *space = opt->argument ? " " : "";
    if (opt->short_name && opt->long_name)
        snprintf(buf, len, "-%c, --%s%s%s", opt->short_name, opt->long_name, space, arg);
    else if (opt->short_name)
        snprintf(buf, len, "-%c %s", opt->short_name, arg);
    else
        snprintf(buf, len, "    --%s%s%s", opt->long_name, space, arg);
}

/* Writes text wrapped to HELP_WIDTH, each line after the first indented by
 * `indent`; the first continues from column `at`. A newline in the text
 * starts a line. */
static void put_wrapped(FILE *out, const char *text, int indent, int at)
{
    int column = at;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
            p++;
            continue;
        }
        size_t word = strcspn(p, " \n");
        if (column > indent && column + 1 + (int)word > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
        } else if (column > indent) {
            fputc(' ', out);
            column++;
        }
        fwrite(p, 1, word, out);
        column += (int)word;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

static void usage_lines(const rb_command_spec *cmd, FILE *out)
{
    if (!*cmd->name) {
        fputs("Usage: redbench -c FILE [OPTION]...\n"
              "       redbench --list | --describe PLUGIN | --help | --version\n"
              "       redbench COMMAND [ARGUMENT]... [OPTION]...\n",
              out);
        return;
    }
    fprintf(out, "Usage: redbench %s%s%s [OPTION]...\n", cmd->name, *cmd->operands ? " " : "",
            cmd->operands);
}

/* The keys of one section of an experiment file (config/keys.c), under
 * `title`. */
static void keys_help(FILE *out, int section, const char *title)
{
    size_t count;
    const rb_key_spec *rows = keys_of(section, &count);
    fputc('\n', out);
    put_wrapped(out, title, 0, 0);
    for (size_t k = 0; k < count; k++) {
        char *help = key_help(&rows[k]);
        fprintf(out, "  %-*s", HELP_COLUMN - 2, rows[k].name);
        put_wrapped(out, help, HELP_COLUMN, HELP_COLUMN);
        free(help);
    }
}

/* The keys of every section, for the commands that take -D KEY=VALUE. */
static void settings_help(FILE *out)
{
    keys_help(out, RB_SECTION_EXPERIMENT,
              "Experiment keys ([experiment] in the file, or -D KEY=VALUE):");
    keys_help(out, RB_SECTION_DATA,
              "Data keys ([data], or a [run NAME] section for its run; or -D KEY=VALUE; a "
              "comma list is a sweep axis):");
    keys_help(out, RB_SECTION_RUN,
              "Run keys ([run NAME], beside the plugin's parameters: redbench --describe "
              "PLUGIN):");
}

void command_help(const rb_command_spec *cmd, FILE *out)
{
    usage_lines(cmd, out);
    fputc('\n', out);
    put_wrapped(out, cmd->about, 0, 0);
    if (!*cmd->name) {
        fputs("\nCommands (each has its own --help):\n", out);
        for (const rb_command_spec *c = rb_commands + 1; c->name; c++) {
            char head[64];
            snprintf(head, sizeof head, "  %s %s", c->name, c->operands);
            if ((int)strlen(head) + 2 > HELP_COLUMN)
                fprintf(out, "%s\n%*s", head, HELP_COLUMN, "");
            else
                fprintf(out, "%-*s", HELP_COLUMN, head);
            put_wrapped(out, c->summary, HELP_COLUMN, HELP_COLUMN);
        }
    }
    fputs("\nOptions:\n", out);
    for (const rb_option_spec *o = cmd->options; o->help; o++) {
        char head[96];
        option_synopsis(o, head + 2, sizeof head - 2);
        head[0] = head[1] = ' ';
        int width = (int)strlen(head);
        if (width + 2 > HELP_COLUMN) {
            fprintf(out, "%s\n%*s", head, HELP_COLUMN, "");
        } else {
            fprintf(out, "%-*s", HELP_COLUMN, head);
        }
        if (o->choices) {
            char *text = xasprintf("%s (one of: %s)", o->help, o->choices(", "));
            put_wrapped(out, text, HELP_COLUMN, HELP_COLUMN);
            free(text);
        } else {
            put_wrapped(out, o->help, HELP_COLUMN, HELP_COLUMN);
        }
    }
    for (const rb_option_spec *o = cmd->options; o->help; o++)
        if (o->kind == RB_OPERAND_SETTING) {
            settings_help(out);
            break;
        }
    if (cmd->epilog) {
        fputc('\n', out);
        put_wrapped(out, cmd->epilog, 0, 0);
    }
}

/* The words of an option's choices, space-separated, newly allocated. */
static char *choice_words(const rb_option_spec *o)
{
    char *words = xstrdup(o->choices("|"));
    for (char *p = words; *p; p++)
        if (*p == '|')
            *p = ' ';
    return words;
}

/* The bash code that completes an argument or operand of this kind. */
static const char *complete_kind(int kind)
{
    switch (kind) {
    case RB_OPERAND_INI: return "_redbench_files '*.ini'";
    case RB_OPERAND_JSON: return "_redbench_files '*.json'";
    case RB_OPERAND_FILE: return "_redbench_files";
    case RB_OPERAND_DIR: return "_redbench_dirs";
    case RB_OPERAND_PLUGIN: return "_redbench_plugins";
    case RB_OPERAND_SETTING: return "_redbench_settings";
    default: return "COMPREPLY=()";
    }
}

static void completion_for(const rb_command_spec *cmd, FILE *out)
{
    fputs("        case $prev in\n", out);
    for (const rb_option_spec *o = cmd->options; o->help; o++) {
        if (!o->argument)
            continue;
        fputs("        ", out);
        if (o->short_name)
            fprintf(out, "-%c%s", o->short_name, o->long_name ? "|" : "");
        if (o->long_name)
            fprintf(out, "--%s", o->long_name);
        if (o->choices) {
            char *words = choice_words(o);
            fprintf(out, ") COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", words);
            free(words);
        } else {
            fprintf(out, ") %s; return ;;\n", complete_kind(o->kind));
        }
    }
    fputs("        esac\n        if [[ $cur == -* ]]; then\n"
          "            COMPREPLY=($(compgen -W '",
          out);
    const char *sep = "";
    for (const rb_option_spec *o = cmd->options; o->help; o++) {
        if (o->short_name) {
            fprintf(out, "%s-%c", sep, o->short_name);
            sep = " ";
        }
        if (o->long_name) {
            fprintf(out, "%s--%s", sep, o->long_name);
            sep = " ";
        }
    }
    fputs("' -- \"$cur\"))\n", out);
    if (!*cmd->name) {
        fputs("        elif [[ $cword -eq 1 ]]; then\n"
              "            COMPREPLY=($(compgen -W '",
              out);
        for (const rb_command_spec *c = rb_commands + 1; c->name; c++)
            fprintf(out, "%s%s", c == rb_commands + 1 ? "" : " ", c->name);
        fputs("' -- \"$cur\"))\n", out);
    } else if (cmd->operand_kind != RB_OPERAND_NONE) {
        fprintf(out, "        else\n            %s\n", complete_kind(cmd->operand_kind));
    }
    fputs("        fi ;;\n", out);
}

void write_bash_completion(FILE *out)
{
    fputs("# bash completion for redbench. Made from the program's table of commands and\n"
          "# options (src/cli/option_table.c) when it is built: do not edit.\n"
          "_redbench_files() {\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    if [[ -n ${1:-} ]]; then\n"
          "        COMPREPLY=($(compgen -f -X \"!$1\" -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "_redbench_dirs() {\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    COMPREPLY=($(compgen -d -- \"$cur\"))\n"
          "}\n"
          "_redbench_plugins() {\n"
          "    local names\n"
          "    names=$(\"${COMP_WORDS[0]}\" --list 2>/dev/null | awk 'NF > 3 && $NF ~ /\\.so$/ "
          "{print $1}')\n"
          "    COMPREPLY=($(compgen -W \"$names\" -- \"$cur\"))\n"
          "}\n"
          "_redbench_settings() {\n"
          "    compopt -o nospace 2>/dev/null\n"
          "    COMPREPLY=($(compgen -W '",
          out);
    const char *space = "";
    for (int section = RB_SECTION_EXPERIMENT; section <= RB_SECTION_RUN; section++) {
        size_t count;
        const rb_key_spec *rows = keys_of(section, &count);
        for (size_t k = 0; k < count; k++, space = " ")
            fprintf(out, "%s%s=", space, rows[k].name);
    }
    fputs("' -- \"$cur\"))\n"
          "}\n"
          "_redbench() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local cword=$COMP_CWORD command=\"\" i\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        case ${COMP_WORDS[i]} in\n"
          "        ",
          out);
    for (const rb_command_spec *c = rb_commands + 1; c->name; c++)
        fprintf(out, "%s%s", c == rb_commands + 1 ? "" : "|", c->name);
    fputs(") command=${COMP_WORDS[i]}; break ;;\n"
          "        esac\n"
          "    done\n"
          "    case $command in\n",
          out);
    for (const rb_command_spec *c = rb_commands; c->name; c++) {
        fprintf(out, "    %s)\n", *c->name ? c->name : "\"\"");
        completion_for(c, out);
    }
    fputs("    esac\n"
          "}\n"
          "complete -F _redbench redbench\n",
          out);
}

void write_option_list(FILE *out)
{
    for (const rb_command_spec *c = rb_commands; c->name; c++)
        for (const rb_option_spec *o = c->options; o->help; o++) {
            if (o->short_name)
                fprintf(out, "%s\t-%c\t%s\n", *c->name ? c->name : "-", o->short_name,
                        o->argument ? "arg" : "-");
            if (o->long_name)
                fprintf(out, "%s\t--%s\t%s\n", *c->name ? c->name : "-", o->long_name,
                        o->argument ? "arg" : "-");
        }
}

/* Text for roff: a backslash doubled, each - as \-, and a line that would
 * start with . or ' kept from being a request. */
static void put_roff(FILE *out, const char *text)
{
    if (*text == '.' || *text == '\'')
        fputs("\\&", out);
    for (const char *p = text; *p; p++) {
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else if (*p == '\n')
            fputs("\n.br\n", out);
        else
            fputc(*p, out);
    }
}

void write_man_options(FILE *out)
{
    fputs(".SH OPTION SUMMARY\n"
          "Every command and option, as\n"
          ".B redbench \\-\\-help\n"
          "and\n"
          ".B redbench\n"
          ".I COMMAND\n"
          ".B \\-\\-help\n"
          "print them (made from the same table).\n", out);
    for (const rb_command_spec *c = rb_commands; c->name; c++) {
        fputs(".SS \"", out);
        put_roff(out, "redbench");
        if (*c->name) {
            fputc(' ', out);
            put_roff(out, c->name);
        }
        fputs("\"\n.B redbench", out);
        if (*c->name) {
            fputc(' ', out);
            put_roff(out, c->name);
        }
        if (*c->operands) {
            fputc(' ', out);
            put_roff(out, c->operands);
        }
        fputs(" [OPTION]...\n.br\n", out);
        put_roff(out, c->summary);
        fputc('\n', out);
        for (const rb_option_spec *o = c->options; o->help; o++) {
            char synopsis[160];
            option_synopsis(o, synopsis, sizeof synopsis);
            fputs(".TP\n.B ", out);
            put_roff(out, synopsis);
            fputc('\n', out);
            put_roff(out, o->help);
            fputc('\n', out);
        }
    }
}

void write_man_keys(FILE *out, int section)
{
    size_t count;
    const rb_key_spec *rows = keys_of(section, &count);
    for (size_t k = 0; k < count; k++) {
        char *help = key_help(&rows[k]);
        fputs(".TP\n.B ", out);
        put_roff(out, rows[k].name);
        fputc('\n', out);
        put_roff(out, help);
        fputc('\n', out);
        free(help);
    }
}
