/* plugins/vulkan/backend.c: the vulkan backend. Opens physical device
 * `device` with one compute queue and describes it (name, vendor, driver,
 * UUID, subgroup sizes, memory heaps, features, and the theoretical peak
 * bandwidth where NVML knows the memory clock and bus width of an NVIDIA
 * device), hands plugins an rb_vulkan_queue (<redbench/vulkan.h>), keeps
 * the input in device memory it uploads through a staging buffer, writes
 * probe inputs (fill, write, copy), flushes caches by writing a large
 * buffer, measures a read peak with a streaming shader, and times runs
 * with timestamp queries:
 *
 * - launch: time_begin submits a command buffer that writes the start
 *   timestamp; the plugin's run records and submits its own; time_end
 *   submits the stop timestamp (which waits for everything submitted
 *   before it) and waits. The host's recording and submission are part of
 *   the time, as an application submitting once sees it.
 * - device: time_begin begins one command buffer with the start timestamp
 *   and leaves it open; the run's begin/submit record into it; time_end
 *   writes the stop timestamp and submits the whole. The device runs the
 *   call without the host in between (the Vulkan form of holding the queue).
 * - graph: batch_prepare records `calls` runs into one reusable command
 *   buffer between the two timestamps; batch_time submits it again and
 *   waits. The time per call is what the device does back to back.
 *
 * Buffers are reached by shaders through their device addresses, so the
 * input's size is limited by maxBufferSize and the memory the driver
 * allocates, not by maxStorageBufferRange. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/vulkan.h>

#include "plugins/vulkan/backend_spv.h"

/* A command buffer handed out for one submission, with the fence that
 * says when it may be recorded again. */
typedef struct submission {
    VkCommandBuffer cmd;
    VkFence fence;
    int pending; /* submitted and not yet seen finished */
    int open;    /* begun and not yet submitted */
} submission;

#define MAX_SUBMISSIONS 64

/* Bytes moved through the staging buffer at a time. */
#define STAGING_BYTES ((VkDeviceSize)64 << 20)

typedef struct vk_ctx {
    const rb_host *host;
    rb_vulkan_queue q; /* what plugins get as cfg->queue */
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    uint32_t device_type_local; /* memory type for device buffers */
    uint32_t host_type;         /* memory type for host-visible buffers */
    VkQueryPool timestamps;     /* 2 queries: start, stop */
    double timestamp_ns;        /* ns per timestamp tick */
    uint64_t timestamp_mask;    /* the valid bits */
    submission subs[MAX_SUBMISSIONS];
    uint32_t n_subs;
    int timing_mode;            /* RB_TIMING_LAUNCH or RB_TIMING_DEVICE */
    VkCommandBuffer recording;  /* device timing or batch capture: the open
                                   command buffer runs record into */
    submission *recording_sub;  /* its submission (device timing) */
    VkCommandBuffer batch;      /* graph timing: the recorded batch */
    VkFence batch_fence;
    rb_vulkan_buffer staging;   /* host memory, STAGING_BYTES */
    rb_vulkan_buffer flush;     /* device memory written by flush_cache */
    uint32_t flush_pattern;
} vk_ctx;

static int fail(const rb_host *host, const char *what, VkResult r)
{
    host->error(host, "%s (VkResult %d)", what, (int)r);
    return RB_ERROR;
}

static VkResult make_instance(VkInstance *instance)
{
    VkApplicationInfo app;
    memset(&app, 0, sizeof app);
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "redbench";
    app.pEngineName = "redbench";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    return vkCreateInstance(&info, NULL, instance);
}

static int vk_device_count(const rb_host *host, int *count)
{
    VkInstance instance;
    *count = 0;
    VkResult r = make_instance(&instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return RB_OK; /* a loader and no driver: no device */
    if (r != VK_SUCCESS)
        return fail(host, "cannot create a Vulkan instance (no loader or no driver)", r);
    uint32_t n = 0;
    r = vkEnumeratePhysicalDevices(instance, &n, NULL);
    vkDestroyInstance(instance, NULL);
    if (r != VK_SUCCESS)
        return fail(host, "cannot list the Vulkan devices", r);
    *count = (int)n;
    return RB_OK;
}

static const char *vendor_name(uint32_t id)
{
    switch (id) {
    case 0x10de: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x8086: return "Intel";
    case 0x13b5: return "Arm";
    case 0x5143: return "Qualcomm";
    case 0x106b: return "Apple";
    case 0x1010: return "Imagination";
    case 0x10005: return "Mesa";
    default: return "unknown";
    }
}

static const char *device_type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

/* "6d657361-3232-..." from 16 bytes. */
static void uuid_text(const uint8_t *u, const char *prefix, char *out, size_t len)
{
    snprintf(out, len,
             "%s%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", prefix,
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
             u[13], u[14], u[15]);
}

static int has_extension(const VkExtensionProperties *list, uint32_t n, const char *name)
{
    for (uint32_t k = 0; k < n; k++)
        if (strcmp(list[k].extensionName, name) == 0)
            return 1;
    return 0;
}

/* The theoretical bandwidth of an NVIDIA device from NVML (loaded at run
 * time: the device's UUID in Vulkan is NVML's): the memory's highest clock
 * times the bus width, both edges. 0 when NVML is absent. */
static double nvml_peak_gbs(const uint8_t *uuid, char *note, size_t len)
{
    typedef struct nvml_device_opaque *nvml_device;
    void *library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(note, len, "unknown (libnvidia-ml.so.1 not found)");
        return 0;
    }
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_uuid)(const char *, nvml_device *);
    int (*max_clock)(nvml_device, int, unsigned *);
    int (*bus_width)(nvml_device, unsigned *);
    *(void **)&init = dlsym(library, "nvmlInit_v2");
    *(void **)&shutdown = dlsym(library, "nvmlShutdown");
    *(void **)&by_uuid = dlsym(library, "nvmlDeviceGetHandleByUUID");
    *(void **)&max_clock = dlsym(library, "nvmlDeviceGetMaxClockInfo");
    *(void **)&bus_width = dlsym(library, "nvmlDeviceGetMemoryBusWidth");
    double gbs = 0;
    if (!init || !shutdown || !by_uuid || !max_clock || !bus_width) {
        snprintf(note, len, "unknown (NVML lacks the functions needed)");
    } else if (init() != 0) {
        snprintf(note, len, "unknown (nvmlInit failed)");
    } else {
        char name[80];
        nvml_device device;
        unsigned mhz = 0, bits = 0;
        uuid_text(uuid, "GPU-", name, sizeof name);
        if (by_uuid(name, &device) == 0 && max_clock(device, 2 /* memory */, &mhz) == 0 &&
            bus_width(device, &bits) == 0 && mhz && bits) {
            gbs = 2.0 * mhz * 1e6 * (bits / 8.0) / 1e9;
            snprintf(note, len, "NVML: %u MHz memory clock, %u-bit bus", mhz, bits);
        } else {
            snprintf(note, len, "unknown (NVML does not know this device)");
        }
        shutdown();
    }
    dlclose(library);
    return gbs;
}

