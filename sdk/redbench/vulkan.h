/* SPDX-License-Identifier: Apache-2.0 */
/* redbench/vulkan.h: what the vulkan backend hands its plugins (ABI 1.2).
 *
 * For a plugin whose descriptor says backend = "vulkan":
 * - cfg->queue is an rb_vulkan_queue *: the instance, physical device,
 *   device and queue the backend opened, the device's limits and features,
 *   and the backend's functions to record and submit work (begin, submit,
 *   wait) and to make buffers (buffer_create, buffer_destroy).
 * - cfg->input is a const rb_vulkan_buffer *: the buffer the backend
 *   uploaded the input into. The n elements start cfg->input_offset bytes
 *   into it; shaders reach them through the buffer's device address
 *   (GL_EXT_buffer_reference), so no descriptor set is needed.
 *
 * How run issues its work: every command buffer comes from q->begin and
 * goes back through q->submit; run records its dispatches (and the clearing
 * of its accumulators: vkCmdFillBuffer, never a host write) between the
 * two and MUST NOT wait for the device. The backend decides what a submit
 * means: in launch timing it is a vkQueueSubmit of its own; in device
 * timing and in graph timing (batch_prepare) begin hands out the one command
 * buffer the backend is recording, between its timestamp queries, and
 * submit leaves it open, so that the runs are replayed back to back on the
 * device. begin starts each command buffer with a memory barrier against
 * everything recorded or submitted before, over compute shaders and
 * transfers and their reads and writes (rb_vulkan_barrier's), so a run
 * whose work is compute dispatches, fills and copies may treat the device
 * as idle and only orders its own passes (rb_vulkan_barrier). A run that
 * reads through another path (indirect dispatch parameters, uniform
 * buffers) records its own barrier for that first.
 * verify records its copy back with begin/submit too, then calls q->wait
 * and reads host memory.
 *
 * Link plugins with the Vulkan loader (-lvulkan); the backend and its
 * plugins share the process's one loader, so the handles are valid in both.
 */
#ifndef REDBENCH_VULKAN_H
#define REDBENCH_VULKAN_H

#include <string.h>

#include <redbench/backend.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every buffer of the backend (the input's included) is rounded up to a
 * multiple of this many bytes and starts at an address aligned to it: a
 * shader may read the last 16-byte word whole (the padding's contents are
 * undefined; mask it off). */
#define RB_VULKAN_BUFFER_ALIGN 16u

/* A buffer of the backend: what alloc returns (cfg->input) and what
 * buffer_create makes. Usable as a storage buffer, a transfer source and
 * destination, and through its device address. */
typedef struct rb_vulkan_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize bytes;      /* as asked for */
    VkDeviceSize capacity;   /* bytes rounded up to RB_VULKAN_BUFFER_ALIGN */
    VkDeviceAddress address; /* for shaders: vkGetBufferDeviceAddress */
    void *mapped;            /* host address while mapped (host memory), else NULL */
} rb_vulkan_buffer;

/* Where buffer_create puts a buffer. */
enum rb_vulkan_memory {
    RB_VULKAN_DEVICE_MEMORY = 0, /* device-local: for the GPU's own work */
    RB_VULKAN_HOST_MEMORY = 1    /* host-visible, coherent and mapped: for
                                    reading results back (q->wait first) */
};

/* Bits of rb_vulkan_queue.features: what the device offers (and the
 * backend enabled) beyond core Vulkan 1.2 with buffer device addresses. */
#define RB_VULKAN_INT64 0x1u              /* shaderInt64 */
#define RB_VULKAN_FLOAT64 0x2u            /* shaderFloat64 */
#define RB_VULKAN_INT64_ATOMICS 0x4u      /* shaderBufferInt64Atomics */
#define RB_VULKAN_FLOAT32_ATOMIC_ADD 0x8u /* VK_EXT_shader_atomic_float:
                                             shaderBufferFloat32AtomicAdd */
#define RB_VULKAN_FLOAT64_ATOMIC_ADD 0x10u /* ... shaderBufferFloat64AtomicAdd */
#define RB_VULKAN_SUBGROUP_ARITHMETIC 0x20u /* subgroupAdd/Min/Max in compute */
#define RB_VULKAN_SUBGROUP_SIZE_CONTROL 0x40u /* subgroupSizeControl */
#define RB_VULKAN_SUBGROUP_EXTENDED_TYPES 0x80u /* shaderSubgroupExtendedTypes:
                                                  subgroup operations on
                                                  64-bit integers */

