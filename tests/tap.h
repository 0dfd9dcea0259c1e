/* tests/tap.h: a minimal TAP producer for C unit tests (header only).
 *   plan(n); ok(cond, "name %d", x); is_int(got, want, "name");
 *   is_str(got, want, "name"); is_double(got, want, tol, "name");
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
        printf("#   got: %lld\n#  want: %lld\n", got, want);
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
        printf("#   got: '%s'\n#  want: '%s'\n", got ? got : "(null)", want ? want : "(null)");
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
        printf("#   got: %.17g\n#  want: %.17g (+- %g)\n", got, want, tol);
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
        printf("# planned %d tests but ran %d\n", tap_planned, tap_run);
    return tap_failed || (tap_planned && tap_run != tap_planned) ? 1 : 0;
}

#endif
