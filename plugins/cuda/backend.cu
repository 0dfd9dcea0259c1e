/* plugins/cuda/backend.cu: the cuda backend. Opens a device and describes
 * it (name, UUID, memory, compute capability, theoretical peak bandwidth from
 * the memory clock and bus width, and the properties shown in reports), owns
 * the non-blocking stream plugins issue their work on, times runs with events
 * on that stream in three modes, flushes the L2 for cache = cold, measures a
 * read-bandwidth peak with the best of several read kernels, samples clocks and throttle
 * reasons through NVML, marks each configuration with an NVTX range, and
 * tells recoverable errors from sticky ones after a plugin failed, and
 * fills, writes and copies device memory for the judge's probe inputs.
 *
 * Timing modes (the experiment's `timing`, set through set_timing):
 * - launch: time_begin records the start event on the idle stream, the
 *   plugin's run queues its work, time_end records the stop event and waits.
 *   The host's launch latency is part of the time, as an application that
 *   calls the reduction once sees it. The two events are recorded with the
 *   driver's cuEventRecord, not through this backend's copy of the runtime:
 *   each plugin links a runtime of its own, and alternating between two
 *   runtimes inside the timed span costs launch-bound calls a few percent
 *   (docs/results/launch-vs-plain.md).
 * - device: time_begin first holds the stream with a one-thread kernel that
 *   waits for a flag in mapped host memory, then records the start event;
 *   time_end records the stop event and releases the flag. The GPU runs the
 *   whole reduction back to back, and the time is the device's (as nvbench
 *   does). The hold gives up after HOLD_LIMIT_NS, so a plugin that waits for
 *   its own work inside run (thrust::reduce returns its result to the host)
 *   still finishes, and is timed with its host gaps.
 * - graph: batch_prepare captures `calls` runs into a CUDA graph (thread-local
 *   capture: a run that allocates or synchronizes cannot be captured, and the
 *   configuration is declined with the CUDA error); batch_time replays the
 *   whole graph behind the hold, between two events.
 *
 * NVML (libnvidia-ml.so.1, or $REDBENCH_NVML_LIBRARY as the host's) and the
 * NVTX injection library are loaded at run time when present; neither is
 * required. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>
#include <redbench/backend.h>
#include <redbench/cuda_helpers.cuh>

/* NVML, as far as this backend uses it: the library is opened with dlopen,
 * so no NVML header or link is needed. The values are NVML's. The library
 * is the one the host opens for energy (src/host/nvml.h): $REDBENCH_NVML_LIBRARY
 * where set (a stand-in in tests), else libnvidia-ml.so.1, so that the
 * clocks around the calls and the energy during them come from the same
 * library. */
#define NVML_LIBRARY_ENV "REDBENCH_NVML_LIBRARY"
#define NVML_LIBRARY_DEFAULT "libnvidia-ml.so.1"
typedef struct nvml_device_opaque *nvml_device;
enum { NVML_OK = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

typedef struct nvml_api {
    void *library;
    nvml_device device;
    int (*init)(void);
    int (*shutdown)(void);
    int (*handle_by_uuid)(const char *uuid, nvml_device *device);
    int (*clock)(nvml_device device, int type, unsigned *mhz);
    int (*app_clock)(nvml_device device, int type, unsigned *mhz); /* may be NULL */
    int (*reasons)(nvml_device device, unsigned long long *reasons);
    int (*temperature)(nvml_device device, int sensor, unsigned *celsius);
    int (*power)(nvml_device device, unsigned *milliwatts);
} nvml_api;

/* The driver's cuEventRecord (CUevent and CUstream are the runtime's event
 * and stream; CUresult is an int). */
typedef int (*event_record_fn)(cudaEvent_t event, cudaStream_t stream);

typedef struct cuda_ctx {
    const rb_host *host;
    int device;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush_buffer;  /* 2 x L2, written by flush_cache */
    size_t flush_bytes;
    int sm_count;
    int hold;            /* device timing: hold the stream while the run is
                            queued (launch timing: 0) */
    volatile int *release_host; /* the hold's flag, in mapped host memory */
    int *release_device;
    cudaGraphExec_t batch; /* graph timing: the captured batch */
    nvml_api nvml;       /* library NULL when NVML is absent */
    char nvml_note[96];  /* how NVML was found, for the device properties */
    nvtxDomainHandle_t nvtx;
    event_record_fn record; /* the driver's cuEventRecord, else the runtime's */
} cuda_ctx;

/* How long the hold waits for the host at most. */
#define HOLD_LIMIT_NS 200000ull

/* cudaEventRecord with the driver's signature: the fallback where the
 * driver's own cannot be found. */
static int runtime_record(cudaEvent_t event, cudaStream_t stream)
{
    return (int)cudaEventRecord(event, stream);
}

/* The driver's cuEventRecord, found through the runtime, else the runtime's. */
static event_record_fn find_event_record(void)
{
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuEventRecord", &fn, 12000,
                                                     cudaEnableDefault, &found);
#else
    cudaError_t e = cudaGetDriverEntryPoint("cuEventRecord", &fn, cudaEnableDefault, &found);
#endif
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn) {
        cudaGetLastError();
        return runtime_record;
    }
    return (event_record_fn)fn;
}

