/* src/base/json_reader.c: the JSON reader (see json_reader.h): a recursive
 * descent parser into a tree of json_value, the streamed reading of one
 * large array, the bounded reading of files and the look-ups on the tree.
 *
 * The parser works in place in its own copy of the text: a string is
 * decoded over its source (never longer than it) and ends with a NUL
 * written over its closing quote; a number is moved one byte back, over
 * the delimiter before it, so that a NUL fits after it. The members of an
 * array or object are gathered on a stack while they are parsed and moved
 * into one block of the document's arena when it closes.
 *
 * A streamed array's elements are parsed one at a time into an arena of
 * their own, which is emptied after each is handed on; the pages of text
 * behind the parser are then given back to the system (madvise), so that
 * neither the tree nor the text of a large array stays resident. */
#include "base/json_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/util.h"

/* The arena: blocks of memory freed all at once with the document. */
typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    double data[]; /* aligned for any value */
} chunk;

#define CHUNK_MIN 4096
#define CHUNK_MAX (1u << 20)

/* The root is the first member, so a root's address is its document's. */
typedef struct json_doc {
    json_value root;
    chunk *chunks;   /* the first is the one being filled */
    char *source;    /* the text, parsed in place */
} json_doc;

typedef struct parser {
    char *p, *end;
    const char *line_start;
    int line;
    int depth;
    json_error *err;
    int failed;
    json_doc *doc;
    json_value *stack; /* members of the open arrays and objects */
    size_t top, cap;
    char **keys;       /* names of the open objects' members */
    size_t key_top, key_cap;
    /* The root's member streamed (json_parse_each), NULL when none. */
    const char *each_key;
    json_each_fn *each;
    void *each_user;
    int each_done;       /* that member was met: a second one is kept whole
                            (and refused as given twice) */
    char *given_back;    /* the text before this is given back to the system */
} parser;

static void *arena_alloc(json_doc *doc, size_t bytes)
{
    bytes = (bytes + 7) & ~(size_t)7;
    chunk *c = doc->chunks;
    if (c && c->size - c->used >= bytes) {
        void *at = (char *)c->data + c->used;
        c->used += bytes;
        return at;
    }
    if (bytes > CHUNK_MAX / 4) { /* a block of its own, behind the one being filled */
        chunk *own = xmalloc(sizeof *own + bytes);
        own->used = own->size = bytes;
        own->next = c ? c->next : NULL;
        if (c)
            c->next = own;
        else
            doc->chunks = own;
        return own->data;
    }
    size_t size = c ? c->size * 2 : CHUNK_MIN;
    size = size > CHUNK_MAX ? CHUNK_MAX : size;
    size = size < bytes ? bytes : size;
    chunk *fresh = xmalloc(sizeof *fresh + size);
    fresh->size = size;
    fresh->used = bytes;
    fresh->next = c;
    doc->chunks = fresh;
    return fresh->data;
}

/* Empties the arena for reuse: its first block is kept, the others freed. */
static void arena_reset(json_doc *doc)
{
    chunk *keep = doc->chunks;
    if (!keep)
        return;
    for (chunk *c = keep->next, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    keep->next = NULL;
    keep->used = 0;
}

static void fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = 1;
    if (!ps->err)
        return;
    ps->err->line = ps->line;
    ps->err->column = (int)(ps->p - ps->line_start) + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err->message, sizeof ps->err->message, fmt, ap);
    va_end(ap);
}

static void skip_space(parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        ps->p++;
    }
}

/* What is at the cursor, for messages. */
static const char *describe_here(const parser *ps, char *buf, size_t len)
{
    if (ps->p >= ps->end)
        return "the end of the document";
    unsigned char c = (unsigned char)*ps->p;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", c);
    return buf;
}

/* A member name for a message: printable, at most 40 bytes of it. */
static char *name_for_message(const char *key)
{
    char *text = printable_text(key);
    if (strlen(text) > 40)
        strcpy(text + 37, "...");
    return text;
}

