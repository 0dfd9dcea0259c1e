/* plugins/cuda/backend.cu: the cuda backend. Opens a device and describes
 * it (name, UUID, memory, compute capability, theoretical peak bandwidth from
 * the memory clock and bus width, and the properties shown in reports), owns
 * the non-blocking stream plugins issue their work on, times runs with events
 * on that stream, flushes the L2 for cache = cold, measures a read-bandwidth
 * peak with a streaming kernel, and tells recoverable errors from sticky
 * ones after a plugin failed.
 *
 * Timing. time_begin holds the stream with a one-thread kernel that waits
 * for a flag in mapped host memory, then records the start event; the
 * plugin's run queues its work behind it; time_end records the stop event
 * and releases the flag. The GPU thus runs the whole reduction back to back,
 * and the time between the events is the device's, not the host's launch
 * latency (as nvbench does). The hold gives up after HOLD_LIMIT_NS, so a
 * plugin that waits for its own work inside run (thrust::reduce returns its
 * result to the host) still finishes, and is timed as before. The
 * environment variable REDBENCH_CUDA_TIMING=plain turns the hold off: the
 * events then also measure the host's launch latency. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/backend.h>
#include <redbench/cuda_helpers.cuh>

typedef struct cuda_ctx {
    const rb_host *host;
    int device;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush_buffer;  /* 2 x L2, written by flush_cache */
    size_t flush_bytes;
    int sm_count;
    int hold;            /* hold the stream while the run is queued */
    volatile int *release_host; /* the hold's flag, in mapped host memory */
    int *release_device;
} cuda_ctx;

/* How long the hold waits for the host at most. */
#define HOLD_LIMIT_NS 200000ull

/* Says what failed through the host and returns RB_ERROR. */
static int fail(const rb_host *host, const char *what, cudaError_t e)
{
    host->error(host, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return RB_ERROR;
}

static int cuda_device_count(const rb_host *host, int *count)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    *count = 0;
    if (e == cudaErrorNoDevice)
        return RB_OK;
    if (e == cudaErrorInsufficientDriver) {
        host->error(host, "no usable CUDA driver (none installed, or older than the runtime "
                          "this pack was built with): %s", cudaGetErrorString(e));
        return RB_ERROR;
    }
    if (e != cudaSuccess)
        return fail(host, "cannot count CUDA devices", e);
    *count = n;
    return RB_OK;
}

static void add_prop(rb_device_info *info, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_prop(rb_device_info *info, const char *key, const char *fmt, ...)
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

static int attribute(cudaDeviceAttr what, int device)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, what, device) != cudaSuccess)
        v = 0;
    return v;
}

