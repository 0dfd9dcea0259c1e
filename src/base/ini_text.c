/* src/base/ini_text.c: the one reader of `key = value` text (ini_text.h):
 * it cuts the text into lines, takes section headers and unreadable lines
 * itself, and hands inih the rest. */
#include "base/ini_text.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Whether a line has '=' or ':' before any inline comment (" ;"), the way
 * inih looks for it. */
static int has_separator(const char *line)
{
    for (const char *p = line; *p; p++) {
        if (*p == '=' || *p == ':')
            return 1;
        if (*p == ';' && p > line && is_blank(p[-1]))
            return 0;
    }
    return 0;
}

/* Acts on one line (no newline, trimmed): a section header is taken here, a
 * line that is not `key = value` is reported. Returns 1 when the line should
 * go to inih. */
static int classify_line(rb_ini_text *r, char *line, size_t length)
{
    if (*line == '\0' || *line == ';' || *line == '#')
        return 0;
    if (*line == '[') {
        char *close = strchr(line, ']');
        if (!close) {
            if (r->problem)
                r->problem(r->user, r->line, RB_INI_UNCLOSED, line, length);
            return 0;
        }
        char *after = close + 1;
        while (is_blank(*after))
            after++;
        if (*after != '\0' && *after != ';' && *after != '#') {
            if (r->problem)
                r->problem(r->user, r->line, RB_INI_AFTER_HEADER, after, length);
            return 0;
        }
        *close = '\0';
        if (r->section)
            r->section(r->user, r->line, line + 1);
        return 0;
    }
    if (!has_separator(line)) {
        if (r->problem)
            r->problem(r->user, r->line, RB_INI_NO_SEPARATOR, line, length);
        return 0;
    }
    return 1;
}

/* inih's reader: copies the next line into buf (at most size - 1 bytes); a
 * line that inih is not to read goes to it as an empty line, so that its
 * line count stays ours. */
static char *feed_line(char *buf, int size, void *stream)
{
    rb_ini_text *r = stream;
    if (r->stop || r->pos >= r->len)
        return NULL;

    const char *start = r->text + r->pos;
    const char *newline = memchr(start, '\n', r->len - r->pos);
    size_t len = newline ? (size_t)(newline - start) : r->len - r->pos;
    r->pos += len + (newline ? 1 : 0);
    r->line++;
    if (len > 0 && start[len - 1] == '\r')
        len--;
    if (r->line == 1 && len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
        start += 3; /* a UTF-8 byte order mark */
        len -= 3;
    }

    char *line = xstrndup(start, len);
    int problem = strlen(line) != len ? RB_INI_NUL
                  : len > (size_t)size - 1 ? RB_INI_TOO_LONG
                                            : 0;
    if (problem && r->problem)
        r->problem(r->user, r->line, problem, trim(line), len);
    if (!problem && classify_line(r, trim(line), len))
        snprintf(buf, (size_t)size, "%s", trim(line));
    else
        snprintf(buf, (size_t)size, "\n");
    free(line);
    return buf;
}

static int handle_key(void *user, const char *section, const char *key, const char *value)
{
    rb_ini_text *r = user;
    (void)section; /* taken by classify_line, whole */
    if (r->key && !r->stop)
        r->key(r->user, r->line, key, value);
    return 1;
}

static char *note_size(char *buf, int size, void *stream)
{
    (void)buf;
    *(int *)stream = size;
    return NULL;
}

size_t ini_text_longest(void)
{
    static int size; /* as the library was built, not as its header says */
    if (!size)
        ini_parse_stream(note_size, &size, handle_key, NULL);
    return size > 1 ? (size_t)size - 1 : 0;
}

int ini_text_read(rb_ini_text *r, const char *text, size_t len)
{
    r->text = text;
    r->len = len;
    r->pos = 0;
    r->line = 0;
    r->stop = 0;
    return ini_parse_stream(feed_line, r, handle_key, r);
}

int ini_text_slurp(int fd, size_t max, char **text, size_t *len)
{
    size_t cap = max + 2, used = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        ssize_t got = read(fd, buf + used, cap - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int saved = errno;
            free(buf);
            errno = saved;
            return -1;
        }
        if (got == 0)
            break;
        used += (size_t)got;
        if (used > max) {
            free(buf);
            return 1;
        }
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return 0;
}
