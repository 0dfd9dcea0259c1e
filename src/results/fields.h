/* src/results/fields.h: the fields of a result row, described once. Each has
 * the name that the JSON report and the CSV header give it and a getter for
 * its value, with whether it is known; the JSON report writes every field in
 * this order, and the CSV report picks its columns from them by name; the
 * results reader (results/read.c) reads each back through its `put`. A new
 * field of a row is one entry here (and a column in the CSV list, if CSV is
 * to show it). */
#ifndef RB_RESULTS_FIELDS_H
#define RB_RESULTS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/json_writer.h"
#include "results/field_value.h"
#include "results/read_fields.h"
#include "results/rows.h"

/* The version of the results document's layout (docs/results-schema.md),
 * written as `schema_version` in results files and tune's winner map. It
 * grows when a member is renamed, removed or changes type; members added
 * leave it as it is. 2: the seed became a string of digits. */
#define RB_RESULTS_SCHEMA_VERSION 2

/* A row, with the results it belongs to (for its devices and experiment). */
typedef struct rb_row_ref {
    const rb_results *res;
    const rb_row *row;
} rb_row_ref;

/* How people read a field (table, Markdown): its text. */
enum rb_field_unit {
    RB_UNIT_TEXT = 0,     /* as it is; "" when unknown */
    RB_UNIT_WORDS,        /* as it is; "-" when empty */
    RB_UNIT_SIZE,         /* 4K, 1M: as sizes are written */
    RB_UNIT_DURATION,     /* 1.25 us */
    RB_UNIT_DECIMAL,      /* one decimal: 512.3 */
    RB_UNIT_RATIO,        /* two significant digits: 0.31, 2.5e-03 */
    RB_UNIT_YES_NO,
    RB_UNIT_COUNT,        /* a whole number: 1000 */
    RB_UNIT_PERCENT       /* a fraction as a percentage, three digits: 0.42% */
};

/* The SHA-256 of a plugin's file, as hex: the one recorded when it was
 * read back from a results file, else its file's now. 0, or -1 when its
 * file cannot be read. */
int plugin_digest(const rb_loaded_plugin *p, char digest[65]);

/* The plugin of row k when no earlier row used it, else NULL: each plugin
 * of a run once, in order of first use. */
const rb_loaded_plugin *row_first_plugin(const rb_results *res, size_t k);

/* Whether people read the unit as a number (right-aligned). */
int field_unit_is_number(int unit);

typedef struct rb_field {
    const char *name;     /* the JSON key and CSV header */
    void (*get)(const rb_row_ref *r, rb_value *v);
    const char *title;    /* its column's title for people; NULL: none */
    int unit;             /* enum rb_field_unit */
    int wide;             /* a 64-bit integer (the seed): JSON writes it as a
                           * string of decimal digits, which no reader rounds */
    /* Read back: the kind of value the file holds (enum rb_value_kind: TEXT,
     * UINT (a whole number, or a string of its digits), INT, NUMBER, BOOL;
     * OBJECT: `put` reads the JSON value itself), and where it goes. A
     * field without `put` is derived from others and not read. `put` gets
     * RB_VALUE_UNKNOWN for null and RB_VALUE_ABSENT when the member is not
     * there; it returns 0, or -1 with `why` filled. */
    int kind;
    rb_fill_fn *put;      /* results/read_fields.c */
    int required;         /* a row without it is not a results row */
    const char *counted;  /* UINT with limits (n, rows, bins, ranks): what it
                           * counts ("rows"), from 1 to `largest` as an
                           * experiment file allows (config/keys.h); NULL:
                           * any whole number */
    uint64_t largest;
} rb_field;

/* Every field of a row, in the JSON report's order. */
extern const rb_field rb_row_fields[];
extern const size_t rb_n_row_fields;

/* The field of that name, or NULL. */
const rb_field *row_field(const char *name);

/* A field's value as people read it (enum rb_field_unit), "-" when it is
 * not known; the caller frees it and escapes it for its format. */
char *field_text(const rb_field *f, const rb_row_ref *r);

/* A configuration's parameters as one JSON object, as results files write
 * them (and tune's winner map): an integer parameter as a number ("auto"
 * stays a word), any other as a string. */
void json_write_params(json_writer *w, const rb_configuration *cfg);

#endif