static int parse_value(parser *ps, json_value *out);

static int literal(parser *ps, const char *word)
{
    size_t len = strlen(word);
    if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len) != 0) {
        fail(ps, "expected a value (object, array, string, number, true, false or null)");
        return -1;
    }
    ps->p += len;
    return 0;
}

static int hex4(parser *ps, unsigned *out)
{
    if (ps->end - ps->p < 4) {
        fail(ps, "\\u needs four hex digits");
        return -1;
    }
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = ps->p[k];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else {
            fail(ps, "\\u needs four hex digits");
            return -1;
        }
    }
    ps->p += 4;
    *out = v;
    return 0;
}

/* Writes code point cp at *w as UTF-8 (1 to 4 bytes). */
static void put_utf8(char **w, unsigned cp)
{
    char *b = *w;
    if (cp < 0x80) {
        *b++ = (char)cp;
    } else if (cp < 0x800) {
        *b++ = (char)(0xc0 | (cp >> 6));
        *b++ = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *b++ = (char)(0xe0 | (cp >> 12));
        *b++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *b++ = (char)(0x80 | (cp & 0x3f));
    } else {
        *b++ = (char)(0xf0 | (cp >> 18));
        *b++ = (char)(0x80 | ((cp >> 12) & 0x3f));
        *b++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *b++ = (char)(0x80 | (cp & 0x3f));
    }
    *w = b;
}

/* After `\`: one escape sequence, decoded at *w (behind the cursor: an
 * escape is never shorter than what it stands for). */
static int parse_escape(parser *ps, char **w)
{
    char c = *ps->p++;
    char simple = 0;
    switch (c) {
    case '"': simple = '"'; break;
    case '\\': simple = '\\'; break;
    case '/': simple = '/'; break;
    case 'b': simple = '\b'; break;
    case 'f': simple = '\f'; break;
    case 'n': simple = '\n'; break;
    case 'r': simple = '\r'; break;
    case 't': simple = '\t'; break;
    case 'u': break;
    default:
        ps->p--;
        fail(ps, "unknown escape; valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
        return -1;
    }
    if (simple) {
        *(*w)++ = simple;
        return 0;
    }
    unsigned cp;
    if (hex4(ps, &cp) != 0)
        return -1;
    if (cp >= 0xdc00 && cp <= 0xdfff) {
        fail(ps, "a low surrogate \\u%04x without a high one before it", cp);
        return -1;
    }
    if (cp >= 0xd800 && cp <= 0xdbff) {
        unsigned low;
        if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u') {
            fail(ps, "a high surrogate \\u%04x must be followed by a low one", cp);
            return -1;
        }
        ps->p += 2;
        if (hex4(ps, &low) != 0)
            return -1;
        if (low < 0xdc00 || low > 0xdfff) {
            fail(ps, "a high surrogate \\u%04x must be followed by a low one", cp);
            return -1;
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    }
    put_utf8(w, cp);
    return 0;
}

/* At the opening quote: the string decoded in place; NULL on an error. */
static char *parse_string_text(parser *ps, size_t *len)
{
    char *start = ++ps->p;
    char *w = start;
    while (ps->p < ps->end) {
        char *run = ps->p;
        while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
               (unsigned char)*ps->p >= 0x20)
            ps->p++;
        if (w != run)
            memmove(w, run, (size_t)(ps->p - run));
        w += ps->p - run;
        if (ps->p >= ps->end)
            break;
        char c = *ps->p;
        if (c == '"') {
            ps->p++;
            *w = '\0'; /* over the closing quote at the latest */
            *len = (size_t)(w - start);
            return start;
        }
        if (c == '\\') {
            ps->p++;
            if (ps->p >= ps->end)
                break;
            if (parse_escape(ps, &w) != 0)
                return NULL;
            continue;
        }
        fail(ps, "a control character (0x%02x) inside a string; write it as \\u%04x",
             (unsigned char)c, (unsigned char)c);
        return NULL;
    }
    fail(ps, "a string is not closed before the end of the document");
    return NULL;
}

