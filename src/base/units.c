/* src/base/units.c: parsing and formatting of numbers as users write them:
 * sizes with binary suffixes, whole numbers, decimals, booleans, and
 * durations for reports. */
#include "base/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SIZE_LARGEST (UINT64_C(1) << 63)

/* The multiplier of a size suffix ("", "K", "Ki", ... case-insensitive),
 * or 0 when the suffix is not one of them. */
static uint64_t suffix_multiplier(const char *suffix)
{
    static const char letters[] = "KMGT";
    if (*suffix == '\0')
        return 1;
    const char *found = strchr(letters, toupper((unsigned char)suffix[0]));
    if (!found)
        return 0;
    if (suffix[1] != '\0' && !(tolower((unsigned char)suffix[1]) == 'i' && suffix[2] == '\0'))
        return 0;
    return UINT64_C(1) << (10 * (found - letters + 1));
}

int parse_size(const char *text, uint64_t *out, const char **why)
{
    const char *p = text;
    uint64_t value = 0;

    if (*p == '\0') {
        *why = "empty size; expected a whole number with an optional suffix K, M, G or T "
               "(powers of two), e.g. 1000 or 4M";
        return -1;
    }
    if (*p == '-') {
        *why = "a size cannot be negative; expected a whole number with an optional suffix "
               "K, M, G or T (powers of two), e.g. 4M";
        return -1;
    }
    if (!isdigit((unsigned char)*p)) {
        *why = "not a size; expected a whole number with an optional suffix K, M, G or T "
               "(powers of two), e.g. 1000 or 4M";
        return -1;
    }
    int overflow = 0;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10)
            overflow = 1;
        else
            value = value * 10 + digit;
    }
    if (*p == '.' || *p == ',' || *p == 'e' || *p == 'E') {
        *why = "a size must be a whole number (1.5M is not accepted: write 1536K); "
               "suffixes K, M, G, T are powers of two";
        return -1;
    }
    uint64_t multiplier = suffix_multiplier(p);
    if (multiplier == 0) {
        *why = "unknown size suffix; valid suffixes are K, M, G, T (also Ki, Mi, Gi, Ti), "
               "powers of two, e.g. 4M = 4194304";
        return -1;
    }
    if (overflow || value > SIZE_LARGEST / multiplier) {
        *why = "size too large; the largest size is 2^63 (8388608T)";
        return -1;
    }
    *out = value * multiplier;
    return 0;
}

int parse_int(const char *text, int64_t *out, const char **why)
{
    const char *p = text;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p)) {
        *why = *text ? "not a whole number; expected digits with an optional sign, e.g. 256"
                     : "empty value; expected a whole number, e.g. 256";
        return -1;
    }
    while (isdigit((unsigned char)*p))
        p++;
    if (*p != '\0') {
        *why = "not a whole number; expected digits with an optional sign, e.g. 256 "
               "(no suffix, no decimal point)";
        return -1;
    }
    errno = 0;
    long long value = strtoll(text, NULL, 10);
    if (errno == ERANGE) {
        *why = "whole number out of range; valid: -9223372036854775808 to 9223372036854775807";
        return -1;
    }
    *out = value;
    return 0;
}

int parse_double(const char *text, double *out, const char **why)
{
    static const char allowed[] = "0123456789+-.eE";
    if (*text == '\0' || strspn(text, allowed) != strlen(text)) {
        *why = "not a decimal number; expected e.g. 0.5, 2 or 1e-3";
        return -1;
    }
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || *end != '\0') {
        *why = "not a decimal number; expected e.g. 0.5, 2 or 1e-3";
        return -1;
    }
    if (errno == ERANGE || !isfinite(value)) {
        *why = "decimal number out of range";
        return -1;
    }
    *out = value;
    return 0;
}

int parse_bool(const char *text, int *out, const char **why)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++) {
        if (strcasecmp(text, yes[k]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(text, no[k]) == 0) {
            *out = 0;
            return 0;
        }
    }
    *why = "not a boolean; valid: true or false (also yes/no, on/off, 1/0)";
    return -1;
}

void format_size(uint64_t n, char *buf, unsigned len)
{
    static const char suffixes[] = "KMGT";
    int unit = 0;
    while (unit < 4 && n != 0 && n % 1024 == 0) {
        n /= 1024;
        unit++;
    }
    if (unit == 0)
        snprintf(buf, len, "%" PRIu64, n);
    else
        snprintf(buf, len, "%" PRIu64 "%c", n, suffixes[unit - 1]);
}

void format_duration_ns(double ns, char *buf, unsigned len)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    if (!isfinite(ns)) {
        snprintf(buf, len, "n/a");
        return;
    }
    if (ns == 0) {
        snprintf(buf, len, "0 ns");
        return;
    }
    double magnitude = fabs(ns);
    int unit = 0;
    while (unit < 3 && magnitude >= 999.5) {
        magnitude /= 1000;
        ns /= 1000;
        unit++;
    }
    /* Three significant digits; above 999.5 s the whole seconds. */
    int decimals = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
    snprintf(buf, len, "%.*f %s", decimals, ns, units[unit]);
}

void format_seconds(double s, char *buf, unsigned len)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, len, "n/a");
        return;
    }
    if (s < 10)
        snprintf(buf, len, "%.3g s", s);
    else if (s < 120)
        snprintf(buf, len, "%.1f s", s);
    else if (s < 3600) {
        double rest = s - 60 * floor(s / 60);
        if (rest >= 59.95) /* rounds up to the next minute */
            rest = 0, s += 60;
        snprintf(buf, len, "%dm%04.1fs", (int)(s / 60), rest);
    } else {
        long whole = lround(s);
        snprintf(buf, len, "%ldh%02ldm%02lds", whole / 3600, whole / 60 % 60, whole % 60);
    }
}
