/* src/cli/options.h: the command line of a run (-c FILE, --list, ...), and
 * the usage errors of every command. */
#ifndef RB_OPTIONS_H
#define RB_OPTIONS_H

#include <stddef.h>

#include "config/experiment.h"

enum rb_command {
    RB_CMD_RUN = 0,   /* -c FILE */
    RB_CMD_DRY_RUN,   /* --dry-run -c FILE */
    RB_CMD_LIST,      /* --list */
    RB_CMD_DESCRIBE,  /* --describe PLUGIN */
    RB_CMD_HELP,
    RB_CMD_VERSION
};

typedef struct rb_options {
    int command;
    const char *config;      /* -c */
    char **outputs;          /* -o, in order */
    size_t n_outputs;
    const char *format;      /* --format */
    char **runs;             /* -r PATTERN: the runs kept */
    size_t n_runs;
    rb_override *overrides;  /* -D KEY=VALUE and --device N, in order */
    size_t n_overrides;
    const char *describe;    /* --describe */
    char **plugin_paths;     /* --plugin-path, in order */
    size_t n_plugin_paths;
    int verbosity;           /* -v raises, -q lowers */
    int quiet;
    int isolation;           /* --isolation MODE, --no-isolation: enum
                                rb_isolation_mode (runner.h) */
    int profile;             /* --profile: each configuration once, no
                                warm-up, launch timing (for ncu) */
    int no_probes;           /* --no-probes: rows judged on the random
                                input only (unproven) */
    int require_ok;          /* --require-ok: any row not ok exits 1 */
    int role;                /* what this process is, from its environment:
                                enum rb_role (procs/role.h), set by main */
} rb_options;

/* The exit status of a run that measured nothing: every row unsupported
 * or skipped (0 is every row that ran verified; 1 wrong or failed; 2 bad
 * usage, nothing run; 130 interrupted). */
#define RB_EXIT_NOTHING_MEASURED 3

/* Parses argv. Returns 0, or 2 after printing what was wrong and a hint. */
int options_parse(int argc, char **argv, rb_options *opt);
void options_free(rb_options *opt);
void options_usage(void *stream);

/* -D KEY=VALUE (`named` NULL), or an option that sets one key (`named`:
 * --device N sets device, --rounds K rounds), appended to the list as the
 * experiment file's loader takes it (experiment_load_overridden). Returns 0,
 * or 2 after a usage error of `command` (NULL: the run; "tune"...). */
int parse_override(const char *command, const char *named, const char *arg,
                   rb_override **overrides, size_t *count);
void overrides_free(rb_override *overrides, size_t count);

/* The one way every command says that its command line is wrong:
 * "redbench[ COMMAND]: error: WHAT" and where help is, on standard error.
 * `command` is NULL for the run (-c FILE) and "tune", "compare", "plot"...
 * for the others. Returns 2, the exit status of bad usage. */
int usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A threshold in percent, as --threshold takes it: "5" or "5%" -> 0.05, of
 * at most 1000%; 0 only where allow_zero. Returns 0, or -1 when invalid. */
int parse_percent(const char *text, int allow_zero, double *out);

#endif
