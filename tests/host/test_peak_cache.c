/* tests/host/test_peak_cache.c: the measured-peak cache (src/host/peak_cache.c): the
 * folder it uses, a figure stored and found again under the same key, and
 * found stale under another UUID, driver, tool version, backend version or
 * (for a device without a UUID) host; a file rewritten, a missing one,
 * damaged ones; what is not a small regular file (a pipe, a link to
 * /dev/zero) is neither read nor replaced, and a link planted where the
 * temporary file used to be is not followed; a measurement more than 20%
 * from the cached figure taken again, and what is kept; other clocks make
 * a figure stale, and so does its age past the key's limit (the cpu
 * backend's day), while a key without a limit keeps it for good; ages read
 * and said in words; the load a figure was measured under (a stand-in
 * /proc/loadavg) stored with it, and a busy host's figure kept 15 minutes
 * only. Works in a temporary folder. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/peak_cache.h"
#include "tap.h"
#include "base/util.h"

static const rb_peak_key gpu = {
    .backend = "cuda", .backend_version = "1.1", .device = "NVIDIA H200",
    .uuid = "GPU-0123", .host = "node1", .driver = "13.0", .tool_version = "0.1.0"};

static int lookup(const char *dir, const rb_peak_key *key, double *gbs, char *why)
{
    char when[40];
    return peak_cache_load(dir, key, gbs, when, sizeof when, why, 256, NULL);
}

static void test_folder(void)
{
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    char *dir = peak_cache_dir();
    is_str(dir, "/x/cache/redbench/peaks", "XDG_CACHE_HOME/redbench/peaks");
    free(dir);
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/u", 1);
    dir = peak_cache_dir();
    is_str(dir, "/home/u/.cache/redbench/peaks", "without XDG_CACHE_HOME: ~/.cache/redbench/peaks");
    free(dir);
    setenv("XDG_CACHE_HOME", "relative", 1);
    dir = peak_cache_dir();
    is_str(dir, "/home/u/.cache/redbench/peaks", "a relative XDG_CACHE_HOME is ignored");
    free(dir);
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    ok(peak_cache_dir() == NULL, "neither set: no cache folder");
}

static void test_store_and_find(const char *dir)
{
    double gbs = 0;
    char why[256], when[40] = "";
    is_int(lookup(dir, &gpu, &gbs, why), RB_PEAK_ABSENT, "nothing cached yet: absent");
    ok(peak_cache_store(dir, &gpu, 4321.5, when, sizeof when) == 0 && strlen(when) == 20,
       "stored, with the time it was measured (%s)", when);
    char *path = peak_cache_path(dir, &gpu);
    ok(access(path, R_OK) == 0 && strstr(path, "/cuda-") != NULL, "the file is %s", path);
    ok(lookup(dir, &gpu, &gbs, why) == RB_PEAK_CACHED && gbs == 4321.5,
       "found again under the same key, the same figure");

    rb_peak_key other = gpu;
    other.uuid = "GPU-4567";
    is_int(lookup(dir, &other, &gbs, why), RB_PEAK_ABSENT, "another UUID: another device, absent");
    other = gpu;
    other.tool_version = "0.2.0";
    ok(lookup(dir, &other, &gbs, why) == RB_PEAK_STALE &&
           strcmp(why, "tool_version was '0.1.0', now '0.2.0'") == 0,
       "another tool version: stale (%s)", why);
    other = gpu;
    other.driver = "13.1";
    ok(lookup(dir, &other, &gbs, why) == RB_PEAK_STALE && strstr(why, "driver"),
       "another driver: stale");
    other = gpu;
    other.backend_version = "1.2";
    ok(lookup(dir, &other, &gbs, why) == RB_PEAK_STALE && strstr(why, "backend_version"),
       "another backend version: stale");
    other = gpu;
    other.host = "node2";
    ok(lookup(dir, &other, &gbs, why) == RB_PEAK_CACHED,
       "a device with a UUID is the same device on another host");

    other = gpu;
    other.tool_version = "0.2.0";
    ok(peak_cache_store(dir, &other, 4400, NULL, 0) == 0 &&
           lookup(dir, &other, &gbs, why) == RB_PEAK_CACHED && gbs == 4400 &&
           lookup(dir, &gpu, &gbs, why) == RB_PEAK_STALE,
       "measured again under the new version: the file is rewritten");
    unlink(path);
    free(path);

    rb_peak_key cpu = {.backend = "cpu", .backend_version = "1.0", .device = "AMD EPYC",
                       .uuid = "", .host = "node1", .driver = "", .tool_version = "0.1.0"};
    rb_peak_key cpu2 = cpu;
    cpu2.host = "node2";
    ok(peak_cache_store(dir, &cpu, 30, NULL, 0) == 0 &&
           lookup(dir, &cpu, &gbs, why) == RB_PEAK_CACHED && gbs == 30 &&
           lookup(dir, &cpu2, &gbs, why) == RB_PEAK_ABSENT,
       "a device without a UUID is known by its host too");
    path = peak_cache_path(dir, &cpu);

    FILE *f = fopen(path, "w");
    fputs("backend = cpu\nmeasured_gbs = 30\n", f);
    fclose(f);
    ok(lookup(dir, &cpu, &gbs, why) == RB_PEAK_STALE && strstr(why, "has no"),
       "a file missing key lines is stale (%s)", why);
    f = fopen(path, "w");
    fclose(f);
    ok(lookup(dir, &cpu, &gbs, why) == RB_PEAK_STALE, "an empty file is stale");
    unlink(path);
    free(path);
    ok(lookup(NULL, &cpu, &gbs, why) == RB_PEAK_ABSENT, "no folder: absent");
}

/* Writes a cpu peak file measured at `stamp`, with every key field. */
static void write_cpu_file(const char *path, const rb_peak_key *key, const char *stamp)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "backend = %s\nbackend_version = %s\ndevice = %s\nuuid =\nhost = %s\n"
               "driver =\nclocks = %s\ntool_version = %s\nmeasured_gbs = 12.5\n"
               "measured_at = %s\n",
            key->backend, key->backend_version, key->device, key->host, key->clocks,
            key->tool_version, stamp);
    fclose(f);
}

