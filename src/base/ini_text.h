/* src/base/ini_text.h: `key = value` text read with inih (the system
 * library), line by line from memory: experiment files, pack manifests and
 * the peak cache all go through here.
 *
 * inih reads lines of at most ini_text_longest() characters (Debian builds
 * it with 199) and cuts a longer one silently, which mis-parses it; this
 * reader finds such a line and reports it instead. It takes section headers
 * itself (inih cuts their names at 49 characters) and hands inih only
 * `key = value` lines, left-trimmed so that inih never joins a line to the
 * value before it. Comments start with ';' or '#'; ';' after white space
 * ends a value (inih's inline comment). */
#ifndef RB_INI_TEXT_H
#define RB_INI_TEXT_H

#include <stddef.h>

/* A line that is neither `key = value`, a section header, a comment nor
 * blank. */
enum rb_ini_problem {
    RB_INI_TOO_LONG = 1,  /* longer than ini_text_longest() */
    RB_INI_NUL,           /* holds a NUL byte */
    RB_INI_UNCLOSED,      /* a section header with no ']' */
    RB_INI_AFTER_HEADER,  /* text after a section header's ']' */
    RB_INI_NO_SEPARATOR   /* no '=' (or ':') before any inline comment */
};

typedef struct rb_ini_text {
    /* Set by the caller; each callback gets `user` and the line's number
     * (1 for the first line). A callback sets `stop` to read no further. */
    void *user;
    /* `[name]`: the text between the brackets, as written. */
    void (*section)(void *user, int line, const char *name);
    /* `key = value`, both trimmed (inih's), the value without its comment. */
    void (*key)(void *user, int line, const char *key, const char *value);
    /* A line that cannot be read: `problem` says why; `text` is the line
     * (trimmed; for RB_INI_AFTER_HEADER what follows ']'), `length` its
     * length in bytes before trimming. */
    void (*problem)(void *user, int line, int problem, const char *text, size_t length);
    int stop;

    /* The reader's own. */
    const char *text;
    size_t len, pos;
    int line;
} rb_ini_text;

/* The longest line inih reads, in characters. */
size_t ini_text_longest(void);

/* Reads `len` bytes of text through the callbacks. Returns 0, or the number
 * of the first `key = value` line that inih could not read. */
int ini_text_read(rb_ini_text *r, const char *text, size_t len);

/* Reads all of a file's text from fd, at most `max` bytes, into *text
 * (NUL-terminated, for the caller to free) and its length into *len.
 * Returns 0; 1 when the file holds more than `max` bytes; -1 with errno
 * set when it cannot be read. */
int ini_text_slurp(int fd, size_t max, char **text, size_t *len);

#endif
