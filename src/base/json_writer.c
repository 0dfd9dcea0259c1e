/* src/base/json_writer.c: the streaming JSON writer: separators, indentation,
 * string escaping and number text. */
#include "base/json_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void jw_init(json_writer *w, FILE *out, int indent)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->indent = indent;
}

static void newline_and_indent(json_writer *w, int depth)
{
    if (w->indent <= 0)
        return;
    fputc('\n', w->out);
    for (int k = 0; k < depth * w->indent; k++)
        fputc(' ', w->out);
}

/* Writes what goes before a value or a key: the comma after the previous
 * member and the line break, unless the value follows its key. */
static void before_item(json_writer *w, int is_key)
{
    if (w->after_key) {
        if (is_key)
            w->error = 1; /* two keys in a row */
        w->after_key = 0;
        return;
    }
    if (w->depth == 0)
        return;
    int top = w->depth - 1;
    if ((w->stack[top].close == '}') != is_key)
        w->error = 1; /* a value without a key in an object, or a key in an array */
    if (w->stack[top].members > 0)
        fputc(',', w->out);
    if (w->stack[top].compact) {
        if (w->stack[top].members > 0)
            fputc(' ', w->out);
    } else {
        newline_and_indent(w, w->depth);
    }
    w->stack[top].members++;
}

static void open_container(json_writer *w, char open, char close, int compact)
{
    before_item(w, 0);
    if (w->depth == JW_MAX_DEPTH) {
        w->error = 1;
        return;
    }
    int inherited = w->depth > 0 && w->stack[w->depth - 1].compact;
    w->stack[w->depth].close = close;
    w->stack[w->depth].compact = compact || inherited;
    w->stack[w->depth].members = 0;
    w->depth++;
    fputc(open, w->out);
}

static void close_container(json_writer *w, char close)
{
    if (w->depth == 0 || w->stack[w->depth - 1].close != close || w->after_key) {
        w->error = 1;
        return;
    }
    w->depth--;
    if (w->stack[w->depth].members > 0 && !w->stack[w->depth].compact)
        newline_and_indent(w, w->depth);
    fputc(close, w->out);
}

void jw_begin_object(json_writer *w) { open_container(w, '{', '}', 0); }
void jw_end_object(json_writer *w) { close_container(w, '}'); }
void jw_begin_array(json_writer *w) { open_container(w, '[', ']', 0); }
void jw_begin_array_compact(json_writer *w) { open_container(w, '[', ']', 1); }
void jw_end_array(json_writer *w) { close_container(w, ']'); }

static void write_escaped(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', out);
    while (*s) {
        unsigned char c = *s;
        switch (c) {
        case '"': fputs("\\\"", out); s++; continue;
        case '\\': fputs("\\\\", out); s++; continue;
        case '\b': fputs("\\b", out); s++; continue;
        case '\f': fputs("\\f", out); s++; continue;
        case '\n': fputs("\\n", out); s++; continue;
        case '\r': fputs("\\r", out); s++; continue;
        case '\t': fputs("\\t", out); s++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c);
            s++;
            continue;
        }
        size_t len = utf8_length(s);
        if (len == 0) {
            fputs("\\ufffd", out);
            s++;
            continue;
        }
        fwrite(s, 1, len, out);
        s += len;
    }
    fputc('"', out);
}

void jw_key(json_writer *w, const char *key)
{
    before_item(w, 1);
    write_escaped(w->out, key);
    fputs(w->indent > 0 ? ": " : ":", w->out);
    w->after_key = 1;
}

void jw_string(json_writer *w, const char *s)
{
    if (!s) {
        jw_null(w);
        return;
    }
    before_item(w, 0);
    write_escaped(w->out, s);
}

void jw_int(json_writer *w, int64_t v)
{
    before_item(w, 0);
    fprintf(w->out, "%" PRId64, v);
}

void jw_uint(json_writer *w, uint64_t v)
{
    before_item(w, 0);
    fprintf(w->out, "%" PRIu64, v);
}

void json_format_double(double v, char *buf, unsigned len)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void jw_double(json_writer *w, double v)
{
    if (!isfinite(v)) {
        jw_null(w);
        return;
    }
    char text[40];
    json_format_double(v, text, sizeof text);
    before_item(w, 0);
    fputs(text, w->out);
}

void jw_bool(json_writer *w, int v)
{
    before_item(w, 0);
    fputs(v ? "true" : "false", w->out);
}

void jw_null(json_writer *w)
{
    before_item(w, 0);
    fputs("null", w->out);
}

int jw_finish(json_writer *w)
{
    if (w->depth != 0 || w->after_key)
        w->error = 1;
    fputc('\n', w->out);
    if (fflush(w->out) != 0 || ferror(w->out))
        w->error = 1;
    return w->error ? -1 : 0;
}
