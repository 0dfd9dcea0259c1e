/* src/host/peak_cache.h: measured peak bandwidths kept across runs. Measuring a
 * device's read peak takes a calibration kernel (or loop) and a large
 * buffer; it is done once per device and kept in the user's cache folder
 * ($XDG_CACHE_HOME/redbench/peaks, else ~/.cache/redbench/peaks), one small
 * text file per device. A cached figure is used only when everything it
 * depends on is unchanged: the backend and its version, the device's name
 * and UUID (the host's name for devices without a UUID), the driver, the
 * device's clocks, and redbench's version; and, for a device whose
 * bandwidth depends on what else runs (a host's processor), only while it
 * is younger than the backend's limit. Anything else is measured again and
 * the file rewritten. Each file also says the load the figure was measured
 * under (the host's load average and its cores): for such a device, a
 * figure measured on a busy host is kept RB_PEAK_BUSY_MAX_AGE_S only, not
 * for the backend's whole limit. */
#ifndef RB_PEAK_CACHE_H
#define RB_PEAK_CACHE_H

#include <stddef.h>
#include <time.h>

/* What a cached peak depends on. NULL fields count as "". */
typedef struct rb_peak_key {
    const char *backend;         /* "cuda", "cpu" */
    const char *backend_version; /* the backend module's own version */
    const char *device;          /* the device's name */
    const char *uuid;            /* the device's UUID; "" when it has none */
    const char *host;            /* the host's name: names a device without a UUID */
    const char *driver;          /* driver version; "" when none */
    const char *clocks;          /* the device's clocks as the backend says them; "" */
    const char *tool_version;    /* redbench's version */
    long max_age_s;              /* a figure older than this is stale; 0: no limit
                                    (not a field of the file) */
} rb_peak_key;

enum rb_peak_lookup {
    RB_PEAK_CACHED = 0, /* found, and made under the same key */
    RB_PEAK_ABSENT,     /* no file for this device (or no cache folder) */
    RB_PEAK_STALE       /* a file, made under another key (versions differ) */
};

/* The load a figure was measured under: the host's 1-minute load average
 * (the runnable processes, redbench's own among them) against its cores. */
typedef struct rb_peak_load {
    double load1; /* < 0: unknown */
    int cores;    /* online processors; 0: unknown */
} rb_peak_load;

/* A host is busy when its load average, less the one process that
 * measures (RB_PEAK_OWN_LOAD), is at least this share of its cores: others
 * then take processor time and memory bandwidth from the measurement. */
#define RB_PEAK_BUSY_SHARE 0.5
#define RB_PEAK_OWN_LOAD 1.0
/* How long a figure measured on a busy host is kept (where the key has a
 * limit): long enough for a run's commands to share it, short enough that
 * it is not the yardstick for the rest of the day. */
#define RB_PEAK_BUSY_MAX_AGE_S 900

/* Reads the load from `path` (a /proc/loadavg: "1.52 0.80 0.33 ..."; NULL:
 * $REDBENCH_LOADAVG, a stand-in, else /proc/loadavg), with `cores` the
 * host's (0: the online processors). Returns 0, or -1 (load1 then -1). */
int peak_load_read(const char *path, int cores, rb_peak_load *out);

/* 1 when `load` is known and busy (RB_PEAK_BUSY_SHARE). */
int peak_load_busy(const rb_peak_load *load);

/* The load in words: "load 1.52 on 2 cores: busy", "load 0.10 on 16
 * cores", "load unknown". */
void peak_load_text(const rb_peak_load *load, char *out, size_t len);

/* The cache folder, newly allocated, or NULL when neither XDG_CACHE_HOME
 * nor HOME is set. */
char *peak_cache_dir(void);

/* The file that holds a device's peak in `dir`, newly allocated. */
char *peak_cache_path(const char *dir, const rb_peak_key *key);

/* Looks the device up. On RB_PEAK_CACHED sets *gbs and copies when it was
 * measured (ISO 8601 UTC) into `when`; on RB_PEAK_STALE `why` says which
 * field differs (or that the figure is older than key->max_age_s, or, for
 * a key with a limit, that it was measured on a busy host more than
 * RB_PEAK_BUSY_MAX_AGE_S ago), and *gbs and `when` are the figure the file
 * holds (0 and "" when it holds none), for a new measurement to be
 * compared with. `load` (may be NULL) gets the load the figure was
 * measured under (unknown for a file written without one). `dir` may be
 * NULL (absent). */
int peak_cache_load(const char *dir, const rb_peak_key *key, double *gbs, char *when,
                    size_t when_len, char *why, size_t why_len, rb_peak_load *load);

/* How long ago `stamp` (ISO 8601 UTC, as the cache writes it) was, in
 * seconds before `now`; -1 when it cannot be read. */
long peak_cache_age(const char *stamp, time_t now);

/* An age in words: "40 s", "12 min", "5 h", "3 days". */
void peak_cache_age_text(long seconds, char *out, size_t len);

/* Stores a measured peak, creating the folder; written to a temporary file
 * and renamed (src/base/safe_file.h), so that concurrent runs never read half a
 * file. Copies the time it records into `when`. Returns 0, or -1 with errno
 * set (EINVAL: something other than a regular file is in the file's place). */
int peak_cache_store(const char *dir, const rb_peak_key *key, double gbs, char *when,
                     size_t when_len);
/* The same, recording the load the figure was measured under (NULL:
 * unknown). */
int peak_cache_store_under(const char *dir, const rb_peak_key *key, double gbs,
                           const rb_peak_load *load, char *when, size_t when_len);

/* How far a new measurement may be from the cached figure, as a fraction
 * of the cached figure, before it is taken again. */
#define RB_PEAK_AGREEMENT 0.20

/* 1 when `measured` is more than RB_PEAK_AGREEMENT away from `reference`. */
int peak_disagrees(double reference, double measured);

/* One measurement of the peak: 0 and *gbs > 0, or -1. */
typedef int (*rb_peak_measure)(void *ctx, double *gbs);

/* Measures a peak and checks it against `cached` (the figure the cache
 * held, under this key or a stale one; 0: none). With none, the peak is
 * measured twice: when the two agree within RB_PEAK_AGREEMENT the second is
 * kept, else a third is taken and the median of the three kept, the
 * disagreement noted. A measurement more than
 * RB_PEAK_AGREEMENT away from it is taken again: if the second agrees with
 * the cached figure, the first was an outlier and the second is kept; if it
 * agrees with the first, the device has changed and the second is kept;
 * if all three differ, their median is kept. Sets *gbs to the figure kept
 * and `note` to the disagreement in one line ("" when none). Returns how
 * many measurements were taken, or -1 when the first failed. */
int peak_measure_checked(double cached, rb_peak_measure measure, void *ctx, double *gbs,
                         char *note, size_t note_len);

#endif