static int find_memory_type(const VkPhysicalDeviceMemoryProperties *m, uint32_t allowed,
                            VkMemoryPropertyFlags want, uint32_t *out)
{
    for (uint32_t k = 0; k < m->memoryTypeCount; k++)
        if ((allowed & (1u << k)) && (m->memoryTypes[k].propertyFlags & want) == want) {
            *out = k;
            return 1;
        }
    return 0;
}

/* ---- buffers ---- */

static int buffer_create(vk_ctx *c, const rb_host *host, uint64_t bytes, int memory,
                         rb_vulkan_buffer *out)
{
    VkResult r;
    memset(out, 0, sizeof *out);
    out->bytes = bytes;
    out->capacity = (bytes + RB_VULKAN_BUFFER_ALIGN - 1) / RB_VULKAN_BUFFER_ALIGN *
                    RB_VULKAN_BUFFER_ALIGN;
    if (out->capacity == 0)
        out->capacity = RB_VULKAN_BUFFER_ALIGN;
    if (out->capacity > c->q.max_buffer_bytes) {
        host->error(host, "%llu bytes is more than this device's largest buffer (%llu bytes)",
                    (unsigned long long)bytes, (unsigned long long)c->q.max_buffer_bytes);
        return RB_UNSUPPORTED;
    }
    VkBufferCreateInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = out->capacity;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if ((r = vkCreateBuffer(c->q.device, &info, NULL, &out->buffer)) != VK_SUCCESS)
        return fail(host, "vkCreateBuffer failed", r);
    VkMemoryRequirements need;
    vkGetBufferMemoryRequirements(c->q.device, out->buffer, &need);
    uint32_t type;
    int found = memory == RB_VULKAN_HOST_MEMORY
                    ? find_memory_type(&c->memory, need.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                       &type)
                    : (find_memory_type(&c->memory, need.memoryTypeBits,
                                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &type) ||
                       find_memory_type(&c->memory, need.memoryTypeBits, 0, &type));
    if (!found) {
        vkDestroyBuffer(c->q.device, out->buffer, NULL);
        out->buffer = VK_NULL_HANDLE;
        host->error(host, "no memory type fits the buffer");
        return RB_ERROR;
    }
    VkMemoryAllocateFlagsInfo flags;
    memset(&flags, 0, sizeof flags);
    flags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo alloc;
    memset(&alloc, 0, sizeof alloc);
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.pNext = &flags;
    alloc.allocationSize = need.size;
    alloc.memoryTypeIndex = type;
    if ((r = vkAllocateMemory(c->q.device, &alloc, NULL, &out->memory)) != VK_SUCCESS) {
        vkDestroyBuffer(c->q.device, out->buffer, NULL);
        memset(out, 0, sizeof *out);
        host->error(host, "cannot allocate %llu bytes of %s memory (VkResult %d)",
                    (unsigned long long)need.size,
                    memory == RB_VULKAN_HOST_MEMORY ? "host-visible" : "device", (int)r);
        return RB_ERROR;
    }
    if ((r = vkBindBufferMemory(c->q.device, out->buffer, out->memory, 0)) != VK_SUCCESS ||
        (memory == RB_VULKAN_HOST_MEMORY &&
         (r = vkMapMemory(c->q.device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped)) !=
             VK_SUCCESS)) {
        vkDestroyBuffer(c->q.device, out->buffer, NULL);
        vkFreeMemory(c->q.device, out->memory, NULL);
        memset(out, 0, sizeof *out);
        return fail(host, "cannot bind or map a buffer's memory", r);
    }
    VkBufferDeviceAddressInfo address;
    memset(&address, 0, sizeof address);
    address.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
    address.buffer = out->buffer;
    out->address = vkGetBufferDeviceAddress(c->q.device, &address);
    return RB_OK;
}

