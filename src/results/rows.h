/* src/results/rows.h: what a run produced: one row per configuration, and the
 * run's metadata. The runner writes them, and so does the results reader
 * (results/read.h) from a file; reporters, figures and compare read them. */
#ifndef RB_RESULTS_ROWS_H
#define RB_RESULTS_ROWS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>

#include "base/stats.h"
#include "config/experiment.h"
#include "config/sweep.h"

/* One round of a configuration's measurement (rounds = K, run/runner.c). */
typedef struct rb_round {
    double median_ns;       /* the round's median */
    size_t reps;            /* its samples: the next `reps` of the row's
                               samples_ns, after the earlier rounds' */
    size_t position;        /* its place (from 0) in the round's order */
    const char *stopped_by; /* why its repetitions stopped (static) */
    int slowest_rank, fastest_rank; /* with ranks: the round's (rb_row) */
    double slowest_rank_ns, fastest_rank_ns;
    double energy_j;        /* the round's energy per call (all ranks' sum,
                               as rb_row's); 0 unknown */
} rb_round;

/* The ranks whose share of the energy a row keeps. */
#define RB_ENERGY_RANKS_MAX 64

/* The longest reason and energy note a row keeps, in bytes with the NUL
 * (a longer one is cut, row_set_reason). */
#define RB_ROW_REASON_MAX 512
#define RB_ROW_ENERGY_NOTE_MAX 256

/* The level, and the bits of the first verified result it was judged on. */
typedef struct rb_repro_judged {
    int level;          /* enum rb_repro (base/names.h) */
    int bits_known;     /* the first result was verified */
    uint64_t bits;      /* rules_result_bits of that result */
    uint64_t answer_elements; /* elements of the longest answer (n, all
                               ranks' slices, a column's rows, the longest
                               ragged row), at which whether it can round
                               is judged; 0 not judged */
} rb_repro_judged;

typedef struct rb_row {
    const rb_configuration *config;
    int status;             /* enum rb_row_status */
    char *reason;           /* why it is not ok; NULL when it has no reason
                               (row_reason reads it as ""). The row's own:
                               set with row_set_reason */
    char label[64];         /* the plugin's describe label, may be "" */
    uint64_t seed;          /* the input's seed */
    rb_stats stats;         /* nanoseconds per run */
    double *samples_ns;     /* stats.count samples, in run order */
    int multimodal_known;   /* the samples were checked for two groups
                               (rules_multimodal could tell) */
    int multimodal;         /* they fall into two groups apart: the median
                               may jump between them */
    rb_round *rounds;       /* each round that measured it, in round order
                               (samples_ns holds theirs one after another);
                               with more than one, stats.median is the
                               median of their medians and stats.noise the
                               relative half-width of its interval over
                               them. NULL in a worker's row */
    size_t n_rounds;
    double bandwidth_gbs;   /* n * element size / median, GB/s (1e9 B/s) */
    double pct_peak;        /* % of the device's theoretical peak (0 unknown) */
    double pct_measured_peak; /* % of the backend's measured peak (0 unknown) */
    double error;           /* |result - reference| */
    double tolerance;       /* bound applied (0: exact) */
    char result_text[64];
    char expected_text[64];
    const char *backend;    /* backend name, e.g. "cpu" */
    int device_index;       /* index into rb_run_info.devices, -1 if none */

    /* How it was measured. The strings are static. */
    const char *timing;     /* "launch", "graph", "device", "eager", or
                               "backend" (a backend of ABI 1.0 timed it its
                               own way); NULL when nothing was timed */
    uint32_t batch_calls;   /* graph and eager timing: calls per timed batch
                               (each sample is a batch's time / batch_calls) */
    const char *stopped_by; /* why the repetitions stopped: "noise" (the
                               target was met after min_time and min_reps),
                               "max_reps", "timeout", "profile" (--profile:
                               one run); NULL when nothing was timed */

    /* Accuracy and determinism, as results. */
    double error_ratio;     /* error / tolerance: 1 is the edge of passing;
                               for exact comparisons 0 when equal */
    int error_ratio_known;  /* 0 when not verified, or exact and unequal */
    int determinism;        /* enum rb_determinism */
    uint32_t determinism_results; /* results compared bit for bit */
    int probes;             /* enum rb_probes (base/names.h): the verdict on
                               probe inputs */
    uint32_t probes_passed; /* probes whose result was exact */
    rb_repro_judged repro;  /* how far its bits repeat, judged by the host
                               (rows_reproducibility, run/row_finish.h) */

    /* Clocks around the timed repetitions (after the warm-up, after the last
     * repetition), where the backend can read them. */
    int clocks_known;
    rb_clock_sample clocks_before, clocks_after;
    uint64_t throttle_reasons; /* RB_THROTTLE_SLOWDOWN bits seen in either */
    int throttled;          /* a slowdown reason was active */

    /* Energy over the timed calls (run/energy.h), with `energy = on`. */
    int energy_source;      /* enum rb_energy_source (base/names.h) */
    char *energy_note;      /* none: why; else how it was measured where
                               that is worth a note; NULL when nothing
                               (row_energy_note reads it as ""). The row's
                               own: set with row_set_energy_note */
    double energy_j;        /* joules per call (all ranks' sum); 0 unknown */
    double power_w;         /* average power over the calls measured */
    uint64_t energy_calls;  /* calls the energy covers */
    double energy_s;        /* seconds of wall time it covers */
    uint32_t sm_clock_min_mhz, sm_clock_max_mhz; /* compute clock seen
                               during the timed repetitions; 0 unknown */
    uint32_t energy_ranks;  /* ranks whose share is in rank_energy_j, at
                               most RB_ENERGY_RANKS_MAX */
    double *rank_energy_j;  /* each rank's energy per call (ranks > 1);
                               NULL when energy_ranks is 0. The row's own
                               (row_add_rank_energy) */

    /* Ranks (procs/ranks.h): 1 on one device. */
    uint32_t ranks;
    uint64_t n_total;       /* elements of all ranks' slices */
    double busbw_gbs;       /* bandwidth_gbs (per rank's bytes, algbw) times
                               the collective's bus factor: 2(r-1)/r for an
                               all-reduce, 1 for a reduce; 0 for a plugin
                               without a collective */
    int slowest_rank, fastest_rank; /* by their median time per call */
    double slowest_rank_ns, fastest_rank_ns;
    uint32_t wrong_ranks;   /* ranks whose result was judged wrong */
    double scaling;         /* against the one-rank row of the same
                               configuration in the run: its time over this
                               one's (n per rank), or over r times this
                               one's (n_scope = total); 0 unknown */
} rb_row;

