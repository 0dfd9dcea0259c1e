/* src/host/backend_cpu.c: the built-in cpu backend. One device, the host: memory
 * is aligned host memory, the timer is CLOCK_MONOTONIC, a cache flush
 * writes and reads a buffer four times the size of all last-level caches,
 * and the measured peak is a streaming read of a large buffer by one thread
 * per online core.
 *
 * Timing modes: `launch` times one call (a call returns when its work is
 * done, so there is no separate device time: `device` is not offered and
 * the host falls back to `launch`); `graph` times a batch of calls made back
 * to back and divides by their number. Clock samples read the mean core
 * clock from /proc/cpuinfo and count thermal throttling events from sysfs
 * where the kernel offers them. */
#include "host/backend_cpu.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)
#define HUGE_PAGE (2 * MIB)
#define MAX_THREADS 256
#define FLUSH_MIN_BYTES (64 * MIB)
#define PEAK_BYTES (512 * MIB)
#define PEAK_PASSES 5
#define PEAK_MAX_AGE_S 86400 /* a cached peak is kept a day */
#define PARALLEL_COPY_BYTES (64 * MIB)

typedef struct cpu_context {
    const rb_host *host;
    unsigned cores;           /* online CPUs */
    size_t llc_bytes;         /* one last-level cache; 0 if unknown */
    unsigned llc_instances;   /* how many of them the online CPUs use */
    char *flush_buffer;       /* allocated by the first flush */
    size_t flush_bytes;
    unsigned flush_round;     /* changes what a flush writes */
    struct timespec started;  /* time_begin */
    int (*batch_run)(void *state); /* the batch batch_prepare recorded */
    void *batch_state;
    uint32_t batch_calls;
    uint64_t throttle_events; /* thermal throttle events at the last sample */
    int have_throttle_events; /* throttle_events holds a count */
} cpu_context;

/* ---- host facts ---- */

static unsigned online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

static uint64_t physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* The first line of a small text file, without its newline; 0 on success. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int found = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!found)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static void cpu_model(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    buf[0] = '\0';
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) != 0)
                continue;
            char *colon = strchr(line, ':');
            if (!colon)
                continue;
            char *name = colon + 1;
            name += strspn(name, " \t");
            name[strcspn(name, "\n")] = '\0';
            snprintf(buf, len, "%s", name);
            break;
        }
        fclose(f);
    }
    if (!buf[0]) {
        struct utsname u;
        snprintf(buf, len, "CPU (%s)", uname(&u) == 0 ? u.machine : "unknown");
    }
}

/* "32768K" -> bytes. */
static size_t parse_cache_size(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end == 'K')
        v *= 1024;
    else if (*end == 'M')
        v *= 1024 * 1024;
    return (size_t)v;
}

/* The last-level cache from sysfs: the highest-level data or unified cache
 * of cpu0, and the number of distinct instances of it (one per group of
 * CPUs that share one). Falls back to sysconf with one instance. */
static void last_level_cache(size_t *bytes, unsigned *instances)
{
    char path[128], text[256];
    int best_index = -1, best_level = 0;
    *bytes = 0;
    *instances = 0;
    for (int index = 0; index < 16; index++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
        if (read_line(path, text, sizeof text) != 0)
            break;
        int level = atoi(text);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", index);
        if (read_line(path, text, sizeof text) != 0 || strcmp(text, "Instruction") == 0)
            continue;
        if (level > best_level) {
            best_level = level;
            best_index = index;
        }
    }
    if (best_index >= 0) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size",
                 best_index);
        if (read_line(path, text, sizeof text) == 0)
            *bytes = parse_cache_size(text);
    }
    if (*bytes > 0) {
        /* an instance is named by the first CPU of its shared_cpu_list */
        long first_cpu[MAX_THREADS];
        long configured = sysconf(_SC_NPROCESSORS_CONF);
        for (long cpu = 0; cpu < configured && *instances < MAX_THREADS; cpu++) {
            snprintf(path, sizeof path,
                     "/sys/devices/system/cpu/cpu%ld/cache/index%d/shared_cpu_list", cpu,
                     best_index);
            if (read_line(path, text, sizeof text) != 0)
                continue; /* offline */
            long first = atol(text);
            unsigned k = 0;
            while (k < *instances && first_cpu[k] != first)
                k++;
            if (k == *instances)
                first_cpu[(*instances)++] = first;
        }
        if (*instances == 0)
            *instances = 1;
        return;
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) {
        *bytes = (size_t)l3;
        *instances = 1;
        return;
    }
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l2 > 0) {
        *bytes = (size_t)l2;
        *instances = 1;
    }
