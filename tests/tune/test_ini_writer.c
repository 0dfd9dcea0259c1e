/* tests/tune/test_ini_writer.c: base/ini_writer.c, through which the tuned
 * experiment is written: a comment never makes a second line or a
 * section, whatever its text; every line fits the reader's limit; a value
 * that would not read back (a line break, ' ;', white space at an end, ','
 * in a list's word, too long) is refused saying why, and nothing after a
 * refusal is written; what it writes reads back through base/ini_text.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/ini_text.h"
#include "base/ini_writer.h"
#include "base/util.h"

typedef struct capture {
    char *buf;
    size_t len;
    FILE *out;
    rb_ini_writer w;
} capture;

static void start(capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->out = open_memstream(&c->buf, &c->len);
    ini_writer_init(&c->w, c->out);
}

static void stop(capture *c) { fclose(c->out); }

/* What reading the text back gives: sections and keys, one a line. */
typedef struct seen {
    strbuf sb;
    int problems;
} seen;
static void on_section(void *u, int line, const char *name)
{
    (void)line;
    sb_printf(&((seen *)u)->sb, "[%s]\n", name);
}
static void on_key(void *u, int line, const char *key, const char *value)
{
    (void)line;
    sb_printf(&((seen *)u)->sb, "%s=%s\n", key, value);
}
static void on_problem(void *u, int line, int problem, const char *text, size_t length)
{
    (void)line; (void)problem; (void)text; (void)length;
    ((seen *)u)->problems++;
}
static char *read_back(const char *text, int *problems)
{
    seen s = {{0}, 0};
    sb_append(&s.sb, "");
    rb_ini_text r = {.user = &s, .section = on_section, .key = on_key, .problem = on_problem};
    ini_text_read(&r, text, strlen(text));
    *problems = s.problems;
    return s.sb.data;
}

static size_t longest_line(const char *text)
{
    size_t most = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n > most)
            most = n;
        p += n + (p[n] == '\n');
    }
    return most;
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

int main(void)
{
    plan(20);
    size_t longest = ini_text_longest();
    ok(longest >= 80, "the reader's limit is known (%zu)", longest);

    capture c;
    int problems;
    start(&c);
    ini_write_comment(&c.w, "tuned from /tmp/a\n[run evil]\nplugin = serial\r\x1b[2J");
    stop(&c);
    is_str(c.buf, "; tuned from /tmp/a\\n[run evil]\\nplugin = serial\\r\\x1b[2J\n",
           "a comment's line breaks and controls are written as escapes, on one line");
    char *back = read_back(c.buf, &problems);
    is_str(back, "", "... and it reads back as no section and no key");
    free(back);
    free(c.buf);

    char *big = xmalloc(3 * longest + 1);
    for (size_t k = 0; k < 3 * longest; k++)
        big[k] = k % 7 == 6 ? ' ' : 'a' + (char)(k % 26);
    big[3 * longest] = '\0';
    start(&c);
    ini_write_comment(&c.w, big);
    stop(&c);
    ok(longest_line(c.buf) <= longest, "a long comment is cut to lines within the limit (%zu)",
       longest_line(c.buf));
    ok(count_lines(c.buf) >= 3, "... over several lines");
    int all_comments = 1;
    for (const char *p = c.buf; *p; p = strchr(p, '\n') + 1)
        all_comments &= *p == ';';
    ok(all_comments, "... each of them a comment");
    free(c.buf);
    free(big);

    start(&c);
    ini_write_section(&c.w, "run ok-1");
    ini_write_key(&c.w, "mode", "e#f", RB_INI_WORD);
    ini_write_key(&c.w, "hash", "#g", RB_INI_WORD);
    ini_write_key(&c.w, "semi", "x;y", RB_INI_WORD);
    ini_write_key(&c.w, "name", "a, b = c: d", RB_INI_TEXT);
    stop(&c);
    ok(!c.w.failed, "words with '#', ';' without a blank before it, ',' in a text are written");
    back = read_back(c.buf, &problems);
    is_str(back, "[run ok-1]\nmode=e#f\nhash=#g\nsemi=x;y\nname=a, b = c: d\n",
           "... and read back as they were");
    is_int(problems, 0, "... with no line the reader refuses");
    free(back);
    free(c.buf);

    struct { const char *value; int kind; const char *why; } refused[] = {
        {"a\n[run evil]", RB_INI_TEXT, "line break"},
        {"a\rb", RB_INI_TEXT, "line break"},
        {"a\x1b[2Jb", RB_INI_TEXT, "control character"},
        {"a ;b", RB_INI_WORD, "starts a comment"},
        {" lead", RB_INI_TEXT, "white space"},
        {"c,d", RB_INI_WORD, "separates the values of a list"},
        {"", RB_INI_TEXT, "empty"},
    };
    for (size_t k = 0; k < RB_ARRAY_LEN(refused); k++) {
        start(&c);
        int st = ini_write_key(&c.w, "key", refused[k].value, refused[k].kind);
        stop(&c);
        char *shown = printable_text(refused[k].value);
        ok(st == -1 && c.len == 0 && strstr(c.w.error, refused[k].why) != NULL,
           "'%s' is refused, nothing written, saying why (%s)", shown, c.w.error);
        free(shown);
        free(c.buf);
    }

    char *long_value = xmalloc(longest + 1);
    memset(long_value, 'v', longest);
    long_value[longest] = '\0';
    start(&c);
    int st = ini_write_key(&c.w, "key", long_value, RB_INI_TEXT);
    ini_write_comment(&c.w, "after");
    ini_write_section(&c.w, "run after");
    stop(&c);
    char limit[64];
    snprintf(limit, sizeof limit, "at most %zu", longest);
    ok(st == -1 && strstr(c.w.error, limit), "a value too long for the line is refused naming "
       "the limit (%s)", c.w.error);
    is_int((int)c.len, 0, "nothing is written after a refusal");
    free(c.buf);
    free(long_value);

    start(&c);
    st = ini_write_section(&c.w, "run a]\n[run b");
    stop(&c);
    ok(st == -1 && c.len == 0, "a section name with ']' or a line break is refused");
    free(c.buf);
    start(&c);
    st = ini_write_key(&c.w, "a = b\nc", "x", RB_INI_TEXT);
    stop(&c);
    ok(st == -1 && c.len == 0, "a key with '=' or a line break is refused");
    free(c.buf);
    return done();
}
