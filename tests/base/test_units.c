/* tests/base/test_units.c: sizes, whole numbers, decimals, booleans and
 * durations as users write and read them (src/base/units.c). */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "base/units.h"

static void size_is(const char *text, uint64_t want)
{
    uint64_t got = 0;
    const char *why = NULL;
    int rc = parse_size(text, &got, &why);
    ok(rc == 0 && got == want, "parse_size(\"%s\") = %llu", text, (unsigned long long)want);
    if (rc != 0)
        diag("  rejected: %s", why);
    else if (got != want)
        diag("  got %llu", (unsigned long long)got);
}

/* A rejected size, with a reason that contains `says`. */
static void size_rejected(const char *text, const char *says)
{
    uint64_t got = 12345;
    const char *why = NULL;
    int rc = parse_size(text, &got, &why);
    if (!ok(rc == -1 && got == 12345 && why && strstr(why, says),
            "parse_size(\"%s\") is refused, saying '%s'", text, says))
        diag("  why: %s", why ? why : "(none)");
}

static void int_is(const char *text, int64_t want)
{
    int64_t got = 0;
    const char *why = NULL;
    ok(parse_int(text, &got, &why) == 0 && got == want, "parse_int(\"%s\") = %lld", text,
       (long long)want);
}

static void int_rejected(const char *text)
{
    int64_t got = 0;
    const char *why = NULL;
    ok(parse_int(text, &got, &why) == -1 && why && *why, "parse_int(\"%s\") is refused", text);
}

static void double_is(const char *text, double want)
{
    double got = -1;
    const char *why = NULL;
    ok(parse_double(text, &got, &why) == 0 && got == want, "parse_double(\"%s\") = %g", text,
       want);
}

static void double_rejected(const char *text)
{
    double got = 0;
    const char *why = NULL;
    ok(parse_double(text, &got, &why) == -1 && why && *why, "parse_double(\"%s\") is refused",
       text);
}

static void bool_is(const char *text, int want)
{
    int got = -1;
    const char *why = NULL;
    ok(parse_bool(text, &got, &why) == 0 && got == want, "parse_bool(\"%s\") = %d", text, want);
}

static void size_text_is(uint64_t n, const char *want)
{
    char buf[32];
    format_size(n, buf, sizeof buf);
    is_str(buf, want, "format_size(%llu)", (unsigned long long)n);
}

static void duration_text_is(double ns, const char *want)
{
    char buf[32];
    format_duration_ns(ns, buf, sizeof buf);
    is_str(buf, want, "format_duration_ns(%g)", ns);
}

int main(void)
{
    plan(71);

    /* sizes */
    size_is("0", 0);
    size_is("1000", 1000);
    size_is("4K", 4096);
    size_is("4k", 4096);
    size_is("4Ki", 4096);
    size_is("4KI", 4096);
    size_is("4M", 4194304);
    size_is("32mi", 33554432);
    size_is("1G", UINT64_C(1073741824));
    size_is("1Gi", UINT64_C(1073741824));
    size_is("2T", UINT64_C(2) << 40);
    size_is("8388608T", UINT64_C(1) << 63);
    size_is("9223372036854775808", UINT64_C(1) << 63);

    size_rejected("", "empty");
    size_rejected("-1", "negative");
    size_rejected("-4M", "negative");
    size_rejected("4X", "suffix");
    size_rejected("4KB", "suffix");
    size_rejected("4 M", "suffix");
    size_rejected("1.5M", "whole number");
    size_rejected("1e6", "whole number");
    size_rejected("M", "not a size");
    size_rejected("four", "not a size");
    size_rejected(" 4M", "not a size");
    size_rejected("8388609T", "too large");
    size_rejected("9223372036854775809", "too large");
    size_rejected("99999999999999999999999", "too large");
    size_rejected("16777216T", "too large");
    {
        const char *why = NULL;
        uint64_t got;
        parse_size("4X", &got, &why);
        ok(why && strstr(why, "K, M, G, T"), "a bad suffix names the valid suffixes");
    }

    /* whole numbers */
    int_is("0", 0);
    int_is("256", 256);
    int_is("-17", -17);
    int_is("+5", 5);
    int_is("9223372036854775807", INT64_MAX);
    int_rejected("");
    int_rejected("4K");
    int_rejected("1.0");
    int_rejected("abc");
    int_rejected("-");
    int_rejected("9223372036854775808");
    int_rejected(" 4");

    /* decimals */
    double_is("0.5", 0.5);
    double_is("2", 2.0);
    double_is("1e-3", 1e-3);
    double_is("-0.25", -0.25);
    double_rejected("");
    double_rejected("abc");
    double_rejected("1.5s");
    double_rejected("inf");
    double_rejected("nan");
    double_rejected("1e999");

    /* booleans */
    bool_is("true", 1);
    bool_is("Yes", 1);
    bool_is("on", 1);
    bool_is("1", 1);
    bool_is("FALSE", 0);
    bool_is("no", 0);
    bool_is("off", 0);
    bool_is("0", 0);
    {
        int got = 7;
        const char *why = NULL;
        ok(parse_bool("maybe", &got, &why) == -1 && got == 7 && why && strstr(why, "yes/no"),
           "parse_bool(\"maybe\") is refused and lists the valid words");
    }

    /* sizes as text */
    size_text_is(4194304, "4M");
    size_text_is(1000, "1000");
    size_text_is(UINT64_C(1073741824), "1G");
    size_text_is(1536, "1536");
    size_text_is(0, "0");
    size_text_is(UINT64_C(3) << 40, "3T");

    /* durations */
    duration_text_is(1234.5, "1.23 us");
    duration_text_is(5, "5.00 ns");
    duration_text_is(999.7, "1.00 us");
    duration_text_is(45600000, "45.6 ms");
    duration_text_is(2.5e9, "2.50 s");

    return done();
}
