/* src/base/diag.c: printing of user-facing errors and warnings. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>

static int errors;

void diag_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("redbench: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
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
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    errors++;
}

void diag_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("redbench: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int diag_count(void) { return errors; }
void diag_reset(void) { errors = 0; }
