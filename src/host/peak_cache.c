/* src/host/peak_cache.c: measured peak bandwidths kept across runs, one text
 * file per device in the user's cache folder. A file is named after the
 * device's identity (backend and UUID, or backend, host and device name)
 * and holds `key = value` lines: every field of the key it was measured
 * under, the figure and when it was measured. A lookup compares every
 * field; one that differs makes the figure stale, and so does an age past
 * the key's limit, or, for a key with a limit, past RB_PEAK_BUSY_MAX_AGE_S
 * when the file's load1 and cores say the host was busy while it was
 * measured (a file without the clocks field, written before it existed,
 * is stale too). A file is read only when
 * it is a regular file of at most PEAK_FILE_MAX bytes, and written through
 * src/base/safe_file.h (a temporary renamed into place; never a device). */
#include "host/peak_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/ini_text.h"
#include "base/provenance.h"
#include "base/safe_file.h"
#include "base/util.h"

/* A cache file is a dozen short lines: anything larger is not one. */
#define PEAK_FILE_MAX 65536

/* The key's fields as they are written, in file order. */
typedef struct key_field {
    const char *name;
    const char *value;
} key_field;

enum { KEY_FIELDS = 8 };

static const char *or_empty(const char *s) { return s ? s : ""; }

static void key_fields(const rb_peak_key *key, key_field out[KEY_FIELDS])
{
    out[0] = (key_field){"backend", or_empty(key->backend)};
    out[1] = (key_field){"backend_version", or_empty(key->backend_version)};
    out[2] = (key_field){"device", or_empty(key->device)};
    out[3] = (key_field){"uuid", or_empty(key->uuid)};
    /* a device with a UUID is the same device on any host name */
    out[4] = (key_field){"host", *or_empty(key->uuid) ? "" : or_empty(key->host)};
    out[5] = (key_field){"driver", or_empty(key->driver)};
    out[6] = (key_field){"clocks", or_empty(key->clocks)};
    out[7] = (key_field){"tool_version", or_empty(key->tool_version)};
}

/* A value as it is stored: one line, no surrounding blanks. */
static char *stored_text(const char *value)
{
    char *copy = xstrdup(value);
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    char *trimmed = trim(copy);
    char *result = xstrdup(trimmed);
    free(copy);
    return result;
}

char *peak_cache_dir(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/')
        return xasprintf("%s/redbench/peaks", xdg);
    const char *home = getenv("HOME");
    if (home && *home)
        return xasprintf("%s/.cache/redbench/peaks", home);
    return NULL;
}

char *peak_cache_path(const char *dir, const rb_peak_key *key)
{
    char safe[32];
    size_t len = 0;
    for (const char *p = or_empty(key->backend); *p && len < sizeof safe - 1; p++) {
        char c = *p;
        int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
        safe[len++] = plain ? c : '_';
    }
    safe[len] = '\0';
    key_field f[KEY_FIELDS];
    key_fields(key, f);
    char *identity = xasprintf("%s\n%s\n%s\n%s", f[0].value, f[3].value, f[4].value, f[2].value);
    char digest[65];
    sha256_hex(identity, strlen(identity), digest);
    free(identity);
    digest[16] = '\0';
    return xasprintf("%s/%s-%s.ini", dir, len ? safe : "backend", digest);
}

/* Days from 1970-01-01 to a date of the proleptic Gregorian calendar. */
static long days_from_civil(long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long)doe - 719468;
}

long peak_cache_age(const char *stamp, time_t now)
{
    int y, mo, d, h, mi, sec;
    char z = 0, extra = 0;
    if (!stamp || sscanf(stamp, "%4d-%2d-%2dT%2d:%2d:%2d%c%c", &y, &mo, &d, &h, &mi, &sec, &z,
                         &extra) != 7 || z != 'Z')
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || h < 0 ||
        mi < 0 || sec < 0)
        return -1;
    const long then = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400L + h * 3600L +
                      mi * 60L + sec;
    const long age = (long)now - then;
    return age < 0 ? 0 : age; /* a clock set back: as if just measured */
}

void peak_cache_age_text(long seconds, char *out, size_t len)
{
    if (seconds < 120)
        snprintf(out, len, "%ld s", seconds);
    else if (seconds < 2 * 3600)
        snprintf(out, len, "%ld min", seconds / 60);
    else if (seconds < 2 * 86400)
        snprintf(out, len, "%ld h", seconds / 3600);
    else
        snprintf(out, len, "%ld days", seconds / 86400);
}