/* Records an event on the backend's stream. The driver's error codes are
 * the runtime's for the errors that matter here (700 and up: the context
 * is lost; 400: a bad handle). */
static cudaError_t record_event(const cuda_ctx *c, cudaEvent_t event)
{
    return (cudaError_t)c->record(event, c->stream);
}

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

/* The UUID as nvidia-smi and NVML write it: GPU-xxxxxxxx-xxxx-... */
static void describe_uuid(const cudaDeviceProp *prop, char *out, size_t len)
{
    const unsigned char *u = (const unsigned char *)prop->uuid.bytes;
    snprintf(out, len, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
             u[13], u[14], u[15]);
}

static void describe_device(int device, const cudaDeviceProp *prop, rb_device_info *info)
{
    size_t name_len = strnlen(prop->name, sizeof info->name - 1);
    memcpy(info->name, prop->name, name_len);
    info->name[name_len] = '\0';
    describe_uuid(prop, info->uuid, sizeof info->uuid);
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

    rb_device_add_property(info, "sm_count", "%d", prop->multiProcessorCount);
    rb_device_add_property(info, "l2_bytes", "%d", prop->l2CacheSize);
    rb_device_add_property(info, "bus_width", "%d", bus_width);
    rb_device_add_property(info, "mem_clock_khz", "%d", mem_clock_khz);
    rb_device_add_property(info, "sm_clock_khz", "%d", sm_clock_khz);
    rb_device_add_property(info, "memory_total_bytes", "%zu", total_bytes);
    rb_device_add_property(info, "shared_mem_per_block", "%zu", prop->sharedMemPerBlock);
    rb_device_add_property(info, "shared_mem_per_sm", "%zu", prop->sharedMemPerMultiprocessor);
    rb_device_add_property(info, "max_threads_per_sm", "%d", prop->maxThreadsPerMultiProcessor);
    rb_device_add_property(info, "ecc", "%s", prop->ECCEnabled ? "on" : "off");
    rb_device_add_property(info, "pci_bus_id", "%04x:%02x:%02x.0", prop->pciDomainID,
                           prop->pciBusID, prop->pciDeviceID);
    version_text(driver, text, sizeof text);
    rb_device_add_property(info, "driver_version", "%s", text);
    version_text(runtime, text, sizeof text);
    rb_device_add_property(info, "runtime_version", "%s", text);
}

/* ---- NVML, loaded at run time ---- */

static void *nvml_symbol(void *library, const char *name)
{
    return dlsym(library, name);
}

/* Opens NVML and finds the device by its UUID. On any failure NVML stays
 * closed and `note` says why; nothing else depends on it. */