static void test_clocks_and_age(const char *dir)
{
    double gbs = 0;
    char why[256];
    rb_peak_key key = gpu;
    key.clocks = "sm 1980 MHz, memory 3201 MHz";
    ok(peak_cache_store(dir, &key, 4700, NULL, 0) == 0 &&
           lookup(dir, &key, &gbs, why) == RB_PEAK_CACHED && gbs == 4700,
       "stored with the clocks, found again");
    rb_peak_key other = key;
    other.clocks = "sm 1755 MHz, memory 3201 MHz";
    ok(lookup(dir, &other, &gbs, why) == RB_PEAK_STALE && strstr(why, "clocks was ") && gbs == 4700,
       "other clocks: stale, the old figure kept for comparison (%s)", why);
    char *path = peak_cache_path(dir, &key);
    FILE *f = fopen(path, "w");
    fputs("backend = cuda\nbackend_version = 1.1\ndevice = NVIDIA H200\nuuid = GPU-0123\n"
          "host =\ndriver = 13.0\ntool_version = 0.1.0\nmeasured_gbs = 3957\n"
          "measured_at = 2026-11-28T05:00:00Z\n", f);
    fclose(f);
    ok(lookup(dir, &key, &gbs, why) == RB_PEAK_STALE && strcmp(why, "the file has no clocks") == 0,
       "a file written before the clocks were a field is stale (%s)", why);
    unlink(path);
    free(path);

    rb_peak_key cpu = {.backend = "cpu", .backend_version = "1.0", .device = "AMD EPYC",
                       .uuid = "", .host = "node1", .driver = "", .clocks = "",
                       .tool_version = "0.1.0", .max_age_s = 86400};
    path = peak_cache_path(dir, &cpu);
    ok(peak_cache_store(dir, &cpu, 16.1, NULL, 0) == 0 &&
           lookup(dir, &cpu, &gbs, why) == RB_PEAK_CACHED && gbs == 16.1,
       "a cpu peak measured now is found, under its limit of a day");
    write_cpu_file(path, &cpu, "2026-01-02T03:04:05Z");
    ok(lookup(dir, &cpu, &gbs, why) == RB_PEAK_STALE && gbs == 12.5 &&
           strstr(why, "measured 2026-01-02T03:04:05Z, ") && strstr(why, "days ago: older than 24 h"),
       "a cpu peak older than its limit is stale (%s)", why);
    rb_peak_key forever = cpu;
    forever.max_age_s = 0;
    ok(lookup(dir, &forever, &gbs, why) == RB_PEAK_CACHED && gbs == 12.5,
       "without a limit the same file is still used");
    char stamp[40];
    time_t hour_ago = time(NULL) - 3600;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&hour_ago));
    write_cpu_file(path, &cpu, stamp);
    ok(lookup(dir, &cpu, &gbs, why) == RB_PEAK_CACHED, "an hour old: still used");
    write_cpu_file(path, &cpu, "yesterday");
    ok(lookup(dir, &cpu, &gbs, why) == RB_PEAK_STALE && strstr(why, "is not a time"),
       "a measured_at that is not a time is stale under a limit (%s)", why);
    unlink(path);
    free(path);

    is_int((int)peak_cache_age("2026-11-28T17:00:00Z", (time_t)1795885200 + 90), 90,
           "an age in seconds from the stamp");
    is_int((int)peak_cache_age("1970-01-01T00:00:00Z", (time_t)86400 * 365), 86400 * 365,
           "from the epoch");
    ok(peak_cache_age("2026-11-28 17:00:00", 0) == -1 && peak_cache_age("", 0) == -1 &&
           peak_cache_age(NULL, 0) == -1 && peak_cache_age("2026-13-01T00:00:00Z", 0) == -1,
       "stamps that are not ISO 8601 UTC have no age");
    char words[32];
    peak_cache_age_text(45, words, sizeof words);
    is_str(words, "45 s", "45 s");
    peak_cache_age_text(600, words, sizeof words);
    is_str(words, "10 min", "10 min");
    peak_cache_age_text(5 * 3600 + 59, words, sizeof words);
    is_str(words, "5 h", "5 h");
    peak_cache_age_text(3 * 86400, words, sizeof words);
    is_str(words, "3 days", "3 days");
}

