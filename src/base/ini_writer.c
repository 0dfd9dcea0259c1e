/* src/base/ini_writer.c: the one writer of `key = value` text
 * (ini_writer.h): comments made printable and cut to the reader's limit,
 * headers and keys checked, and each value read back through
 * base/ini_text.c before it is written. */
#include "base/ini_writer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/ini_text.h"
#include "base/util.h"

void ini_writer_init(rb_ini_writer *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->longest = ini_text_longest();
}

static int refuse(rb_ini_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(rb_ini_writer *w, const char *fmt, ...)
{
    if (!w->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->error, sizeof w->error, fmt, ap);
        va_end(ap);
        w->failed = 1;
    }
    return -1;
}

static int is_blank(unsigned char c) { return isspace(c) != 0; }

/* ---- reading one line back ---- */

typedef struct read_back {
    const char *key;
    char *value;          /* what the reader gave for `key`; NULL if nothing */
    int problem;
} read_back;

static void on_key(void *user, int line, const char *key, const char *value)
{
    read_back *rb = user;
    (void)line;
    if (!rb->value && strcmp(key, rb->key) == 0)
        rb->value = xstrdup(value);
}

static void on_problem(void *user, int line, int problem, const char *text, size_t length)
{
    (void)line; (void)text; (void)length;
    ((read_back *)user)->problem = problem;
}

/* What the reader makes of `key = value`: the value it gives, newly
 * allocated, or NULL when it reads no such key. */
static char *read_back_value(const char *key, const char *value)
{
    char *line = xasprintf("%s = %s\n", key, value);
    read_back rb = {.key = key};
    rb_ini_text r = {.user = &rb, .key = on_key, .problem = on_problem};
    ini_text_read(&r, line, strlen(line));
    free(line);
    if (rb.problem) {
        free(rb.value);
        return NULL;
    }
    return rb.value;
}

/* ---- checks ---- */

static int key_ok(const char *key)
{
    static const char allowed[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";
    return *key && strspn(key, allowed) == strlen(key);
}

/* Why value cannot be written, into why; 0 when it can. */
static int value_problem(const rb_ini_writer *w, const char *key, const char *value,
                         enum rb_ini_value_kind kind, char *why, size_t len)
{
    size_t n = strlen(value), line = strlen(key) + 3 + n;
    if (n == 0) {
        snprintf(why, len, "the value is empty (the reader takes no empty value)");
        return -1;
    }
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (*p == '\n' || *p == '\r') {
            snprintf(why, len, "the value holds a line break");
            return -1;
        }
        if (*p < 0x20 || *p == 0x7f) {
            snprintf(why, len, "the value holds a control character");
            return -1;
        }
    }
    if (kind == RB_INI_WORD && strchr(value, ',')) {
        snprintf(why, len, "the value holds ',', which separates the values of a list");
        return -1;
    }
    if (line > w->longest) {
        snprintf(why, len, "the line would be %zu characters long; the reader takes at most %zu",
                 line, w->longest);
        return -1;
    }
    if (is_blank((unsigned char)value[0]) || is_blank((unsigned char)value[n - 1])) {
        snprintf(why, len, "the value starts or ends with white space, which the reader trims");
        return -1;
    }
    char *back = read_back_value(key, value);
    int same = back && strcmp(back, value) == 0;
    if (!same) {
        const char *semi = strchr(value, ';');
        if (semi && (semi == value || is_blank((unsigned char)semi[-1])))
            snprintf(why, len, "the value holds ';' after white space, which starts a comment "
                     "(the experiment reader knows no quoting)");
        else if (back) {
            char *shown = printable_text(back);
            snprintf(why, len, "the value does not read back as written (the reader takes "
                     "'%s'; it knows no quoting)", shown);
            free(shown);
        } else {
            snprintf(why, len, "the line does not read back as `key = value`");
        }
    }
    free(back);
    return same ? 0 : -1;
}

const char *ini_value_problem(const rb_ini_writer *w, const char *key, const char *value,
                              enum rb_ini_value_kind kind)
{
    static char why[512];
    return value_problem(w, key, value, kind, why, sizeof why) == 0 ? NULL : why;
}

/* ---- writing ---- */

int ini_write_comment(rb_ini_writer *w, const char *text)
{
    if (w->failed)
        return -1;
    char *shown = printable_text(text);
    size_t room = w->longest > 2 ? w->longest - 2 : 1; /* after "; " */
    const char *p = shown;
    do {
        size_t n = strlen(p);
        if (n > room) {
            n = room;
            /* not inside a UTF-8 sequence; at a space when one is near */
            while (n > 1 && ((unsigned char)p[n] & 0xc0) == 0x80)
                n--;
            for (size_t s = n; s > room / 2; s--)
                if (p[s] == ' ') {
                    n = s;
                    break;
                }
        }
        fprintf(w->out, ";%s%.*s\n", n ? " " : "", (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
    } while (*p);
    free(shown);
    return 0;
}

int ini_write_blank(rb_ini_writer *w)
{
    if (w->failed)
        return -1;
    fputc('\n', w->out);
    return 0;
}

int ini_write_section(rb_ini_writer *w, const char *name)
{
    if (w->failed)
        return -1;
    size_t n = strlen(name);
    int ok = n > 0 && !is_blank((unsigned char)name[0]) && !is_blank((unsigned char)name[n - 1]);
    for (const unsigned char *p = (const unsigned char *)name; ok && *p; p++)
        ok = *p >= 0x20 && *p < 0x7f && !strchr("[];#", *p);
    if (!ok) {
        char *shown = printable_text(name);
        refuse(w, "[%s]: a section's name is printable ASCII without '[', ']', ';' or '#' and "
               "without white space at either end", shown);
        free(shown);
        return -1;
    }
    if (n + 2 > w->longest)
        return refuse(w, "[%s]: the line would be %zu characters long; the reader takes at most "
                      "%zu", name, n + 2, w->longest);
    fprintf(w->out, "[%s]\n", name);
    return 0;
}

int ini_write_key(rb_ini_writer *w, const char *key, const char *value,
                  enum rb_ini_value_kind kind)
{
    if (w->failed)
        return -1;
    char why[512];
    if (!key_ok(key)) {
        char *shown = printable_text(key);
        refuse(w, "'%s': a key is made of letters, digits, '_', '-' and '.'", shown);
        free(shown);
        return -1;
    }
    if (value_problem(w, key, value, kind, why, sizeof why) != 0) {
        char *shown = printable_text(value);
        refuse(w, "%s = %s: %s", key, shown, why);
        free(shown);
        return -1;
    }
    fprintf(w->out, "%s = %s\n", key, value);
    return 0;
}