/* "12.8" from 12080. */
static void version_text(int v, char *out, size_t len)
{
    snprintf(out, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

static void describe_device(int device, const cudaDeviceProp *prop, rb_device_info *info)
{
    size_t name_len = strnlen(prop->name, sizeof info->name - 1);
    memcpy(info->name, prop->name, name_len);
    info->name[name_len] = '\0';
    const unsigned char *u = (const unsigned char *)prop->uuid.bytes;
    snprintf(info->uuid, sizeof info->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
             u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
             u[14], u[15]);
    info->cc_major = prop->major;
    info->cc_minor = prop->minor;

    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
        free_bytes = total_bytes = 0;
    info->memory_bytes = free_bytes;

    /* The memory clock is read as an attribute: CUDA 13 dropped it from
     * cudaDeviceProp. Data moves on both edges of the clock. */
    int mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
    int bus_width = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
    int sm_clock_khz = attribute(cudaDevAttrClockRate, device);
    info->peak_gbs = 2.0 * mem_clock_khz * 1e3 * (bus_width / 8.0) / 1e9;

    int driver = 0, runtime = 0;
    char text[32];
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);

    add_prop(info, "sm_count", "%d", prop->multiProcessorCount);
    add_prop(info, "l2_bytes", "%d", prop->l2CacheSize);
    add_prop(info, "bus_width", "%d", bus_width);
    add_prop(info, "mem_clock_khz", "%d", mem_clock_khz);
    add_prop(info, "sm_clock_khz", "%d", sm_clock_khz);
    add_prop(info, "memory_total_bytes", "%zu", total_bytes);
    add_prop(info, "shared_mem_per_block", "%zu", prop->sharedMemPerBlock);
    add_prop(info, "shared_mem_per_sm", "%zu", prop->sharedMemPerMultiprocessor);
    add_prop(info, "max_threads_per_sm", "%d", prop->maxThreadsPerMultiProcessor);
    add_prop(info, "ecc", "%s", prop->ECCEnabled ? "on" : "off");
    add_prop(info, "pci_bus_id", "%04x:%02x:%02x.0", prop->pciDomainID, prop->pciBusID,
             prop->pciDeviceID);
    version_text(driver, text, sizeof text);
    add_prop(info, "driver_version", "%s", text);
    version_text(runtime, text, sizeof text);
    add_prop(info, "runtime_version", "%s", text);
}

/* Lets a waiting hold_stream go (the stream then runs what is queued). */
static void release_hold(cuda_ctx *c)
{
    if (c->hold) {
        __sync_synchronize();
        *c->release_host = 1;
    }
}

static void release_ctx(cuda_ctx *c)
{
    if (c->release_host)
        cudaFreeHost((void *)c->release_host);
    if (c->flush_buffer)
        cudaFree(c->flush_buffer);
    if (c->start)
        cudaEventDestroy(c->start);
    if (c->stop)
        cudaEventDestroy(c->stop);
    if (c->stream)
        cudaStreamDestroy(c->stream);
    free(c);
}

static int cuda_open(const rb_host *host, int device, void **ctx, rb_device_info *info)
{
    int count = 0;
    *ctx = NULL;
    if (cuda_device_count(host, &count) != RB_OK)
        return RB_ERROR;
    if (count == 0) {
        host->error(host, "no CUDA device found");
        return RB_ERROR;
    }
    if (device < 0 || device >= count) {
        host->error(host, "no CUDA device %d: this machine has %d (valid: 0..%d)", device, count,
                    count - 1);
        return RB_ERROR;
    }
    cudaError_t e = cudaSetDevice(device);
    if (e != cudaSuccess)
        return fail(host, "cannot select the CUDA device", e);
    cudaDeviceProp prop;
    e = cudaGetDeviceProperties(&prop, device);
    if (e != cudaSuccess)
        return fail(host, "cannot read the device's properties", e);

    cuda_ctx *c = (cuda_ctx *)calloc(1, sizeof *c);
    if (!c) {
        host->error(host, "out of host memory");
        return RB_ERROR;
    }
    c->host = host;
    c->device = device;
    c->sm_count = prop.multiProcessorCount;
    if ((e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreate(&c->start)) != cudaSuccess ||
        (e = cudaEventCreate(&c->stop)) != cudaSuccess) {
        release_ctx(c);
        return fail(host, "cannot create the stream and events", e);
    }
    c->flush_bytes = 2 * (size_t)(prop.l2CacheSize > 0 ? prop.l2CacheSize : 64 << 20);

    const char *timing = getenv("REDBENCH_CUDA_TIMING");
    c->hold = !(timing && strcmp(timing, "plain") == 0);
    if (c->hold) {
        void *flag = NULL;
        if ((e = cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped)) != cudaSuccess ||
            (e = cudaHostGetDevicePointer((void **)&c->release_device, flag, 0)) != cudaSuccess) {
            if (flag)
                cudaFreeHost(flag);
            release_ctx(c);
            return fail(host, "cannot map the timing flag into device memory", e);
        }
        c->release_host = (volatile int *)flag;
        *c->release_host = 1;
    }

    if (info->size >= sizeof(rb_device_info)) {
        describe_device(device, &prop, info);
        add_prop(info, "timing", "%s", c->hold ? "held-stream" : "plain");
    }
    *ctx = c;
    return RB_OK;
}

static void cuda_close(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (!c)
        return;
    release_hold(c);
    cudaStreamSynchronize(c->stream);
    release_ctx(c);
}

static void *cuda_queue(void *ctx)
{
    return ((cuda_ctx *)ctx)->stream;
}

static int cuda_alloc(void *ctx, size_t bytes, void **ptr)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cudaError_t e = cudaMalloc(ptr, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        *ptr = NULL;
        c->host->error(c->host, "cannot allocate %zu bytes of device memory: %s", bytes,
                       cudaGetErrorString(e));
        cudaGetLastError();
        return RB_ERROR;
    }
    return RB_OK;
}

static void cuda_release(void *ctx, void *ptr)
{
    (void)ctx;
    if (ptr)
        cudaFree(ptr);
}

static int cuda_upload(void *ctx, void *dst, const void *src, size_t bytes)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(c->stream);
    if (e != cudaSuccess)
        return fail(c->host, "cannot copy the input to the device", e);
    return RB_OK;
}

/* Waits until the host sets *release, or limit_ns have passed. */
__global__ void hold_stream(const volatile int *release, unsigned long long limit_ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        if (*release)
            return;
        __nanosleep(500);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < limit_ns);
}

static int cuda_time_begin(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cudaError_t e = cudaSuccess;
    if (c->hold) {
        *c->release_host = 0;
        __sync_synchronize();
        hold_stream<<<1, 1, 0, c->stream>>>(c->release_device, HOLD_LIMIT_NS);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(c->start, c->stream);
    return e == cudaSuccess ? RB_OK : fail(c->host, "cannot record the start event", e);
}

static int cuda_time_end(void *ctx, double *elapsed_ns)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    float ms = 0;
    cudaError_t e = cudaEventRecord(c->stop, c->stream);
    release_hold(c);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(c->stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, c->start, c->stop);
    if (e != cudaSuccess)
        return fail(c->host, "the timed run failed", e);
    *elapsed_ns = ms * 1e6;
    return RB_OK;
}