static void nvml_open(nvml_api *nvml, const char *uuid, char *note, size_t len)
{
    memset(nvml, 0, sizeof *nvml);
    const char *path = getenv(NVML_LIBRARY_ENV);
    if (!path || !*path)
        path = NVML_LIBRARY_DEFAULT;
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(note, len, "absent (%.60s not found): no clocks or throttling", path);
        return;
    }
    nvml->init = (int (*)(void))nvml_symbol(library, "nvmlInit_v2");
    nvml->shutdown = (int (*)(void))nvml_symbol(library, "nvmlShutdown");
    nvml->handle_by_uuid =
        (int (*)(const char *, nvml_device *))nvml_symbol(library, "nvmlDeviceGetHandleByUUID");
    nvml->clock = (int (*)(nvml_device, int, unsigned *))nvml_symbol(library,
                                                                     "nvmlDeviceGetClockInfo");
    nvml->app_clock = (int (*)(nvml_device, int, unsigned *))nvml_symbol(
        library, "nvmlDeviceGetApplicationsClock");
    /* renamed in recent drivers; the old name is kept as an alias */
    nvml->reasons = (int (*)(nvml_device, unsigned long long *))nvml_symbol(
        library, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml->reasons)
        nvml->reasons = (int (*)(nvml_device, unsigned long long *))nvml_symbol(
            library, "nvmlDeviceGetCurrentClocksThrottleReasons");
    nvml->temperature = (int (*)(nvml_device, int, unsigned *))nvml_symbol(
        library, "nvmlDeviceGetTemperature");
    nvml->power = (int (*)(nvml_device, unsigned *))nvml_symbol(library,
                                                                "nvmlDeviceGetPowerUsage");
    if (!nvml->init || !nvml->shutdown || !nvml->handle_by_uuid || !nvml->clock) {
        snprintf(note, len, "unusable (libnvidia-ml.so.1 lacks the functions needed)");
        dlclose(library);
        memset(nvml, 0, sizeof *nvml);
        return;
    }
    int rc = nvml->init();
    if (rc != NVML_OK) {
        snprintf(note, len, "unusable (nvmlInit failed with NVML error %d)", rc);
        dlclose(library);
        memset(nvml, 0, sizeof *nvml);
        return;
    }
    rc = nvml->handle_by_uuid(uuid, &nvml->device);
    if (rc != NVML_OK) {
        snprintf(note, len, "unusable (NVML does not find this device: NVML error %d)", rc);
        nvml->shutdown();
        dlclose(library);
        memset(nvml, 0, sizeof *nvml);
        return;
    }
    nvml->library = library;
    snprintf(note, len, "loaded: clocks, throttle reasons%s%s", nvml->temperature ? ", temperature" : "",
             nvml->power ? ", power" : "");
}

/* The `clocks` property, part of the measured peak's cache key: the
 * device's highest clocks and, through NVML, the application clocks it is
 * set to run at (what `nvidia-smi -ac` changes), so that a peak measured
 * under other clocks is measured again. Not the current clocks, which move
 * with the load. */
static void describe_clocks(const cuda_ctx *c, int device, rb_device_info *info)
{
    int sm_khz = 0, mem_khz = 0;
    cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device);
    unsigned app_sm = 0, app_mem = 0;
    const nvml_api *nvml = &c->nvml;
    if (nvml->library && nvml->app_clock &&
        (nvml->app_clock(nvml->device, NVML_CLOCK_SM, &app_sm) != NVML_OK ||
         nvml->app_clock(nvml->device, NVML_CLOCK_MEM, &app_mem) != NVML_OK))
        app_sm = app_mem = 0;
    if (app_sm && app_mem)
        rb_device_add_property(info, "clocks", "sm %d MHz, memory %d MHz; applications sm %u MHz, "
                               "memory %u MHz", sm_khz / 1000, mem_khz / 1000, app_sm, app_mem);
    else
        rb_device_add_property(info, "clocks", "sm %d MHz, memory %d MHz", sm_khz / 1000,
                               mem_khz / 1000);
}

static void nvml_close(nvml_api *nvml)
{
    if (!nvml->library)
        return;
    nvml->shutdown();
    dlclose(nvml->library);
    memset(nvml, 0, sizeof *nvml);
}

/* Lets a waiting hold_stream go (the stream then runs what is queued). */
static void release_hold(cuda_ctx *c)
{
    if (c->release_host) {
        __sync_synchronize();
        *c->release_host = 1;
    }
}

