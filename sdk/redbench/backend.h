/* SPDX-License-Identifier: Apache-2.0 */
/* redbench/backend.h: the backend ABI, version 1.
 *
 * A backend is what a pack's strategies run on (the host CPU, a CUDA device,
 * ...). It gives the host what it needs to feed and time every strategy of
 * the pack in the same way: device properties, memory for the input, a queue
 * the plugins issue their work on, a timer, synchronization, a cache flush
 * and a measured peak bandwidth; since ABI 1.1 also timing modes, batches
 * of calls replayed as one (CUDA graphs), clock samples and profiler
 * ranges; since ABI 1.2 fill, write and copy of backend memory, and
 * whether that memory is addressed by pointers or by handles.
 *
 * A backend is a shared object in a pack folder that exports
 * redbench_backend_entry, returning a const struct rb_backend. The cpu
 * backend is built into the host. The same version rules as for plugins
 * apply (same major, minor not newer, size covers the fields read).
 */
#ifndef REDBENCH_BACKEND_H
#define REDBENCH_BACKEND_H

#include <stdarg.h>
#include <stdio.h>

#include <redbench/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REDBENCH_BACKEND_ENTRY_NAME "redbench_backend_entry"

#define RB_DEVICE_MAX_PROPS 24

/* A property shown in reports (e.g. "sm_count" = "132"). */
typedef struct rb_property {
    char key[32];
    char value[96];
} rb_property;

/* What a backend says about the device it opened. Filled by open. */
typedef struct rb_device_info {
    uint32_t size;         /* sizeof(struct rb_device_info) as built by the host */
    char name[128];        /* e.g. "NVIDIA H100 80GB HBM3" */
    char uuid[64];         /* stable identity; empty if none */
    double peak_gbs;       /* theoretical memory bandwidth in GB/s (1e9 B/s);
                              0 if unknown */
    uint64_t memory_bytes; /* memory usable for inputs; 0 if unknown */
    int cc_major, cc_minor;/* compute capability; 0 where it means nothing */
    uint32_t n_props;
    rb_property props[RB_DEVICE_MAX_PROPS];
} rb_device_info;

/* For backends: appends the property `key` = printf(fmt, ...) to info in
 * open; nothing once RB_DEVICE_MAX_PROPS are there. Too long a key or
 * value is cut to its field. */
