/* src/config/settings.h: the [experiment] settings, described once: one row
 * per key with its name, its kind, its place in rb_experiment, its limits
 * or words, its default and its help, and where a results file carries it.
 * The experiment parser, the results' JSON writer and reader, the HTML
 * report, the tuned experiment `tune` writes, --help, the manual page and
 * the bash completion all walk this table; a new key is one row. */
#ifndef RB_SETTINGS_H
#define RB_SETTINGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/ini_writer.h"
#include "config/experiment.h"

/* What a setting's value is, and how it is written in a file. */
enum rb_setting_kind {
    RB_SETTING_TEXT,    /* any text (char *) */
    RB_SETTING_FORMAT,  /* a word of enum rb_format, kept as written (char *) */
    RB_SETTING_WHOLE,   /* a whole number from min to max (int, long or uint64_t) */
    RB_SETTING_NUMBER,  /* a decimal number that in_range accepts (double) */
    RB_SETTING_WORD,    /* one of n_words words, kept as its index (int) */
    RB_SETTING_COUNT,   /* auto (kept as 0) or a whole number from 1 to max (int or long) */
    RB_SETTING_DEVICES, /* all (NULL) or a comma list of device indices (devices, n_devices) */
    RB_SETTING_FLAG     /* 0 or 1, set by the command line only (int) */
};

/* How the value is stored at its place in rb_experiment. */
enum rb_setting_store { RB_STORE_INT, RB_STORE_LONG, RB_STORE_U64, RB_STORE_DOUBLE,
                        RB_STORE_TEXT, RB_STORE_LIST };

/* Where a results file (report/json.c, read.c, html.c) carries it. */
enum rb_setting_results {
    RB_RESULTS_NONE,  /* not in experiment.settings */
    RB_RESULTS_VALUE, /* as in the file: a number, a word, or "auto" */
    RB_RESULTS_BOOL,  /* true or false (word 1 or 0, or a flag) */
    RB_RESULTS_RUN    /* the run's own count, written from rb_run_info */
};

typedef struct rb_setting_spec {
    const char *name;
    enum rb_setting_kind kind;
    enum rb_setting_store store;
    size_t offset;                /* offsetof(rb_experiment, ...) */
    int64_t min, max;             /* WHOLE; COUNT: max */
    int (*in_range)(double);      /* NUMBER */
    const char *(*word)(int k);   /* WORD: the word of value k, k < n_words */
    int n_words;
    const char *valid_text;       /* the valid values, for messages and the help; */
    const char *(*valid)(void);   /* or made by this; both NULL: made from the
                                     limits or the words */
    const char *initial;          /* the default as written in a file; NULL: none */
    const char *zero_note;        /* a warning when set to 0, or NULL */
    const char *help;
    const char *unit;             /* NUMBER: the unit of its value as reports write
                                     it ("s": seconds; "%": a fraction written as a
                                     percentage); NULL: a bare number */
    enum rb_setting_results results;
    int results_order;            /* its place among the results' settings */
    int if_set;                   /* written to a file only when not at its default */
} rb_setting_spec;

/* Every setting, in the order of the file's keys (the command-line flags
 * last); *count gets how many. */
const rb_setting_spec *settings_table(size_t *count);

/* The setting of that name (a key of the file), or NULL. */
const rb_setting_spec *setting_find(const char *name);
/* The setting stored at offsetof(rb_experiment, ...); NULL if none. */
const rb_setting_spec *setting_at(size_t offset);

/* "name, warmup, ...": the keys of the file, in order. */
const char *setting_key_list(void);

/* Sets the value from its text. 0: set; -1: not of the kind's form; -2: of
 * its form but out of range. Nothing is reported and the value is untouched
 * on failure. */
int setting_parse(const rb_setting_spec *s, const char *text, rb_experiment *exp);
/* What is wrong with `text` for setting_parse's result, as one line without
 * the place: "warmup = x is not a whole number; valid: 0 to 1000000".
 * Newly allocated. */
char *setting_complaint(const rb_setting_spec *s, const char *text, int result);

/* The value as a file writes it, into buf; 0 when the setting has no value
 * to write (unset text, or at its default when the row says if_set). */
int setting_text(const rb_setting_spec *s, const rb_experiment *exp, char *buf, size_t len);

/* Reads and writes the value at its place. */
int64_t setting_whole(const rb_setting_spec *s, const rb_experiment *exp);
void setting_set_whole(const rb_setting_spec *s, rb_experiment *exp, int64_t v);
double *setting_number(const rb_setting_spec *s, rb_experiment *exp);
char **setting_string(const rb_setting_spec *s, rb_experiment *exp);

/* Every setting at its default. */
void settings_defaults(rb_experiment *exp);

/* The results' settings in their order (JSON and HTML): *count gets how
 * many; the array is static. */
const rb_setting_spec *const *settings_in_results(size_t *count);

/* The [experiment] section that sets every key to exp's value, through
 * the INI writer (base/ini_writer.h): `name` (unless NULL) standing for
 * exp->name, `output` left out unless with_output. Read back, it gives the
 * same settings; a refusal is the writer's (w->failed, w->error). */
void settings_write(rb_ini_writer *w, const rb_experiment *exp, const char *name,
                    int with_output);

/* "HELP; valid: VALUES; default: DEFAULT": what --help and the manual page
 * say of a key. Newly allocated. */
char *setting_help(const rb_setting_spec *s);

#endif
