/* src/base/json_writer.h: a small streaming JSON writer. It keeps the comma and
 * indentation state of the open objects and arrays, escapes strings (control
 * characters as \uXXXX, invalid UTF-8 replaced by U+FFFD) and writes doubles
 * in their shortest form that reads back to the same value; NaN and
 * infinities are written as null.
 *
 *     json_writer w;
 *     jw_init(&w, stdout, 2);
 *     jw_begin_object(&w);
 *     jw_key(&w, "n"); jw_uint(&w, 1024);
 *     jw_end_object(&w);
 *     return jw_finish(&w);
 */
#ifndef RB_JSON_WRITER_H
#define RB_JSON_WRITER_H

#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

typedef struct json_writer {
    FILE *out;
    int indent;              /* spaces per level; 0 writes everything on one line */
    int depth;               /* open containers */
    int after_key;           /* a key was written; its value comes next */
    int error;               /* misuse (unbalanced, too deep) or a write error */
    struct {
        char close;          /* '}' or ']' */
        int compact;         /* members on one line */
        long members;
    } stack[JW_MAX_DEPTH];
} json_writer;

void jw_init(json_writer *w, FILE *out, int indent);

void jw_begin_object(json_writer *w);
void jw_end_object(json_writer *w);
void jw_begin_array(json_writer *w);
/* An array whose elements are written on one line (for long number lists). */
void jw_begin_array_compact(json_writer *w);
void jw_end_array(json_writer *w);

/* The name of the next member of the open object. */
void jw_key(json_writer *w, const char *key);

void jw_string(json_writer *w, const char *s); /* NULL writes null */
void jw_int(json_writer *w, int64_t v);
void jw_uint(json_writer *w, uint64_t v);
void jw_double(json_writer *w, double v);      /* NaN, inf: null */
void jw_bool(json_writer *w, int v);
void jw_null(json_writer *w);

/* Ends the document with a newline. Returns 0, or -1 if the document was not
 * balanced or a write failed. */
int jw_finish(json_writer *w);

/* The shortest "%.{15,16,17}g" text of a finite double that reads back to
 * the same value (the JSON number form; also used for CSV). `len` >= 32. */
void json_format_double(double v, char *buf, unsigned len);

#endif
