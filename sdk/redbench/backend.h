/* redbench/backend.h: the backend ABI, version 1.
 *
 * A backend is what a pack's strategies run on (the host CPU, a CUDA device,
 * ...). It gives the host what it needs to feed and time every strategy of
 * the pack in the same way: device properties, memory for the input, a queue
 * the plugins issue their work on, a timer, synchronization, a cache flush
 * and a measured peak bandwidth.
 *
 * A backend is a shared object in a pack folder that exports
 * redbench_backend_entry, returning a const struct rb_backend. The cpu
 * backend is built into the host. The same version rules as for plugins
 * apply (same major, minor not newer, size covers the fields read).
 */
#ifndef REDBENCH_BACKEND_H
#define REDBENCH_BACKEND_H

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
} rb_backend;

typedef const rb_backend *(*rb_backend_entry_fn)(void);

#define RB_BACKEND_ENTRY(descriptor)                                           \
    RB_EXPORT const rb_backend *redbench_backend_entry(void);                  \
    RB_EXPORT const rb_backend *redbench_backend_entry(void) { return &(descriptor); }

#ifdef __cplusplus
}
#endif
#endif
