/* src/results/field_value.h: the value of one field of a row, as its getter
 * gives it (results/fields.c) and as a results file gives it back
 * (results/read_fields.c), with whether it is known. */
#ifndef RB_FIELD_VALUE_H
#define RB_FIELD_VALUE_H

#include <stdint.h>

enum rb_value_kind {
    RB_VALUE_UNKNOWN = 0, /* null in JSON, an empty CSV field */
    RB_VALUE_ABSENT,      /* not written at all (bins, for ops other than histogram) */
    RB_VALUE_TEXT,        /* text; NULL as unknown */
    RB_VALUE_UINT,
    RB_VALUE_INT,
    RB_VALUE_NUMBER,      /* a measured number: null in JSON when not finite */
    RB_VALUE_BOOL,
    RB_VALUE_COUNT,       /* a count: JSON writes it always, CSV only when counted */
    RB_VALUE_OBJECT       /* written by the JSON report itself (params, clocks, samples) */
};

typedef struct rb_value {
    int kind;             /* enum rb_value_kind */
    const char *text;
    uint64_t u;           /* UINT, COUNT */
    int64_t i;            /* INT */
    double number;
    int flag;             /* BOOL */
    int counted;          /* COUNT: 0 when nothing was counted */
    char buf[160];        /* where a getter may build text */
} rb_value;

#endif