/* Whether repeated runs of a configuration gave bit-identical results. */
enum rb_determinism {
    RB_DETERMINISM_UNKNOWN = 0, /* not checked (not verified, or
                                   determinism_runs = 0) */
    RB_DETERMINISM_SAME,        /* every result had the same bits */
    RB_DETERMINISM_DIFFERS      /* at least two results differed */
};

/* One device a backend opened during the run. */
typedef struct rb_device_record {
    char backend[32];
    int device;
    rb_device_info info;
    double measured_peak_gbs; /* 0 if not measured */
    int measured_peak_cached; /* taken from the peak cache, not measured now */
    char measured_peak_at[40];/* when it was measured (ISO 8601 UTC), "" unknown */
    char measured_peak_note[256]; /* a measurement far from the cached figure,
                                   * taken again (host/peak_cache.h); "" none */
} rb_device_record;

/* The most devices a run records. */
#define RB_RUN_DEVICES_MAX 8

typedef struct rb_run_info {
    const rb_experiment *experiment;
    const char *tool_version;
    const char *git_revision; /* the build's `git describe`, or "unknown" */
    char started[40];       /* ISO 8601 UTC */
    char host[128];
    char os[256];
    char cpu[128];
    char *command_line;
    rb_device_record devices[RB_RUN_DEVICES_MAX];
    size_t n_devices;
    double wall_seconds;
    int rounds;             /* rounds asked for (experiment_rounds) */
    int rounds_run;         /* rounds begun (fewer when interrupted) */
    size_t *round_order;    /* rounds x n_rows: round k's order of the
                               configurations it measured, by sweep index,
                               from round_order[k * n_rows]; SIZE_MAX ends
                               a round that measured fewer (an interrupted
                               one: those it began, the one in progress
                               last) */
} rb_run_info;

typedef struct rb_results {
    rb_run_info info;
    rb_row *rows;
    size_t n_rows;
} rb_results;

void results_free(rb_results *res);

/* What a row owns (its samples, rounds, reason, energy note and per-rank
 * energies) and the calls that set it. A row copied by value shares them:
 * one of the two copies must give them up (row_disown) before either is
 * released. */
void row_release(rb_row *row); /* frees them (the members become NULL, 0) */
void row_disown(rb_row *row);  /* the same without freeing: another copy owns them */
/* The reason, formatted and cut to RB_ROW_REASON_MAX - 1 bytes ("" clears
 * it). The arguments may point into the row's own reason. */
void row_set_reason(rb_row *row, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void row_set_reason_v(rb_row *row, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* The row's status (enum rb_row_status) and its reason, as row_set_reason. */
void row_set_status(rb_row *row, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for the energy note, cut to RB_ROW_ENERGY_NOTE_MAX - 1 bytes. */
void row_set_energy_note(rb_row *row, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void row_set_energy_note_v(rb_row *row, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* The texts, "" when there is none. */
const char *row_reason(const rb_row *row);
const char *row_energy_note(const rb_row *row);
/* Appends one rank's energy per call (up to RB_ENERGY_RANKS_MAX);
 * row_clear_rank_energy empties them. */
void row_add_rank_energy(rb_row *row, double joules);
void row_clear_rank_energy(rb_row *row);

/* The bytes a call of the row must read: n (all ranks' with ranks) x the
 * element's size; what bandwidth and J/GB are over. */
double results_row_bytes(const rb_row *row);

/* Joules per gigabyte (1e9 bytes) read: joules per call over the
 * gigabytes a call must read (results_row_bytes); 0 when unknown. */
double energy_j_per_gb(double joules_per_call, double bytes_per_call);

/* Counts of rows per status, indexed by enum rb_row_status. */
void results_count(const rb_results *res, size_t counts[]);

/* How the rows were timed, as every report says it: "device" when every
 * timed row used one mode, else each mode with its count of rows
 * ("launch (15 rows), device (16 rows)"); "" when no row was timed. */
void results_timing_text(const rb_results *res, char *text, size_t cap);

#endif
