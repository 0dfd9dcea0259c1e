/* src/base/util.c: checked allocation, string building, list splitting and
 * printable text. */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "redbench: out of memory (asked for %zu bytes)\n", size);
    exit(2);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    char *p = xmalloc((size_t)len + 1);
    vsnprintf(p, (size_t)len + 1, fmt, again);
    va_end(again);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

void *grow(void *items_ptr, size_t *count, size_t *cap, size_t size)
{
    char **items = items_ptr;
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *items = xrealloc(*items, *cap * size);
    }
    char *item = *items + *count * size;
    memset(item, 0, size);
    (*count)++;
    return item;
}

char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

size_t split_list(const char *text, char ***words)
{
    size_t count = 0, cap = 0;
    char **out = NULL;
    const char *start = text;
    for (;;) {
        const char *comma = strchr(start, ',');
        size_t len = comma ? (size_t)(comma - start) : strlen(start);
        char *word = xstrndup(start, len);
        char *t = trim(word);
        char **slot = grow(&out, &count, &cap, sizeof *out);
        *slot = xstrdup(t);
        free(word);
        if (!comma)
            break;
        start = comma + 1;
    }
    *words = out;
    return count;
}

void free_list(char **words, size_t count)
{
    for (size_t k = 0; k < count; k++)
        free(words[k]);
    free(words);
}

void sb_append(strbuf *sb, const char *text)
{
    size_t n = strlen(text);
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 64;
        while (sb->len + n + 1 > cap)
            cap *= 2;
        sb->data = xrealloc(sb->data, cap);
        sb->cap = cap;
    }
    memcpy(sb->data + sb->len, text, n + 1);
    sb->len += n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *tmp = xvasprintf(fmt, ap);
    va_end(ap);
    sb_append(sb, tmp);
    free(tmp);
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

char *join_words(const char *const *words, size_t count, const char *sep)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (size_t k = 0; k < count; k++) {
        if (k)
            sb_append(&sb, sep);
        sb_append(&sb, words[k]);
    }
    return sb.data;
}

size_t utf8_length(const unsigned char *p)
{
    unsigned c = p[0];
    size_t len;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t k = 1; k < len; k++) {
        if ((p[k] & 0xc0) != 0x80)
            return 0; /* also stops at the terminating NUL */
        cp = (cp << 6) | (p[k] & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* Whether the UTF-8 sequence of `seq` bytes at p is a direction control:
 * U+061C (D8 9C), U+200E and U+200F (E2 80 8E, 8F), U+202A-U+202E (E2 80
 * AA-AE), U+2066-U+2069 (E2 81 A6-A9). */
static int direction_control(const unsigned char *p, size_t seq)
{
    if (seq == 2)
        return p[0] == 0xd8 && p[1] == 0x9c;
    if (seq != 3 || p[0] != 0xe2)
        return 0;
    if (p[1] == 0x80)
        return p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae);
    return p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9;
}

char *printable_text(const char *text)
{
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    size_t len = strlen((const char *)p);
    char *out = xmalloc(4 * len + 1); /* each byte at most \xNN */
    size_t n = 0;
    while (*p) {
        unsigned c = *p;
        size_t seq = c >= 0x80 ? utf8_length(p) : 0;
        /* U+0080..U+009F, the C1 controls, are C2 80..C2 9F in UTF-8; a
         * direction control is escaped byte by byte too. */
        if ((seq == 2 && c == 0xc2 && p[1] < 0xa0) || direction_control(p, seq))
            seq = 0;
        if (seq > 0) {
            memcpy(out + n, p, seq);
            n += seq;
            p += seq;
        } else if (c >= 0x20 && c != 0x7f && c < 0x80) {
            out[n++] = (char)c;
            p++;
        } else {
            const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
            if (named) {
                memcpy(out + n, named, 2);
                n += 2;
            } else {
                static const char hex[] = "0123456789abcdef";
                out[n++] = '\\';
                out[n++] = 'x';
                out[n++] = hex[c >> 4];
                out[n++] = hex[c & 15];
            }
            p++;
        }
    }
    out[n] = '\0';
    return out;
}

const char *signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"},
        {SIGXFSZ, "SIGXFSZ"}, {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGALRM, "SIGALRM"},
        {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
    };
    static char other[32];
    for (size_t k = 0; k < RB_ARRAY_LEN(names); k++)
        if (names[k].sig == sig)
            return names[k].name;
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}

/* Whether the code point of the UTF-8 sequence at p (of len bytes) is one
 * that XML 1.0 does not allow or Unicode keeps out of text: the
 * noncharacters U+FDD0..U+FDEF and U+xFFFE, U+xFFFF of every plane. */
static int markup_unfit(const unsigned char *p, size_t len)
{
    unsigned cp = len == 2 ? p[0] & 0x1fu : len == 3 ? p[0] & 0x0fu : p[0] & 0x07u;
    for (size_t k = 1; k < len; k++)
        cp = cp << 6 | (p[k] & 0x3fu);
    return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

char *markup_text(const char *text)
{
    char *shown = printable_text(text);
    /* In place: U+FFFD takes three bytes, a noncharacter three or four. */
    unsigned char *to = (unsigned char *)shown;
    for (const unsigned char *s = to; *s;) {
        size_t len = *s >= 0x80 ? utf8_length(s) : 1;
        if (*s >= 0x80 && (len < 3 || !markup_unfit(s, len))) {
            len = len ? len : 1; /* printable_text leaves only valid sequences */
            memmove(to, s, len);
            to += len;
        } else if (*s >= 0x80) {
            memcpy(to, "\xef\xbf\xbd", 3); /* U+FFFD, the replacement character */
            to += 3;
        } else {
            *to++ = *s;
        }
        s += len;
    }
    *to = '\0';
    return shown;
}

void put_markup(FILE *out, const char *text)
{
    char *shown = markup_text(text);
    for (const char *s = shown; *s;) {
        size_t plain = strcspn(s, "&<>\""); /* written as they are, at once */
        fwrite(s, 1, plain, out);
        s += plain;
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: continue; /* the end */
        }
        s++;
    }
    free(shown);
}

double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int read_full(int fd, void *data, size_t len)
{
    char *p = data;
    while (len > 0) {
        ssize_t got = read(fd, p, len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

int write_full(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        /* send() on a socket, so that a peer that is gone is an error and
         * not SIGPIPE; write() on anything else */
        ssize_t done = send(fd, p, len, MSG_NOSIGNAL);
        if (done < 0 && errno == ENOTSOCK)
            done = write(fd, p, len);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return -1;
        p += done;
        len -= (size_t)done;
    }
    return 0;
}
