/* src/base/json_reader.h: a small JSON reader. It parses a whole document
 * (RFC 8259) into a tree of values, which the caller looks up by key or
 * index and frees with json_free. Strings are decoded to UTF-8 (\uXXXX
 * escapes and surrogate pairs included); numbers keep their source text, so
 * that integers beyond 2^53 read back exactly. Each value records the line
 * it starts on, for error messages about the document's content.
 *
 * The tree is compact, since results files can hold a million rows: the
 * document's text is kept and strings and numbers are decoded in place in
 * it (no allocation per value), and each array's or object's members lie
 * in one block of an arena the root owns. A value takes 32 bytes, a member
 * name 8 more. Files are read with a bound (JSON_MAX_FILE_BYTES). One
 * array can be streamed instead (json_parse_each): a results file's rows
 * are read one at a time, never all in the tree.
 *
 *     json_value *doc = json_read_file("results.json");
 *     if (!doc) return 2;              // the error was printed with file:line
 *     const json_value *rows = json_get(doc, "results");
 *     for (size_t k = 0; k < json_count(rows); k++) {
 *         const json_value *row = json_at(rows, k);
 *         double ns = json_number(json_get(row, "median_ns"), NAN);
 *     }
 *     json_free(doc);
 */
#ifndef RB_JSON_READER_H
#define RB_JSON_READER_H

#include <stddef.h>
#include <stdint.h>

typedef enum json_type {
    JSON_NULL = 0,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_type;

/* Which members a value has depends on its type (they share storage). */
typedef struct json_value {
    json_type type;
    int line;                     /* 1-based line of the value's first character */
    union {
        double number;            /* JSON_NUMBER: the value (nearest double) */
        char **keys;              /* JSON_OBJECT: member names, parallel to items */
    };
    union {
        char *text;               /* JSON_STRING: decoded, NUL-terminated;
                                     JSON_NUMBER: the number as written */
        struct json_value *items; /* JSON_ARRAY: elements; JSON_OBJECT: member values */
    };
    union {
        size_t text_len;          /* bytes in text (a string may hold "\u0000") */
        size_t count;             /* elements or members */
        int boolean;              /* JSON_BOOL: 0 or 1 */
    };
} json_value;

/* Where and why a parse failed. */
typedef struct json_error {
    int line, column;         /* 1-based */
    char message[160];
} json_error;

/* Parses `len` bytes of `text` as one JSON document (white space around it
 * is allowed, anything else after it is an error). Returns the root, or NULL
 * and fills *err. Nesting deeper than JSON_MAX_DEPTH is an error. */
#define JSON_MAX_DEPTH 256
json_value *json_parse(const char *text, size_t len, json_error *err);

/* Streaming one large array (a results file's rows): json_parse_each
 * parses as json_parse does, to the same errors, but the elements of the
 * root object's member `key`, when it is an array, are not kept in the
 * tree: each is handed to `each` as soon as it is parsed, with its index,
 * and freed after the call (the text it came from is given back to the
 * system too). `each` returns 0 for the next, nonzero for no more (the
 * rest is still parsed, for its errors). The tree returned holds the
 * root's other members, and `key` as an empty array on its line; a
 * second member named `key` is kept whole (and refused, as any name
 * given twice). A root that is not an object comes back whole. */
typedef int json_each_fn(void *user, size_t index, const json_value *element);
json_value *json_parse_each(const char *text, size_t len, const char *key, json_each_fn *each,
                            void *user, json_error *err);

/* The largest file json_read_file reads: 1 GiB. */
#define JSON_MAX_FILE_BYTES ((size_t)1 << 30)

/* Reads and parses a file. On failure prints "PATH:LINE: error: ..." (or
 * why the file could not be read) and returns NULL. A regular file or a
 * pipe is read, up to JSON_MAX_FILE_BYTES (a larger one is an error naming
 * the file and the limit); anything else (a device such as /dev/zero, a
 * folder) is refused; a named pipe no one writes to reads as empty, it is
 * not waited for. */
json_value *json_read_file(const char *path);
/* The same with another limit (tests). */
json_value *json_read_file_max(const char *path, size_t max_bytes);
/* json_read_file streaming the root's member `key` (json_parse_each). */
json_value *json_read_file_each(const char *path, const char *key, json_each_fn *each,
                                void *user);

/* Reads a redbench results file (redbench -c FILE --format json): a JSON
 * object whose "tool" is "redbench" with a "results" array. Anything else,
 * another tool's JSON included, is an error naming the file and saying what
 * was expected. Returns the document, or NULL after printing why. */
json_value *json_read_results(const char *path);
/* The same check on a document already read; 0, or -1 after printing why. */
int json_check_results(const json_value *doc, const char *path);

/* Frees a document (a root returned by json_parse or json_read_file). */
void json_free(json_value *root);

/* Look-ups. Each accepts NULL and a value of the wrong type, and then
 * returns NULL (or 0, or the fallback), so that chains need no checks. */
const json_value *json_get(const json_value *object, const char *key); /* first member named key */
const json_value *json_at(const json_value *array, size_t index);
size_t json_count(const json_value *array_or_object);
const char *json_key_at(const json_value *object, size_t index);
const char *json_string(const json_value *v);           /* a string's text, else NULL */
double json_number(const json_value *v, double fallback); /* a number, else fallback */
int json_is_null(const json_value *v);                  /* 1 for a null value (not for NULL) */
/* 1 and sets *out for a number written as a non-negative integer that fits. */
int json_uint64(const json_value *v, uint64_t *out);
int json_int64(const json_value *v, int64_t *out);

const char *json_type_name(json_type type); /* "null", "boolean", "number", ... */

#endif
