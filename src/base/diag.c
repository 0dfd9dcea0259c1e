/* src/base/diag.c: printing of user-facing errors and warnings. Messages
 * quote what users and strangers wrote (experiment files, names, options),
 * so each is made printable before it reaches the terminal: a control byte
 * or an escape sequence in a file shows as \xNN, never acts. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The errors held since diag_hold, in the order found. */
typedef struct held_error {
    char *file, *text; /* text: the whole line, printable */
    int line, file_rank;
    size_t order;
} held_error;
static struct {
    int on;
    held_error *items;
    size_t count, cap;
} held;

/* The lead and the message as one line of standard error, in one write (the
 * lines of processes that share it never interleave). */
static void say(const char *lead, const char *fmt, va_list ap)
{
    char *text = xvasprintf(fmt, ap), *shown = printable_text(text);
    char *line = xasprintf("%s%s\n", lead, shown);
    fputs(line, stderr);
    free(line);
    free(shown);
    free(text);
}

void diag_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("redbench: error: ", fmt, ap);
    va_end(ap);
}

static void hold_error(const char *file, int line, const char *fmt, va_list ap)
{
    char *text = xvasprintf(fmt, ap), *message = printable_text(text), *shown = printable_text(file);
    if (held.count == held.cap) {
        held.cap = held.cap ? 2 * held.cap : 16;
        held.items = xrealloc(held.items, held.cap * sizeof *held.items);
    }
    held_error *e = &held.items[held.count];
    e->file = xstrdup(file);
    e->text = line > 0 ? xasprintf("%s:%d: error: %s", shown, line, message)
                       : xasprintf("%s: error: %s", shown, message);
    e->line = line > 0 ? line : 0;
    e->order = held.count;
    e->file_rank = (int)held.count;
    for (size_t k = 0; k < held.count; k++)
        if (strcmp(held.items[k].file, file) == 0) {
            e->file_rank = held.items[k].file_rank;
            break;
        }
    held.count++;
    free(shown);
    free(message);
    free(text);
}

static int held_order(const void *a, const void *b)
{
    const held_error *x = a, *y = b;
    if (x->file_rank != y->file_rank)
        return x->file_rank < y->file_rank ? -1 : 1;
    if (x->line != y->line) { /* line 0 (the whole file) last */
        if (x->line == 0 || y->line == 0)
            return x->line == 0 ? 1 : -1;
        return x->line < y->line ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

void diag_hold(void) { held.on = 1; }

void diag_release(void)
{
    held.on = 0;
    if (held.count) /* none held: items is NULL, which qsort must not be given */
        qsort(held.items, held.count, sizeof *held.items, held_order);
    for (size_t k = 0; k < held.count; k++) {
        fputs(held.items[k].text, stderr);
        fputc('\n', stderr);
        free(held.items[k].text);
        free(held.items[k].file);
    }
    free(held.items);
    memset(&held, 0, sizeof held);
}

static void at(const char *file, int line, const char *fmt, va_list ap)
{
    if (held.on) {
        hold_error(file, line, fmt, ap);
        return;
    }
    char *shown = printable_text(file);
    char *lead = line > 0 ? xasprintf("%s:%d: error: ", shown, line) : xasprintf("%s: error: ", shown);
    say(lead, fmt, ap);
    free(lead);
    free(shown);
}

void diag_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    at(file, line, fmt, ap);
    va_end(ap);
}

void diag_at_into(rb_diagnostics *d, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    at(file, line, fmt, ap);
    va_end(ap);
    d->errors++;
}

void diag_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("redbench: ", fmt, ap);
    va_end(ap);
}

void diag_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("redbench: warning: ", fmt, ap);
    va_end(ap);
}


void diag_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("", fmt, ap);
    va_end(ap);
}
