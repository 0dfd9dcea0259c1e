/* src/base/names.h: the words users type for ops, dtypes, distributions and
 * statuses, and their conversions. */
#ifndef RB_NAMES_H
#define RB_NAMES_H

#include <redbench/plugin.h>

/* Input distributions (the `distribution` data key). */
enum rb_distribution {
    RB_DIST_UNIFORM = 0, /* floats U[0,1); integers U[0,99]; bytes U[0,255] */
    RB_DIST_SIGNED,      /* floats U[-1,1); integers U[-100,100]; bytes U[0,255] */
    RB_DIST_SMALL,       /* whole numbers U[0,15] in any dtype */
    RB_DIST_ONES,        /* every element 1 */
    RB_DIST_FLOAT_BYTES, /* u8 only: the bytes of uniform floats (skewed bins) */
    RB_DIST_COUNT_
};

/* The status of one configuration's row. */
enum rb_row_status {
    RB_ROW_OK = 0,      /* ran and verified */
    RB_ROW_WRONG,       /* result outside tolerance */
    RB_ROW_FAILED,      /* error, crash or timeout */
    RB_ROW_UNSUPPORTED, /* the plugin or device declined */
    RB_ROW_SKIPPED,     /* not run (backend or plugin absent, interrupted) */
    RB_ROW_COUNT_
};

const char *op_name(int op);          /* "sum", ... */
const char *dtype_name(int dtype);    /* "f32", ... */
const char *distribution_name(int d); /* "uniform", ... */
const char *row_status_name(int s);   /* "ok", ... */
const char *probes_name(int p);       /* enum rb_probes: "passed", ... */

/* Return the value, or -1 for an unknown word. */
int op_from_name(const char *word);
int dtype_from_name(const char *word);
int distribution_from_name(const char *word);

/* Comma-separated lists of every valid word, for error messages. */
const char *op_choices(void);
const char *dtype_choices(void);
const char *distribution_choices(void);

/* "sum, min" from a mask of RB_OP_BIT / RB_DTYPE_BIT; a static buffer per call
 * site is not used: the caller frees the result. */
char *op_mask_text(uint32_t mask);
char *dtype_mask_text(uint32_t mask);

#endif