static void release_ctx(cuda_ctx *c)
{
    if (c->batch)
        cudaGraphExecDestroy(c->batch);
    nvml_close(&c->nvml);
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
    c->record = find_event_record();

    c->hold = 1; /* device timing until set_timing says otherwise */
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

    char uuid[64];
    describe_uuid(&prop, uuid, sizeof uuid);
    nvml_open(&c->nvml, uuid, c->nvml_note, sizeof c->nvml_note);
    c->nvtx = nvtxDomainCreateA("redbench");

    if (info->size >= sizeof(rb_device_info)) {
        describe_device(device, &prop, info);
        rb_device_add_property(info, "nvml", "%s", c->nvml_note);
        describe_clocks(c, device, info);
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

/* ---- ABI 1.2: writing into the input where it lives (probe inputs) ---- */

/* count copies of a value of T from p on. */
template <typename T>
__global__ void fill_values(T *p, T value, size_t count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += stride)
        p[k] = value;
}

template <typename T>
static cudaError_t launch_fill(cuda_ctx *c, void *dst, const void *value, uint64_t count)
{
    T v;
    memcpy(&v, value, sizeof v);
    unsigned blocks = (unsigned)(count / 256 + 1 < 65536 ? count / 256 + 1 : 65536);
    fill_values<T><<<blocks, 256, 0, c->stream>>>((T *)dst, v, (size_t)count);
    return cudaGetLastError();
}

static int cuda_fill(void *ctx, void *buffer, uint64_t offset, const void *value,
                     uint32_t value_bytes, uint64_t count)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    void *dst = (char *)buffer + offset;
    if (count == 0)
        return RB_OK;
    cudaError_t e;
    switch (value_bytes) {
    case 1: e = launch_fill<uint8_t>(c, dst, value, count); break;
    case 2: e = launch_fill<uint16_t>(c, dst, value, count); break;
    case 4: e = launch_fill<uint32_t>(c, dst, value, count); break;
    case 8: e = launch_fill<unsigned long long>(c, dst, value, count); break;
    default:
        c->host->error(c->host, "fill: values of %u bytes are not offered", value_bytes);
        return RB_ERROR;
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(c->stream);
    if (e != cudaSuccess)
        return fail(c->host, "cannot fill device memory", e);
    return RB_OK;
}

static int cuda_write(void *ctx, void *buffer, uint64_t offset, const void *src, size_t bytes)
{
    return cuda_upload(ctx, (char *)buffer + offset, src, bytes);
}

static int cuda_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, c->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(c->stream);
    if (e != cudaSuccess)
        return fail(c->host, "cannot copy device memory", e);
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
        e = record_event(c, c->start);
    return e == cudaSuccess ? RB_OK : fail(c->host, "cannot record the start event", e);
}

static int cuda_time_end(void *ctx, double *elapsed_ns)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    float ms = 0;
    cudaError_t e = record_event(c, c->stop);
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
    /* Writing a buffer twice the L2's size leaves none of the input there.
     * The flush is waited for: in launch timing the start event must be
     * recorded on an idle stream, or the launch of the timed call overlaps
     * the flush and its latency is hidden (a cold call then measured less
     * than a hot one at small n). */
    e = cudaMemsetAsync(c->flush_buffer, ++pattern, c->flush_bytes, c->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(c->stream);
    return e == cudaSuccess ? RB_OK : fail(c->host, "cannot flush the L2", e);
}

/* The measured peak: the fastest pure read of data at least 4 times the
 * L2, the ceiling of every row of that size (`%meas` at most 100 there).
 * Reads are timed as strategies are (hot, calls back to back), over the
 * shapes of the one-pass read the pack's fast strategies use, at two
 * sizes:
 * - 4 GiB (less where memory is short; 1 GiB at least unless it is
 *   shorter still), in forward order and alternating with reversed calls:
 *   what the memory gives a stream read;
 * - the smallest power of two at least 4 times the L2, alternating, with
 *   the blocks that run last in a call loading the last 3/4 of the L2's
 *   size evict-last and the others evict-first (what onepass's `keep`
 *   does): a call then starts on what the call before left in L2, and
 *   passes what the memory alone gives. Strategies at that size do the
 *   same; the peak must not be below them.
 * The best of all is the peak (docs/cuda-pack.md).
 *
 * peak_read: block `b` (from the end when `reverse`) reads `Batch` 16-byte
 * words per thread a block apart, all in flight at once; when Hinted, with
 * the L2 policy evict-last in the last `keep_blocks` blocks of the grid and
 * evict-first in the others; the words are
 * combined and stored only if they match an impossible value, so that the
 * loads cannot be optimized away. */
