/* src/config/experiment.h: an experiment file, read with inih. Holds the
 * [experiment] settings (checked and converted), the [data] defaults and the
 * [run NAME] sections as written (key, comma list, line), for sweep.c to
 * expand against the plugins' declared parameters. */
#ifndef RB_EXPERIMENT_H
#define RB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* The most devices `devices` lists. */
#define RB_DEVICES_MAX 1024

/* One `key = a, b, c` line. */
typedef struct rb_setting {
    char *key;
    char *text;    /* the value as written, trimmed */
    char **values; /* the comma list, each trimmed (one item if no comma) */
    size_t n_values;
    int line;
    int every_run; /* set in every run by a plain -D KEY=VALUE: a run whose
                      plugin has no such parameter leaves it out, and
                      sweep.c says so (an error only when no run's has) */
} rb_setting;

/* One [run NAME] section. */
typedef struct rb_run_section {
    char *name;
    int line;          /* line of the section header */
    rb_setting *settings; /* every key but the ones below, in file order */
    size_t n_settings, cap_settings;
    char *plugin;      /* `plugin = ...` (required) */
    int plugin_line;
    int optional;      /* `optional = true`: a missing plugin or backend
                          gives skipped rows instead of an error */
} rb_run_section;

enum rb_cache_mode { RB_CACHE_HOT = 0, RB_CACHE_COLD = 1 };

/* `peak`: where the measured peak bandwidth comes from. */
enum rb_peak_mode {
    RB_PEAK_USE_CACHE = 0, /* the user's cache when it holds one measured under
                              the same key, else measured and cached */
    RB_PEAK_MEASURE = 1    /* measured again, and the cache rewritten */
};

typedef struct rb_experiment {
    char *path;        /* as given on the command line */
    char *text;        /* the file verbatim */

    /* [experiment], with their defaults when absent */
    char *name;        /* default: the file's base name without .ini */
    int warmup;        /* warm-up runs before measuring; default 3 */
    double min_time;   /* seconds of measured time at least; default 0.5 */
    long min_reps;     /* repetitions at least; default 5 */
    long max_reps;     /* repetitions at most; default 1000 */
    double noise;      /* target relative noise of the median; default 0.01 */
    int cache;         /* enum rb_cache_mode; default hot */
    uint64_t seed;     /* default 1 */
    char *output;      /* default NULL (standard output) */
    char *format;      /* a word of enum rb_format (base/names.h); NULL: table */
    int device;        /* backend device index; default 0 */
    double timeout;    /* seconds per configuration; default 60 */
    int timing;        /* enum rb_timing_mode (redbench/backend.h); default
                          RB_TIMING_DEVICE */
    long graph_calls;  /* calls per graph batch; 0 (default): auto, a batch
                          of about a millisecond */
    int determinism_runs; /* extra run + verify pairs whose results are
                          compared bit for bit with the first; default 2,
                          0: not checked */
    int peak;          /* enum rb_peak_mode; default RB_PEAK_USE_CACHE */
    int probes;        /* 1 (default): every configuration is judged on probe
                          inputs too (src/run/probe.h); 0: `probes = off` or
                          --no-probes, and its rows are unproven */
    int *devices;      /* `devices = 0, 1, ...`: rank k runs on
                          devices[k % n_devices]; NULL (`all`, the
                          default): rank k on device k modulo the
                          backend's count, one rank on `device` */
    size_t n_devices;
    int n_total;       /* `n_scope = total`: n is split across the ranks;
                          0 (`rank`, the default): n on each rank */
    int rounds;        /* times every configuration is measured, each round
                          in a shuffled order and fresh workers; 0 (default,
                          `auto`): experiment_rounds decides */
    int energy;        /* 1 (`energy = on`): each row's energy, power and
                          clocks over its timed calls (run/energy.h);
                          0 (default) */
    double energy_min_time; /* seconds an energy measurement covers at
                          least; default 0.5 */
    int objective;     /* enum rb_objective (base/names.h): what tune
                          minimises; default time */
    int profile;       /* --profile: each configuration runs once, no
                          warm-up (set by the command line, not the file) */

    rb_setting *data;  /* [data] keys as written */
    size_t n_data, cap_data;
    rb_run_section *runs;
    size_t n_runs, cap_runs;

    /* The command-line options that set keys (-D KEY=VALUE, --device N), as
     * typed. A setting they made has line -(k + 1) for origins[k]:
     * setting_error names the option instead of a file line. */
    char **origins;
    size_t n_origins;
    /* Where each [experiment] key was set, by its row of config/settings.c's
     * table: a file line, an option's -(k + 1), or 0 when it was not set. */
    int *key_lines;
    /* 1 once the file's text was read and parsed (whatever errors it held):
     * its runs can then be checked further against the plugins found. */
    int parsed;
    /* The errors found in it, each printed as found (setting_error, and
     * the reader's and the sweep's checks): what the functions that load
     * and expand it count, instead of a count of the process. */
    rb_diagnostics diag;
} rb_experiment;

