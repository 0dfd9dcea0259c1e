/* SPDX-License-Identifier: Apache-2.0 */
/* redbench/plugin.h: the plugin ABI, version 1.
 *
 * A plugin is a shared object that wraps one reduction strategy. It exports
 * one function, redbench_plugin_entry, that returns a const descriptor
 * (struct rb_plugin). The host reads the descriptor, checks its version and
 * size, validates an experiment's parameters against the declared table, and
 * then drives the strategy through the callbacks:
 *
 *     describe -> init -> run (many times, timed by the host) -> verify -> teardown
 *
 * The host generates the input, uploads it through the pack's backend, times
 * every run and judges the result. A plugin only computes: it MUST NOT time
 * itself or judge its result, and it calls nothing in the host except through
 * the rb_host table it is handed.
 *
 * Probes: after the timed runs the host judges the strategy again on probe
 * inputs whose answer is exact in any order of operations (zeros with
 * planted values, a unique planted extreme, planted bytes). It writes them
 * into the same input buffer between calls of the same initialised plugin,
 * and once more before a fresh init. So between any two calls of run the
 * host MAY change the contents of cfg->input, but never its address or n:
 * a plugin MUST NOT keep anything derived from the input's values across
 * calls (no cached results, partial sums, or answers computed in init), and
 * each run MUST read the whole input as it is when run is called.
 *
 * Ranks: a plugin that declares a collective (rb_plugin.collective) can run
 * as several ranks, each a process of its own on one device, each holding
 * its own slice of the data (cfg->input, cfg->n elements). Every rank's run
 * computes the reduction of ALL ranks' slices: on every rank for an
 * all-reduce, on rank 0 for a reduce. The host starts the ranks, calls the
 * same callbacks in the same order on each, times each rank, and judges the
 * result of every rank that must hold it against the reference of the whole
 * data set. A communicator is set up in init; what its ranks must share (an
 * NCCL unique id, an address) goes through host->exchange.
 *
 * Rank groups (ABI 1.4): the host keeps a configuration's rank processes
 * up for the next configurations of the same plugin, rank count and
 * devices (within a round), as a worker on one device runs many
 * configurations. A plugin that declares group_open sets up there, once
 * per group on each rank, what can outlive a configuration (a
 * communicator); each configuration's init finds it in cfg->group and
 * still does its own init, run, verify and teardown. group_close undoes
 * group_open when the group ends in order; after a fault (a crash, a hang,
 * a rank that gives up) the host ends the rank processes instead, and the
 * next configuration gets a fresh group:
 *
 *     group_open -> (describe -> init -> run... -> verify -> teardown)... -> group_close
 *
 * Compatibility: the host accepts a plugin when abi_major equals its own and
 * abi_minor is not newer than its own. Fields are only ever appended to the
 * structs below; each struct that crosses the boundary carries its size so
 * that both sides read only what the other wrote.
 */
#ifndef REDBENCH_PLUGIN_H
#define REDBENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Minor versions: 1.0 the first; 1.1 appended timing modes, batches, clock
 * samples and profiler ranges to rb_backend (backend.h); 1.2 appended fill,
 * write and copy of backend memory and the kind of that memory to
 * rb_backend, for the probes below and for backends whose memory is not
 * addressed by pointers (vulkan), and the input's offset to rb_config; 1.3
 * appended ranks (see "Ranks" below): the rank and the number of ranks to
 * rb_config, the host's exchange to rb_host, and the collective a plugin
 * computes and how its ranks are started to rb_plugin; 1.4 appended rank
 * groups (see "Rank groups" above): group_open and group_close to
 * rb_plugin, the group's state to rb_config, and struct rb_group; and the
 * vector answer of an all-reduce to rb_result (elements, n_elements); 1.5
 * appended the half-precision dtypes RB_DTYPE_F16 and RB_DTYPE_BF16 (see
 * "Half precision" below; a plugin older than 1.5 is never offered them);
 * 1.6 appended shapes (see "Shapes" below): the shape to rb_config, the
 * shapes a plugin reduces to rb_plugin, and the argmax indices of its
 * answers to rb_result (a plugin older than 1.6 is never offered
 * rows > 1). */
#define REDBENCH_ABI_MAJOR 1
#define REDBENCH_ABI_MINOR 6

/* The name of the one symbol a plugin exports. */
#define REDBENCH_PLUGIN_ENTRY_NAME "redbench_plugin_entry"