/* The digits of a number's fraction or exponent at q, one at least (`where`
 * names the part for the error); returns the end of the digits, or NULL
 * after failing. */
static const char *number_digits(parser *ps, const char *q, const char *where)
{
    if (q >= ps->end || *q < '0' || *q > '9') {
        ps->p = (char *)q;
        fail(ps, "a number needs digits %s", where);
        return NULL;
    }
    while (q < ps->end && *q >= '0' && *q <= '9')
        q++;
    return q;
}

static int parse_number(parser *ps, json_value *out)
{
    char *start = ps->p;
    const char *q = ps->p;
    if (q < ps->end && *q == '-')
        q++;
    if (q < ps->end && *q == '0') {
        q++;
    } else if (q < ps->end && *q >= '1' && *q <= '9') {
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    } else {
        fail(ps, "a number needs digits");
        return -1;
    }
    if (q < ps->end && *q == '.' && !(q = number_digits(ps, q + 1, "after '.'")))
        return -1;
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-'))
            q++;
        if (!(q = number_digits(ps, q, "in its exponent")))
            return -1;
    }
    size_t len = (size_t)(q - start);
    /* One byte back, over what came before it (read already), and a NUL
     * over its own last byte. The text has a spare byte before it. */
    memmove(start - 1, start, len);
    start[len - 1] = '\0';
    out->type = JSON_NUMBER;
    out->text = start - 1;
    out->text_len = len;
    out->number = strtod(out->text, NULL); /* overflow gives +-HUGE_VAL */
    ps->p = (char *)q;
    return 0;
}

static int enter(parser *ps)
{
    if (++ps->depth > JSON_MAX_DEPTH) {
        fail(ps, "nested deeper than %d levels", JSON_MAX_DEPTH);
        return -1;
    }
    ps->p++;
    skip_space(ps);
    return 0;
}

static void push_value(parser *ps, const json_value *v)
{
    if (ps->top == ps->cap) {
        ps->cap = ps->cap ? ps->cap * 2 : 64;
        ps->stack = xrealloc(ps->stack, ps->cap * sizeof *ps->stack);
    }
    ps->stack[ps->top++] = *v;
}

static void push_key(parser *ps, char *key)
{
    if (ps->key_top == ps->key_cap) {
        ps->key_cap = ps->key_cap ? ps->key_cap * 2 : 64;
        ps->keys = xrealloc(ps->keys, ps->key_cap * sizeof *ps->keys);
    }
    ps->keys[ps->key_top++] = key;
}

/* For finding a member name given twice: names sorted, then by place. */
typedef struct key_place {
    const char *key;
    size_t at;
} key_place;

