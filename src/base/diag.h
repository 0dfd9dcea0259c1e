/* src/base/diag.h: the one voice of standard error: errors, warnings and
 * notes, each line made printable (a stranger's text never acts on the
 * terminal). Every error about something a user typed names where it is:
 * "FILE:LINE: error: message". */
#ifndef RB_DIAG_H
#define RB_DIAG_H

/* Prints "redbench: error: ..." to standard error. */
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "FILE:LINE: error: ..." (LINE 0: "FILE: error: ..."). */
void diag_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* What a piece of work found: the configuration's functions count the
 * errors they print into the diagnostics of what they check (an
 * experiment's, rb_experiment.diag), not into a count of the process. */
typedef struct rb_diagnostics {
    int errors;
} rb_diagnostics;
/* diag_at, counted into *d. */
void diag_at_into(rb_diagnostics *d, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Prints "redbench: ..." (a closing line after errors). */
void diag_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "redbench: warning: ...". */
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a line with no lead of its own: the continuation of a message
 * ("  and 3 more"), a plugin's log line, a progress line. */
void diag_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Errors of one pass: from diag_hold, diag_at keeps its errors (counted as
 * usual) instead of printing them; diag_release prints them sorted by
 * file (in the order each first appeared) and line (a whole-file error,
 * line 0, after the file's lines), each file's in the order found. */
void diag_hold(void);
void diag_release(void);

#endif