/* The queue and device, as the backend hands them to plugins (cfg->queue).
 * Filled by the backend; a plugin MUST NOT write to it, and MUST check
 * `size` before reading a field appended later. */
typedef struct rb_vulkan_queue {
    uint32_t size; /* sizeof(struct rb_vulkan_queue) as built by the backend */
    uint32_t api_version;            /* the device's, VK_MAKE_API_VERSION */
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkQueue queue;                   /* a compute queue */
    uint32_t queue_family;
    VkCommandPool command_pool;      /* the backend's: for command buffers a
                                        plugin records and submits in init */
    uint32_t subgroup_size;          /* the default subgroup size in compute */
    uint32_t min_subgroup_size, max_subgroup_size;
    uint32_t max_workgroup_invocations; /* maxComputeWorkGroupInvocations */
    uint32_t max_workgroup_count;    /* maxComputeWorkGroupCount[0] */
    uint32_t max_shared_bytes;       /* maxComputeSharedMemorySize */
    uint32_t max_push_constant_bytes;
    uint64_t max_buffer_bytes;       /* the largest buffer this device makes
                                        (maxBufferSize; else 2^32 - 1) */
    uint32_t features;               /* RB_VULKAN_* bits */
    uint32_t compute_units;          /* multiprocessors or compute units
                                        where the driver says (0: unknown) */

    /* Hands out the command buffer to record into, begun, with a memory
     * barrier recorded against all earlier work. NULL on failure (the
     * reason through `host`). */
    VkCommandBuffer (*begin)(struct rb_vulkan_queue *q, const rb_host *host);
    /* Gives back what begin handed out: the backend ends and submits it, or
     * keeps recording into it (device and graph timing). Does not wait. */
    int (*submit)(struct rb_vulkan_queue *q, const rb_host *host, VkCommandBuffer cmd);
    /* Waits until everything submitted has finished (verify, init).
     * Returns RB_ERROR if the device failed, or if called while the backend
     * is recording a timed batch (run MUST NOT wait). */
    int (*wait)(struct rb_vulkan_queue *q, const rb_host *host);
    /* Makes a buffer of `bytes` bytes (rounded up to RB_VULKAN_BUFFER_ALIGN)
     * in device or host memory (enum rb_vulkan_memory). */
    int (*buffer_create)(struct rb_vulkan_queue *q, const rb_host *host, uint64_t bytes,
                         int memory, rb_vulkan_buffer *out);
    void (*buffer_destroy)(struct rb_vulkan_queue *q, rb_vulkan_buffer *buffer);
    void *backend; /* the backend's own; a plugin MUST NOT touch it */
} rb_vulkan_queue;

/* ---- helpers for plugins ---- */

/* Orders a plugin's passes inside one run: everything before (compute
 * shaders, transfers) is done and visible to everything after. */
static inline void rb_vulkan_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier barrier;
    memset(&barrier, 0, sizeof barrier);
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         0, 1, &barrier, 0, NULL, 0, NULL);
}

/* A compute pipeline whose only interface is a push-constant block (the
 * buffers are reached through device addresses). */
typedef struct rb_vulkan_pipeline {
    VkShaderModule module;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    uint32_t push_bytes;
} rb_vulkan_pipeline;

/* Builds a pipeline from SPIR-V (`words` 32-bit words) with `push_bytes`
 * of push constants and the specialization constants `constants[k]` with
 * constant_id k (k < n_constants; 32-bit each: a shader's local_size_x_id,
 * an operation, a variant). `required_subgroup_size`, when not 0, fixes
 * the subgroup size (subgroupSizeControl). Returns RB_OK, or RB_ERROR with
 * the reason through host. */