/* The load a peak was measured under, from a stand-in /proc/loadavg: read
 * and said in words; stored with the figure and read back; a figure of a
 * busy host is stale after RB_PEAK_BUSY_MAX_AGE_S under a key with a limit,
 * one of an idle host is not, and a key without a limit keeps either. */
static void test_load(const char *dir)
{
    char *standin = xasprintf("%s/loadavg", dir), text[64];
    FILE *f = fopen(standin, "w");
    fputs("2.52 0.80 0.33 3/412 12345\n", f);
    fclose(f);
    rb_peak_load load;
    ok(peak_load_read(standin, 2, &load) == 0 && load.load1 == 2.52 && load.cores == 2,
       "the 1-minute load read from a stand-in /proc/loadavg");
    ok(peak_load_busy(&load), "2.52 on 2 cores is busy");
    peak_load_text(&load, text, sizeof text);
    is_str(text, "load 2.52 on 2 cores: busy", "in words");
    ok(peak_load_read(standin, 4, &load) == 0 && !peak_load_busy(&load),
       "2.52 on 4 cores is not busy (one of the 2.52 is the measurement itself)");
    peak_load_text(&load, text, sizeof text);
    is_str(text, "load 2.52 on 4 cores", "... in words");
    setenv("REDBENCH_LOADAVG", standin, 1);
    ok(peak_load_read(NULL, 2, &load) == 0 && load.load1 == 2.52,
       "REDBENCH_LOADAVG names the stand-in");
    unsetenv("REDBENCH_LOADAVG");
    char *missing = xasprintf("%s/none", dir);
    ok(peak_load_read(missing, 2, &load) == -1 && load.load1 < 0 && !peak_load_busy(&load),
       "no file: the load is unknown, not busy");
    peak_load_text(&load, text, sizeof text);
    is_str(text, "load unknown", "... in words");
    free(missing);
    unlink(standin);
    free(standin);

    rb_peak_key cpu = {.backend = "cpu", .backend_version = "1.0", .device = "Xeon",
                       .uuid = "", .host = "node2", .driver = "", .clocks = "",
                       .tool_version = "0.1.0", .max_age_s = 86400};
    rb_peak_load busy = {.load1 = 3.9, .cores = 2}, idle = {.load1 = 0.1, .cores = 2};
    double gbs = 0;
    char why[256] = "", when[40];
    ok(peak_cache_store_under(dir, &cpu, 21.4, &busy, NULL, 0) == 0 &&
           peak_cache_load(dir, &cpu, &gbs, when, sizeof when, why, sizeof why, &load) ==
               RB_PEAK_CACHED && gbs == 21.4 && load.load1 == 3.9 && load.cores == 2,
       "a figure measured busy just now is found, with its load");
    char *path = peak_cache_path(dir, &cpu);
    char stamp[40];
    time_t then = time(NULL) - 20 * 60;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&then));
    write_cpu_file(path, &cpu, stamp);
    f = fopen(path, "a");
    fputs("load1 = 3.90\ncores = 2\n", f);
    fclose(f);
    ok(peak_cache_load(dir, &cpu, &gbs, when, sizeof when, why, sizeof why, &load) ==
               RB_PEAK_STALE && gbs == 12.5 && strstr(why, "under load 3.90 on 2 cores: busy") &&
           strstr(why, "kept 15 min"),
       "measured busy 20 min ago: stale (%s)", why);
    rb_peak_key forever = cpu;
    forever.max_age_s = 0;
    ok(peak_cache_load(dir, &forever, &gbs, when, sizeof when, why, sizeof why, NULL) ==
           RB_PEAK_CACHED, "... a key without a limit keeps it");
    write_cpu_file(path, &cpu, stamp);
    f = fopen(path, "a");
    fputs("load1 = 0.10\ncores = 2\n", f);
    fclose(f);
    ok(peak_cache_load(dir, &cpu, &gbs, when, sizeof when, why, sizeof why, &load) ==
           RB_PEAK_CACHED && load.load1 == 0.1,
       "measured idle 20 min ago: still used");
    write_cpu_file(path, &cpu, stamp);
    ok(peak_cache_load(dir, &cpu, &gbs, when, sizeof when, why, sizeof why, &load) ==
           RB_PEAK_CACHED && load.load1 < 0,
       "a file without a load (written before it was a field): used, its load unknown");
    ok(peak_cache_store_under(dir, &cpu, 30, &idle, NULL, 0) == 0, "stored under an idle load");
    f = fopen(path, "r");
    char body[1024] = "";
    size_t got = fread(body, 1, sizeof body - 1, f);
    body[got] = '\0';
    fclose(f);
    ok(strstr(body, "\nload1 = 0.10\ncores = 2\n") != NULL, "the file holds the load and cores");
    unlink(path);
    free(path);
}

