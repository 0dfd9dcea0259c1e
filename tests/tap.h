/* tests/tap.h: a minimal TAP producer for C unit tests (header only).
 *   plan(n); ok(cond, "name %d", x); is_int(got, want, "name");
 *   is_str(got, want, "name"); is_double(got, want, tol, "name");
 *   diag("what was seen: %s", s); bail("cannot go on: %s", why);
 *   skip_all("reason"); return done(); */
#ifndef RB_TAP_H
#define RB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_planned, tap_run, tap_failed;

static inline void plan(int n)
{
    tap_planned = n;
    printf("1..%d\n", n);
    fflush(stdout);
}

/* A diagnostic: each line of the message as a TAP comment, "# ...". */
static inline void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        printf("# %.*s\n", (int)len, line);
        line += len + (line[len] == '\n');
    }
    fflush(stdout);
}

/* Stops the test: "Bail out! ..." and exit status 255, for what leaves
 * nothing to test (a temporary folder that cannot be made, a fixture that
 * does not load). */
static inline void bail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void bail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("Bail out! ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    exit(255);
}

static inline void tap_vreport(int pass, const char *fmt, va_list ap)
{
    tap_run++;
    if (!pass)
        tap_failed++;
    printf("%s %d - ", pass ? "ok" : "not ok", tap_run);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
}

static inline int ok(int pass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int ok(int pass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vreport(pass, fmt, ap);
    va_end(ap);
    return pass;
}

static inline int is_int(long long got, long long want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int is_int(long long got, long long want, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vreport(got == want, fmt, ap);
    va_end(ap);
    if (got != want)
        diag("  got: %lld\n want: %lld", got, want);
    return got == want;
}

static inline int is_str(const char *got, const char *want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int is_str(const char *got, const char *want, const char *fmt, ...)
{
    int pass = got && want && strcmp(got, want) == 0;
    va_list ap;
    va_start(ap, fmt);
    tap_vreport(pass, fmt, ap);
    va_end(ap);
    if (!pass)
        diag("  got: '%s'\n want: '%s'", got ? got : "(null)", want ? want : "(null)");
    return pass;
}

static inline int is_double(double got, double want, double tol, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int is_double(double got, double want, double tol, const char *fmt, ...)
{
    int pass = fabs(got - want) <= tol;
    va_list ap;
    va_start(ap, fmt);
    tap_vreport(pass, fmt, ap);
    va_end(ap);
    if (!pass)
        diag("  got: %.17g\n want: %.17g (+- %g)", got, want, tol);
    return pass;
}

static inline void skip(const char *reason)
{
    tap_run++;
    printf("ok %d # SKIP %s\n", tap_run, reason);
    fflush(stdout);
}

static inline void skip_all(const char *reason)
{
    printf("1..0 # SKIP %s\n", reason);
    exit(0);
}

static inline int done(void)
{
    if (tap_planned && tap_run != tap_planned)
        diag("planned %d tests but ran %d", tap_planned, tap_run);
    return tap_failed || (tap_planned && tap_run != tap_planned) ? 1 : 0;
}

#endif