static void buffer_destroy(vk_ctx *c, rb_vulkan_buffer *b)
{
    if (b->mapped)
        vkUnmapMemory(c->q.device, b->memory);
    if (b->buffer)
        vkDestroyBuffer(c->q.device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(c->q.device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

/* ---- command buffers ---- */

/* Waits for every submitted command buffer. */
static int wait_all(vk_ctx *c, const rb_host *host, uint64_t timeout_ns)
{
    VkResult worst = VK_SUCCESS;
    for (uint32_t k = 0; k < c->n_subs; k++) {
        submission *s = &c->subs[k];
        if (!s->pending)
            continue;
        VkResult r = vkWaitForFences(c->q.device, 1, &s->fence, VK_TRUE, timeout_ns);
        if (r == VK_SUCCESS)
            s->pending = 0;
        else if (worst == VK_SUCCESS)
            worst = r;
    }
    if (worst == VK_TIMEOUT) {
        host->error(host, "the device did not finish its work within %.0f s",
                    timeout_ns / 1e9);
        return RB_ERROR;
    }
    if (worst != VK_SUCCESS)
        return fail(host, worst == VK_ERROR_DEVICE_LOST ? "the Vulkan device was lost"
                                                        : "waiting for the device failed",
                    worst);
    return RB_OK;
}

#define WAIT_LIMIT_NS (600ull * 1000000000ull)

/* A command buffer to record into, begun for one submission. */
static submission *acquire(vk_ctx *c, const rb_host *host)
{
    submission *free_one = NULL;
    for (uint32_t k = 0; k < c->n_subs && !free_one; k++) {
        submission *s = &c->subs[k];
        if (s->open)
            continue;
        if (s->pending && vkGetFenceStatus(c->q.device, s->fence) == VK_SUCCESS)
            s->pending = 0;
        if (!s->pending)
            free_one = s;
    }
    VkResult r;
    if (!free_one && c->n_subs < MAX_SUBMISSIONS) {
        submission *s = &c->subs[c->n_subs];
        VkCommandBufferAllocateInfo info;
        memset(&info, 0, sizeof info);
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        info.commandPool = c->q.command_pool;
        info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        info.commandBufferCount = 1;
        VkFenceCreateInfo fence;
        memset(&fence, 0, sizeof fence);
        fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        if ((r = vkAllocateCommandBuffers(c->q.device, &info, &s->cmd)) != VK_SUCCESS) {
            fail(host, "cannot allocate a command buffer", r);
            return NULL;
        }
        if ((r = vkCreateFence(c->q.device, &fence, NULL, &s->fence)) != VK_SUCCESS) {
            vkFreeCommandBuffers(c->q.device, c->q.command_pool, 1, &s->cmd);
            fail(host, "cannot create a fence", r);
            return NULL;
        }
        c->n_subs++;
        free_one = s;
    }
    if (!free_one) { /* all in flight: wait for them */
        if (wait_all(c, host, WAIT_LIMIT_NS) != RB_OK)
            return NULL;
        return acquire(c, host);
    }
    vkResetFences(c->q.device, 1, &free_one->fence);
    vkResetCommandBuffer(free_one->cmd, 0);
    VkCommandBufferBeginInfo begin;
    memset(&begin, 0, sizeof begin);
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if ((r = vkBeginCommandBuffer(free_one->cmd, &begin)) != VK_SUCCESS) {
        fail(host, "cannot begin a command buffer", r);
        return NULL;
    }
    free_one->open = 1;
    return free_one;
}

static int submit(vk_ctx *c, const rb_host *host, submission *s)
{
    VkResult r = vkEndCommandBuffer(s->cmd);
    s->open = 0;
    if (r != VK_SUCCESS)
        return fail(host, "cannot end a command buffer", r);
    VkSubmitInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &s->cmd;
    if ((r = vkQueueSubmit(c->q.queue, 1, &info, s->fence)) != VK_SUCCESS)
        return fail(host, "vkQueueSubmit failed", r);
    s->pending = 1;
    return RB_OK;
}

/* The stages work of the pack runs in: compute shaders and transfers. */
#define WORK_STAGES (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT)

/* Everything before is done and visible to everything after: the work of
 * the backend and its plugins is compute shaders and transfers, so the
 * barrier names their stages and their accesses. Named so narrowly it
 * costs the device 1.6 us between calls recorded back to back on an
 * NVIDIA H200, against 4.1 to 4.3 us with the same stages and any memory
 * access (VK_ACCESS_MEMORY_READ_BIT and _WRITE_BIT;
 * bench/vulkan_dispatch_floor.c). */
static void full_barrier(VkCommandBuffer cmd)
{
    rb_vulkan_barrier(cmd);
}

/* The command buffer's results are for the host to read. */
static void host_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier barrier;
    memset(&barrier, 0, sizeof barrier);
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, WORK_STAGES, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, NULL, 0,
                         NULL);
}

/* ---- what plugins call (rb_vulkan_queue) ---- */

static VkCommandBuffer q_begin(rb_vulkan_queue *q, const rb_host *host)
{
    vk_ctx *c = (vk_ctx *)q->backend;
    if (c->recording) {
        full_barrier(c->recording);
        return c->recording;
    }
    submission *s = acquire(c, host);
    if (!s)
        return VK_NULL_HANDLE;
    full_barrier(s->cmd);
    return s->cmd;
}

static int q_submit(rb_vulkan_queue *q, const rb_host *host, VkCommandBuffer cmd)
{
    vk_ctx *c = (vk_ctx *)q->backend;
    if (cmd == c->recording)
        return RB_OK;
    for (uint32_t k = 0; k < c->n_subs; k++)
        if (c->subs[k].cmd == cmd && c->subs[k].open) {
            host_barrier(cmd);
            return submit(c, host, &c->subs[k]);
        }
    host->error(host, "submit: a command buffer the backend did not hand out, or submitted twice");
    return RB_ERROR;
}

static int q_wait(rb_vulkan_queue *q, const rb_host *host)
{
    vk_ctx *c = (vk_ctx *)q->backend;
    if (c->recording) {
        host->error(host, "run waited for the device while its work was being recorded "
                          "(device or graph timing): run MUST NOT wait");
        return RB_ERROR;
    }
    return wait_all(c, host, WAIT_LIMIT_NS);
}

static int q_buffer_create(rb_vulkan_queue *q, const rb_host *host, uint64_t bytes, int memory,
                           rb_vulkan_buffer *out)
{
    return buffer_create((vk_ctx *)q->backend, host, bytes, memory, out);
}

static void q_buffer_destroy(rb_vulkan_queue *q, rb_vulkan_buffer *buffer)
{
    buffer_destroy((vk_ctx *)q->backend, buffer);
}

/* ---- open and close ---- */

static void release_ctx(vk_ctx *c)
{
    if (c->q.device) {
        vkDeviceWaitIdle(c->q.device);
        buffer_destroy(c, &c->staging);
        buffer_destroy(c, &c->flush);
        for (uint32_t k = 0; k < c->n_subs; k++) {
            vkFreeCommandBuffers(c->q.device, c->q.command_pool, 1, &c->subs[k].cmd);
            vkDestroyFence(c->q.device, c->subs[k].fence, NULL);
        }
        if (c->batch)
            vkFreeCommandBuffers(c->q.device, c->q.command_pool, 1, &c->batch);
        if (c->batch_fence)
            vkDestroyFence(c->q.device, c->batch_fence, NULL);
        if (c->timestamps)
            vkDestroyQueryPool(c->q.device, c->timestamps, NULL);
        if (c->q.command_pool)
            vkDestroyCommandPool(c->q.device, c->q.command_pool, NULL);
        vkDestroyDevice(c->q.device, NULL);
    }
    if (c->q.instance)
        vkDestroyInstance(c->q.instance, NULL);
    free(c);
}

/* What open learns about the physical device. */
typedef struct device_facts {
    VkPhysicalDeviceProperties2 props;
    VkPhysicalDeviceVulkan11Properties props11;
    VkPhysicalDeviceVulkan12Properties props12;
    VkPhysicalDeviceMaintenance4Properties maintenance4;
    VkPhysicalDeviceSubgroupSizeControlProperties subgroup_control;
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm_builtins;
    VkPhysicalDeviceFeatures2 features;
    VkPhysicalDeviceVulkan12Features features12;
    VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_control_features;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
    int has_maintenance4, has_subgroup_control, has_sm_builtins, has_atomic_float;
} device_facts;

/* Links the Vulkan structure `next` (of type `type`) at the end of a pNext
 * chain, *tail; returns the chain's new end, next's pNext. */
static void **chain(void **tail, void *next, VkStructureType type)
{
    VkBaseOutStructure *link = next;
    link->sType = type;
    *tail = next;
    return (void **)&link->pNext;
}

static void read_facts(VkPhysicalDevice pd, device_facts *f)
{
    memset(f, 0, sizeof *f);
    uint32_t n_ext = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n_ext, NULL);
    VkExtensionProperties *ext = calloc(n_ext ? n_ext : 1, sizeof *ext);
    if (ext)
        vkEnumerateDeviceExtensionProperties(pd, NULL, &n_ext, ext);
    else
        n_ext = 0;
    VkPhysicalDeviceProperties basic;
    vkGetPhysicalDeviceProperties(pd, &basic);
    int v13 = basic.apiVersion >= VK_API_VERSION_1_3;
    f->has_maintenance4 = v13 || has_extension(ext, n_ext, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
    f->has_subgroup_control =
        v13 || has_extension(ext, n_ext, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    f->has_sm_builtins = has_extension(ext, n_ext, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
    f->has_atomic_float = has_extension(ext, n_ext, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    free(ext);

    f->props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    void **tail = &f->props.pNext;
    tail = chain(tail, &f->props11, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES);
    tail = chain(tail, &f->props12, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
    if (f->has_maintenance4)
        tail = chain(tail, &f->maintenance4,
                     VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES);
    if (f->has_subgroup_control)
        tail = chain(tail, &f->subgroup_control,
                     VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
    if (f->has_sm_builtins)
        chain(tail, &f->sm_builtins,
              VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
    vkGetPhysicalDeviceProperties2(pd, &f->props);

    f->features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    tail = chain(&f->features.pNext, &f->features12,
                 VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    if (f->has_subgroup_control)
        tail = chain(tail, &f->subgroup_control_features,
                     VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
    if (f->has_atomic_float)
        chain(tail, &f->atomic_float,
              VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
    vkGetPhysicalDeviceFeatures2(pd, &f->features);
}

/* Creates the logical device with what the pack uses, as far as offered. */
static VkResult make_device(vk_ctx *c, const device_facts *f, uint32_t family)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue;
    memset(&queue, 0, sizeof queue);
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;

    VkPhysicalDeviceFeatures2 features;
    memset(&features, 0, sizeof features);
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.features.shaderInt64 = f->features.features.shaderInt64;
    features.features.shaderFloat64 = f->features.features.shaderFloat64;
    VkPhysicalDeviceVulkan12Features f12;
    memset(&f12, 0, sizeof f12);
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f12.bufferDeviceAddress = VK_TRUE;
    f12.shaderBufferInt64Atomics = f->features12.shaderBufferInt64Atomics;
    f12.shaderSharedInt64Atomics = f->features12.shaderSharedInt64Atomics;
    f12.shaderSubgroupExtendedTypes = f->features12.shaderSubgroupExtendedTypes;
    features.pNext = &f12;
    void **tail = &f12.pNext;
    const char *extensions[4];
    uint32_t n_extensions = 0;
    VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_control;
    memset(&subgroup_control, 0, sizeof subgroup_control);
    if (f->has_subgroup_control && f->subgroup_control_features.subgroupSizeControl) {
        subgroup_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
        subgroup_control.subgroupSizeControl = VK_TRUE;
        *tail = &subgroup_control;
        tail = &subgroup_control.pNext;
        if (f->props.properties.apiVersion < VK_API_VERSION_1_3)
            extensions[n_extensions++] = VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME;
    }
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
    memset(&atomic_float, 0, sizeof atomic_float);
    if (f->has_atomic_float) {
        atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
        atomic_float.shaderBufferFloat32AtomicAdd = f->atomic_float.shaderBufferFloat32AtomicAdd;
        atomic_float.shaderBufferFloat64AtomicAdd = f->atomic_float.shaderBufferFloat64AtomicAdd;
        atomic_float.shaderBufferFloat32Atomics = f->atomic_float.shaderBufferFloat32Atomics;
        atomic_float.shaderBufferFloat64Atomics = f->atomic_float.shaderBufferFloat64Atomics;
        *tail = &atomic_float;
        extensions[n_extensions++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
    }
    if (f->has_sm_builtins)
        extensions[n_extensions++] = VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME;
    if (f->has_maintenance4 && f->props.properties.apiVersion < VK_API_VERSION_1_3)
        extensions[n_extensions++] = VK_KHR_MAINTENANCE_4_EXTENSION_NAME;

    VkDeviceCreateInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = n_extensions;
    info.ppEnabledExtensionNames = extensions;
    return vkCreateDevice(c->q.physical_device, &info, NULL, &c->q.device);
}

static void describe(vk_ctx *c, const device_facts *f, rb_device_info *info)
{
    const VkPhysicalDeviceProperties *p = &f->props.properties;
    snprintf(info->name, sizeof info->name, "%.127s", p->deviceName);
    if (f->props11.deviceUUID[0] || f->props11.deviceUUID[15])
        uuid_text(f->props11.deviceUUID,
                  p->vendorID == 0x10de ? "GPU-" : "", info->uuid, sizeof info->uuid);
    uint64_t largest_local = 0, total = 0;
    char heaps[96] = "";
    for (uint32_t k = 0; k < c->memory.memoryHeapCount; k++) {
        const VkMemoryHeap *h = &c->memory.memoryHeaps[k];
        size_t used = strlen(heaps);
        snprintf(heaps + used, sizeof heaps - used, "%s%.1f GiB%s", k ? ", " : "",
                 h->size / 1073741824.0,
                 (h->flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? " local" : " host");
        if ((h->flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && h->size > largest_local)
            largest_local = h->size;
        total += h->size;
    }
    info->memory_bytes = largest_local ? largest_local : total;
    char note[96] = "unknown (the driver does not say)";
    if (p->vendorID == 0x10de)
        info->peak_gbs = nvml_peak_gbs(f->props11.deviceUUID, note, sizeof note);

    rb_device_add_property(info, "vendor", "%s (0x%04x)", vendor_name(p->vendorID), p->vendorID);
    rb_device_add_property(info, "device_type", "%s", device_type_name(p->deviceType));
    rb_device_add_property(info, "driver", "%s", f->props12.driverName);
    rb_device_add_property(info, "driver_info", "%s", f->props12.driverInfo);
    rb_device_add_property(info, "driver_version", "0x%08x", p->driverVersion);
    rb_device_add_property(info, "api_version", "%u.%u.%u", VK_API_VERSION_MAJOR(p->apiVersion),
                           VK_API_VERSION_MINOR(p->apiVersion),
                           VK_API_VERSION_PATCH(p->apiVersion));
    rb_device_add_property(info, "subgroup_size", "%u (%u..%u)", c->q.subgroup_size,
                           c->q.min_subgroup_size, c->q.max_subgroup_size);
    rb_device_add_property(info, "memory_heaps", "%s", heaps);
    rb_device_add_property(info, "max_buffer_bytes", "%llu",
                           (unsigned long long)c->q.max_buffer_bytes);
    rb_device_add_property(info, "max_allocation_bytes", "%llu",
                           (unsigned long long)f->props11.maxMemoryAllocationSize);
    rb_device_add_property(info, "max_storage_buffer_range", "%u", p->limits.maxStorageBufferRange);
    rb_device_add_property(info, "max_shared_bytes", "%u", c->q.max_shared_bytes);
    rb_device_add_property(info, "max_workgroup_invocations", "%u", c->q.max_workgroup_invocations);
    if (c->q.compute_units)
        rb_device_add_property(info, "sm_count", "%u", c->q.compute_units);
    rb_device_add_property(info, "timestamp_period_ns", "%g", (double)p->limits.timestampPeriod);
    rb_device_add_property(info, "features", "%s%s%s%s%s%s",
                           (c->q.features & RB_VULKAN_INT64) ? "int64 " : "",
                           (c->q.features & RB_VULKAN_FLOAT64) ? "float64 " : "",
                           (c->q.features & RB_VULKAN_INT64_ATOMICS) ? "int64-atomics " : "",
                           (c->q.features & RB_VULKAN_FLOAT32_ATOMIC_ADD) ? "f32-atomic-add " : "",
                           (c->q.features & RB_VULKAN_FLOAT64_ATOMIC_ADD) ? "f64-atomic-add " : "",
                           (c->q.features & RB_VULKAN_SUBGROUP_SIZE_CONTROL)
                               ? "subgroup-size-control"
                               : "");
    rb_device_add_property(info, "peak_bandwidth", "%s", note);
}

static int vk_open(const rb_host *host, int device, void **ctx, rb_device_info *info)
{
    *ctx = NULL;
    vk_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        host->error(host, "out of host memory");
        return RB_ERROR;
    }
    c->host = host;
    VkResult r = make_instance(&c->q.instance);
    if (r != VK_SUCCESS) {
        c->q.instance = VK_NULL_HANDLE;
        release_ctx(c);
        return fail(host, "cannot create a Vulkan instance (no loader or no driver)", r);
    }
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(c->q.instance, &n, NULL);
    if (device < 0 || (uint32_t)device >= n) {
        release_ctx(c);
        if (n == 0)
            host->error(host, "no Vulkan device found");
        else
            host->error(host, "no Vulkan device %d: this machine has %u (valid: 0..%u)", device,
                        n, n - 1);
        return RB_ERROR;
    }
    VkPhysicalDevice *list = calloc(n, sizeof *list);
    if (!list) {
        release_ctx(c);
        host->error(host, "out of host memory");
        return RB_ERROR;
    }
    vkEnumeratePhysicalDevices(c->q.instance, &n, list);
    c->q.physical_device = list[device];
    free(list);

    device_facts *f = calloc(1, sizeof *f);
    if (!f) {
        release_ctx(c);
        host->error(host, "out of host memory");
        return RB_ERROR;
    }
    read_facts(c->q.physical_device, f);
    c->props = f->props.properties;
    vkGetPhysicalDeviceMemoryProperties(c->q.physical_device, &c->memory);
    if (c->props.apiVersion < VK_API_VERSION_1_2 || !f->features12.bufferDeviceAddress) {
        host->error(host, "%s offers Vulkan %u.%u%s: the vulkan pack needs Vulkan 1.2 with "
                          "bufferDeviceAddress", c->props.deviceName,
                    VK_API_VERSION_MAJOR(c->props.apiVersion),
                    VK_API_VERSION_MINOR(c->props.apiVersion),
                    f->features12.bufferDeviceAddress ? "" : " without bufferDeviceAddress");
        free(f);
        release_ctx(c);
        return RB_ERROR;
    }

    /* A compute queue with timestamps. */
    uint32_t n_families = 0, family = UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(c->q.physical_device, &n_families, NULL);
    VkQueueFamilyProperties *families = calloc(n_families ? n_families : 1, sizeof *families);
    if (families) {
        vkGetPhysicalDeviceQueueFamilyProperties(c->q.physical_device, &n_families, families);
        for (uint32_t k = 0; k < n_families && family == UINT32_MAX; k++)
            if ((families[k].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
                families[k].timestampValidBits > 0)
                family = k;
    }
    if (family == UINT32_MAX) {
        free(families);
        free(f);
        release_ctx(c);
        host->error(host, "%s has no compute queue with timestamps: it cannot be timed",
                    c->props.deviceName);
        return RB_ERROR;
    }
    uint32_t valid_bits = families[family].timestampValidBits;
    free(families);
    c->timestamp_mask = valid_bits >= 64 ? ~0ull : (1ull << valid_bits) - 1;
    c->timestamp_ns = c->props.limits.timestampPeriod;

    if ((r = make_device(c, f, family)) != VK_SUCCESS) {
        c->q.device = VK_NULL_HANDLE;
        free(f);
        release_ctx(c);
        return fail(host, "cannot create the Vulkan device", r);
    }
    vkGetDeviceQueue(c->q.device, family, 0, &c->q.queue);

    rb_vulkan_queue *q = &c->q;
    q->size = sizeof *q;
    q->api_version = c->props.apiVersion;
    q->queue_family = family;
    q->subgroup_size = f->props11.subgroupSize;
    q->min_subgroup_size = q->max_subgroup_size = q->subgroup_size;
    if (f->has_subgroup_control && f->subgroup_control.minSubgroupSize) {
        q->min_subgroup_size = f->subgroup_control.minSubgroupSize;
        q->max_subgroup_size = f->subgroup_control.maxSubgroupSize;
    }
    q->max_workgroup_invocations = c->props.limits.maxComputeWorkGroupInvocations;
    q->max_workgroup_count = c->props.limits.maxComputeWorkGroupCount[0];
    q->max_shared_bytes = c->props.limits.maxComputeSharedMemorySize;
    q->max_push_constant_bytes = c->props.limits.maxPushConstantsSize;
    q->max_buffer_bytes = f->has_maintenance4 && f->maintenance4.maxBufferSize
                              ? f->maintenance4.maxBufferSize
                              : 0xffffffffull;
    if (f->features.features.shaderInt64)
        q->features |= RB_VULKAN_INT64;
    if (f->features.features.shaderFloat64)
        q->features |= RB_VULKAN_FLOAT64;
    if (f->features12.shaderBufferInt64Atomics)
        q->features |= RB_VULKAN_INT64_ATOMICS;
    if (f->has_atomic_float && f->atomic_float.shaderBufferFloat32AtomicAdd)
        q->features |= RB_VULKAN_FLOAT32_ATOMIC_ADD;
    if (f->has_atomic_float && f->atomic_float.shaderBufferFloat64AtomicAdd)
        q->features |= RB_VULKAN_FLOAT64_ATOMIC_ADD;
    const VkSubgroupFeatureFlags arithmetic =
        VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    if ((f->props11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
        (f->props11.subgroupSupportedOperations & arithmetic) == arithmetic)
        q->features |= RB_VULKAN_SUBGROUP_ARITHMETIC;
    if (f->has_subgroup_control && f->subgroup_control_features.subgroupSizeControl)
        q->features |= RB_VULKAN_SUBGROUP_SIZE_CONTROL;
    if (f->features12.shaderSubgroupExtendedTypes)
        q->features |= RB_VULKAN_SUBGROUP_EXTENDED_TYPES;
    if (f->has_sm_builtins)
        q->compute_units = f->sm_builtins.shaderSMCount;
    q->begin = q_begin;
    q->submit = q_submit;
    q->wait = q_wait;
    q->buffer_create = q_buffer_create;
    q->buffer_destroy = q_buffer_destroy;
    q->backend = c;

    VkCommandPoolCreateInfo pool;
    memset(&pool, 0, sizeof pool);
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = family;
    VkQueryPoolCreateInfo query;
    memset(&query, 0, sizeof query);
    query.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    query.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query.queryCount = 2;
    VkFenceCreateInfo fence;
    memset(&fence, 0, sizeof fence);
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    if ((r = vkCreateCommandPool(q->device, &pool, NULL, &q->command_pool)) != VK_SUCCESS ||
        (r = vkCreateQueryPool(q->device, &query, NULL, &c->timestamps)) != VK_SUCCESS ||
        (r = vkCreateFence(q->device, &fence, NULL, &c->batch_fence)) != VK_SUCCESS) {
        free(f);
        release_ctx(c);
        return fail(host, "cannot create the command pool, query pool and fence", r);
    }
    c->timing_mode = RB_TIMING_LAUNCH;
    if (buffer_create(c, host, STAGING_BYTES, RB_VULKAN_HOST_MEMORY, &c->staging) != RB_OK) {
        free(f);
        release_ctx(c);
        return RB_ERROR;
    }
    if (info->size >= sizeof(rb_device_info))
        describe(c, f, info);
    free(f);
    *ctx = c;
    return RB_OK;
}

static void vk_close(void *ctx)
{
    if (ctx)
        release_ctx((vk_ctx *)ctx);
}

static void *vk_queue(void *ctx)
{
    return &((vk_ctx *)ctx)->q;
}

/* ---- memory: alloc, upload, fill, write, copy ---- */

static int vk_alloc(void *ctx, size_t bytes, void **ptr)
{
    vk_ctx *c = (vk_ctx *)ctx;
    rb_vulkan_buffer *b = calloc(1, sizeof *b);
    *ptr = NULL;
    if (!b) {
        c->host->error(c->host, "out of host memory");
        return RB_ERROR;
    }
    if (buffer_create(c, c->host, bytes, RB_VULKAN_DEVICE_MEMORY, b) != RB_OK) {
        free(b);
        return RB_ERROR;
    }
    *ptr = b;
    return RB_OK;
}

static void vk_release(void *ctx, void *ptr)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (!ptr)
        return;
    vkDeviceWaitIdle(c->q.device);
    buffer_destroy(c, (rb_vulkan_buffer *)ptr);
    free(ptr);
}

/* Submits one command buffer of transfers and waits for it. */
static int run_transfer(vk_ctx *c, submission *s)
{
    host_barrier(s->cmd);
    if (submit(c, c->host, s) != RB_OK)
        return RB_ERROR;
    return wait_all(c, c->host, WAIT_LIMIT_NS);
}

/* Copies the first `bytes` of the staging buffer to dst at `offset`. */
static int staging_to(vk_ctx *c, const rb_vulkan_buffer *dst, uint64_t offset, uint64_t bytes)
{
    submission *s = acquire(c, c->host);
    if (!s)
        return RB_ERROR;
    full_barrier(s->cmd);
    VkBufferCopy region = {0, offset, bytes};
    vkCmdCopyBuffer(s->cmd, c->staging.buffer, dst->buffer, 1, &region);
    return run_transfer(c, s);
}

static int check_range(vk_ctx *c, const rb_vulkan_buffer *b, uint64_t offset, uint64_t bytes)
{
    if (offset > b->capacity || bytes > b->capacity - offset) {
        c->host->error(c->host, "bytes %llu..%llu are outside the %llu-byte buffer",
                       (unsigned long long)offset, (unsigned long long)(offset + bytes),
                       (unsigned long long)b->capacity);
        return RB_ERROR;
    }
    return RB_OK;
}

static int vk_write(void *ctx, void *buffer, uint64_t offset, const void *src, size_t bytes)
{
    vk_ctx *c = (vk_ctx *)ctx;
    const rb_vulkan_buffer *dst = (const rb_vulkan_buffer *)buffer;
    if (check_range(c, dst, offset, bytes) != RB_OK)
        return RB_ERROR;
    const unsigned char *from = (const unsigned char *)src;
    while (bytes > 0) {
        uint64_t chunk = bytes < STAGING_BYTES ? bytes : STAGING_BYTES;
        memcpy(c->staging.mapped, from, chunk);
        if (staging_to(c, dst, offset, chunk) != RB_OK)
            return RB_ERROR;
        from += chunk;
        offset += chunk;
        bytes -= chunk;
    }
    return RB_OK;
}

static int vk_upload(void *ctx, void *dst, const void *src, size_t bytes)
{
    return vk_write(ctx, dst, 0, src, bytes);
}

static int vk_fill(void *ctx, void *buffer, uint64_t offset, const void *value,
                   uint32_t value_bytes, uint64_t count)
{
    vk_ctx *c = (vk_ctx *)ctx;
    const rb_vulkan_buffer *dst = (const rb_vulkan_buffer *)buffer;
    if (value_bytes != 1 && value_bytes != 2 && value_bytes != 4 && value_bytes != 8) {
        c->host->error(c->host, "fill: values of %u bytes are not offered", value_bytes);
        return RB_ERROR;
    }
    uint64_t bytes = count * value_bytes;
    if (check_range(c, dst, offset, bytes) != RB_OK)
        return RB_ERROR;
    if (bytes == 0)
        return RB_OK;
    /* A 32-bit pattern: vkCmdFillBuffer, where offset and size allow. */
    unsigned char v[8];
    memcpy(v, value, value_bytes);
    uint32_t pattern = 0;
    int repeats = 1;
    if (value_bytes == 8)
        repeats = memcmp(v, v + 4, 4) == 0;
    for (uint32_t k = 0; k < 4; k++)
        pattern |= (uint32_t)v[k % value_bytes] << (8 * k);
    if (repeats && offset % 4 == 0 && bytes % 4 == 0) {
        submission *s = acquire(c, c->host);
        if (!s)
            return RB_ERROR;
        full_barrier(s->cmd);
        vkCmdFillBuffer(s->cmd, dst->buffer, offset, bytes, pattern);
        return run_transfer(c, s);
    }
    /* Otherwise through the staging buffer, a whole number of values at a
     * time. */
    uint64_t per_chunk = STAGING_BYTES / value_bytes;
    uint64_t in_staging = count < per_chunk ? count : per_chunk;
    unsigned char *to = (unsigned char *)c->staging.mapped;
    for (uint64_t k = 0; k < in_staging; k++)
        memcpy(to + k * value_bytes, v, value_bytes);
    while (count > 0) {
        uint64_t chunk = count < in_staging ? count : in_staging;
        if (staging_to(c, dst, offset, chunk * value_bytes) != RB_OK)
            return RB_ERROR;
        offset += chunk * value_bytes;
        count -= chunk;
    }
    return RB_OK;
}

static int vk_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    vk_ctx *c = (vk_ctx *)ctx;
    const rb_vulkan_buffer *to = (const rb_vulkan_buffer *)dst;
    const rb_vulkan_buffer *from = (const rb_vulkan_buffer *)src;
    if (check_range(c, to, 0, bytes) != RB_OK || check_range(c, from, 0, bytes) != RB_OK)
        return RB_ERROR;
    if (bytes == 0)
        return RB_OK;
    submission *s = acquire(c, c->host);
    if (!s)
        return RB_ERROR;
    full_barrier(s->cmd);
    VkBufferCopy region = {0, 0, bytes};
    vkCmdCopyBuffer(s->cmd, from->buffer, to->buffer, 1, &region);
    return run_transfer(c, s);
}

/* ---- timing ---- */

static int read_timestamps(vk_ctx *c, double *elapsed_ns)
{
    uint64_t t[2] = {0, 0};
    VkResult r = vkGetQueryPoolResults(c->q.device, c->timestamps, 0, 2, sizeof t, t,
                                       sizeof t[0],
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS)
        return fail(c->host, "cannot read the timestamps", r);
    *elapsed_ns = (double)((t[1] - t[0]) & c->timestamp_mask) * c->timestamp_ns;
    return RB_OK;
}

static void write_start(vk_ctx *c, VkCommandBuffer cmd)
{
    vkCmdResetQueryPool(cmd, c->timestamps, 0, 2);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->timestamps, 0);
}

/* The stop timestamp is taken once everything before it has finished. */
static void write_stop(vk_ctx *c, VkCommandBuffer cmd)
{
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->timestamps, 1);
}

static int vk_time_begin(void *ctx)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (c->recording) {
        c->host->error(c->host, "time_begin while a timed call is being recorded");
        return RB_ERROR;
    }
    submission *s = acquire(c, c->host);
    if (!s)
        return RB_ERROR;
    full_barrier(s->cmd);
    write_start(c, s->cmd);
    if (c->timing_mode == RB_TIMING_DEVICE) {
        c->recording = s->cmd;
        c->recording_sub = s;
        return RB_OK;
    }
    return submit(c, c->host, s);
}

static int vk_time_end(void *ctx, double *elapsed_ns)
{
    vk_ctx *c = (vk_ctx *)ctx;
    submission *s = c->recording_sub;
    c->recording = VK_NULL_HANDLE;
    c->recording_sub = NULL;
    if (!s && !(s = acquire(c, c->host)))
        return RB_ERROR;
    write_stop(c, s->cmd);
    host_barrier(s->cmd);
    if (submit(c, c->host, s) != RB_OK || wait_all(c, c->host, WAIT_LIMIT_NS) != RB_OK)
        return RB_ERROR;
    return read_timestamps(c, elapsed_ns);
}

static int vk_synchronize(void *ctx)
{
    vk_ctx *c = (vk_ctx *)ctx;
    return wait_all(c, c->host, WAIT_LIMIT_NS);
}

/* Writes a buffer larger than any cache the device has (GPU L2s are tens
 * of MiB, the largest last-level caches a few hundred) and waits. */
static int vk_flush_cache(void *ctx)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (!c->flush.buffer) {
        uint64_t bytes = c->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? (uint64_t)128 << 20
                                                                           : (uint64_t)512 << 20;
        if (buffer_create(c, c->host, bytes, RB_VULKAN_DEVICE_MEMORY, &c->flush) != RB_OK)
            return RB_ERROR;
    }
    submission *s = acquire(c, c->host);
    if (!s)
        return RB_ERROR;
    full_barrier(s->cmd);
    vkCmdFillBuffer(s->cmd, c->flush.buffer, 0, VK_WHOLE_SIZE, ++c->flush_pattern);
    return run_transfer(c, s);
}

/* Push constants of stream_read.comp. */
typedef struct stream_push {
    VkDeviceAddress data, sink;
    uint32_t count; /* 16-byte words */
} stream_push;

static int vk_measure_peak(void *ctx, double *gbs)
{
    vk_ctx *c = (vk_ctx *)ctx;
    *gbs = 0;
    uint64_t bytes = c->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? (uint64_t)256 << 20
                                                                       : (uint64_t)1 << 30;
    if (bytes > c->q.max_buffer_bytes / 2)
        bytes = c->q.max_buffer_bytes / 2 / 16 * 16;
    rb_vulkan_buffer data, sink;
    if (buffer_create(c, c->host, bytes, RB_VULKAN_DEVICE_MEMORY, &data) != RB_OK)
        return RB_ERROR;
    if (buffer_create(c, c->host, 16, RB_VULKAN_DEVICE_MEMORY, &sink) != RB_OK) {
        buffer_destroy(c, &data);
        return RB_ERROR;
    }
    const uint32_t block = 256;
    uint32_t constants[1] = {block};
    rb_vulkan_pipeline pipeline;
    int status = rb_vulkan_pipeline_create(&c->q, c->host, stream_read_spv,
                                           sizeof stream_read_spv / sizeof stream_read_spv[0],
                                           sizeof(stream_push), constants, 1, &pipeline);
    stream_push push = {data.address, sink.address, (uint32_t)(bytes / 16)};
    uint32_t groups = c->q.compute_units ? c->q.compute_units * 8 : 2048;
    if (groups > c->q.max_workgroup_count)
        groups = c->q.max_workgroup_count;
    double best = 0;
    for (int rep = 0; rep < 6 && status == RB_OK; rep++) {
        submission *s = acquire(c, c->host);
        if (!s) {
            status = RB_ERROR;
            break;
        }
        full_barrier(s->cmd);
        if (rep == 0) {
            vkCmdFillBuffer(s->cmd, data.buffer, 0, VK_WHOLE_SIZE, 0x01020304u);
            full_barrier(s->cmd);
        }
        write_start(c, s->cmd);
        rb_vulkan_dispatch(s->cmd, &pipeline, &push, groups);
        write_stop(c, s->cmd);
        double ns = 0;
        status = submit(c, c->host, s);
        if (status == RB_OK)
            status = wait_all(c, c->host, WAIT_LIMIT_NS);
        if (status == RB_OK)
            status = read_timestamps(c, &ns);
        if (status == RB_OK && rep > 0 && ns > 0 && (best == 0 || ns < best))
            best = ns; /* the first pass is a warm-up */
    }
    rb_vulkan_pipeline_destroy(&c->q, &pipeline);
    buffer_destroy(c, &sink);
    buffer_destroy(c, &data);
    if (status != RB_OK)
        return RB_ERROR;
    *gbs = best > 0 ? bytes / best : 0;
    return RB_OK;
}

/* A run that failed may have left a command buffer open: it is ended and
 * dropped. A lost device cannot be used again in this process. */
static int vk_recover(void *ctx)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (c->recording_sub) {
        vkEndCommandBuffer(c->recording_sub->cmd);
        c->recording_sub->open = 0;
    }
    c->recording = VK_NULL_HANDLE;
    c->recording_sub = NULL;
    for (uint32_t k = 0; k < c->n_subs; k++)
        if (c->subs[k].open) {
            vkEndCommandBuffer(c->subs[k].cmd);
            c->subs[k].open = 0;
        }
    return wait_all(c, c->host, WAIT_LIMIT_NS);
}

static int vk_set_timing(void *ctx, int mode)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (mode != RB_TIMING_LAUNCH && mode != RB_TIMING_DEVICE) {
        c->host->error(c->host, "set_timing takes launch or device; graph timing uses batches");
        return RB_UNSUPPORTED;
    }
    c->timing_mode = mode;
    return RB_OK;
}

static void vk_batch_release(void *ctx)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (!c->batch)
        return;
    vkWaitForFences(c->q.device, 1, &c->batch_fence, VK_TRUE, WAIT_LIMIT_NS);
    vkFreeCommandBuffers(c->q.device, c->q.command_pool, 1, &c->batch);
    c->batch = VK_NULL_HANDLE;
}

static int batch_submit(vk_ctx *c)
{
    VkResult r = vkResetFences(c->q.device, 1, &c->batch_fence);
    VkSubmitInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &c->batch;
    if (r == VK_SUCCESS)
        r = vkQueueSubmit(c->q.queue, 1, &info, c->batch_fence);
    if (r == VK_SUCCESS)
        r = vkWaitForFences(c->q.device, 1, &c->batch_fence, VK_TRUE, WAIT_LIMIT_NS);
    if (r != VK_SUCCESS)
        return fail(c->host, "the batch's replay failed", r);
    return RB_OK;
}

/* Records `calls` runs into one command buffer between the timestamps,
 * and replays it once. */
static int vk_batch_prepare(void *ctx, int (*run)(void *state), void *state, uint32_t calls)
{
    vk_ctx *c = (vk_ctx *)ctx;
    vk_batch_release(c);
    if (wait_all(c, c->host, WAIT_LIMIT_NS) != RB_OK)
        return RB_ERROR;
    VkCommandBufferAllocateInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    info.commandPool = c->q.command_pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkResult r = vkAllocateCommandBuffers(c->q.device, &info, &c->batch);
    VkCommandBufferBeginInfo begin;
    memset(&begin, 0, sizeof begin);
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    if (r == VK_SUCCESS)
        r = vkBeginCommandBuffer(c->batch, &begin);
    if (r != VK_SUCCESS) {
        if (c->batch)
            vkFreeCommandBuffers(c->q.device, c->q.command_pool, 1, &c->batch);
        c->batch = VK_NULL_HANDLE;
        return fail(c->host, "cannot begin the batch's command buffer", r);
    }
    full_barrier(c->batch);
    write_start(c, c->batch);
    c->recording = c->batch;
    int status = RB_OK;
    uint32_t done = 0;
    for (; done < calls && status == RB_OK; done++)
        status = run(state);
    c->recording = VK_NULL_HANDLE;
    write_stop(c, c->batch);
    host_barrier(c->batch);
    r = vkEndCommandBuffer(c->batch);
    if (status != RB_OK || r != VK_SUCCESS) {
        vkFreeCommandBuffers(c->q.device, c->q.command_pool, 1, &c->batch);
        c->batch = VK_NULL_HANDLE;
        c->host->error(c->host, "the run cannot be recorded into one command buffer "
                                "(call %u of %u failed%s)", done, calls,
                       r != VK_SUCCESS ? ", or the command buffer could not be ended" : "");
        return RB_UNSUPPORTED;
    }
    if (batch_submit(c) != RB_OK) {
        vk_batch_release(c);
        return RB_ERROR;
    }
    return RB_OK;
}

static int vk_batch_time(void *ctx, double *elapsed_ns)
{
    vk_ctx *c = (vk_ctx *)ctx;
    if (!c->batch) {
        c->host->error(c->host, "batch_time without a recorded batch");
        return RB_ERROR;
    }
    if (batch_submit(c) != RB_OK)
        return RB_ERROR;
    return read_timestamps(c, elapsed_ns);
}

static const rb_backend vulkan_backend = {
    RB_BACKEND_ABI_FIELDS,
    .name = "vulkan",
    .summary = "Vulkan compute on any vendor's device: timestamp queries, command buffers "
               "replayed as batches, buffers by device address",
    .version = "1.0",
    .device_count = vk_device_count,
    .open = vk_open,
    .close = vk_close,
    .queue = vk_queue,
    .alloc = vk_alloc,
    .release = vk_release,
    .upload = vk_upload,
    .time_begin = vk_time_begin,
    .time_end = vk_time_end,
    .synchronize = vk_synchronize,
    .flush_cache = vk_flush_cache,
    .measure_peak = vk_measure_peak,
    .recover = vk_recover,
    .timing_modes = RB_TIMING_BIT(RB_TIMING_LAUNCH) | RB_TIMING_BIT(RB_TIMING_GRAPH) |
                    RB_TIMING_BIT(RB_TIMING_DEVICE),
    .set_timing = vk_set_timing,
    .batch_prepare = vk_batch_prepare,
    .batch_time = vk_batch_time,
    .batch_release = vk_batch_release,
    .fill = vk_fill,
    .write = vk_write,
    .copy = vk_copy,
    .memory_kind = RB_MEMORY_HANDLE,
};

RB_BACKEND_ENTRY(vulkan_backend)