template <int Batch, bool Hinted>
__global__ void __launch_bounds__(1024, Batch <= 8 ? 2 : 1)
    peak_read(const uint4 *__restrict__ data, size_t count, unsigned *sink, int reverse,
              unsigned keep_blocks)
{
    const unsigned slice = reverse ? gridDim.x - 1 - blockIdx.x : blockIdx.x;
    const size_t first = (size_t)slice * blockDim.x * Batch + threadIdx.x;
    uint64_t policy = 0;
    if constexpr (Hinted) {
        uint64_t last, first_out;
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(last));
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(first_out));
        policy = blockIdx.x >= gridDim.x - keep_blocks ? last : first_out;
    }
    uint4 v[Batch];
#pragma unroll
    for (int k = 0; k < Batch; k++) {
        const size_t i = first + (size_t)k * blockDim.x;
        v[k] = make_uint4(0, 0, 0, 0);
        if (i < count) {
            if constexpr (Hinted)
                asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                             : "=r"(v[k].x), "=r"(v[k].y), "=r"(v[k].z), "=r"(v[k].w)
                             : "l"(data + i), "l"(policy));
            else
                v[k] = data[i];
        }
    }
    unsigned acc = 0;
#pragma unroll
    for (int k = 0; k < Batch; k++)
        acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* The shapes tried: threads per block and words per thread. */
typedef struct peak_shape {
    unsigned block;
    int batch;
} peak_shape;
static const peak_shape peak_shapes[] = {{1024, 8}, {512, 8}, {512, 16}, {256, 16}, {1024, 4}};

/* One way of reading: the buffer's size, the order, the blocks kept in L2. */
typedef struct peak_way {
    size_t bytes;
    int alternate;
    int keep; /* the last 3/4 of the L2 evict-last, the rest evict-first */
} peak_way;

static constexpr int PEAK_BATCHES = 3;

static void launch_peak_read(const cuda_ctx *c, peak_shape shape, const uint4 *data,
                             size_t count, unsigned *sink, int reverse, unsigned keep_blocks)
{
    const size_t per_block = (size_t)shape.block * shape.batch;
    const unsigned grid = (unsigned)((count + per_block - 1) / per_block);
    if (keep_blocks > grid)
        keep_blocks = grid;
#define RB_PEAK_LAUNCH(B, H)                                                                  \
    peak_read<B, H><<<grid, shape.block, 0, c->stream>>>(data, count, sink, reverse, keep_blocks)
    const bool hinted = keep_blocks > 0;
    if (shape.batch == 16)
        hinted ? RB_PEAK_LAUNCH(16, true) : RB_PEAK_LAUNCH(16, false);
    else if (shape.batch == 8)
        hinted ? RB_PEAK_LAUNCH(8, true) : RB_PEAK_LAUNCH(8, false);
    else
        hinted ? RB_PEAK_LAUNCH(4, true) : RB_PEAK_LAUNCH(4, false);
#undef RB_PEAK_LAUNCH
}

/* The time per call of calls back to back (at least 4, and at least 16 GiB
 * read per batch), the best of PEAK_BATCHES batches after two warm-up
 * calls, in ms. */
static cudaError_t time_peak_read(const cuda_ctx *c, peak_shape shape, peak_way way,
                                  const uint4 *data, unsigned *sink, float *best_ms)
{
    const size_t count = way.bytes / 16;
    const size_t l2 = c->flush_bytes / 2;
    const unsigned keep_blocks =
        way.keep ? (unsigned)(l2 * 3 / 4 / ((size_t)shape.block * shape.batch * 16)) : 0;
    size_t calls = ((size_t)16 << 30) / way.bytes;
    if (calls < 4)
        calls = 4;
    cudaError_t e = cudaSuccess;
    int reverse = 0;
    *best_ms = 0;
    for (int k = 0; k < 2; k++) {
        reverse = way.alternate && !reverse;
        launch_peak_read(c, shape, data, count, sink, reverse, keep_blocks);
    }
    for (int b = 0; b < PEAK_BATCHES && e == cudaSuccess; b++) {
        float ms = 0;
        record_event(c, c->start);
        for (size_t k = 0; k < calls; k++) {
            reverse = way.alternate && !reverse;
            launch_peak_read(c, shape, data, count, sink, reverse, keep_blocks);
        }
        record_event(c, c->stop);
        e = cudaEventSynchronize(c->stop);
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, c->start, c->stop);
        if (e == cudaSuccess && (*best_ms == 0 || ms / calls < *best_ms))
            *best_ms = ms / (float)calls;
    }
    return e;
}

