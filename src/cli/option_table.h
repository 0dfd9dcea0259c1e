/* src/cli/option_table.h: every command of the command line and every
 * option of each, described once (cli/option_table.c). From it come each
 * command's getopt_long arrays, `redbench --help` and `redbench COMMAND
 * --help` (one usage style for all), and the bash completion script
 * (cli/write_completion.c); tests/cli/test_options_table.sh checks that the
 * manual page names every one of them. */
#ifndef RB_OPTION_TABLE_H
#define RB_OPTION_TABLE_H

#include <getopt.h>
#include <stdio.h>

/* What an option's argument or a command's operand is, for completion. */
enum rb_operand_kind {
    RB_OPERAND_NONE = 0,
    RB_OPERAND_WORD,     /* free text: nothing to complete */
    RB_OPERAND_FILE,     /* any file */
    RB_OPERAND_INI,      /* an experiment file (*.ini) */
    RB_OPERAND_JSON,     /* a results file (*.json) */
    RB_OPERAND_DIR,      /* a folder */
    RB_OPERAND_PLUGIN,   /* a plugin's name */
    RB_OPERAND_SETTING   /* KEY=VALUE: an [experiment] key (config/settings.h) first */
};

typedef struct rb_option_spec {
    const char *long_name;  /* "config"; NULL for a short option only (-D) */
    int short_name;         /* 'c', or 0 for a long option only */
    int id;                 /* what getopt_long returns for it */
    const char *argument;   /* "FILE", or NULL when it takes none */
    int kind;               /* enum rb_operand_kind of the argument */
    /* The words the argument takes, joined by `sep`, or NULL: any. */
    const char *(*choices)(const char *sep);
    const char *help;       /* one sentence or more, wrapped when printed */
} rb_option_spec;

typedef struct rb_command_spec {
    const char *name;       /* "compare"; "" for the run (redbench -c FILE) */
    const char *operands;   /* "OLD.json NEW.json", or "" */
    int operand_kind;       /* enum rb_operand_kind of the operands */
    const char *summary;    /* one line, for the list of commands */
    const char *about;      /* what it does, for COMMAND --help */
    const char *epilog;     /* after the options (exit status...), or NULL */
    const rb_option_spec *options; /* ended by an entry whose help is NULL */
} rb_command_spec;

/* The commands, the run first; ended by an entry whose name is NULL. */
extern const rb_command_spec rb_commands[];

/* The command of this name ("" or NULL: the run); NULL when none. */
const rb_command_spec *command_spec(const char *name);

/* getopt_long's arrays for a command, newly allocated: free them with
 * command_getopt_free. */
typedef struct rb_getopt {
    struct option *longs; /* ended by a zero entry */
    char *shorts;         /* ":c:o:..." */
} rb_getopt;

rb_getopt command_getopt(const rb_command_spec *cmd);
void command_getopt_free(rb_getopt *g);

/* The command's options as they are written, "--config, --run, -D, ...",
 * for the error about an unknown one. Static storage. */
const char *command_option_names(const rb_command_spec *cmd);

/* "-c, --config FILE", "-D KEY=VALUE", "--list": how the option is written. */
void option_synopsis(const rb_option_spec *opt, char *buf, size_t len);

/* The help of a command: its usage line(s), what it does, its options and
 * its epilog. The run's also lists the other commands. */
void command_help(const rb_command_spec *cmd, FILE *out);

/* The bash completion script for redbench. */
void write_bash_completion(FILE *out);

/* Every option of every command, one a line, for the tests: "COMMAND\tOPTION\t
 * arg" (or "-" where it takes no argument), COMMAND "-" for the run and
 * OPTION as it is written ("--config", "-c"). */
void write_option_list(FILE *out);

/* The manual page's list of the keys of one section (enum rb_key_section,
 * config/keys.h: the [experiment] keys from config/settings.c's table, the
 * [data] keys, the [run NAME] section's own keys), roff .TP paragraphs, as
 * --help lists them. */
void write_man_keys(FILE *out, int section);

/* Writes the manual page's OPTION SUMMARY section (roff): each command's
 * usage line and its options with their help, from the table. */
void write_man_options(FILE *out);

#endif