static void iso_now(char *out, size_t len)
{
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

int peak_load_read(const char *path, int cores, rb_peak_load *out)
{
    out->load1 = -1;
    out->cores = cores > 0 ? cores : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (out->cores < 0)
        out->cores = 0;
    if (!path) {
        const char *standin = getenv("REDBENCH_LOADAVG");
        path = standin && *standin ? standin : "/proc/loadavg";
    }
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    double load1;
    int got = fscanf(f, "%lf", &load1);
    fclose(f);
    if (got != 1 || !(load1 >= 0))
        return -1;
    out->load1 = load1;
    return 0;
}

int peak_load_busy(const rb_peak_load *load)
{
    return load && load->load1 >= 0 && load->cores > 0 &&
           load->load1 - RB_PEAK_OWN_LOAD >= RB_PEAK_BUSY_SHARE * load->cores;
}

void peak_load_text(const rb_peak_load *load, char *out, size_t len)
{
    if (!load || load->load1 < 0 || load->cores <= 0)
        snprintf(out, len, "load unknown");
    else
        snprintf(out, len, "load %.2f on %d core%s%s", load->load1, load->cores,
                 load->cores == 1 ? "" : "s", peak_load_busy(load) ? ": busy" : "");
}

int peak_cache_store(const char *dir, const rb_peak_key *key, double gbs, char *when,
                     size_t when_len)
{
    return peak_cache_store_under(dir, key, gbs, NULL, when, when_len);
}

int peak_cache_store_under(const char *dir, const rb_peak_key *key, double gbs,
                           const rb_peak_load *load, char *when, size_t when_len)
{
    if (!dir || !(gbs > 0)) {
        errno = EINVAL;
        return -1;
    }
    if (make_folders(dir, 0755) != 0)
        return -1;
    char *path = peak_cache_path(dir, key);
    rb_safe_file file;
    int failed = safe_file_open(&file, path, RB_SAFE_FILE_REGULAR) != 0;
    free(path);
    if (failed)
        return -1;
    FILE *f = file.stream;
    char stamp[40];
    iso_now(stamp, sizeof stamp);
    key_field fields[KEY_FIELDS];
    key_fields(key, fields);
    fputs("; redbench: a measured peak read bandwidth, used while every line above\n"
          "; measured_gbs is unchanged; delete the file to measure again\n", f);
    for (int k = 0; k < KEY_FIELDS; k++) {
        char *text = stored_text(fields[k].value);
        fprintf(f, "%s = %s\n", fields[k].name, text);
        free(text);
    }
    fprintf(f, "measured_gbs = %.17g\nmeasured_at = %s\n", gbs, stamp);
    if (load && load->load1 >= 0 && load->cores > 0) /* what the figure was measured under */
        fprintf(f, "load1 = %.2f\ncores = %d\n", load->load1, load->cores);
    if (safe_file_commit(&file) != 0)
        return -1;
    if (when && when_len)
        snprintf(when, when_len, "%s", stamp);
    return 0;
}

/* A cache file being read (base/ini_text.c): its figures, and whether each
 * key field matched. */
typedef struct cache_reader {
    rb_ini_text ini;
    key_field fields[KEY_FIELDS];
    int seen[KEY_FIELDS];
    double figure;
    char stamp[40];
    rb_peak_load load;
    int result;
    char *why;
    size_t why_len;
} cache_reader;

static void cache_stale(cache_reader *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cache_stale(cache_reader *c, const char *fmt, ...)
{
    /* the first difference says why; the rest of the file is still read,
     * for the figure a new measurement is compared with */
    if (c->result == RB_PEAK_STALE)
        return;
    c->result = RB_PEAK_STALE;
    if (c->why && c->why_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->why_len, fmt, ap);
        va_end(ap);
    }
}

static void cache_key(void *user, int line, const char *name, const char *value)
{
    cache_reader *c = user;
    (void)line;
    if (strcmp(name, "measured_gbs") == 0) {
        c->figure = strtod(value, NULL);
        return;
    }
    if (strcmp(name, "measured_at") == 0) {
        snprintf(c->stamp, sizeof c->stamp, "%s", value);
        return;
    }
    if (strcmp(name, "load1") == 0) {
        char *end;
        double v = strtod(value, &end);
        c->load.load1 = end != value && *end == '\0' && v >= 0 ? v : -1;
        return;
    }
    if (strcmp(name, "cores") == 0) {
        long v = strtol(value, NULL, 10);
        c->load.cores = v > 0 && v < 1 << 20 ? (int)v : 0;
        return;
    }
    for (int k = 0; k < KEY_FIELDS; k++) {
        if (strcmp(name, c->fields[k].name) != 0)
            continue;
        char *want = stored_text(c->fields[k].value);
        c->seen[k] = 1;
        if (strcmp(want, value) != 0)
            cache_stale(c, "%s was '%s', now '%s'", name, value, want);
        free(want);
    }
}

/* A line inih would cut (or one with a NUL byte) makes the file stale:
 * what it holds cannot be compared. Other lines are passed over. */
static void cache_problem(void *user, int line, int problem, const char *text, size_t length)
{
    cache_reader *c = user;
    (void)text;
    (void)length;
    if (problem == RB_INI_TOO_LONG || problem == RB_INI_NUL) {
        c->ini.stop = 1;
        c->figure = 0; /* what it holds cannot be trusted */
    }
    if (problem == RB_INI_TOO_LONG)
        cache_stale(c, "line %d is longer than the %zu characters a line can have", line,
                    ini_text_longest());
    else if (problem == RB_INI_NUL)
        cache_stale(c, "line %d holds a NUL byte", line);
}

int peak_cache_load(const char *dir, const rb_peak_key *key, double *gbs, char *when,
                    size_t when_len, char *why, size_t why_len, rb_peak_load *load)
{
    if (why && why_len)
        why[0] = '\0';
    *gbs = 0;
    if (load)
        *load = (rb_peak_load){.load1 = -1, .cores = 0};
    if (!dir)
        return RB_PEAK_ABSENT;
    char *path = peak_cache_path(dir, key);
    /* O_NONBLOCK: a pipe in its place does not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    free(path);
    if (fd < 0)
        return RB_PEAK_ABSENT;
    struct stat info;
    const char *refused = NULL;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
        refused = "it is not a regular file";
    else if (info.st_size > PEAK_FILE_MAX)
        refused = "it is larger than a cache file can be";
    char *text = NULL;
    size_t len = 0;
    int got = refused ? -1 : ini_text_slurp(fd, PEAK_FILE_MAX, &text, &len);
    close(fd);
    if (got != 0) {
        if (why && why_len)
            snprintf(why, why_len, "%s",
                     refused ? refused
                     : got > 0 ? "it is larger than a cache file can be" /* it grew */
                               : strerror(errno));
        return RB_PEAK_STALE;
    }

    cache_reader c = {.result = RB_PEAK_CACHED, .why = why, .why_len = why_len,
                      .load = {.load1 = -1, .cores = 0}};
    c.ini = (rb_ini_text){.user = &c, .key = cache_key, .problem = cache_problem};
    key_fields(key, c.fields);
    ini_text_read(&c.ini, text, len);
    free(text);
    int result = c.result;
    for (int k = 0; result == RB_PEAK_CACHED && k < KEY_FIELDS; k++) {
        if (!c.seen[k]) {
            result = RB_PEAK_STALE;
            if (why && why_len)
                snprintf(why, why_len, "the file has no %s", c.fields[k].name);
        }
    }
    if (result == RB_PEAK_CACHED && !(c.figure > 0)) {
        result = RB_PEAK_STALE;
        if (why && why_len)
            snprintf(why, why_len, "the file has no measured_gbs");
    }
    if (result == RB_PEAK_CACHED && key->max_age_s > 0) {
        /* a figure that depends on what else ran while it was measured
         * is kept only so long */
        const long age = peak_cache_age(c.stamp, time(NULL));
        char age_text[32], limit_text[32];
        peak_cache_age_text(age, age_text, sizeof age_text);
        peak_cache_age_text(key->max_age_s, limit_text, sizeof limit_text);
        if (age < 0) {
            result = RB_PEAK_STALE;
            if (why && why_len)
                snprintf(why, why_len, "the file's measured_at ('%s') is not a time", c.stamp);
        } else if (age > key->max_age_s) {
            result = RB_PEAK_STALE;
            if (why && why_len)
                snprintf(why, why_len, "measured %s, %s ago: older than %s", c.stamp, age_text,
                         limit_text);
        } else if (peak_load_busy(&c.load) && age > RB_PEAK_BUSY_MAX_AGE_S) {
            /* others took part of the host while it was measured */
            char load_text[64], busy_text[32];
            peak_load_text(&c.load, load_text, sizeof load_text);
            peak_cache_age_text(RB_PEAK_BUSY_MAX_AGE_S, busy_text, sizeof busy_text);
            result = RB_PEAK_STALE;
            if (why && why_len)
                snprintf(why, why_len, "measured %s, %s ago, under %s: a figure of a busy host "
                         "is kept %s", c.stamp, age_text, load_text, busy_text);
        }
    }
    if (load)
        *load = c.load;
    /* stale: the figure still says what this device measured before */
    *gbs = c.figure > 0 ? c.figure : 0;
    if (when && when_len)
        snprintf(when, when_len, "%s", c.figure > 0 ? c.stamp : "");
    return result;
}

