/* tests/run/timing/old-clock.c: a backend as a build against the ABI 1.0
 * headers makes it: minor 0 and the size of the 1.0 layout, which ends at
 * `recover`. It is followed in memory by fields of the 1.1 layout filled
 * with values that would crash a host reading past the declared size (a
 * mask claiming every timing mode, callbacks at address 1). The device is
 * host memory timed with CLOCK_MONOTONIC. A 1.1 host must load it, time its
 * runs its own way ("backend") and decline graph timing. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <redbench/backend.h>

/* rb_backend as ABI 1.0 defined it. */
struct rb_backend_1_0 {
    uint32_t abi_major, abi_minor, size;
    const char *name, *summary, *version;
    int (*device_count)(const rb_host *host, int *count);
    int (*open)(const rb_host *host, int device, void **ctx, rb_device_info *info);
    void (*close)(void *ctx);
    void *(*queue)(void *ctx);
    int (*alloc)(void *ctx, size_t bytes, void **ptr);
    void (*release)(void *ctx, void *ptr);
    int (*upload)(void *ctx, void *dst, const void *src, size_t bytes);
    int (*time_begin)(void *ctx);
    int (*time_end)(void *ctx, double *elapsed_ns);
    int (*synchronize)(void *ctx);
    int (*flush_cache)(void *ctx);
    int (*measure_peak)(void *ctx, double *gbs);
    int (*recover)(void *ctx);
};

_Static_assert(sizeof(struct rb_backend_1_0) == offsetof(rb_backend, timing_modes),
               "the 1.0 layout of rb_backend ends where the 1.1 fields begin");

typedef struct old_clock {
    struct timespec started;
} old_clock;

static int old_count(const rb_host *host, int *count)
{
    (void)host;
    *count = 1;
    return RB_OK;
}

static int old_open(const rb_host *host, int device, void **ctx, rb_device_info *info)
{
    if (device != 0) {
        host->error(host, "one device only");
        return RB_ERROR;
    }
    *ctx = calloc(1, sizeof(old_clock));
    if (!*ctx)
        return RB_ERROR;
    uint32_t size = info->size;
    memset(info, 0, sizeof *info);
    info->size = size;
    strcpy(info->name, "old clock (host memory)");
    return RB_OK;
}

static void old_close(void *ctx) { free(ctx); }
static void *old_queue(void *ctx) { (void)ctx; return NULL; }

static int old_alloc(void *ctx, size_t bytes, void **ptr)
{
    (void)ctx;
    *ptr = malloc(bytes ? bytes : 1);
    return *ptr ? RB_OK : RB_ERROR;
}

static void old_release(void *ctx, void *ptr) { (void)ctx; free(ptr); }

static int old_upload(void *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx;
    memcpy(dst, src, bytes);
    return RB_OK;
}

static int old_begin(void *ctx)
{
    clock_gettime(CLOCK_MONOTONIC, &((old_clock *)ctx)->started);
    return RB_OK;
}

static int old_end(void *ctx, double *elapsed_ns)
{
    struct timespec now, *t0 = &((old_clock *)ctx)->started;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *elapsed_ns = (double)(now.tv_sec - t0->tv_sec) * 1e9 + (double)(now.tv_nsec - t0->tv_nsec);
    return RB_OK;
}

static int old_nothing(void *ctx) { (void)ctx; return RB_OK; }

static int old_peak(void *ctx, double *gbs)
{
    (void)ctx;
    *gbs = 1.0; /* a figure, not a measurement: this device is a test */
    return RB_OK;
}

/* The 1.0 descriptor, then what a careless host would read as 1.1 fields. */
static const struct {
    struct rb_backend_1_0 desc;
    uint32_t timing_modes;
    void *callbacks[8];
} old_clock_backend = {
    .desc = {
        .abi_major = 1,
        .abi_minor = 0,
        .size = sizeof(struct rb_backend_1_0),
        .name = "oldclock",
        .summary = "test backend built against ABI 1.0",
        .version = "1.0",
        .device_count = old_count,
        .open = old_open,
        .close = old_close,
        .queue = old_queue,
        .alloc = old_alloc,
        .release = old_release,
        .upload = old_upload,
        .time_begin = old_begin,
        .time_end = old_end,
        .synchronize = old_nothing,
        .flush_cache = old_nothing,
        .measure_peak = old_peak,
        .recover = old_nothing,
    },
    .timing_modes = 0xffffffffu,
    .callbacks = {(void *)1, (void *)1, (void *)1, (void *)1, (void *)1, (void *)1, (void *)1,
                  (void *)1},
};

RB_EXPORT const rb_backend *redbench_backend_entry(void);
RB_EXPORT const rb_backend *redbench_backend_entry(void)
{
    return (const rb_backend *)(const void *)&old_clock_backend;
}