static int key_place_order(const void *a, const void *b)
{
    const key_place *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

/* The open object's members from `base` (keys from key_base): a name given
 * twice is an error at the second's line. Readers disagree on which of two
 * counts (the first, the last), so no reader of redbench takes either.
 * Few members are compared pairwise, more sorted: O(m log m). */
static int check_duplicate_keys(parser *ps, size_t base, size_t key_base)
{
    size_t count = ps->top - base, first = 0, second = 0;
    char **keys = ps->keys + key_base;
    int found = 0;
    if (count < 2)
        return 0;
    if (count <= 16) {
        for (size_t j = 1; j < count && !found; j++)
            for (size_t i = 0; i < j && !found; i++)
                if (strcmp(keys[i], keys[j]) == 0) {
                    first = i;
                    second = j;
                    found = 1;
                }
    } else {
        key_place *sorted = xmalloc(count * sizeof *sorted);
        for (size_t k = 0; k < count; k++)
            sorted[k] = (key_place){keys[k], k};
        qsort(sorted, count, sizeof *sorted, key_place_order);
        for (size_t k = 1; k < count; k++)
            if (strcmp(sorted[k - 1].key, sorted[k].key) == 0 &&
                (!found || sorted[k].at < second)) {
                first = sorted[k - 1].at;
                second = sorted[k].at;
                found = 1;
            }
        free(sorted);
    }
    if (!found)
        return 0;
    char *name = name_for_message(keys[second]);
    int first_line = ps->stack[base + first].line;
    ps->line = ps->stack[base + second].line;
    ps->line_start = ps->p; /* the column is not known: the line is */
    fail(ps, "the member \"%s\" is given twice in one object (first at line %d); give each "
             "name once", name, first_line);
    if (ps->err)
        ps->err->column = 0; /* valid JSON, refused: no column to point at */
    free(name);
    return -1;
}

/* Moves the members from `base` up off the stack into the arena. */
static void close_container(parser *ps, json_value *out, size_t base, size_t key_base)
{
    out->count = ps->top - base;
    out->items = NULL;
    if (out->count) {
        out->items = arena_alloc(ps->doc, out->count * sizeof *out->items);
        memcpy(out->items, ps->stack + base, out->count * sizeof *out->items);
    }
    ps->top = base;
    if (out->type == JSON_OBJECT) {
        out->keys = NULL;
        if (out->count) {
            out->keys = arena_alloc(ps->doc, out->count * sizeof *out->keys);
            memcpy(out->keys, ps->keys + key_base, out->count * sizeof *out->keys);
        }
        ps->key_top = key_base;
    }
    ps->p++;
    ps->depth--;
}

static int parse_array(parser *ps, json_value *out)
{
    size_t base = ps->top;
    out->type = JSON_ARRAY;
    if (enter(ps) != 0)
        return -1;
    if (ps->p < ps->end && *ps->p == ']') {
        close_container(ps, out, base, 0);
        return 0;
    }
    for (;;) {
        json_value item;
        memset(&item, 0, sizeof item);
        if (parse_value(ps, &item) != 0)
            return -1;
        push_value(ps, &item);
        skip_space(ps);
        char here[16];
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_space(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            close_container(ps, out, base, 0);
            return 0;
        }
        fail(ps, "expected ',' or ']' after an array element, found %s",
             describe_here(ps, here, sizeof here));
        return -1;
    }
}

/* Gives the whole pages of text behind the parser, from ps->given_back,
 * back to the system, a megabyte or more at a time: what was parsed from
 * them has been handed on and freed, and the parser does not look back. */
#define GIVE_BACK_MIN ((uintptr_t)1 << 20)
static void give_back(parser *ps)
{
#ifdef MADV_DONTNEED
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)ps->given_back + page - 1) & ~(page - 1);
    uintptr_t to = (uintptr_t)ps->p & ~(page - 1);
    if (to >= from + GIVE_BACK_MIN && madvise((void *)from, to - from, MADV_DONTNEED) == 0)
        ps->given_back = (char *)to;
#else
    (void)ps;
#endif
}

/* At the '[' of the root's streamed member: each element parsed into an
 * arena of its own, handed to ps->each (until it asks for no more), and
 * freed; *out becomes an empty array. The errors are parse_array's. */