static int cuda_synchronize(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    release_hold(c);
    cudaError_t e = cudaStreamSynchronize(c->stream);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    return e == cudaSuccess ? RB_OK : fail(c->host, "device error", e);
}

static int cuda_flush_cache(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    static unsigned char pattern;
    cudaError_t e = cudaSuccess;
    if (!c->flush_buffer && (e = cudaMalloc(&c->flush_buffer, c->flush_bytes)) != cudaSuccess) {
        c->flush_buffer = NULL;
        cudaGetLastError();
        return fail(c->host, "cannot allocate the L2 flush buffer", e);
    }
    /* Writing a buffer twice the L2's size leaves none of the input there. */
    e = cudaMemsetAsync(c->flush_buffer, ++pattern, c->flush_bytes, c->stream);
    return e == cudaSuccess ? RB_OK : fail(c->host, "cannot flush the L2", e);
}

/* Reads `count` 16-byte words with several loads in flight per thread; the
 * sum is stored only if it matches an impossible value, so that the loads
 * cannot be optimized away. */
__global__ void stream_read(const uint4 *__restrict__ data, size_t count, unsigned *sink)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (; i + 3 * stride < count; i += 4 * stride) {
        uint4 a = data[i], b = data[i + stride], d = data[i + 2 * stride],
              e = data[i + 3 * stride];
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ d.x ^ d.y ^ d.z ^ d.w ^ e.x ^
               e.y ^ e.z ^ e.w;
    }
    for (; i < count; i += stride) {
        uint4 a = data[i];
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

static int cuda_measure_peak(void *ctx, double *gbs)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    size_t free_bytes = 0, total_bytes = 0;
    size_t bytes = (size_t)1 << 30;
    void *buffer = NULL;
    cudaError_t e;
    *gbs = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
        while (bytes > ((size_t)64 << 20) && bytes > free_bytes / 4)
            bytes /= 2;
    if ((e = cudaMalloc(&buffer, bytes + 256)) != cudaSuccess) {
        cudaGetLastError();
        return fail(c->host, "cannot allocate the bandwidth test buffer", e);
    }
    unsigned *sink = (unsigned *)((char *)buffer + bytes);
    int blocks_per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, stream_read, 512, 0);
    if (blocks_per_sm < 1)
        blocks_per_sm = 1;
    const unsigned grid = (unsigned)(c->sm_count * blocks_per_sm);
    float best_ms = 0;
    e = cudaMemsetAsync(buffer, 0, bytes, c->stream);
    for (int rep = 0; rep < 6 && e == cudaSuccess; rep++) {
        float ms = 0;
        cudaEventRecord(c->start, c->stream);
        stream_read<<<grid, 512, 0, c->stream>>>((const uint4 *)buffer, bytes / 16, sink);
        cudaEventRecord(c->stop, c->stream);
        e = cudaEventSynchronize(c->stop);
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, c->start, c->stop);
        if (e == cudaSuccess && rep > 0 && (best_ms == 0 || ms < best_ms))
            best_ms = ms; /* the first pass is a warm-up */
    }
    cudaFree(buffer);
    if (e != cudaSuccess)
        return fail(c->host, "the bandwidth test failed", e);
    *gbs = best_ms > 0 ? bytes / (best_ms * 1e-3) / 1e9 : 0;
    return RB_OK;
}

/* Launch errors and the like are cleared by reading them; an error that
 * comes back after that (an illegal address, a kernel that trapped) is
 * sticky: the context is lost for this process. */
static int cuda_recover(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    release_hold(c);
    cudaGetLastError();
    cudaError_t e = cudaStreamSynchronize(c->stream);
    cudaGetLastError();
    if (e == cudaSuccess)
        return RB_OK;
    e = cudaDeviceSynchronize();
    if (e == cudaSuccess) {
        cudaGetLastError();
        return RB_OK;
    }
    c->host->error(c->host, "device unusable: %s (%s)", cudaGetErrorString(e),
                   cudaGetErrorName(e));
    return RB_ERROR;
}

static const rb_backend cuda_backend = {
    REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, (uint32_t)sizeof(rb_backend),
    "cuda",
    "NVIDIA GPUs through the CUDA runtime: events on a non-blocking stream",
    "1.0",
    cuda_device_count,
    cuda_open,
    cuda_close,
    cuda_queue,
    cuda_alloc,
    cuda_release,
    cuda_upload,
    cuda_time_begin,
    cuda_time_end,
    cuda_synchronize,
    cuda_flush_cache,
    cuda_measure_peak,
    cuda_recover,
};

extern "C" {
RB_BACKEND_ENTRY(cuda_backend)
}