static inline int rb_vulkan_pipeline_create(const rb_vulkan_queue *q, const rb_host *host,
                                            const uint32_t *code, size_t words,
                                            uint32_t push_bytes, const uint32_t *constants,
                                            uint32_t n_constants, rb_vulkan_pipeline *out)
{
    VkResult r;
    memset(out, 0, sizeof *out);
    out->push_bytes = push_bytes;

    VkShaderModuleCreateInfo module_info;
    memset(&module_info, 0, sizeof module_info);
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = words * sizeof *code;
    module_info.pCode = code;
    if ((r = vkCreateShaderModule(q->device, &module_info, NULL, &out->module)) != VK_SUCCESS) {
        host->error(host, "vkCreateShaderModule failed (VkResult %d)", (int)r);
        return RB_ERROR;
    }

    VkPushConstantRange range;
    range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    range.offset = 0;
    range.size = push_bytes;
    VkPipelineLayoutCreateInfo layout_info;
    memset(&layout_info, 0, sizeof layout_info);
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    if ((r = vkCreatePipelineLayout(q->device, &layout_info, NULL, &out->layout)) != VK_SUCCESS) {
        host->error(host, "vkCreatePipelineLayout failed (VkResult %d)", (int)r);
        return RB_ERROR;
    }

    VkSpecializationMapEntry entries[16];
    if (n_constants > 16)
        n_constants = 16;
    for (uint32_t k = 0; k < n_constants; k++) {
        entries[k].constantID = k;
        entries[k].offset = k * (uint32_t)sizeof(uint32_t);
        entries[k].size = sizeof(uint32_t);
    }
    VkSpecializationInfo specialization;
    specialization.mapEntryCount = n_constants;
    specialization.pMapEntries = entries;
    specialization.dataSize = n_constants * sizeof(uint32_t);
    specialization.pData = constants;

    VkComputePipelineCreateInfo info;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = out->module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = n_constants ? &specialization : NULL;
    info.layout = out->layout;
    r = vkCreateComputePipelines(q->device, VK_NULL_HANDLE, 1, &info, NULL, &out->pipeline);
    if (r != VK_SUCCESS) {
        host->error(host, "vkCreateComputePipelines failed (VkResult %d)", (int)r);
        return RB_ERROR;
    }
    return RB_OK;
}

static inline void rb_vulkan_pipeline_destroy(const rb_vulkan_queue *q, rb_vulkan_pipeline *p)
{
    if (p->pipeline)
        vkDestroyPipeline(q->device, p->pipeline, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(q->device, p->layout, NULL);
    if (p->module)
        vkDestroyShaderModule(q->device, p->module, NULL);
    memset(p, 0, sizeof *p);
}

/* Records one dispatch of `p` with push constants `push` (p->push_bytes). */
static inline void rb_vulkan_dispatch(VkCommandBuffer cmd, const rb_vulkan_pipeline *p,
                                      const void *push, uint32_t groups)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    if (p->push_bytes)
        vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, p->push_bytes, push);
    vkCmdDispatch(cmd, groups, 1, 1);
}

/* The device address of the input's first element. */
static inline VkDeviceAddress rb_vulkan_input_address(const rb_config *cfg)
{
    const rb_vulkan_buffer *in = (const rb_vulkan_buffer *)cfg->input;
    uint64_t offset = cfg->size >= offsetof(rb_config, input_offset) + sizeof(uint64_t)
                          ? cfg->input_offset
                          : 0;
    return in->address + offset;
}

/* Copies `bytes` bytes at `offset` of a device buffer into host memory
 * `dst` through the staging buffer `host_buffer` (RB_VULKAN_HOST_MEMORY, at
 * least `bytes` long), after the work submitted so far: verify's body. */
static inline int rb_vulkan_read(rb_vulkan_queue *q, const rb_host *host,
                                 const rb_vulkan_buffer *from, uint64_t offset,
                                 const rb_vulkan_buffer *host_buffer, void *dst, size_t bytes)
{
    VkCommandBuffer cmd = q->begin(q, host);
    if (!cmd)
        return RB_ERROR;
    VkBufferCopy region;
    region.srcOffset = offset;
    region.dstOffset = 0;
    region.size = bytes;
    vkCmdCopyBuffer(cmd, from->buffer, host_buffer->buffer, 1, &region);
    VkMemoryBarrier barrier;
    memset(&barrier, 0, sizeof barrier);
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &barrier, 0, NULL, 0, NULL);
    if (q->submit(q, host, cmd) != RB_OK || q->wait(q, host) != RB_OK)
        return RB_ERROR;
    memcpy(dst, host_buffer->mapped, bytes);
    return RB_OK;
}

#ifdef __cplusplus
}
#endif
#endif
