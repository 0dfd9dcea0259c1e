/* src/base/ini_writer.h: the one writer of `key = value` text for
 * base/ini_text.c to read back (the tuned experiment `redbench tune`
 * writes). Texts from outside (paths, names, a plugin's words) reach the
 * file only through it, so that none can add a line or a section:
 *  - a comment is made printable (base/util.h: printable_text) and cut
 *    into as many `; ` lines as it needs;
 *  - a section header and a key are checked word by word;
 *  - a value is written as it is only when the reader gives it back
 *    exactly (the line is read back through ini_text_read, as the
 *    library was built: its inline comments, its trimming); the reader
 *    knows no quoting, so any other value is refused, saying why;
 *  - every line fits the reader's limit (ini_text_longest()).
 * The first refusal is kept in `error` and every later call does nothing,
 * so that a caller writes its lines and checks once at the end. */
#ifndef RB_INI_WRITER_H
#define RB_INI_WRITER_H

#include <stddef.h>
#include <stdio.h>

typedef struct rb_ini_writer {
    FILE *out;
    size_t longest;       /* the longest line the reader takes, in bytes */
    int failed;           /* a line was refused: error says which and why */
    char error[1024];
} rb_ini_writer;

/* What a value must also be. */
enum rb_ini_value_kind {
    RB_INI_TEXT,  /* any text that reads back */
    RB_INI_WORD   /* one word of a comma list: no ',' either */
};

void ini_writer_init(rb_ini_writer *w, FILE *out);

/* Why `value` cannot be written as `key = value` and read back the same,
 * or NULL when it can: a static sentence ("holds a line break", "holds
 * ',', which separates the values of a list", ...). Its line's length is
 * checked too. */
const char *ini_value_problem(const rb_ini_writer *w, const char *key, const char *value,
                              enum rb_ini_value_kind kind);

/* `; TEXT`, made printable, over as many lines as the limit needs. */
int ini_write_comment(rb_ini_writer *w, const char *text);
/* An empty line. */
int ini_write_blank(rb_ini_writer *w);
/* `[NAME]`: NAME of printable ASCII, neither '[' nor ']' nor ';' nor '#',
 * no white space at either end. */
int ini_write_section(rb_ini_writer *w, const char *name);
/* `KEY = VALUE`: KEY of letters, digits, '_', '-' and '.'; VALUE as
 * ini_value_problem allows. Each returns 0, or -1 once refused (error:
 * "KEY = VALUE: why", the texts made printable). */
int ini_write_key(rb_ini_writer *w, const char *key, const char *value,
                  enum rb_ini_value_kind kind);

#endif
