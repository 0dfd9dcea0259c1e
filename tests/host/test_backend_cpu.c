/* tests/host/test_backend_cpu.c: the built-in cpu backend: descriptor, device,
 * memory and upload, timer, cache flush and measured peak. */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/backend_cpu.h"
#include "host/descriptor_check.h"
#include "tap.h"

static char last_error[256];

static void capture_error(const rb_host *host, const char *fmt, ...)
{
    (void)host;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

static void ignore_log(const rb_host *host, int level, const char *fmt, ...)
{
    (void)host;
    (void)level;
    (void)fmt;
}

static const char *prop(const rb_device_info *info, const char *key)
{
    for (uint32_t k = 0; k < info->n_props; k++)
        if (strcmp(info->props[k].key, key) == 0)
            return info->props[k].value;
    return NULL;
}

int main(void)
{
    plan(23);
    rb_host host = {sizeof host, REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, ignore_log,
                    capture_error, NULL, NULL};
    const rb_backend *b = backend_cpu();
    ok(b->abi_major == REDBENCH_ABI_MAJOR && b->abi_minor == REDBENCH_ABI_MINOR &&
           b->size == sizeof(rb_backend),
       "the descriptor carries the ABI version and its size");
    is_str(b->name, "cpu", "the backend is named cpu");

    int count = -1;
    ok(b->device_count(&host, &count) == RB_OK && count == 1, "one device");

    void *ctx = NULL;
    rb_device_info info = {.size = sizeof info};
    ok(b->open(&host, 1, &ctx, &info) == RB_ERROR && strstr(last_error, "one device"),
       "device 1 does not exist: %s", last_error);

    ok(b->open(&host, 0, &ctx, &info) == RB_OK && ctx != NULL, "device 0 opens");
    ok(info.name[0] != '\0', "device name: %s", info.name);
    ok(info.memory_bytes > 0 && info.peak_gbs == 0, "memory is known, the theoretical peak is not");
    char cores[16];
    snprintf(cores, sizeof cores, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    is_str(prop(&info, "cores"), cores, "the cores property is the online CPUs");
    ok(prop(&info, "llc") != NULL, "the llc property: %s", prop(&info, "llc"));
    is_str(prop(&info, "peak_max_age_s"), "86400",
           "a cached peak of the host's memory is kept a day (peak_max_age_s)");
    ok(b->queue(ctx) == NULL, "the queue is NULL");

    size_t bytes = (size_t)80 << 20; /* large enough for the parallel copy */
    char *src = malloc(bytes), *dst = NULL;
    for (size_t k = 0; k < bytes; k++)
        src[k] = (char)(k * 7 + (k >> 20));
    ok(b->alloc(ctx, bytes, (void **)&dst) == RB_OK && ((uintptr_t)dst & 4095) == 0,
       "alloc gives page-aligned memory");
    ok(b->upload(ctx, dst, src, bytes) == RB_OK && memcmp(dst, src, bytes) == 0,
       "upload copies 80 MiB exactly");
    ok(b->upload(ctx, dst, src + 1, 1000) == RB_OK && memcmp(dst, src + 1, 1000) == 0,
       "upload copies a small block");
    ok(b->upload(ctx, dst, dst, bytes) == RB_OK, "upload onto itself does nothing");
    b->release(ctx, dst);
    free(src);

    double ns = 0;
    struct timespec pause = {0, 2000000};
    b->time_begin(ctx);
    nanosleep(&pause, NULL);
    int rc = b->time_end(ctx, &ns);
    ok(rc == RB_OK && ns >= 2e6 && ns < 1e9, "the timer measures a 2 ms sleep: %.0f ns", ns);
    ok(b->synchronize(ctx) == RB_OK && b->recover(ctx) == RB_OK, "synchronize and recover");
    ok(b->flush_cache(ctx) == RB_OK && b->flush_cache(ctx) == RB_OK, "the cache flush runs twice");

    double gbs = 0;
    rc = b->measure_peak(ctx, &gbs);
    ok(rc == RB_OK && gbs > 0.1 && gbs < 100000, "the measured peak: %.1f GB/s", gbs);

    b->time_begin(ctx);
    b->flush_cache(ctx);
    b->time_end(ctx, &ns);
    ok(ns > 0, "a flush takes %.2f ms", ns / 1e6);
    b->close(ctx);

    /* Host memory is the built-in backend's alone: a backend file that
     * declares it is rejected, naming the kinds it may declare. */
    ok(b->memory_kind == RB_MEMORY_HOST, "the cpu backend's memory is the host's");
    rb_backend other = *b;
    other.name = "imposter";
    rb_registry reg = {0};
    uint32_t callbacks = backend_callbacks(&other);
    int kept = backend_ok(&reg, "imposter.so", &other, callbacks);
    ok(!kept && reg.n_rejected == 1 &&
           strstr(reg.rejected[0].reason, "memory kind 2; valid: 0 (pointer) or 1 (handle)"),
       "a backend file declaring host memory is rejected: %s",
       reg.n_rejected ? reg.rejected[0].reason : "(not rejected)");
    other.memory_kind = RB_MEMORY_POINTER;
    ok(backend_ok(&reg, "imposter.so", &other, callbacks) && reg.n_rejected == 1,
       "... and kept when it declares pointers");
    registry_free(&reg);
    return done();
}