static int cuda_measure_peak(void *ctx, double *gbs)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    size_t free_bytes = 0, total_bytes = 0;
    size_t bytes = (size_t)4 << 30;
    void *buffer = NULL;
    cudaError_t e;
    *gbs = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
        while (bytes > ((size_t)64 << 20) && bytes > free_bytes / 4)
            bytes /= 2;
    size_t small = (size_t)1 << 20; /* the smallest power of two >= 4 x L2 */
    while (small < 2 * c->flush_bytes)
        small *= 2;
    if (small > bytes)
        small = bytes;
    if ((e = cudaMalloc(&buffer, bytes + 256)) != cudaSuccess) {
        cudaGetLastError();
        return fail(c->host, "cannot allocate the bandwidth test buffer", e);
    }
    unsigned *sink = (unsigned *)((char *)buffer + bytes);
    const peak_way ways[] = {{bytes, 0, 0}, {bytes, 1, 0}, {small, 1, 0}, {small, 1, 1}};
    double best = 0;
    e = cudaMemsetAsync(buffer, 0, bytes, c->stream);
    for (size_t w = 0; w < sizeof ways / sizeof *ways && e == cudaSuccess; w++)
        for (size_t k = 0; k < sizeof peak_shapes / sizeof *peak_shapes && e == cudaSuccess; k++) {
            float ms = 0;
            e = time_peak_read(c, peak_shapes[k], ways[w], (const uint4 *)buffer, sink, &ms);
            if (e == cudaSuccess && ms > 0 && ways[w].bytes / (ms * 1e-3) / 1e9 > best)
                best = ways[w].bytes / (ms * 1e-3) / 1e9;
        }
    cudaFree(buffer);
    if (e != cudaSuccess)
        return fail(c->host, "the bandwidth test failed", e);
    *gbs = best;
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

/* ---- timing modes and graphs (ABI 1.1) ---- */

static int cuda_set_timing(void *ctx, int mode)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (mode != RB_TIMING_LAUNCH && mode != RB_TIMING_DEVICE) {
        c->host->error(c->host, "set_timing takes launch or device; graph timing uses batches");
        return RB_UNSUPPORTED;
    }
    c->hold = mode == RB_TIMING_DEVICE;
    return RB_OK;
}

static void cuda_batch_release(void *ctx)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (c->batch)
        cudaGraphExecDestroy(c->batch);
    c->batch = NULL;
}

/* Captures `calls` runs into a graph, instantiates it and replays it once
 * (the first launch of a graph uploads it). */
static int cuda_batch_prepare(void *ctx, int (*run)(void *state), void *state, uint32_t calls)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    cuda_batch_release(c);
    cudaError_t e = cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
        return fail(c->host, "cannot start a CUDA graph capture", e);
    int status = RB_OK;
    uint32_t done = 0;
    for (; done < calls && status == RB_OK; done++)
        status = run(state);
    cudaGraph_t graph = NULL;
    e = cudaStreamEndCapture(c->stream, &graph);
    if (status != RB_OK || e != cudaSuccess || !graph) {
        if (graph)
            cudaGraphDestroy(graph);
        cudaError_t last = cudaGetLastError(); /* capture errors are not sticky */
        if (e == cudaSuccess)
            e = last;
        if (e != cudaSuccess)
            c->host->error(c->host, "the run cannot be captured in a CUDA graph "
                           "(call %u of %u): %s (%s)", done, calls, cudaGetErrorString(e),
                           cudaGetErrorName(e));
        else
            c->host->error(c->host, "the run failed while being captured in a CUDA graph "
                           "(call %u of %u)", done, calls);
        return RB_UNSUPPORTED;
    }
    e = cudaGraphInstantiate(&c->batch, graph, 0);
    cudaGraphDestroy(graph);
    if (e != cudaSuccess) {
        c->batch = NULL;
        cudaGetLastError();
        c->host->error(c->host, "the captured runs cannot be made a CUDA graph: %s (%s)",
                       cudaGetErrorString(e), cudaGetErrorName(e));
        return RB_UNSUPPORTED;
    }
    if ((e = cudaGraphLaunch(c->batch, c->stream)) != cudaSuccess ||
        (e = cudaStreamSynchronize(c->stream)) != cudaSuccess) {
        cuda_batch_release(c);
        return fail(c->host, "the first replay of the CUDA graph failed", e);
    }
    return RB_OK;
}