int peak_disagrees(double reference, double measured)
{
    if (!(reference > 0) || !(measured > 0))
        return 0;
    return fabs(measured - reference) > RB_PEAK_AGREEMENT * reference;
}

static double median3(double a, double b, double c)
{
    if (a > b) { double t = a; a = b; b = t; }
    if (b > c) { double t = b; b = c; c = t; }
    return a > b ? a : b;
}

/* Nothing to compare with: a first figure is taken twice, and three times
 * when the two disagree (the median is kept), so that one outlier is not
 * cached for good. Returns how many measurements were taken. */
static int measure_first_time(double first, rb_peak_measure measure, void *ctx, double *gbs,
                              char *note, size_t note_len)
{
    double second = 0, third = 0;
    if (measure(ctx, &second) != 0 || !(second > 0)) {
        if (note && note_len)
            snprintf(note, note_len, "measured %.1f GB/s; measuring it a second time failed: "
                     "kept %.1f GB/s", first, first);
        return 1;
    }
    *gbs = second;
    if (!peak_disagrees(first, second))
        return 2;
    if (measure(ctx, &third) != 0 || !(third > 0)) {
        *gbs = first < second ? first : second;
        if (note && note_len)
            snprintf(note, note_len, "the first two measurements disagree (%.1f and %.1f "
                     "GB/s) and a third failed: kept the lower, %.1f GB/s", first, second, *gbs);
        return 2;
    }
    *gbs = median3(first, second, third);
    if (note && note_len)
        snprintf(note, note_len, "the first two measurements disagree (%.1f and %.1f GB/s); "
                 "a third: %.1f GB/s; kept the median, %.1f GB/s", first, second, third, *gbs);
    return 3;
}

