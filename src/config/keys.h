/* src/config/keys.h: every key of every section of an experiment file,
 * described once (keys.c): its section, name, type, default, limits and
 * help. The [experiment] keys are the rows of config/settings.c's table,
 * reached from here; the [data] keys (the shaped reductions' rows, axis
 * and lengths among them) and the [run NAME] section's own keys are rows
 * of this table; a plugin's parameters become rows of the same form
 * (keys_from_param). The experiment parser (config/experiment.c), the
 * sweep (config/sweep.c), --help, the manual page and the bash completion
 * (cli/option_table.c) read these rows; the experiment files redbench
 * writes (the tuned one, the ranks') write a configuration's [data] keys
 * by their names (config/sweep.c, data_keys_write). */
#ifndef RB_KEYS_H
#define RB_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/plugin.h>

#include "config/settings.h"

/* The section a key is written in. */
enum rb_key_section {
    RB_SECTION_EXPERIMENT, /* [experiment]: rows of config/settings.c */
    RB_SECTION_DATA,       /* [data], or a [run NAME] section for that run */
    RB_SECTION_RUN,        /* [run NAME]: the run's own keys */
    RB_SECTION_PARAM       /* [run NAME]: a parameter of the run's plugin */
};

/* What a key's items are. A [data] or parameter key may hold a comma list
 * of them (a sweep axis). */
enum rb_key_type {
    RB_KEY_SETTING, /* an [experiment] setting: see `setting` */
    RB_KEY_WORD,    /* one word of a list (from_name, choices; or words) */
    RB_KEY_SIZE,    /* a size with K, M, G, T suffixes, from min to max */
    RB_KEY_COUNT,   /* a whole number from min to max */
    RB_KEY_WHOLE,   /* a parameter's whole number from min to max (flags) */
    RB_KEY_BOOL,    /* true or false (also yes/no, on/off, 1/0) */
    RB_KEY_NAME,    /* one name (the run's plugin) */
    RB_KEY_UNKNOWN  /* a parameter of a type the host does not know: nothing
                       is valid (`declared` says which) */
};

/* The [data] keys' limits, from 1: n (2^40 elements), bins, ranks, rows.
 * A results file is held to the same (results/read_fields.c). */
#define RB_DATA_LARGEST_N (UINT64_C(1) << 40)
#define RB_DATA_LARGEST_BINS 256
#define RB_DATA_LARGEST_RANKS 4096
#define RB_DATA_LARGEST_ROWS (UINT64_C(1) << 31)

/* The [data] keys, in the order of the rows (and of a run's axes). */
enum rb_data_key {
    RB_DATA_OP, RB_DATA_DTYPE, RB_DATA_N, RB_DATA_DISTRIBUTION, RB_DATA_BINS,
    RB_DATA_RANKS, RB_DATA_ROWS, RB_DATA_AXIS, RB_DATA_LENGTHS, RB_DATA_COUNT_
};

/* The [run NAME] section's own keys. */
enum rb_run_key { RB_RUN_PLUGIN, RB_RUN_OPTIONAL, RB_RUN_COUNT_ };

typedef struct rb_key_spec {
    int section;                       /* enum rb_key_section */
    const char *name;
    int type;                          /* enum rb_key_type */
    const char *initial;               /* the default as written; NULL: none */
    int64_t min, max;                  /* SIZE, COUNT, WHOLE */
    const char *limits;                /* SIZE, COUNT: the valid values as
                                          messages say them ("1 to 256") */
    int (*from_name)(const char *);    /* WORD: the word's value, or -1 */
    const char *(*choices)(void);      /* WORD: "sum, min, ..." */
    const char *const *words;          /* WORD (a parameter's): NULL-terminated */
    uint32_t flags;                    /* WHOLE: RB_PARAM_POW2 | RB_PARAM_AUTO */
    int range_after_colon;             /* SIZE: a value out of range is said
                                          "KEY = V: out of range", not "KEY =
                                          V is out of range" */
    const char *help;
    const rb_setting_spec *setting;    /* EXPERIMENT: its row in settings.c */
    int declared;                      /* PARAM: the plugin's enum rb_param_type */
} rb_key_spec;

/* The rows of one section: *count gets how many; for the experiment's,
 * one row per setting of config/settings.c (the command-line flags left
 * out). The array is static. */
const rb_key_spec *keys_of(int section, size_t *count);

/* The row of `name` in `section`, or NULL. */
const rb_key_spec *key_find(int section, const char *name);

/* "op, dtype, n, ...": the keys of a section, in order (static). */
const char *key_list(int section);

/* A plugin parameter as a row of the table (section RB_SECTION_PARAM). */
rb_key_spec keys_from_param(const rb_param_spec *param);

/* Converts one item of a parameter's row (WHOLE, WORD of `words`,
 * BOOL). Returns NULL when it is valid (with *text its normalized form,
 * newly allocated), or what is wrong with it ("is out of range"). */
const char *key_item(const rb_key_spec *k, const char *item, int64_t *value, char **text);

/* The valid values of a row, as messages and the help say them. Newly
 * allocated. */
char *key_valid(const rb_key_spec *k);

/* "HELP; valid: VALUES; default: DEFAULT": what --help and the manual
 * page say of a key. Newly allocated. */
char *key_help(const rb_key_spec *k);

#endif