/* Replays the batch behind the hold, between two events. */
static int cuda_batch_time(void *ctx, double *elapsed_ns)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    if (!c->batch) {
        c->host->error(c->host, "batch_time without a captured batch");
        return RB_ERROR;
    }
    *c->release_host = 0;
    __sync_synchronize();
    hold_stream<<<1, 1, 0, c->stream>>>(c->release_device, HOLD_LIMIT_NS);
    cudaError_t e = cudaGetLastError();
    float ms = 0;
    if (e == cudaSuccess)
        e = record_event(c, c->start);
    if (e == cudaSuccess)
        e = cudaGraphLaunch(c->batch, c->stream);
    if (e == cudaSuccess)
        e = record_event(c, c->stop);
    release_hold(c);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(c->stop);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, c->start, c->stop);
    if (e != cudaSuccess)
        return fail(c->host, "the graph replay failed", e);
    *elapsed_ns = ms * 1e6;
    return RB_OK;
}

/* ---- clocks (NVML) and profiler ranges (NVTX) ---- */

static int cuda_sample_clocks(void *ctx, rb_clock_sample *out)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    const nvml_api *nvml = &c->nvml;
    if (!nvml->library) {
        c->host->error(c->host, "NVML %s", c->nvml_note);
        return RB_UNSUPPORTED;
    }
    if (!out || out->size < sizeof *out) {
        c->host->error(c->host, "the clock sample is smaller than this backend's");
        return RB_ERROR;
    }
    memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    unsigned value = 0;
    unsigned long long reasons = 0;
    if (nvml->clock(nvml->device, NVML_CLOCK_SM, &value) == NVML_OK)
        out->core_mhz = value;
    if (nvml->clock(nvml->device, NVML_CLOCK_MEM, &value) == NVML_OK)
        out->memory_mhz = value;
    if (nvml->reasons && nvml->reasons(nvml->device, &reasons) == NVML_OK)
        out->throttle_reasons = reasons;
    if (nvml->temperature &&
        nvml->temperature(nvml->device, NVML_TEMPERATURE_GPU, &value) == NVML_OK)
        out->temperature_c = value;
    if (nvml->power && nvml->power(nvml->device, &value) == NVML_OK)
        out->power_w = value / 1000.0;
    return RB_OK;
}

static void cuda_range_push(void *ctx, const char *name)
{
    cuda_ctx *c = (cuda_ctx *)ctx;
    nvtxEventAttributes_t attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = name;
    nvtxDomainRangePushEx(c->nvtx, &attributes);
}

static void cuda_range_pop(void *ctx)
{
    nvtxDomainRangePop(((cuda_ctx *)ctx)->nvtx);
}

static const rb_backend cuda_backend = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_backend),
    .name = "cuda",
    .summary = "NVIDIA GPUs through the CUDA runtime: events on a non-blocking stream, CUDA graphs, "
               "NVML, NVTX",
    .version = "1.0",
    .device_count = cuda_device_count,
    .open = cuda_open,
    .close = cuda_close,
    .queue = cuda_queue,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .upload = cuda_upload,
    .time_begin = cuda_time_begin,
    .time_end = cuda_time_end,
    .synchronize = cuda_synchronize,
    .flush_cache = cuda_flush_cache,
    .measure_peak = cuda_measure_peak,
    .recover = cuda_recover,
    .timing_modes = RB_TIMING_BIT(RB_TIMING_LAUNCH) | RB_TIMING_BIT(RB_TIMING_GRAPH) |
                    RB_TIMING_BIT(RB_TIMING_DEVICE),
    .set_timing = cuda_set_timing,
    .batch_prepare = cuda_batch_prepare,
    .batch_time = cuda_batch_time,
    .batch_release = cuda_batch_release,
    .sample_clocks = cuda_sample_clocks,
    .range_push = cuda_range_push,
    .range_pop = cuda_range_pop,
    .fill = cuda_fill,
    .write = cuda_write,
    .copy = cuda_copy,
    .memory_kind = RB_MEMORY_POINTER,
};

extern "C" {
RB_BACKEND_ENTRY(cuda_backend)
}