#if defined(__GNUC__)
#define RB_EXPORT __attribute__((visibility("default")))
#else
#define RB_EXPORT
#endif

/* Status codes returned by every callback. */
enum rb_status {
    RB_OK = 0,          /* done */
    RB_ERROR = 1,       /* failed; the plugin SHOULD say why with host->error */
    RB_UNSUPPORTED = 2  /* declined (op, dtype, device, parameters); say why */
};

/* Operations. A plugin declares the ones it implements as a bit mask. */
enum rb_op {
    RB_OP_SUM = 0,       /* sum of all elements */
    RB_OP_MIN = 1,       /* smallest element */
    RB_OP_MAX = 2,       /* largest element */
    RB_OP_ARGMAX = 3,    /* largest element and the index of one occurrence */
    RB_OP_HISTOGRAM = 4, /* counts of u8 values in `bins` equal-width bins */
    RB_OP_COUNT_ = 5
};
#define RB_OP_BIT(op) (1u << (op))

/* Element types. A plugin declares the ones it accepts as a bit mask.
 *
 * Half precision (ABI 1.5): RB_DTYPE_F16 is IEEE 754 binary16 (1 sign, 5
 * exponent, 10 fraction bits) and RB_DTYPE_BF16 is bfloat16 (the top 16
 * bits of an f32: 1 sign, 8 exponent, 7 fraction bits), both 2 bytes,
 * little-endian, as machine-learning code stores them (<redbench/half.h>
 * converts them). What a plugin hands back in rb_result for them:
 * - sum: the sum as an f32 value in `f`, accumulated in f32 or wider. A
 *   plugin MUST NOT accumulate in the half type itself (it stalls: an f16
 *   sum of values below 1 stops growing at 2048) and SHOULD NOT round the
 *   result to it; the host judges the sum with f32's tolerance;
 * - min, max: the element's value, exact (every f16 and bf16 value is an
 *   f32 value), in `f`;
 * - argmax: that value in `f` and the index of an element holding it in
 *   `index`.
 * A host only offers these dtypes to plugins of ABI 1.5 or newer: an older
 * plugin's dtype mask is read with the dtypes its version knew. */
enum rb_dtype {
    RB_DTYPE_I32 = 0,
    RB_DTYPE_I64 = 1,
    RB_DTYPE_F32 = 2,
    RB_DTYPE_F64 = 3,
    RB_DTYPE_U8 = 4,
    RB_DTYPE_F16 = 5,  /* ABI 1.5 */
    RB_DTYPE_BF16 = 6, /* ABI 1.5 */
    RB_DTYPE_COUNT_ = 7
};
#define RB_DTYPE_BIT(t) (1u << (t))

/* Shapes (ABI 1.6): one configuration may ask for many reductions at once,
 * one answer per row or per column of the input:
 *
 *   rows, cols     the input is `rows` rows of `cols` elements, row-major
 *                  (cfg->n = rows x cols elements in all); rows = 1 with
 *                  RB_AXIS_ROW is the one reduction of n elements of 1.5
 *   RB_AXIS_ROW    answer r reduces row r: elements [r x cols, (r + 1) x
 *                  cols); `rows` answers (softmax, norms: the last dimension)
 *   RB_AXIS_COLUMN answer c reduces column c: elements c, cols + c,
 *                  2 cols + c, ... (`rows` of them); `cols` answers (bias
 *                  gradients, batch statistics: the first dimension)
 *   ragged         (RB_AXIS_ROW only) row r is elements [offsets[r],
 *                  offsets[r + 1]) instead: rows + 1 uint64_t offsets,
 *                  offsets[0] = 0 and offsets[rows] = n, lengths drawn
 *                  around cols, empty rows among them (CSR rows,
 *                  variable-length sequences), as CUB's
 *                  DeviceSegmentedReduce takes them
 *
 * Answers: verify copies the n_answers answers, in row (or column) order,
 * into rb_result.elements (the host's buffer, host memory) and sets
 * n_elements = n_answers; for argmax also each answer's index into
 * rb_result.indices: the position in its row (0 .. length - 1) or, for a
 * column, the row that holds the maximum. An answer has the dtype's type
 * (integer sums wrap like the dtype), except for f16 and bf16, whose
 * answers are f32 (sums accumulated in f32 or wider; min, max and
 * argmax's value exact). The answer of an empty row is the operation's
 * identity: sum 0; min the dtype's largest value (+infinity for floating
 * types); max and argmax's value its smallest (-infinity), argmax's
 * index 0. The host judges every answer against its own reference, with a
 * tolerance for its own length, and names the first wrong one.
 *
 * A plugin of ABI 1.6 or newer declares the shapes it reduces in
 * rb_plugin.shapes (RB_SHAPE_* bits; 0: one reduction only). The host
 * offers a shaped configuration (rows > 1, or a column or ragged one)
 * only to a plugin that declares that shape; another's row is
 * `unsupported` without calling it. */