#endif
}

/* ---- memory ---- */

/* Aligned host memory; large blocks on huge pages where offered. */
static void *host_alloc(size_t bytes)
{
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 4096;
    void *p;
    if (posix_memalign(&p, align, bytes ? bytes : 1) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        madvise(p, bytes, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
    return p;
}

/* ---- work on every core ---- */

/* One thread's share of a job over a buffer. */
typedef struct slice_task {
    void (*work)(struct slice_task *task);
    pthread_mutex_t *gate;    /* held until every task is set up */
    pthread_barrier_t *start; /* the participants start each peak pass together */
    char *dst;
    const char *src;
    size_t bytes;
    unsigned value;           /* flush: what to write */
    unsigned passes;          /* peak: passes to run */
    double seconds[PEAK_PASSES];
    uint64_t sink;            /* what a read found, so that it is not skipped */
} slice_task;

static void *slice_main(void *arg)
{
    slice_task *task = arg;
    pthread_mutex_lock(task->gate);
    pthread_mutex_unlock(task->gate);
    task->work(task);
    return NULL;
}

/* Runs `work` on one slice of [dst or src, +bytes) per thread, split at
 * 64-byte boundaries, with up to `threads` threads (the caller is one of
 * them). Threads are started first, so that the slices and the barrier fit
 * the threads the system gave. Returns the number of participants. */
static unsigned run_slices(unsigned threads, void (*work)(slice_task *), char *dst,
                           const char *src, size_t bytes, const slice_task *common,
                           slice_task *tasks)
{
    pthread_t ids[MAX_THREADS];
    pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
    pthread_barrier_t start;
    unsigned count = 1;
    pthread_mutex_lock(&gate);
    for (; count < threads; count++) {
        tasks[count].gate = &gate;
        if (pthread_create(&ids[count], NULL, slice_main, &tasks[count]) != 0)
            break;
    }
    pthread_barrier_init(&start, NULL, count);
    size_t share = (bytes / count + 63) & ~(size_t)63;
    for (unsigned t = 0; t < count; t++) {
        size_t begin = share * t < bytes ? share * t : bytes;
        size_t end = begin + share < bytes ? begin + share : bytes;
        slice_task *task = &tasks[t];
        task->work = work;
        task->start = &start;
        task->dst = dst ? dst + begin : NULL;
        task->src = src ? src + begin : NULL;
        task->bytes = end - begin;
        task->value = common->value;
        task->passes = common->passes;
        memset(task->seconds, 0, sizeof task->seconds);
        task->sink = 0;
    }
    pthread_mutex_unlock(&gate);
    work(&tasks[0]);
    for (unsigned t = 1; t < count; t++)
        pthread_join(ids[t], NULL);
    pthread_barrier_destroy(&start);
    pthread_mutex_destroy(&gate);
    return count;
}

/* A streaming read: eight independent sums of 64-bit words. */
static uint64_t read_words(const char *bytes, size_t len)
{
    const uint64_t *w = (const uint64_t *)bytes;
    size_t count = len / sizeof *w, k = 0;
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    for (; k + 8 <= count; k += 8) {
        a0 += w[k];
        a1 += w[k + 1];
        a2 += w[k + 2];
        a3 += w[k + 3];
        a4 += w[k + 4];
        a5 += w[k + 5];
        a6 += w[k + 6];
        a7 += w[k + 7];
    }
    for (; k < count; k++)
        a0 += w[k];
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

static void copy_work(slice_task *task) { memcpy(task->dst, task->src, task->bytes); }

static void flush_work(slice_task *task)
{
    memset(task->dst, (int)(task->value & 0xff), task->bytes);
    task->sink = read_words(task->dst, task->bytes);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void peak_work(slice_task *task)
{
    memset(task->dst, 1, task->bytes); /* each thread first touches what it reads */
    for (unsigned pass = 0; pass < task->passes; pass++) {
        pthread_barrier_wait(task->start);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        task->sink += read_words(task->dst, task->bytes);
        task->seconds[pass] = seconds_since(&t0);
    }
}

/* ---- the backend ---- */

static int cpu_device_count(const rb_host *host, int *count)
{
    (void)host;
    *count = 1;
    return RB_OK;
}

static int cpu_open(const rb_host *host, int device, void **ctx_out, rb_device_info *info)
{
    if (device != 0) {
        if (host && host->error)
            host->error(host, "the cpu backend has one device (0), not %d", device);
        return RB_ERROR;
    }
    cpu_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        if (host && host->error)
            host->error(host, "out of host memory");
        return RB_ERROR;
    }
    ctx->host = host;
    ctx->cores = online_cores();
    last_level_cache(&ctx->llc_bytes, &ctx->llc_instances);
    size_t all_llc = ctx->llc_bytes * ctx->llc_instances;
    ctx->flush_bytes = 4 * all_llc > FLUSH_MIN_BYTES ? 4 * all_llc : FLUSH_MIN_BYTES;

    uint32_t size = info->size ? info->size : (uint32_t)sizeof *info;
    memset(info, 0, sizeof *info);
    info->size = size;
    cpu_model(info->name, sizeof info->name);
    info->peak_gbs = 0; /* no theoretical figure for host memory */
    info->memory_bytes = physical_memory();
    rb_device_add_property(info, "cores", "%u", ctx->cores);
    if (ctx->llc_bytes)
        rb_device_add_property(info, "llc", "%.1f MiB x %u", (double)ctx->llc_bytes / (double)MIB,
                               ctx->llc_instances);
    else
        rb_device_add_property(info, "llc", "unknown");
    rb_device_add_property(info, "memory", "%.1f GiB", (double)info->memory_bytes / (1024.0 * MIB));
    /* the bandwidth the cores get depends on what else runs on the host
     * while it is measured: a cached peak is measured again after a day */
    rb_device_add_property(info, "peak_max_age_s", "%d", PEAK_MAX_AGE_S);
    *ctx_out = ctx;
    return RB_OK;
}

static void cpu_close(void *ctx_ptr)
{
    cpu_context *ctx = ctx_ptr;
    if (!ctx)
        return;
    free(ctx->flush_buffer);
    free(ctx);
}

static void *cpu_queue(void *ctx)
{
    (void)ctx;
    return NULL;
}

static int cpu_alloc(void *ctx_ptr, size_t bytes, void **ptr)
{
    cpu_context *ctx = ctx_ptr;
    *ptr = host_alloc(bytes);
    if (!*ptr) {
        if (ctx->host && ctx->host->error)
            ctx->host->error(ctx->host, "cannot allocate %.1f GiB of host memory",
                             (double)bytes / (1024.0 * MIB));
        return RB_ERROR;
    }
    return RB_OK;
}

static void cpu_release(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static int cpu_upload(void *ctx_ptr, void *dst, const void *src, size_t bytes)
{
    cpu_context *ctx = ctx_ptr;
    if (dst == src || bytes == 0)
        return RB_OK;
    if (bytes < PARALLEL_COPY_BYTES || ctx->cores == 1) {
        memcpy(dst, src, bytes);
        return RB_OK;
    }
    slice_task common = {0};
    slice_task tasks[MAX_THREADS];
    run_slices(ctx->cores, copy_work, dst, src, bytes, &common, tasks);
    return RB_OK;
}

/* ABI 1.2: writing into the input where it lives, for probe inputs. */
static int cpu_fill(void *ctx, void *buffer, uint64_t offset, const void *value,
                    uint32_t value_bytes, uint64_t count)
{
    (void)ctx;
    unsigned char *dst = (unsigned char *)buffer + offset;
    if (count == 0)
        return RB_OK;
    memcpy(dst, value, value_bytes);
    /* doubling copies: each memcpy copies what is written so far */
    uint64_t done = 1;
    while (done < count) {
        uint64_t step = done < count - done ? done : count - done;
        memcpy(dst + done * value_bytes, dst, (size_t)(step * value_bytes));
        done += step;
    }
    return RB_OK;
}

static int cpu_write(void *ctx, void *buffer, uint64_t offset, const void *src, size_t bytes)
{
    (void)ctx;
    memcpy((unsigned char *)buffer + offset, src, bytes);
    return RB_OK;
}

static int cpu_copy(void *ctx_ptr, void *dst, const void *src, size_t bytes)
{
    return cpu_upload(ctx_ptr, dst, src, bytes);
}

static int cpu_time_begin(void *ctx_ptr)
{
    cpu_context *ctx = ctx_ptr;
    clock_gettime(CLOCK_MONOTONIC, &ctx->started);
    return RB_OK;
}

static int cpu_time_end(void *ctx_ptr, double *elapsed_ns)
{
    cpu_context *ctx = ctx_ptr;
    *elapsed_ns = seconds_since(&ctx->started) * 1e9;
    return RB_OK;
}

static int cpu_synchronize(void *ctx)
{
    (void)ctx;
    return RB_OK;
}

static int cpu_flush_cache(void *ctx_ptr)
{
    cpu_context *ctx = ctx_ptr;
    if (!ctx->flush_buffer) {
        ctx->flush_buffer = host_alloc(ctx->flush_bytes);
        if (!ctx->flush_buffer) {
            if (ctx->host && ctx->host->error)
                ctx->host->error(ctx->host, "cannot allocate the %zu MiB cache flush buffer",
                                 ctx->flush_bytes / MIB);
            return RB_ERROR;
        }
    }
    slice_task common = {0};
    slice_task tasks[MAX_THREADS];
    common.value = ++ctx->flush_round;
    run_slices(ctx->cores, flush_work, ctx->flush_buffer, NULL, ctx->flush_bytes, &common,
               tasks);
    return RB_OK;
}

static int cpu_measure_peak(void *ctx_ptr, double *gbs)
{
    cpu_context *ctx = ctx_ptr;
    /* 4 times the last-level cache, so that no cache holds it (the rule of
     * %meas: rows of at least 4 times the cache read from memory), small
     * enough to fit memory */
    size_t bytes = 4 * ctx->llc_bytes * ctx->llc_instances;
    if (bytes < PEAK_BYTES)
        bytes = PEAK_BYTES;
    uint64_t memory = physical_memory();
    while (memory && bytes > memory / 4 && bytes > 16 * MIB)
        bytes /= 2;
    char *buffer = host_alloc(bytes);
    if (!buffer) {
        if (ctx->host && ctx->host->error)
            ctx->host->error(ctx->host, "cannot allocate %zu MiB to measure the peak",
                             bytes / MIB);
        return RB_ERROR;
    }
    slice_task common = {0};
    slice_task tasks[MAX_THREADS];
    common.passes = PEAK_PASSES;
    unsigned threads = run_slices(ctx->cores, peak_work, buffer, NULL, bytes, &common, tasks);
    free(buffer);

    double best = 0;
    for (unsigned pass = 0; pass < PEAK_PASSES; pass++) {
        double slowest = 0;
        for (unsigned t = 0; t < threads; t++)
            if (tasks[t].seconds[pass] > slowest)
                slowest = tasks[t].seconds[pass];
        if (slowest > 0 && (double)bytes / slowest > best)
            best = (double)bytes / slowest;
    }
    *gbs = best / 1e9;
    return best > 0 ? RB_OK : RB_ERROR;
}

static int cpu_recover(void *ctx)
{
    (void)ctx;
    return RB_OK;
}

/* ---- timing modes, batches, clocks (ABI 1.1) ---- */

static int cpu_set_timing(void *ctx_ptr, int mode)
{
    cpu_context *ctx = ctx_ptr;
    if (mode == RB_TIMING_LAUNCH)
        return RB_OK;
    if (ctx->host && ctx->host->error)
        ctx->host->error(ctx->host, "the cpu backend times single calls only as `launch`");
    return RB_UNSUPPORTED;
}

static int cpu_batch_prepare(void *ctx_ptr, int (*run)(void *state), void *state, uint32_t calls)
{
    cpu_context *ctx = ctx_ptr;
    if (!run || calls == 0) {
        if (ctx->host && ctx->host->error)
            ctx->host->error(ctx->host, "a batch needs a run callback and at least one call");
        return RB_ERROR;
    }
    ctx->batch_run = run;
    ctx->batch_state = state;
    ctx->batch_calls = calls;
    return RB_OK;
}

static int cpu_batch_time(void *ctx_ptr, double *elapsed_ns)
{
    cpu_context *ctx = ctx_ptr;
    if (!ctx->batch_run) {
        if (ctx->host && ctx->host->error)
            ctx->host->error(ctx->host, "batch_time without batch_prepare");
        return RB_ERROR;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint32_t k = 0; k < ctx->batch_calls; k++)
        if (ctx->batch_run(ctx->batch_state) != RB_OK)
            return RB_ERROR; /* the plugin said why */
    *elapsed_ns = seconds_since(&t0) * 1e9;
    return RB_OK;
}

static void cpu_batch_release(void *ctx_ptr)
{
    cpu_context *ctx = ctx_ptr;
    ctx->batch_run = NULL;
    ctx->batch_state = NULL;
    ctx->batch_calls = 0;
}

/* The mean of the "cpu MHz" lines of /proc/cpuinfo; 0 if there are none. */
static uint32_t mean_core_mhz(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double sum = 0;
    unsigned count = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "cpu MHz", 7) != 0)
            continue;
        const char *colon = strchr(line, ':');
        if (colon) {
            sum += strtod(colon + 1, NULL);
            count++;
        }
    }
    fclose(f);
    return count ? (uint32_t)(sum / count + 0.5) : 0;
}

/* The sum of the thermal throttle event counts of every online CPU, and
 * whether the kernel offers them at all. */
static int thermal_events(unsigned cores, uint64_t *events)
{
    static const char *const counters[] = {"core_throttle_count", "package_throttle_count"};
    char path[160], text[64];
    int found = 0;
    *events = 0;
    for (unsigned cpu = 0; cpu < cores; cpu++) {
        for (size_t k = 0; k < sizeof counters / sizeof *counters; k++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/thermal_throttle/%s",
                     cpu, counters[k]);
            if (read_line(path, text, sizeof text) == 0) {
                *events += strtoull(text, NULL, 10);
                found = 1;
            }
        }
    }
    return found;
}

