/* src/base/util.h: small helpers shared by the core: checked allocation, string
 * building and splitting. Nothing here knows about experiments or plugins. */
#ifndef RB_UTIL_H
#define RB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define RB_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation that exits with a message when memory runs out. */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grows *items (of *count elements of `size` bytes, *cap allocated) by one
 * zeroed element and returns it. */
void *grow(void *items_ptr, size_t *count, size_t *cap, size_t size);

/* Returns s without leading and trailing white space, in place. */
char *trim(char *s);

/* Splits `text` at commas into trimmed, newly allocated words. Empty words
 * are kept (as ""), so that callers can report them. Returns the count. */
size_t split_list(const char *text, char ***words);
void free_list(char **words, size_t count);

/* A growing string. */
typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;
void sb_append(strbuf *sb, const char *text);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(strbuf *sb);

/* Joins words with a separator into a new string ("a, b, c"). */
char *join_words(const char *const *words, size_t count, const char *sep);

/* A new copy of text (NULL: "") that is safe to show on a terminal: control
 * bytes (below 0x20, DEL, the C1 controls 0x80-0x9f whether raw or written
 * in UTF-8, so ESC and CSI sequences too), Unicode's direction controls
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, which show the
 * text after them in another order than it is written: a name could pass
 * for another) and bytes that are not valid UTF-8 are written as escapes:
 * \n, \r, \t, else \xNN (one per byte: U+202E is \xe2\x80\xae). Other
 * valid UTF-8 text is kept as it is. For text read from files or given by
 * plugins, before it reaches a terminal or a report. */
char *printable_text(const char *text);

/* The length of the valid UTF-8 sequence at p: 1 for ASCII (NUL too), 2 to
 * 4 for a sequence with no overlong form, no surrogate and at most
 * U+10FFFF, 0 for anything else (a truncated sequence, a stray byte). */
size_t utf8_length(const unsigned char *p);

/* A new copy of text fit for XML 1.0 (and HTML), before its escapes:
 * printable_text's, with the noncharacters (U+FDD0..U+FDEF, U+FFFE,
 * U+FFFF and their like in every plane, which XML forbids or keeps out of
 * text) replaced by U+FFFD. */
char *markup_text(const char *text);

/* Writes text for HTML or XML, in an element or in a double-quoted
 * attribute: made fit first (markup_text: neither allows control bytes
 * or noncharacters), then & < > " escaped. */
void put_markup(FILE *out, const char *text);

/* Seconds on the monotonic clock. */
double monotonic_seconds(void);

/* Reads or writes all of `len` bytes on a pipe or socket (a signal's
 * interruption is retried; a socket's closed peer gives -1, not SIGPIPE).
 * Returns 0, or -1 at the end of the stream or on an error. */
int read_full(int fd, void *data, size_t len);
int write_full(int fd, const void *data, size_t len);

/* "SIGSEGV", "SIGABRT", ... or "signal 42" (a static buffer). */
const char *signal_name(int sig);

#endif