/* rounds = auto: RB_AUTO_ROUNDS rounds, or 1 when one round is estimated
 * (configurations x max(min_time, 0.01 s)) to take longer than
 * RB_AUTO_ROUNDS_LIMIT_S seconds. */
#define RB_AUTO_ROUNDS 3
#define RB_AUTO_ROUNDS_LIMIT_S 600.0
#define RB_MAX_ROUNDS 1000

/* The rounds a sweep of n_configs configurations gets: `rounds` as set, 1
 * under --profile, else the rule of `auto` above. */
int experiment_rounds(const rb_experiment *exp, size_t n_configs);

/* A key set on the command line, as if written in the file: an [experiment]
 * key is set; a data key (op, dtype, n, distribution, bins, ranks) replaces the one
 * of [data] and of every run section; any other key is set in every run
 * section (a plugin parameter in the runs whose plugin has it: see
 * rb_setting.every_run). RUN.KEY, where RUN is a run's name or a glob
 * (cpu-*.lanes), sets KEY in the runs it matches only, as if written in
 * their sections (an [experiment] key cannot be). Later ones win. */
typedef struct rb_override {
    const char *option; /* as typed, for messages: "-D n=3X", "--device 1" */
    const char *key;
    const char *value;
} rb_override;

/* The largest experiment file read (16 MiB); a larger one, or a pipe or
 * device that gives more, is an error naming the file. */
#define RB_EXPERIMENT_MAX_BYTES (16u << 20)

/* Every [experiment] key at its default, and `path` (copied; NULL: none):
 * what a file that sets nothing means (also for results read back). */
void experiment_defaults(rb_experiment *exp, const char *path);

/* Reads and checks the file's syntax and the [experiment] section. Prints
 * every error as "FILE:LINE: error: ..." through diag_at and returns the
 * number of errors (0: success). Plugin names and parameters are checked
 * later, by sweep_expand. */
int experiment_load(const char *path, rb_experiment *exp);

/* The same from text in memory (tests); `path` is only used in messages. */
int experiment_load_text(const char *path, const char *text, rb_experiment *exp);

/* experiment_load, then the overrides applied (before the cross-checks of
 * [experiment], so that they see the result) and checked like the file's
 * lines; their errors name the option. Returns the number of errors. */
int experiment_load_overridden(const char *path, const rb_override *overrides, size_t n,
                               rb_experiment *exp);

/* Keeps the run sections whose name matches one of the glob patterns
 * (fnmatch), in file order. A pattern that matches no run is an error
 * ("redbench: error: ...") naming it and the runs there are. Returns the
 * number of errors. */
int experiment_keep_runs(rb_experiment *exp, char *const *patterns, size_t n);

/* diag_at at a setting's place: the file and `line`, or, for a line below
 * 0, the command-line option that set it ("-D n=3X: error: ..."). */
/* Where the [experiment] setting stored at `offset` in rb_experiment (e.g.
 * offsetof(rb_experiment, output)) was set, for setting_error; 0 if not. */
int experiment_setting_line(const rb_experiment *exp, size_t offset);

void setting_error(rb_experiment *exp, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same place, as a warning ("FILE:LINE: ..." after "redbench:
 * warning:"); not counted as an error. */
void setting_warning(const rb_experiment *exp, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void experiment_free(rb_experiment *exp);

/* The words for the settings, as written in an experiment file: "hot" or
 * "cold"; "cached" or "measure" (the table of settings, config/settings.c,
 * holds them). */
const char *cache_mode_name(int cache);
const char *peak_mode_name(int peak);


#endif