static int cpu_sample_clocks(void *ctx_ptr, rb_clock_sample *out)
{
    cpu_context *ctx = ctx_ptr;
    if (!out || out->size < sizeof *out) {
        if (ctx->host && ctx->host->error)
            ctx->host->error(ctx->host, "the clock sample is smaller than this backend's");
        return RB_ERROR;
    }
    memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    out->core_mhz = mean_core_mhz();
    uint64_t events = 0;
    int counted = thermal_events(ctx->cores, &events);
    if (counted && ctx->have_throttle_events && events > ctx->throttle_events)
        out->throttle_reasons |= RB_THROTTLE_HW_THERMAL;
    if (counted) {
        ctx->throttle_events = events;
        ctx->have_throttle_events = 1;
    }
    if (out->core_mhz == 0 && !counted) {
        if (ctx->host && ctx->host->error)
            ctx->host->error(ctx->host, "neither /proc/cpuinfo nor sysfs show the clocks here");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static const rb_backend cpu_backend = {
    RB_BACKEND_ABI_FIELDS,
    .name = "cpu",
    .summary = "the host CPU: host memory, wall-clock timing, measured streaming-read peak",
    .version = "1.0",
    .device_count = cpu_device_count,
    .open = cpu_open,
    .close = cpu_close,
    .queue = cpu_queue,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .upload = cpu_upload,
    .time_begin = cpu_time_begin,
    .time_end = cpu_time_end,
    .synchronize = cpu_synchronize,
    .flush_cache = cpu_flush_cache,
    .measure_peak = cpu_measure_peak,
    .recover = cpu_recover,
    .timing_modes = RB_TIMING_BIT(RB_TIMING_LAUNCH) | RB_TIMING_BIT(RB_TIMING_GRAPH),
    .set_timing = cpu_set_timing,
    .batch_prepare = cpu_batch_prepare,
    .batch_time = cpu_batch_time,
    .batch_release = cpu_batch_release,
    .sample_clocks = cpu_sample_clocks,
    .range_push = NULL, /* no profiler ranges for host code */
    .range_pop = NULL,
    .fill = cpu_fill,
    .write = cpu_write,
    .copy = cpu_copy,
    .memory_kind = RB_MEMORY_HOST,
};

const rb_backend *backend_cpu(void) { return &cpu_backend; }