int peak_measure_checked(double cached, rb_peak_measure measure, void *ctx, double *gbs,
                         char *note, size_t note_len)
{
    if (note && note_len)
        note[0] = '\0';
    double first = 0;
    if (measure(ctx, &first) != 0 || !(first > 0))
        return -1;
    *gbs = first;
    if (!(cached > 0))
        return measure_first_time(first, measure, ctx, gbs, note, note_len);
    if (!peak_disagrees(cached, first))
        return 1;
    double pct = 100.0 * (first - cached) / cached;
    double second = 0;
    if (measure(ctx, &second) != 0 || !(second > 0)) {
        if (note && note_len)
            snprintf(note, note_len,
                     "measured %.1f GB/s, %+.0f%% from the cached %.1f GB/s; measuring it "
                     "again failed: kept %.1f GB/s",
                     first, pct, cached, first);
        return 1;
    }
    const char *verdict;
    if (!peak_disagrees(cached, second)) {
        *gbs = second;
        verdict = "which agrees with the cache: the first was an outlier";
    } else if (!peak_disagrees(first, second)) {
        *gbs = second;
        verdict = "which agrees with the first: the device has changed";
    } else {
        *gbs = median3(cached, first, second);
        verdict = "which agrees with neither: the median is kept";
    }
    if (note && note_len)
        snprintf(note, note_len,
                 "measured %.1f GB/s, %+.0f%% from the cached %.1f GB/s; measured again: "
                 "%.1f GB/s, %s; kept %.1f GB/s",
                 first, pct, cached, second, verdict, *gbs);
    return 2;
}