static void test_store_errors(const char *dir)
{
    char *file = xasprintf("%s/plain-file", dir);
    FILE *f = fopen(file, "w");
    fclose(f);
    char *below = xasprintf("%s/sub/peaks", file);
    errno = 0;
    ok(peak_cache_store(below, &gpu, 1, NULL, 0) == -1 && errno != 0,
       "a folder that cannot be made: -1 with errno (%s)", strerror(errno));
    ok(peak_cache_store(dir, &gpu, 0, NULL, 0) == -1, "a figure of 0 is not stored");
    char *nested = xasprintf("%s/a/b/c", dir);
    ok(peak_cache_store(nested, &gpu, 2, NULL, 0) == 0, "missing parent folders are made");
    char *path = peak_cache_path(nested, &gpu);
    unlink(path);
    free(path);
    char *c = xasprintf("%s/a/b/c", dir), *b = xasprintf("%s/a/b", dir), *a = xasprintf("%s/a", dir);
    rmdir(c);
    rmdir(b);
    rmdir(a);
    free(a);
    free(b);
    free(c);
    unlink(file);
    free(nested);
    free(below);
    free(file);
}

/* Files at the cache path that are not small regular ones. */
static void test_untrusted_files(const char *dir)
{
    char why[256];
    double gbs = 0;
    char *path = peak_cache_path(dir, &gpu);
    struct stat st;

    /* a pipe: read without waiting for a writer, and left as it is */
    ok(mkfifo(path, 0600) == 0, "a pipe at the cache path");
    ok(lookup(dir, &gpu, &gbs, why) == RB_PEAK_STALE && strstr(why, "not a regular file"),
       "... is not read (stale: %s)", why);
    ok(peak_cache_store(dir, &gpu, 5, NULL, 0) == -1, "... nor written over");
    ok(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode), "... and is still a pipe");
    unlink(path);

    /* a link to /dev/zero: not read forever */
    ok(symlink("/dev/zero", path) == 0, "a link to /dev/zero at the cache path");
    ok(lookup(dir, &gpu, &gbs, why) == RB_PEAK_STALE, "... is not read (stale: %s)", why);
    ok(peak_cache_store(dir, &gpu, 5, NULL, 0) == -1, "... nor written through");
    ok(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "... and is still a link");
    unlink(path);

    /* a large file is not read */
    FILE *f = fopen(path, "w");
    for (int k = 0; f && k < 20000; k++)
        fputs("; padding\n", f);
    if (f)
        fclose(f);
    ok(lookup(dir, &gpu, &gbs, why) == RB_PEAK_STALE && strstr(why, "larger"),
       "a cache file of 200 KB is not read (stale: %s)", why);
    unlink(path);

    /* a link where the temporary file used to be made is not followed */
    char *victim = xasprintf("%s/victim", dir);
    char *planted = xasprintf("%s.%ld.tmp", path, (long)getpid());
    f = fopen(victim, "w");
    fputs("precious\n", f);
    fclose(f);
    ok(symlink(victim, planted) == 0, "a link planted at the old temporary name");
    ok(peak_cache_store(dir, &gpu, 7, NULL, 0) == 0 &&
           lookup(dir, &gpu, &gbs, why) == RB_PEAK_CACHED && gbs == 7,
       "... the peak is stored");
    char text[64] = "";
    f = fopen(victim, "r");
    if (f) {
        if (!fgets(text, sizeof text, f))
            text[0] = '\0';
        fclose(f);
    }
    is_str(text, "precious\n", "... and the file the link points to is untouched");
    unlink(planted);
    unlink(victim);
    unlink(path);
    free(planted);
    free(victim);
    free(path);
}