enum rb_axis { RB_AXIS_ROW = 0, RB_AXIS_COLUMN = 1 };

#define RB_SHAPE_ROWS 0x1u    /* rows > 1 along RB_AXIS_ROW, fixed lengths */
#define RB_SHAPE_COLUMNS 0x2u /* RB_AXIS_COLUMN */
#define RB_SHAPE_RAGGED 0x4u  /* ragged rows (offsets) */

/* Log levels for rb_host.log. */
enum rb_log_level { RB_LOG_ERROR = 0, RB_LOG_WARN = 1, RB_LOG_INFO = 2, RB_LOG_DEBUG = 3 };

/* Services the host offers to plugins. The host fills it; a plugin MUST NOT
 * write to it and MUST check `size` before using a field appended after
 * version 1.0. */
typedef struct rb_host {
    uint32_t size;      /* sizeof(struct rb_host) as built by the host */
    uint32_t abi_major; /* the host's ABI version */
    uint32_t abi_minor;
    /* Writes a message to the host's log (standard error), tagged with the
     * plugin's name. MUST NOT be used to print results. */
    void (*log)(const struct rb_host *host, int level, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;
    /* Records why the callback in progress fails or declines. The text ends
     * up in the configuration's `reason`. The last call wins. */
    void (*error)(const struct rb_host *host, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;
    void *host_data; /* the host's own; a plugin MUST NOT touch it */
    /* ---- Added in ABI 1.3 ----
     * Gathers `bytes` bytes from every rank: each rank passes its own in
     * `mine`, and `all` receives n_ranks * bytes, rank k's at k * bytes
     * (rank 0's bytes are what a broadcast from rank 0 would give). Every
     * rank MUST call it the same number of times with the same `bytes`, at
     * most RB_EXCHANGE_MAX. For setting a communicator up (init); it goes
     * through the host and is not for timed work. With one rank it copies
     * `mine`. Returns RB_OK, or RB_ERROR when a rank is gone. */
    int (*exchange)(const struct rb_host *host, const void *mine, size_t bytes, void *all);
} rb_host;

/* The most bytes one rank hands to rb_host.exchange at a time. */
#define RB_EXCHANGE_MAX 4096

/* Parameter types. */
enum rb_param_type {
    RB_PARAM_INT = 1,    /* a whole number within [min, max] */
    RB_PARAM_CHOICE = 2, /* one word of `choices` */
    RB_PARAM_BOOL = 3    /* true/false, yes/no, on/off, 1/0 */
};

/* Flags for RB_PARAM_INT. */
#define RB_PARAM_POW2 0x1u /* the value must be a power of two */
#define RB_PARAM_AUTO 0x2u /* the word "auto" is accepted; the plugin sees 0 */

/* One parameter a plugin accepts, declared as data. The host validates every
 * value in an experiment file against it and prints it for --describe. */
typedef struct rb_param_spec {
    const char *name;          /* key in a [run] section; lower case, [a-z0-9_] */
    int type;                  /* enum rb_param_type */
    const char *default_value; /* as it would be written in an experiment file */
    int64_t min, max;          /* RB_PARAM_INT: inclusive range */
    const char *const *choices;/* RB_PARAM_CHOICE: NULL-terminated word list */
    uint32_t flags;            /* RB_PARAM_POW2 | RB_PARAM_AUTO */
    const char *help;          /* one line, at most 256 bytes */
} rb_param_spec;

/* A validated parameter value, in the plugin's declaration order. */
typedef struct rb_param_value {
    const char *name; /* the spec's name */
    int64_t i;        /* INT: the value (0 for "auto"); BOOL: 0 or 1;
                         CHOICE: the index of the word in `choices` */
    const char *text; /* the value as written, normalized (e.g. "256", "auto") */
} rb_param_value;

/* One configuration, as the host hands it to describe and init. Valid from
 * the call to init until teardown returns; the plugin MAY keep the pointer. */
typedef struct rb_config {
    uint32_t size;  /* sizeof(struct rb_config) as built by the host */
    int op;         /* enum rb_op */
    int dtype;      /* enum rb_dtype */
    uint64_t n;     /* number of elements (>= 1) */
    uint32_t bins;  /* RB_OP_HISTOGRAM: number of bins (1..256); the bin of
                       byte b is b * bins / 256 */
    int device;     /* the backend's device index */
    void *queue;    /* the backend's queue: a cudaStream_t for the cuda
                       backend, NULL for the cpu backend, an rb_vulkan_queue *
                       for the vulkan backend (<redbench/vulkan.h>). All
                       device work of run MUST be issued on it. */
    const void *input; /* n elements of dtype in backend memory (a device
                          pointer for cuda; for vulkan the rb_vulkan_buffer
                          that holds them, from input_offset on). Read-only.
                          NULL in describe. */
    const rb_param_value *params; /* one per declared parameter, in order */
    uint32_t n_params;
    const rb_host *host;

    /* ---- Added in ABI 1.2 ----
     * A host older than 1.2 does not set the fields below: a plugin that
     * reads one checks first that `size` covers it (a plugin built against
     * 1.2 is only loaded by a 1.2 or newer host, which always sets them). */

    /* Where the input starts, in bytes, inside the backend memory that
     * `input` names. For backends whose memory is addressed by pointers
     * (cpu, cuda: rb_backend.memory_kind is RB_MEMORY_HOST or
     * RB_MEMORY_POINTER) it is 0 and `input` points at the first element. For a backend whose memory is a
     * handle (vulkan: `input` is a const rb_vulkan_buffer *, see
     * <redbench/vulkan.h>) the n elements start input_offset bytes into the
     * buffer; a plugin adds it to the buffer's device address or descriptor
     * offset. The host keeps it the same for the life of a configuration. */
    uint64_t input_offset;
    /* ---- Added in ABI 1.3 ----
     * This process's rank and the number of ranks (0 and 1 on one device).
     * `n` is this rank's count; the ranks' slices together hold n_total
     * elements, this one from global index rank_offset on. */
    uint32_t rank;
    uint32_t n_ranks;
    uint64_t n_total;
    uint64_t rank_offset;
    /* ---- Added in ABI 1.4 ----
     * What the plugin's group_open made for the rank group this
     * configuration runs in (see "Rank groups" above); NULL when the plugin
     * has no group_open, or on one device. Valid until teardown returns; the
     * plugin MUST NOT free it in teardown. */
    void *group;
    /* ---- Added in ABI 1.6 ----
     * The shape (see "Shapes" above). A host older than 1.6 sets none of
     * these: rows 1, cols n, RB_AXIS_ROW, no offsets. */
    uint64_t rows;       /* rows of the input (>= 1) */
    uint64_t cols;       /* elements of each row (fixed lengths); ragged:
                            the mean length, n / rows */
    uint32_t axis;       /* enum rb_axis */
    uint32_t ragged;     /* 1: rows' lengths come from offsets */
    uint64_t n_answers;  /* rows (RB_AXIS_ROW) or cols (RB_AXIS_COLUMN) */
    const void *offsets; /* ragged: rows + 1 uint64_t in backend memory, as
                            `input` is (a device pointer for cuda; for
                            vulkan the rb_vulkan_buffer that holds them,
                            from offsets_offset on). Read-only; the same for
                            the life of a configuration. NULL otherwise,
                            and in describe (as `input` is) */
    uint64_t offsets_offset;
    const uint64_t *host_offsets; /* ragged: the same offsets in host memory,
                                     for init to plan with; NULL otherwise,
                                     and in describe */
} rb_config;

/* A rank group, as the host hands it to group_open (ABI 1.4): the rank
 * processes of the configurations that share a plugin, a rank count and
 * devices. The same on every configuration of the group. */
typedef struct rb_group {
    uint32_t size;     /* sizeof(struct rb_group) as built by the host */
    uint32_t rank;     /* this process's rank */
    uint32_t n_ranks;  /* the group's ranks (> 1) */
    int device;        /* the backend's device index of this rank */
    void *queue;       /* the backend's queue, as rb_config.queue */
    const rb_host *host; /* exchange works here as in init */
} rb_group;

/* What describe says about a configuration. */
typedef struct rb_description {
    char label[64]; /* optional short name shown in reports, e.g. "reduce3" */
} rb_description;

/* The result of the last run, handed to the host by verify. */
typedef struct rb_result {
    uint32_t size; /* sizeof(struct rb_result) as built by the host */
    /* SUM, MIN, MAX, ARGMAX: the value. Integer dtypes in `i`: an i32 or i64
     * sum wraps modulo 2^32 or 2^64 like the dtype; a u8 sum is the exact
     * count (modulo 2^64). Floating dtypes in `f` (f16 and bf16: see "Half
     * precision" above rb_dtype). */
    int64_t i;
    double f;
    uint64_t index;  /* ARGMAX: the index of an element equal to the maximum */
    uint64_t *bins;  /* HISTOGRAM: the host's buffer of n_bins counts */
    uint32_t n_bins;
    /* ---- Added in ABI 1.4 ----
     * The vector answer of an all-reduce across ranks: the host's buffer of
     * n elements of the dtype (host memory), offered to a plugin of ABI 1.4
     * or newer whose collective is RB_COLLECTIVE_ALLREDUCE (NULL
     * otherwise). A plugin whose run leaves the n-element, element-wise
     * reduction of all ranks' slices on every rank (what an all-reduce of
     * gradients returns, and nccl-tests times) MAY copy it here in verify
     * and set n_elements = n; the host then judges every element against
     * the element-wise reduction of the ranks' slices, and reduces the
     * vector itself to the one value that the verdict and the probes
     * judge (the plugin need not fill i or f). n_elements 0: the plugin
     * handed the one value as before. */
    void *elements;
    uint64_t n_elements;
    /* ---- Added in ABI 1.6 ----
     * Shapes (see "Shapes" above): elements holds one answer per row or
     * column, and for argmax `indices` (the host's buffer of n_answers)
     * each answer's index. NULL for other configurations. */
    uint64_t *indices;
} rb_result;

/* The descriptor. Returned by redbench_plugin_entry; MUST stay valid and
 * unchanged while the shared object is loaded. */
typedef struct rb_plugin {
    uint32_t abi_major; /* REDBENCH_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor; /* REDBENCH_ABI_MINOR the plugin was built with */
    uint32_t size;      /* sizeof(struct rb_plugin) the plugin was built with */

    const char *name;    /* unique within its pack; [a-z0-9_-], e.g. "tree" */
    const char *summary; /* one line */
    const char *version; /* the strategy's own version, e.g. "1.0" */
    const char *backend; /* the backend it runs on: "cpu", "cuda", ... */
    uint32_t ops;        /* RB_OP_BIT() mask */
    uint32_t dtypes;     /* RB_DTYPE_BIT() mask */
    const rb_param_spec *params; /* n_params entries; may be NULL if none */
    uint32_t n_params;

    /* Says whether this configuration can run here (op, dtype, parameters,
     * device). Returns RB_OK, or RB_UNSUPPORTED with the reason given through
     * cfg->host->error. Optional (NULL: every declared op/dtype is supported).
     * cfg->input is NULL. MUST NOT allocate device memory. */
    int (*describe)(const rb_config *cfg, rb_description *out);

    /* Prepares one configuration: workspace, output buffers. Stores what run
     * needs in *state. Required. */
    int (*init)(const rb_config *cfg, void **state);

    /* Computes one complete reduction of cfg->input, issuing all device work
     * on cfg->queue. MAY return before the device finishes; the host
     * synchronizes. Each call MUST produce the full result on its own (clear
     * accumulators inside run) from the input's contents at the time of the
     * call, which may differ from the previous call's (see "Probes" above).
     * Required. */
    int (*run)(void *state);

    /* Waits for the last run and copies its result to *result (host memory).
     * MUST NOT compare it with anything. Required. */
    int (*verify)(void *state, rb_result *result);

    /* Frees everything init allocated. Called once for every successful init.
     * Required. */
    void (*teardown)(void *state);
    /* ---- Added in ABI 1.3 ----
     * What the plugin computes across ranks (enum rb_collective); a plugin
     * built before 1.3, or with RB_COLLECTIVE_NONE, runs on one rank only. */
    uint32_t collective;
    /* How its ranks are started (enum rb_rank_launch). */
    uint32_t rank_launch;
    /* ---- Added in ABI 1.4 ----
     * Sets up, on one rank of a new rank group, what outlives a
     * configuration (see "Rank groups" above): called once per group on
     * every rank, before the first configuration's init, with the same
     * collective steps on each (host->exchange works as in init). Stores
     * its state in *group, which every configuration's rb_config.group then
     * holds. Returns RB_OK, or RB_ERROR with the reason (the configuration
     * fails and the group ends). MUST NOT keep anything derived from an
     * input's values. Optional (NULL: init sets up everything); a plugin
     * that sets it MUST set group_close. */
    int (*group_open)(const rb_group *group, void **state);
    /* Frees what group_open made, when the group ends in order (not after
     * a fault: the host then ends the processes). */
    void (*group_close)(void *state);
    /* ---- Added in ABI 1.6 ----
     * The shapes it reduces (RB_SHAPE_* bits; see "Shapes" above). */
    uint32_t shapes;
} rb_plugin;

/* What a plugin's ranks compute together. */
enum rb_collective {
    RB_COLLECTIVE_NONE = 0,      /* one device, no ranks */
    RB_COLLECTIVE_ALLREDUCE = 1, /* every rank ends with the whole reduction */
    RB_COLLECTIVE_REDUCE = 2     /* rank 0 ends with it */
};

/* How the host starts a plugin's ranks. */
enum rb_rank_launch {
    RB_RANK_LAUNCH_FORK = 0, /* processes the host forks, one per rank; what
                                the ranks share goes through rb_host.exchange */
    RB_RANK_LAUNCH_MPI = 1   /* MPI processes the host starts with mpirun: the
                                plugin calls MPI_Init and uses MPI_COMM_WORLD,
                                whose ranks are the host's */
};

typedef const rb_plugin *(*rb_plugin_entry_fn)(void);

/* Declares the entry point: RB_PLUGIN_ENTRY(my_descriptor) */
#define RB_PLUGIN_ENTRY(descriptor)                                            \
    RB_EXPORT const rb_plugin *redbench_plugin_entry(void);                    \
    RB_EXPORT const rb_plugin *redbench_plugin_entry(void) { return &(descriptor); }

/* The fields every descriptor starts with: the ABI version of the headers
 * it is compiled against, and the size of its type (rb_plugin, rb_backend)
 * in them. A plugin's descriptor begins with RB_PLUGIN_ABI_FIELDS:
 *     static const rb_plugin mine = {RB_PLUGIN_ABI_FIELDS, .name = "mine", ...}; */
#define RB_ABI_FIELDS(type)                                                    \
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(type)
#define RB_PLUGIN_ABI_FIELDS RB_ABI_FIELDS(rb_plugin)

/* A descriptor's parameters from an array of rb_param_spec, with its count:
 *     RB_PLUGIN_PARAMS(mine_params) sets .params and .n_params. */
#define RB_PLUGIN_PARAMS(table)                                                \
    .params = (table), .n_params = sizeof(table) / sizeof((table)[0])

/* Helpers for plugins: find a parameter's value by name (NULL if absent). */
static inline const rb_param_value *rb_param(const rb_config *cfg, const char *name)
{
    uint32_t k;
    for (k = 0; k < cfg->n_params; k++) {
        const char *a = cfg->params[k].name, *b = name;
        while (*a && *a == *b) { a++; b++; }
        if (*a == *b)
            return &cfg->params[k];
    }
    return NULL;
}

static inline int64_t rb_param_int(const rb_config *cfg, const char *name, int64_t fallback)
{
    const rb_param_value *v = rb_param(cfg, name);
    return v ? v->i : fallback;
}

/* For init: a zeroed state of `bytes` bytes (calloc; free it in teardown),
 * or NULL after telling the host "out of memory". */
static inline void *rb_state_alloc(const rb_config *cfg, size_t bytes)
{
    void *state = calloc(1, bytes);
    if (!state)
        cfg->host->error(cfg->host, "out of memory");
    return state;
}

/* Size in bytes of one element of a dtype. */
static inline size_t rb_dtype_size(int dtype)
{
    switch (dtype) {
    case RB_DTYPE_I32: case RB_DTYPE_F32: return 4;
    case RB_DTYPE_I64: case RB_DTYPE_F64: return 8;
    case RB_DTYPE_U8: return 1;
    case RB_DTYPE_F16: case RB_DTYPE_BF16: return 2;
    default: return 0;
    }
}

#ifdef __cplusplus
}
#endif
#endif
