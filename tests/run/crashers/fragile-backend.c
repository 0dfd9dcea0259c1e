/* tests/run/crashers/fragile-backend.c: the `fragile` backend: host memory and a
 * wall-clock timer like the cpu backend, but its context can be poisoned
 * (fragile.h). Each call of open appends a line to the file named by
 * FRAGILE_OPEN_LOG and each call of measure_peak one to FRAGILE_PEAK_LOG (the
 * word and the process's id), so that a test can count how often, and in how
 * many processes, the device was opened and measured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <redbench/backend.h>

#include "fragile.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void log_line(const char *variable, const char *line)
{
    const char *path = getenv(variable);
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "%s %ld\n", line, (long)getpid());
        fclose(f);
    }
}

static int fragile_device_count(const rb_host *host, int *count)
{
    (void)host;
    *count = 1;
    return RB_OK;
}

static int fragile_open(const rb_host *host, int device, void **ctx, rb_device_info *info)
{
    fragile_context *c;
    if (device != 0) {
        host->error(host, "the fragile backend has one device");
        return RB_ERROR;
    }
    c = calloc(1, sizeof *c);
    if (!c)
        return RB_ERROR;
    log_line("FRAGILE_OPEN_LOG", "opened");
    snprintf(info->name, sizeof info->name, "fragile test device");
    info->memory_bytes = (uint64_t)1 << 30;
    *ctx = c;
    return RB_OK;
}

static void fragile_close(void *ctx) { free(ctx); }
static void *fragile_queue(void *ctx) { return ctx; }

static int fragile_alloc(void *ctx, size_t bytes, void **ptr)
{
    fragile_context *c = ctx;
    if (c->sticky)
        return RB_ERROR;
    *ptr = malloc(bytes ? bytes : 1);
    return *ptr ? RB_OK : RB_ERROR;
}

static void fragile_release(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static int fragile_upload(void *ctx, void *dst, const void *src, size_t bytes)
{
    fragile_context *c = ctx;
    if (c->sticky)
        return RB_ERROR;
    memcpy(dst, src, bytes);
    return RB_OK;
}

static int fragile_time_begin(void *ctx)
{
    fragile_context *c = ctx;
    c->started_ns = now_ns();
    return c->sticky ? RB_ERROR : RB_OK;
}

static int fragile_time_end(void *ctx, double *elapsed_ns)
{
    fragile_context *c = ctx;
    *elapsed_ns = now_ns() - c->started_ns;
    if (*elapsed_ns <= 0)
        *elapsed_ns = 1;
    return c->sticky ? RB_ERROR : RB_OK;
}

static int fragile_synchronize(void *ctx)
{
    fragile_context *c = ctx;
    return c->sticky ? RB_ERROR : RB_OK;
}

static int fragile_flush_cache(void *ctx)
{
    (void)ctx;
    return RB_OK;
}

static int fragile_measure_peak(void *ctx, double *gbs)
{
    (void)ctx;
    log_line("FRAGILE_PEAK_LOG", "measured");
    *gbs = 1.0;
    return RB_OK;
}

static int fragile_recover(void *ctx)
{
    fragile_context *c = ctx;
    return c->sticky ? RB_ERROR : RB_OK;
}

static const rb_backend fragile_backend = {
    RB_BACKEND_ABI_FIELDS,
    .name = "fragile",
    .summary = "test backend whose context a plugin can poison",
    .version = "1.0",
    .device_count = fragile_device_count,
    .open = fragile_open,
    .close = fragile_close,
    .queue = fragile_queue,
    .alloc = fragile_alloc,
    .release = fragile_release,
    .upload = fragile_upload,
    .time_begin = fragile_time_begin,
    .time_end = fragile_time_end,
    .synchronize = fragile_synchronize,
    .flush_cache = fragile_flush_cache,
    .measure_peak = fragile_measure_peak,
    .recover = fragile_recover,
};

RB_BACKEND_ENTRY(fragile_backend)
