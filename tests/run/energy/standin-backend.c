/* tests/run/energy/standin-backend.c: the `standin` backend, host memory
 * dressed as an NVIDIA GPU: its device has an NVIDIA UUID (the stand-in
 * NVML's default, nvml-standin.c), so that the host reads its energy,
 * clocks and throttle reasons through NVML as it does a real GPU's. Timed
 * with CLOCK_MONOTONIC; launch and graph timing (a batch is its calls made
 * back to back). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <redbench/backend.h>

typedef struct standin {
    struct timespec started;
    int (*run)(void *state);
    void *state;
    uint32_t calls;
} standin;

static int sd_count(const rb_host *host, int *count)
{
    (void)host;
    *count = 1;
    return RB_OK;
}

static int sd_open(const rb_host *host, int device, void **ctx, rb_device_info *info)
{
    if (device != 0) {
        host->error(host, "one device only");
        return RB_ERROR;
    }
    *ctx = calloc(1, sizeof(standin));
    if (!*ctx)
        return RB_ERROR;
    strcpy(info->name, "stand-in GPU (host memory)");
    const char *uuid = getenv("REDBENCH_STANDIN_UUID");
    strcpy(info->uuid, uuid && strlen(uuid) < sizeof info->uuid
                           ? uuid : "GPU-5a17d000-0000-4000-8000-000000000001");
    return RB_OK;
}

static void sd_close(void *ctx) { free(ctx); }
static void *sd_queue(void *ctx) { (void)ctx; return NULL; }

static int sd_alloc(void *ctx, size_t bytes, void **ptr)
{
    (void)ctx;
    *ptr = malloc(bytes ? bytes : 1);
    return *ptr ? RB_OK : RB_ERROR;
}

static void sd_release(void *ctx, void *ptr) { (void)ctx; free(ptr); }

static int sd_upload(void *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx;
    memcpy(dst, src, bytes);
    return RB_OK;
}

static int sd_begin(void *ctx)
{
    clock_gettime(CLOCK_MONOTONIC, &((standin *)ctx)->started);
    return RB_OK;
}

static int sd_end(void *ctx, double *elapsed_ns)
{
    struct timespec now, *t0 = &((standin *)ctx)->started;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *elapsed_ns = (double)(now.tv_sec - t0->tv_sec) * 1e9 + (double)(now.tv_nsec - t0->tv_nsec);
    return RB_OK;
}

static int sd_nothing(void *ctx) { (void)ctx; return RB_OK; }

static int sd_peak(void *ctx, double *gbs)
{
    (void)ctx;
    *gbs = 1.0; /* a figure, not a measurement: this device is a test */
    return RB_OK;
}

static int sd_set_timing(void *ctx, int mode)
{
    (void)ctx;
    return mode == RB_TIMING_LAUNCH ? RB_OK : RB_UNSUPPORTED;
}

static int sd_batch_prepare(void *ctx, int (*run)(void *state), void *state, uint32_t calls)
{
    standin *s = ctx;
    s->run = run;
    s->state = state;
    s->calls = calls;
    return RB_OK;
}

static int sd_batch_time(void *ctx, double *elapsed_ns)
{
    standin *s = ctx;
    sd_begin(ctx);
    for (uint32_t k = 0; k < s->calls; k++)
        if (s->run(s->state) != RB_OK)
            return RB_ERROR;
    return sd_end(ctx, elapsed_ns);
}

static void sd_batch_release(void *ctx) { ((standin *)ctx)->calls = 0; }

static const rb_backend standin_backend = {
    RB_BACKEND_ABI_FIELDS,
    .name = "standin",
    .summary = "test backend: host memory with an NVIDIA UUID, for the stand-in NVML",
    .version = "1.0",
    .device_count = sd_count,
    .open = sd_open,
    .close = sd_close,
    .queue = sd_queue,
    .alloc = sd_alloc,
    .release = sd_release,
    .upload = sd_upload,
    .time_begin = sd_begin,
    .time_end = sd_end,
    .synchronize = sd_nothing,
    .flush_cache = sd_nothing,
    .measure_peak = sd_peak,
    .recover = sd_nothing,
    .timing_modes = RB_TIMING_BIT(RB_TIMING_LAUNCH) | RB_TIMING_BIT(RB_TIMING_GRAPH),
    .set_timing = sd_set_timing,
    .batch_prepare = sd_batch_prepare,
    .batch_time = sd_batch_time,
    .batch_release = sd_batch_release,
};

RB_BACKEND_ENTRY(standin_backend)
