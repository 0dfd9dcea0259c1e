/* core/json_reader.c: the JSON reader (see json_reader.h): a recursive
 * descent parser into a tree of json_value, and the look-ups on that tree. */
#include "json_reader.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"

typedef struct parser {
    const char *p, *end;
    const char *line_start;
    int line;
    int depth;
    json_error *err;
    int failed;
} parser;

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

static void put_utf8(strbuf *sb, unsigned cp)
{
    char b[5] = {0};
    if (cp < 0x80) {
        b[0] = (char)cp;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f));
    } else {
        b[0] = (char)(0xf0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[3] = (char)(0x80 | (cp & 0x3f));
    }
    if (cp == 0) { /* keep an embedded NUL: sb_append stops at it */
        if (sb->len + 2 > sb->cap) {
            sb->cap = (sb->cap + 2) * 2;
            sb->data = xrealloc(sb->data, sb->cap);
        }
        sb->data[sb->len++] = '\0';
        sb->data[sb->len] = '\0';
        return;
    }
    sb_append(sb, b);
}

/* After `\`: one escape sequence. */
static int parse_escape(parser *ps, strbuf *sb)
{
    char c = *ps->p++;
    switch (c) {
    case '"': sb_append(sb, "\""); return 0;
    case '\\': sb_append(sb, "\\"); return 0;
    case '/': sb_append(sb, "/"); return 0;
    case 'b': sb_append(sb, "\b"); return 0;
    case 'f': sb_append(sb, "\f"); return 0;
    case 'n': sb_append(sb, "\n"); return 0;
    case 'r': sb_append(sb, "\r"); return 0;
    case 't': sb_append(sb, "\t"); return 0;
    case 'u': break;
    default:
        ps->p--;
        fail(ps, "unknown escape; valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
        return -1;
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
    put_utf8(sb, cp);
    return 0;
}

/* At the opening quote. The result is newly allocated. */
static char *parse_string_text(parser *ps, size_t *len)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    ps->p++;
    while (ps->p < ps->end) {
        const char *run = ps->p;
        while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\' &&
               (unsigned char)*ps->p >= 0x20)
            ps->p++;
        if (ps->p > run) {
            char *part = xstrndup(run, (size_t)(ps->p - run));
            sb_append(&sb, part);
            free(part);
        }
        if (ps->p >= ps->end)
            break;
        char c = *ps->p;
        if (c == '"') {
            ps->p++;
            *len = sb.len;
            return sb.data;
        }
        if (c == '\\') {
            ps->p++;
            if (ps->p >= ps->end)
                break;
            if (parse_escape(ps, &sb) != 0) {
                sb_free(&sb);
                return NULL;
            }
            continue;
        }
        fail(ps, "a control character (0x%02x) inside a string; write it as \\u%04x",
             (unsigned char)c, (unsigned char)c);
        sb_free(&sb);
        return NULL;
    }
    fail(ps, "a string is not closed before the end of the document");
    sb_free(&sb);
    return NULL;
}

static int parse_number(parser *ps, json_value *out)
{
    const char *start = ps->p;
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
    if (q < ps->end && *q == '.') {
        q++;
        if (q >= ps->end || *q < '0' || *q > '9') {
            ps->p = q;
            fail(ps, "a number needs digits after '.'");
            return -1;
        }
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= ps->end || *q < '0' || *q > '9') {
            ps->p = q;
            fail(ps, "a number needs digits in its exponent");
            return -1;
        }
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    out->type = JSON_NUMBER;
    out->text = xstrndup(start, (size_t)(q - start));
    out->text_len = (size_t)(q - start);
    out->number = strtod(out->text, NULL); /* overflow gives +-HUGE_VAL */
    ps->p = q;
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

static int parse_array(parser *ps, json_value *out)
{
    size_t cap = 0;
    out->type = JSON_ARRAY;
    if (enter(ps) != 0)
        return -1;
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        ps->depth--;
        return 0;
    }
    for (;;) {
        json_value *item = grow(&out->items, &out->count, &cap, sizeof *item);
        if (parse_value(ps, item) != 0)
            return -1;
        skip_space(ps);
        char here[16];
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_space(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            ps->depth--;
            return 0;
        }
        fail(ps, "expected ',' or ']' after an array element, found %s",
             describe_here(ps, here, sizeof here));
        return -1;
    }
}

static int parse_object(parser *ps, json_value *out)
{
    size_t cap = 0, key_count = 0, key_cap = 0;
    out->type = JSON_OBJECT;
    if (enter(ps) != 0)
        return -1;
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        ps->depth--;
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
        char **slot = grow(&out->keys, &key_count, &key_cap, sizeof *slot);
        *slot = key;
        json_value *item = grow(&out->items, &out->count, &cap, sizeof *item);
        skip_space(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
            fail(ps, "expected ':' after member name \"%s\", found %s", key,
                 describe_here(ps, here, sizeof here));
            return -1;
        }
        ps->p++;
        skip_space(ps);
        if (parse_value(ps, item) != 0)
            return -1;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_space(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            ps->depth--;
            return 0;
        }
        fail(ps, "expected ',' or '}' after member \"%s\", found %s", key,
             describe_here(ps, here, sizeof here));
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

static void free_children(json_value *v)
{
    for (size_t k = 0; k < v->count; k++) {
        if (v->items)
            free_children(&v->items[k]);
        if (v->keys)
            free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
}

void json_free(json_value *root)
{
    if (!root)
        return;
    free_children(root);
    free(root);
}

json_value *json_parse(const char *text, size_t len, json_error *err)
{
    parser ps = {.p = text, .end = text + len, .line_start = text, .line = 1, .err = err};
    if (err)
        memset(err, 0, sizeof *err);
    json_value *root = xcalloc(1, sizeof *root);
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte order mark */
        ps.p += 3;
    skip_space(&ps);
    if (parse_value(&ps, root) == 0) {
        skip_space(&ps);
        if (ps.p < ps.end) {
            char here[16];
            fail(&ps, "unexpected %s after the document's value",
                 describe_here(&ps, here, sizeof here));
        }
    }
    if (ps.failed) {
        json_free(root);
        return NULL;
    }
    return root;
}

json_value *json_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_at(path, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    strbuf sb = {0};
    char chunk[65536];
    size_t got;
    size_t total = 0;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (total + got + 1 > sb.cap) {
            sb.cap = (total + got + 1) * 2;
            sb.data = xrealloc(sb.data, sb.cap);
        }
        memcpy(sb.data + total, chunk, got);
        total += got;
    }
    int read_error = ferror(f);
    fclose(f);
    if (read_error) {
        diag_at(path, 0, "cannot read: %s", strerror(errno));
        free(sb.data);
        return NULL;
    }
    json_error err;
    json_value *root = json_parse(sb.data ? sb.data : "", total, &err);
    free(sb.data);
    if (!root)
        diag_at(path, err.line, "column %d: %s (not valid JSON)", err.column, err.message);
    return root;
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