static int parse_streamed(parser *ps, json_value *out)
{
    out->type = JSON_ARRAY;
    ps->each_done = 1;
    if (enter(ps) != 0)
        return -1;
    json_doc *doc = ps->doc, scratch;
    memset(&scratch, 0, sizeof scratch);
    ps->doc = &scratch;
    ps->given_back = ps->p; /* what comes before is the root's */
    int status = 0;
    int empty = ps->p < ps->end && *ps->p == ']';
    for (size_t index = 0; !empty; index++) {
        json_value item;
        memset(&item, 0, sizeof item);
        if (parse_value(ps, &item) != 0) {
            status = -1;
            break;
        }
        if (ps->each && ps->each(ps->each_user, index, &item) != 0)
            ps->each = NULL;
        arena_reset(&scratch);
        give_back(ps);
        skip_space(ps);
        char here[16];
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_space(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']')
            break;
        fail(ps, "expected ',' or ']' after an array element, found %s",
             describe_here(ps, here, sizeof here));
        status = -1;
        break;
    }
    for (chunk *c = scratch.chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    ps->doc = doc;
    if (status != 0)
        return -1;
    out->count = 0;
    out->items = NULL;
    ps->p++;
    ps->depth--;
    return 0;
}

/* Whether the member named `key` whose value begins at the cursor is the
 * root's member to stream. */
static int streamed_here(const parser *ps, const char *key)
{
    return ps->each_key && !ps->each_done && ps->depth == 1 && ps->p < ps->end &&
           *ps->p == '[' && strcmp(key, ps->each_key) == 0;
}

static int parse_object(parser *ps, json_value *out)
{
    size_t base = ps->top, key_base = ps->key_top;
    out->type = JSON_OBJECT;
    if (enter(ps) != 0)
        return -1;
    if (ps->p < ps->end && *ps->p == '}') {
        close_container(ps, out, base, key_base);
        return 0;
    }
    for (;;) {
        char here[16];
        if (ps->p >= ps->end || *ps->p != '"') {
            fail(ps, "expected a member name in double quotes, found %s",
                 describe_here(ps, here, sizeof here));
            return -1;
        }
        size_t len;
        char *key = parse_string_text(ps, &len);
        if (!key)
            return -1;
        skip_space(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
            char *name = name_for_message(key);
            fail(ps, "expected ':' after member name \"%s\", found %s", name,
                 describe_here(ps, here, sizeof here));
            free(name);
            return -1;
        }
        ps->p++;
        skip_space(ps);
        json_value item;
        memset(&item, 0, sizeof item);
        item.line = ps->line;
        if ((streamed_here(ps, key) ? parse_streamed(ps, &item) : parse_value(ps, &item)) != 0)
            return -1;
        push_key(ps, key);
        push_value(ps, &item);
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_space(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            if (check_duplicate_keys(ps, base, key_base) != 0)
                return -1;
            close_container(ps, out, base, key_base);
            return 0;
        }
        char *name = name_for_message(key);
        fail(ps, "expected ',' or '}' after member \"%s\", found %s", name,
             describe_here(ps, here, sizeof here));
        free(name);
        return -1;
    }
}

static int parse_value(parser *ps, json_value *out)
{
    out->line = ps->line;
    if (ps->p >= ps->end) {
        fail(ps, "expected a value, found the end of the document");
        return -1;
    }
    switch (*ps->p) {
    case '{': return parse_object(ps, out);
    case '[': return parse_array(ps, out);
    case '"':
        out->type = JSON_STRING;
        out->text = parse_string_text(ps, &out->text_len);
        return out->text ? 0 : -1;
    case 't':
        out->type = JSON_BOOL;
        out->boolean = 1;
        return literal(ps, "true");
    case 'f':
        out->type = JSON_BOOL;
        out->boolean = 0;
        return literal(ps, "false");
    case 'n':
        out->type = JSON_NULL;
        return literal(ps, "null");
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
            return parse_number(ps, out);
        char here[16];
        fail(ps, "expected a value (object, array, string, number, true, false or null), "
                 "found %s", describe_here(ps, here, sizeof here));
        return -1;
    }
}

void json_free(json_value *root)
{
    if (!root)
        return;
    json_doc *doc = (json_doc *)root;
    for (chunk *c = doc->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(doc->source);
    free(doc);
}

/* What json_parse_each streams: the root's member `key`, to `each`. */
typedef struct each_spec {
    const char *key;
    json_each_fn *each;
    void *user;
} each_spec;

/* Parses `len` bytes at buffer + 1, where `buffer` (len + 2 bytes) becomes
 * the document's; streams what `streamed` names (NULL: nothing). */
static json_value *parse_owned(char *buffer, size_t len, const each_spec *streamed,
                               json_error *err)
{
    char *text = buffer + 1;
    text[len] = '\0';
    json_doc *doc = xcalloc(1, sizeof *doc);
    doc->source = buffer;
    parser ps = {.p = text, .end = text + len, .line_start = text, .line = 1, .err = err,
                 .doc = doc};
    if (streamed) {
        ps.each_key = streamed->key;
        ps.each = streamed->each;
        ps.each_user = streamed->user;
    }
    if (err)
        memset(err, 0, sizeof *err);
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte order mark */
        ps.p += 3;
    skip_space(&ps);
    if (parse_value(&ps, &doc->root) == 0) {
        skip_space(&ps);
        if (ps.p < ps.end) {
            char here[16];
            fail(&ps, "unexpected %s after the document's value",
                 describe_here(&ps, here, sizeof here));
        }
    }
    free(ps.stack);
    free(ps.keys);
    if (ps.failed) {
        json_free(&doc->root);
        return NULL;
    }
    return &doc->root;
}

json_value *json_parse(const char *text, size_t len, json_error *err)
{
    char *buffer = xmalloc(len + 2);
    memcpy(buffer + 1, text, len);
    return parse_owned(buffer, len, NULL, err);
}

json_value *json_parse_each(const char *text, size_t len, const char *key, json_each_fn *each,
                            void *user, json_error *err)
{
    char *buffer = xmalloc(len + 2);
    memcpy(buffer + 1, text, len);
    each_spec streamed = {key, each, user};
    return parse_owned(buffer, len, &streamed, err);
}

/* "1 GiB", "64 KiB", "100 bytes". */
static void limit_text(size_t bytes, char *buf, size_t len)
{
    if (bytes >= ((size_t)1 << 30) && bytes % ((size_t)1 << 30) == 0)
        snprintf(buf, len, "%zu GiB", bytes >> 30);
    else if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%zu KiB", bytes >> 10);
    else
        snprintf(buf, len, "%zu bytes", bytes);
}

static void too_large(const char *path, size_t max_bytes)
{
    char limit[32];
    limit_text(max_bytes, limit, sizeof limit);
    diag_at(path, 0, "larger than %s, the most a JSON file is read to (nothing was read)",
            limit);
}

/* json_read_file_max, streaming what `streamed` names (NULL: nothing). */
static json_value *read_file(const char *path, size_t max_bytes, const each_spec *streamed)
{
    /* O_NONBLOCK: a named pipe without a writer is not waited for. */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        diag_at(path, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        diag_at(path, 0, "cannot read: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
        diag_at(path, 0, "cannot read: %s, not a regular file; give a JSON file",
                S_ISDIR(st.st_mode) ? "a folder" : S_ISCHR(st.st_mode) ? "a character device"
                                                 : S_ISBLK(st.st_mode) ? "a block device"
                                                                       : "a special file");
        close(fd);
        return NULL;
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes) {
        too_large(path, max_bytes);
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    /* One byte before the text (parse_owned) and one after (its NUL). */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 3 : 65536;
    char *buffer = xmalloc(cap);
    size_t total = 0;
    int read_errno = 0;
    for (;;) {
        if (total + 2 == cap) {
            if (total >= max_bytes + 1)
                break;
            cap = cap * 2 > max_bytes + 3 ? max_bytes + 3 : cap * 2;
            buffer = xrealloc(buffer, cap);
        }
        ssize_t got = read(fd, buffer + 1 + total, cap - 2 - total);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            read_errno = errno;
        if (got <= 0)
            break;
        total += (size_t)got;
    }
    close(fd);
    if (read_errno) {
        diag_at(path, 0, "cannot read: %s", strerror(read_errno));
        free(buffer);
        return NULL;
    }
    if (total > max_bytes) {
        too_large(path, max_bytes);
        free(buffer);
        return NULL;
    }
    json_error err;
    json_value *root = parse_owned(buffer, total, streamed, &err);
    if (!root && err.column == 0)
        diag_at(path, err.line, "%s", err.message);
    else if (!root)
        diag_at(path, err.line, "column %d: %s (not valid JSON)", err.column, err.message);
    return root;
}

json_value *json_read_file_max(const char *path, size_t max_bytes)
{
    return read_file(path, max_bytes, NULL);
}

json_value *json_read_file(const char *path)
{
    return read_file(path, JSON_MAX_FILE_BYTES, NULL);
}

json_value *json_read_file_each(const char *path, const char *key, json_each_fn *each,
                                void *user)
{
    each_spec streamed = {key, each, user};
    return read_file(path, JSON_MAX_FILE_BYTES, &streamed);
}

int json_check_results(const json_value *doc, const char *path)
{
    const char *tool = json_string(json_get(doc, "tool"));
    const json_value *results = json_get(doc, "results");
    if (tool && strcmp(tool, "redbench") == 0 && results && results->type == JSON_ARRAY)
        return 0;
    char why[160];
    if (!doc || doc->type != JSON_OBJECT)
        snprintf(why, sizeof why, "it is %s", doc ? json_type_name(doc->type) : "empty");
    else if (!tool) {
        snprintf(why, sizeof why, "it has no \"tool\"%s",
                 results && results->type == JSON_ARRAY ? "" : " and no \"results\" array");
    } else if (strcmp(tool, "redbench") != 0) {
        char *said = printable_text(tool);
        snprintf(why, sizeof why, "its tool is \"%.60s\"", said);
        free(said);
    } else
        snprintf(why, sizeof why, "it has no \"results\" array");
    diag_at(path, doc ? doc->line : 0,
            "not a redbench results file: expected a JSON object with \"tool\": \"redbench\" "
            "and a \"results\" array (redbench -c FILE --format json writes one); %s",
            why);
    return -1;
}

json_value *json_read_results(const char *path)
{
    json_value *doc = json_read_file(path);
    if (doc && json_check_results(doc, path) != 0) {
        json_free(doc);
        return NULL;
    }
    return doc;
}

const json_value *json_get(const json_value *object, const char *key)
{
    if (!object || object->type != JSON_OBJECT || !key)
        return NULL;
    for (size_t k = 0; k < object->count; k++)
        if (strcmp(object->keys[k], key) == 0)
            return &object->items[k];
    return NULL;
}

const json_value *json_at(const json_value *array, size_t index)
{
    if (!array || (array->type != JSON_ARRAY && array->type != JSON_OBJECT) ||
        index >= array->count)
        return NULL;
    return &array->items[index];
}

size_t json_count(const json_value *v)
{
    return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->count : 0;
}

const char *json_key_at(const json_value *object, size_t index)
{
    if (!object || object->type != JSON_OBJECT || index >= object->count)
        return NULL;
    return object->keys[index];
}

const char *json_string(const json_value *v)
{
    return v && v->type == JSON_STRING ? v->text : NULL;
}

double json_number(const json_value *v, double fallback)
{
    return v && v->type == JSON_NUMBER ? v->number : fallback;
}

int json_is_null(const json_value *v) { return v && v->type == JSON_NULL; }

/* Digits only (after an optional '-'): an integer as written. */
static int integer_text(const json_value *v)
{
    if (!v || v->type != JSON_NUMBER || !v->text)
        return 0;
    return strpbrk(v->text, ".eE") == NULL;
}

int json_uint64(const json_value *v, uint64_t *out)
{
    if (!integer_text(v) || v->text[0] == '-')
        return 0;
    errno = 0;
    unsigned long long x = strtoull(v->text, NULL, 10);
    if (errno == ERANGE)
        return 0;
    *out = (uint64_t)x;
    return 1;
}

int json_int64(const json_value *v, int64_t *out)
{
    if (!integer_text(v))
        return 0;
    errno = 0;
    long long x = strtoll(v->text, NULL, 10);
    if (errno == ERANGE)
        return 0;
    *out = (int64_t)x;
    return 1;
}

const char *json_type_name(json_type type)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return (unsigned)type < RB_ARRAY_LEN(names) ? names[type] : "unknown";
}