static inline void rb_device_add_property(rb_device_info *info, const char *key,
                                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static inline void rb_device_add_property(rb_device_info *info, const char *key,
                                          const char *fmt, ...)
{
    if (info->n_props >= RB_DEVICE_MAX_PROPS)
        return;
    rb_property *p = &info->props[info->n_props++];
    snprintf(p->key, sizeof p->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->value, sizeof p->value, fmt, ap);
    va_end(ap);
}

/* How a backend times one run (the `timing` key of an experiment). */
enum rb_timing_mode {
    RB_TIMING_LAUNCH = 0, /* time_begin and time_end around one call on an
                             idle queue: the host's launch cost is included,
                             as an application calling once sees it */
    RB_TIMING_GRAPH = 1,  /* a batch of calls recorded once (a CUDA graph)
                             and replayed back to back; the time per call is
                             the batch's time / calls: what the device does */
    RB_TIMING_DEVICE = 2, /* one call, queued while the queue is held and then
                             released, so that the device runs it back to
                             back without the host's launch latency */
    RB_TIMING_COUNT_ = 3
};
#define RB_TIMING_BIT(mode) (1u << (mode))

/* Throttle reasons in rb_clock_sample.throttle_reasons: the bits of NVML's
 * clock event reasons, so a cuda backend copies them unchanged. */
#define RB_THROTTLE_IDLE 0x1ull            /* nothing to run: not a slowdown */
#define RB_THROTTLE_APP_CLOCKS 0x2ull      /* application clocks set lower */
#define RB_THROTTLE_SW_POWER_CAP 0x4ull    /* power management holds clocks down */
#define RB_THROTTLE_HW_SLOWDOWN 0x8ull     /* hardware slowdown (heat, power brake) */
#define RB_THROTTLE_SYNC_BOOST 0x10ull     /* clocks synchronized with other devices */
#define RB_THROTTLE_SW_THERMAL 0x20ull     /* software thermal slowdown */
#define RB_THROTTLE_HW_THERMAL 0x40ull     /* hardware thermal slowdown */
#define RB_THROTTLE_HW_POWER_BRAKE 0x80ull /* external power brake */
#define RB_THROTTLE_DISPLAY_CLOCKS 0x100ull/* display clock setting */
/* The reasons that make a measurement slower than the device can be. */
#define RB_THROTTLE_SLOWDOWN                                                   \
    (RB_THROTTLE_SW_POWER_CAP | RB_THROTTLE_HW_SLOWDOWN | RB_THROTTLE_SW_THERMAL |  \
     RB_THROTTLE_HW_THERMAL | RB_THROTTLE_HW_POWER_BRAKE)

/* The device's clocks at one moment. Filled by sample_clocks; 0 in a field
 * means not known. */
typedef struct rb_clock_sample {
    uint32_t size;             /* sizeof(struct rb_clock_sample) as built by
                                  the host; a backend MUST NOT write past it */
    uint32_t core_mhz;         /* the compute clock now: a GPU's SM clock, a
                                  CPU's mean core clock */
    uint32_t memory_mhz;       /* the memory clock now */
    uint32_t temperature_c;    /* the device's temperature */
    double power_w;            /* the power drawn now */
    uint64_t throttle_reasons; /* RB_THROTTLE_* bits active now (or, where
                                  the device only counts events, seen since
                                  the backend's previous sample) */
} rb_clock_sample;

typedef struct rb_backend {
    uint32_t abi_major, abi_minor, size; /* as in rb_plugin */
    const char *name;    /* what plugins name in their `backend` field */
    const char *summary; /* one line */
    const char *version;

    /* Counts the devices. Returns RB_OK and sets *count (0 is allowed), or
     * RB_ERROR with the reason (e.g. no driver) through host->error. */
    int (*device_count)(const rb_host *host, int *count);

    /* Opens device `device`, fills *info and returns a context in *ctx.
     * Returns RB_ERROR with the reason when there is no such device. */
    int (*open)(const rb_host *host, int device, void **ctx, rb_device_info *info);
    void (*close)(void *ctx);

    /* The queue plugins issue their work on (rb_config.queue). */
    void *(*queue)(void *ctx);

    /* Device memory for inputs. */
    int (*alloc)(void *ctx, size_t bytes, void **ptr);
    void (*release)(void *ctx, void *ptr);
    int (*upload)(void *ctx, void *dst, const void *src, size_t bytes);

    /* Timing: time_begin marks the start on the queue; time_end marks the
     * end, waits for the queue and stores the elapsed nanoseconds. */
    int (*time_begin)(void *ctx);
    int (*time_end)(void *ctx, double *elapsed_ns);

    /* Waits for all work on the queue. Returns RB_ERROR with the reason if
     * the device reported an error. */
    int (*synchronize)(void *ctx);

    /* Evicts the input from the caches the device has (cache = cold). */
    int (*flush_cache)(void *ctx);

    /* Measures the device's read bandwidth with a simple streaming kernel or
     * loop, in GB/s. */
    int (*measure_peak)(void *ctx, double *gbs);

    /* Called after a plugin failed: clears what can be cleared. Returns
     * RB_ERROR if the device is no longer usable in this process. */
    int (*recover)(void *ctx);

    /* ---- Added in ABI 1.1 ----
     * A backend built against 1.0 ends at `recover`: the host reads none of
     * the fields below from it (its `size` does not cover them), times it
     * with time_begin and time_end alone, and records that timing as the
     * backend's own. Every callback below is optional: NULL means the
     * backend does not offer it, and the host MUST check before calling. */

    /* The timing modes the backend offers: a mask of RB_TIMING_BIT(mode).
     * Set by the backend. RB_TIMING_GRAPH MUST only be set together with
     * batch_prepare, batch_time and batch_release; RB_TIMING_DEVICE only
     * with set_timing. */
    uint32_t timing_modes;

    /* Chooses how the following time_begin / time_end pairs time a run:
     * RB_TIMING_LAUNCH or RB_TIMING_DEVICE, one of timing_modes. The host
     * calls it before each configuration's warm-up; until the first call the
     * backend times as it did in ABI 1.0. Returns RB_OK, or RB_UNSUPPORTED
     * for a mode it does not offer. */
    int (*set_timing)(void *ctx, int mode);

    /* Graph timing. batch_prepare makes one batch of `calls` consecutive
     * calls of run(state) (the plugin's run) that batch_time can replay as a
     * whole: the cuda backend captures them into a CUDA graph (run is called
     * `calls` times during the capture); the cpu backend calls run `calls`
     * times inside each batch_time. When the plugin's work cannot be
     * recorded (run allocates memory or waits for the device), batch_prepare
     * MUST leave the queue usable and return RB_UNSUPPORTED, saying why
     * through the host's error. The host calls batch_prepare after the
     * warm-up, then batch_time once per repetition, then batch_release once
     * after every successful batch_prepare, before the plugin's verify.
     * batch_time replays the batch, waits for it, and stores the elapsed
     * nanoseconds of the whole batch (the host divides by calls). */
    int (*batch_prepare)(void *ctx, int (*run)(void *state), void *state, uint32_t calls);
    int (*batch_time)(void *ctx, double *elapsed_ns);
    void (*batch_release)(void *ctx);

    /* Reads the device's clocks and throttle reasons now into *out (whose
     * `size` the host sets). The host calls it after a configuration's
     * warm-up and again after its timed repetitions, and flags the row when
     * a slowdown reason was active at either. Returns RB_OK, or
     * RB_UNSUPPORTED when the backend cannot read them here (the cuda
     * backend needs NVML, which it loads at run time if present). SHOULD
     * take well under a millisecond. */
    int (*sample_clocks)(void *ctx, rb_clock_sample *out);

    /* Profiler ranges: the host calls range_push with a name made of the
     * run, the parameters, the op, the dtype and n before a configuration's
     * init, and range_pop after its teardown (always paired, never nested
     * by the host). The cuda backend makes them NVTX ranges in the domain
     * "redbench", so that nsys and ncu --nvtx can pick one configuration
     * out. MUST cost next to nothing when no profiler listens. */
    void (*range_push)(void *ctx, const char *name);
    void (*range_pop)(void *ctx);

    /* ---- Added in ABI 1.2 ----
     * Writing into backend memory where it lives, for the judge's probe
     * inputs (plugin.h, "Probes"): the host rewrites the contents of the
     * input between calls of an initialised plugin, never its address or
     * size. `buffer` is what alloc returned and `offset` a byte offset into
     * it, so that a backend whose memory is not addressed by pointers can
     * offer them too. Each waits until the write is done. All three are
     * optional: without write the host uploads to buffer + offset; without
     * fill it uploads a whole probe input from host memory; without copy it
     * uploads the input again after the probes. */

    /* Writes `count` copies of the `value_bytes`-byte value at `value`
     * (value_bytes is 1, 2, 4 or 8) from `offset` on. */
    int (*fill)(void *ctx, void *buffer, uint64_t offset, const void *value,
                uint32_t value_bytes, uint64_t count);

    /* Writes `bytes` bytes of host memory at `src` to `offset`: a few
     * elements, not a whole input. */
    int (*write)(void *ctx, void *buffer, uint64_t offset, const void *src, size_t bytes);

    /* Copies `bytes` bytes from the start of `src` to the start of `dst`,
     * two buffers of this backend that do not overlap. */
    int (*copy)(void *ctx, void *dst, const void *src, size_t bytes);

    /* What alloc returns (enum rb_memory_kind). RB_MEMORY_POINTER (0, and
     * what a backend older than 1.2 is taken to have): an address, so that
     * buffer + offset names byte `offset` of it. RB_MEMORY_HANDLE: an opaque
     * handle (vulkan: an rb_vulkan_buffer *); the host MUST NOT do
     * arithmetic on it or read through it: it writes into it only through
     * upload, fill, write and copy (which such a backend MUST offer), and
     * hands it to plugins unchanged as rb_config.input, with the elements'
     * place in rb_config.input_offset. RB_MEMORY_HOST: an address in
     * the host process's own memory, which the host may hand to plugins in
     * place of an upload; only the host's built-in cpu backend has it, and
     * a backend file that declares it is rejected. */
    uint32_t memory_kind;
} rb_backend;

/* Values of rb_backend.memory_kind. */
enum rb_memory_kind {
    RB_MEMORY_POINTER = 0, /* alloc returns an address (cuda) */
    RB_MEMORY_HANDLE = 1,  /* alloc returns a handle (vulkan) */
    RB_MEMORY_HOST = 2     /* the host's own memory (the built-in cpu backend) */
};

typedef const rb_backend *(*rb_backend_entry_fn)(void);

#define RB_BACKEND_ENTRY(descriptor)                                           \
    RB_EXPORT const rb_backend *redbench_backend_entry(void);                  \
    RB_EXPORT const rb_backend *redbench_backend_entry(void) { return &(descriptor); }

/* The fields every backend's descriptor starts with (plugin.h,
 * RB_ABI_FIELDS). */
#define RB_BACKEND_ABI_FIELDS RB_ABI_FIELDS(rb_backend)

#ifdef __cplusplus
}
#endif
#endif
