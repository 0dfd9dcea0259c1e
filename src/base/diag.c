/* src/base/diag.c: printing of user-facing errors and warnings. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>

static int errors;

/* The message after its lead, on one line of standard error. */
static void say(const char *fmt, va_list ap)
{
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
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
    if (line > 0)
        fprintf(stderr, "%s:%d: error: ", file, line);
    else
        fprintf(stderr, "%s: error: ", file);
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