/* A measurement that returns the figures it is given, one per call. */
typedef struct scripted {
    const double *figures;
    int calls;
} scripted;

static int scripted_measure(void *ctx, double *gbs)
{
    scripted *s = ctx;
    *gbs = s->figures[s->calls++];
    return *gbs > 0 ? 0 : -1;
}

static void test_checked_measurement(const char *dir)
{
    ok(!peak_disagrees(36, 43) && !peak_disagrees(36, 29) && peak_disagrees(36, 43.3) &&
           peak_disagrees(36, 28.7) && !peak_disagrees(0, 60),
       "more than 20%% from the reference disagrees; no reference: nothing to compare");

    char note[256];
    double gbs = 0;
    scripted s = {(const double[]){38, 99}, 0};
    ok(peak_measure_checked(36, scripted_measure, &s, &gbs, note, sizeof note) == 1 &&
           s.calls == 1 && gbs == 38 && note[0] == '\0',
       "a measurement close to the cached figure is measured once, and kept");
    s = (scripted){(const double[]){36.2, 37, 99}, 0};
    ok(peak_measure_checked(0, scripted_measure, &s, &gbs, note, sizeof note) == 2 &&
           s.calls == 2 && gbs == 37 && note[0] == '\0',
       "nothing cached: measured twice; two that agree: the second is kept");
    s = (scripted){(const double[]){60.8, 36.2, 36.5, 99}, 0};
    ok(peak_measure_checked(0, scripted_measure, &s, &gbs, note, sizeof note) == 3 &&
           s.calls == 3 && gbs == 36.5 &&
           strstr(note, "the first two measurements disagree (60.8 and 36.2 GB/s)") &&
           strstr(note, "kept the median, 36.5 GB/s"),
       "nothing cached, a first 60.8 against 36.2: a third taken, the median kept (%s)", note);
    s = (scripted){(const double[]){60.8, 36.2, 0}, 0};
    ok(peak_measure_checked(0, scripted_measure, &s, &gbs, note, sizeof note) == 2 &&
           gbs == 36.2 && strstr(note, "a third failed: kept the lower"),
       "nothing cached, two that disagree and a third that fails: the lower kept (%s)", note);
    s = (scripted){(const double[]){36.2, 0}, 0};
    ok(peak_measure_checked(0, scripted_measure, &s, &gbs, note, sizeof note) == 1 &&
           gbs == 36.2 && strstr(note, "a second time failed"),
       "nothing cached, the second measurement fails: the first kept, and that is said");
    s = (scripted){(const double[]){60.8, 36.5}, 0};
    ok(peak_measure_checked(36, scripted_measure, &s, &gbs, note, sizeof note) == 2 &&
           gbs == 36.5 && strstr(note, "measured 60.8 GB/s, +69% from the cached 36.0 GB/s") &&
           strstr(note, "the first was an outlier"),
       "60.8 against a cached 36: taken again, the outlier dropped (%s)", note);
    s = (scripted){(const double[]){60.8, 58}, 0};
    ok(peak_measure_checked(36, scripted_measure, &s, &gbs, note, sizeof note) == 2 &&
           gbs == 58 && strstr(note, "the device has changed"),
       "two new measurements that agree: the new figure is kept");
    s = (scripted){(const double[]){60.8, 90}, 0};
    ok(peak_measure_checked(36, scripted_measure, &s, &gbs, note, sizeof note) == 2 &&
           gbs == 60.8 && strstr(note, "median"),
       "three figures that all disagree: their median is kept");
    s = (scripted){(const double[]){60.8, 0}, 0};
    ok(peak_measure_checked(36, scripted_measure, &s, &gbs, note, sizeof note) == 1 &&
           gbs == 60.8 && strstr(note, "failed"),
       "measuring again fails: the first is kept, and that is said");
    s = (scripted){(const double[]){0}, 0};
    ok(peak_measure_checked(36, scripted_measure, &s, &gbs, note, sizeof note) == -1,
       "a failed measurement: -1");

    /* a stale file still gives the figure it holds, to compare with */
    rb_peak_key old = gpu;
    old.tool_version = "0.0.9";
    char when[40] = "", why[256];
    ok(peak_cache_store(dir, &old, 36, NULL, 0) == 0 &&
           peak_cache_load(dir, &gpu, &gbs, when, sizeof when, why, sizeof why, NULL) == RB_PEAK_STALE &&
           gbs == 36 && strlen(when) == 20,
       "a stale file gives its figure and when it was measured");
    char *path = peak_cache_path(dir, &gpu);
    unlink(path);
    free(path);
    ok(peak_cache_load(dir, &gpu, &gbs, when, sizeof when, why, sizeof why, NULL) == RB_PEAK_ABSENT &&
           gbs == 0,
       "no file: no figure");
}

int main(void)
{
    plan(76);
    alarm(60); /* a read that never ends fails the test instead of hanging it */
    const char *tmpdir = getenv("TMPDIR");
    char *dir = xasprintf("%s/rb-peaks.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        bail("cannot create a temporary folder");
    test_folder();
    test_store_and_find(dir);
    test_clocks_and_age(dir);
    test_load(dir);
    test_store_errors(dir);
    test_untrusted_files(dir);
    test_checked_measurement(dir);
    rmdir(dir);
    free(dir);
    return done();
}
