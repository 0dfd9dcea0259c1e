/* src/base/diag.c: printing of user-facing errors and warnings. Messages
 * quote what users and strangers wrote (experiment files, names, options),
 * so each is made printable before it reaches the terminal: a control byte
 * or an escape sequence in a file shows as \xNN, never acts. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

static int errors;

/* The message after its lead, on one line of standard error. */
static void say(const char *fmt, va_list ap)
{
    char *text = xvasprintf(fmt, ap), *shown = printable_text(text);
    fputs(shown, stderr);
    fputc('\n', stderr);
    free(shown);
    free(text);
}

void diag_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("redbench: error: ", stderr);
    say(fmt, ap);
    va_end(ap);
}

void diag_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *shown = printable_text(file);
    if (line > 0)
        fprintf(stderr, "%s:%d: error: ", shown, line);
    else
        fprintf(stderr, "%s: error: ", shown);
    free(shown);
    say(fmt, ap);
    va_end(ap);
    errors++;
}

void diag_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("redbench: warning: ", stderr);
    say(fmt, ap);
    va_end(ap);
}

int diag_count(void) { return errors; }
void diag_reset(void) { errors = 0; }
