/* src/base/names.h: the words users type and read for each set of names:
 * ops, dtypes, distributions, row statuses, probe verdicts, reproducibility
 * levels, energy sources, tune objectives, throttle reasons, timing modes
 * and output formats. Each set is one list (names.c), from which parsing,
 * help texts, error messages, reporters and the results reader take their
 * words. */
#ifndef RB_NAMES_H
#define RB_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>
#include <redbench/plugin.h>

/* Input distributions (the `distribution` data key). */
enum rb_distribution {
    RB_DIST_UNIFORM = 0, /* floats U[0,1) (f16, bf16: rounded to the format);
                            integers U[0,99]; bytes U[0,255] */
    RB_DIST_SIGNED,      /* floats U[-1,1) (as uniform); integers U[-100,100];
                            bytes U[0,255] */
    RB_DIST_SMALL,       /* whole numbers U[0,15] in any dtype */
    RB_DIST_ONES,        /* every element 1 */
    RB_DIST_FLOAT_BYTES, /* u8 only: the bytes of uniform floats (skewed bins) */
    RB_DIST_COUNT_
};

/* The status of one configuration's row. */
enum rb_row_status {
    RB_ROW_OK = 0,      /* ran and verified */
    RB_ROW_WRONG,       /* result outside tolerance */
    RB_ROW_FAILED,      /* error, crash or timeout */
    RB_ROW_UNSUPPORTED, /* the plugin or device declined */
    RB_ROW_SKIPPED,     /* not run (backend or plugin absent, interrupted) */
    RB_ROW_COUNT_
};

/* Whether a row was also judged on probe inputs (src/run/probe.h). */
enum rb_probes {
    RB_PROBES_NOT_RUN = 0, /* the row was not judged ok on its input first */
    RB_PROBES_PASSED,      /* every probe's result was exact: the row is proven */
    RB_PROBES_FAILED,      /* a probe's result was not: the row is wrong */
    RB_PROBES_OFF,         /* probes = off, --no-probes or --profile: unproven */
    RB_PROBES_COUNT_
};

/* How far a row's bits repeat, judged by the host from what it saw, never
 * claimed by the plugin (rows_reproducibility, run/row_finish.h). */
enum rb_repro {
    RB_REPRO_UNKNOWN = 0, /* not judged: not ok, or no repeated runs */
    RB_REPRO_VARIES,      /* repeated runs gave different bits */
    RB_REPRO_RUN_TO_RUN,  /* the same bits run after run (det = yes) */
    RB_REPRO_LAYOUT,      /* layout-independent: and the same bits for every
                             layout (parameter combination) of its plugin
                             on the same data in the run, two at least */
    RB_REPRO_EXACT,       /* the exact answer: integer types, min and max,
                             and sums of whole numbers too few to round */
    RB_REPRO_COUNT_
};

/* Where a row's energy came from (src/run/energy.h). */
enum rb_energy_source {
    RB_ENERGY_NONE = 0,  /* not measured: the row's energy_note says why */
    RB_ENERGY_COUNTER,   /* NVML's total energy counter, read at the edges */
    RB_ENERGY_SAMPLED,   /* NVML's power, sampled during the calls */
    RB_ENERGY_RAPL,      /* the CPU's RAPL counters (/sys/class/powercap) */
    RB_ENERGY_COUNT_
};

/* What `tune` minimises (the `objective` setting). */
enum rb_objective {
    RB_OBJECTIVE_TIME = 0, /* the median time per call */
    RB_OBJECTIVE_ENERGY,   /* the energy per call */
    RB_OBJECTIVE_EDP,      /* energy x delay: energy per call x time per call */
    RB_OBJECTIVE_COUNT_
};

/* Output formats of a run's results (--format, `format =`, -o's extension). */
/* A shape's row lengths ([data] lengths =): every row n elements, or
 * ragged lengths around n from offsets (redbench/plugin.h, "Shapes"). */
enum rb_lengths { RB_LENGTHS_FIXED = 0, RB_LENGTHS_RAGGED = 1, RB_LENGTHS_COUNT_ };

enum rb_format {
    RB_FORMAT_TABLE = 0, /* aligned columns for a terminal */
    RB_FORMAT_CSV,
    RB_FORMAT_JSON,
    RB_FORMAT_MD,        /* Markdown */
    RB_FORMAT_HTML,      /* one self-contained page with the plots */
    RB_FORMAT_SQLITE,    /* a history: the run appended to an SQLite database
                            (.db or .sqlite; src/history/) */
    RB_FORMAT_COUNT_
};

const char *op_name(int op);          /* "sum", ... */
const char *dtype_name(int dtype);    /* "f32", ... */
const char *distribution_name(int d); /* "uniform", ... */
const char *axis_name(int a);         /* enum rb_axis (redbench/plugin.h): "row", "column" */
const char *lengths_name(int l);      /* enum rb_lengths: "fixed", "ragged" */
const char *row_status_name(int s);   /* "ok", ... */
const char *probes_name(int p);       /* enum rb_probes: "passed", ... */
/* enum rb_repro: "varies", "run-to-run", "layout-independent", "exact";
 * NULL for unknown and out of range. */
const char *repro_name(int level);
const char *format_name(int f);       /* enum rb_format: "table", ... */
/* The host's own timing mode after those of enum rb_timing_mode: a batch of
 * calls launched one after the other without waiting, timed together in
 * launch mode (time_begin, run `calls` times, time_end), as an application
 * calling in a loop, or nccl-tests' eager column, sees them. Backends never
 * see it. */
enum { RB_TIMING_EAGER = RB_TIMING_COUNT_ };

/* enum rb_timing_mode and RB_TIMING_EAGER: "launch", "graph", "device",
 * "eager"; NULL for anything else. */
const char *timing_mode_name(int mode);

/* Return the value, or -1 for an unknown word. */
const char *energy_source_name(int s); /* enum rb_energy_source: "counter", ... */
const char *objective_name(int o);     /* enum rb_objective: "time", ... */
int energy_source_from_name(const char *word);

int op_from_name(const char *word);
int dtype_from_name(const char *word);
int distribution_from_name(const char *word);
int axis_from_name(const char *word);
int lengths_from_name(const char *word);
int format_from_name(const char *word);
int timing_mode_from_name(const char *word);
/* The format a file name's extension names (".csv", ".json", ".md",
 * ".html", ".sqlite" and ".db" a history), or -1 for none. */
int format_from_path(const char *path);

/* Comma-separated lists of every valid word, for error messages. */
const char *op_choices(void);
const char *dtype_choices(void);
const char *distribution_choices(void);
const char *axis_choices(void);
const char *lengths_choices(void);
/* The formats joined by `sep`: ", " for messages, "|" for usage lines. */
const char *format_choices(const char *sep);
/* "launch (one call timed, ...), graph (...), device (...), eager (...)":
 * each timing mode with what it measures. */
const char *timing_mode_choices(void);

/* The names of the RB_THROTTLE_* bits (redbench/backend.h) set in
 * `reasons`, comma-separated ("sw_power_cap, hw_thermal"), or "" for none;
 * bits without a name as "other 0x...". */
void throttle_reason_text(uint64_t reasons, char *buf, size_t len);

/* "sum, min" from a mask of RB_OP_BIT / RB_DTYPE_BIT; a static buffer per call
 * site is not used: the caller frees the result. */
char *op_mask_text(uint32_t mask);
char *dtype_mask_text(uint32_t mask);

#endif
