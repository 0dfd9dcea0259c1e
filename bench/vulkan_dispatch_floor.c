/* bench/vulkan_dispatch_floor.c: what one dispatch costs on a Vulkan device
 * when dispatches are recorded back to back in one command buffer, as the
 * vulkan backend's graph timing records a strategy's calls. The shader is
 * the least a reduction's call does: one workgroup, push constants with a
 * buffer address, invocation 0 adds 1 to a word. Each form below records
 * CALLS dispatches between two timestamps, submits, waits, five times; the
 * least time over CALLS is printed per form, in microseconds:
 *
 *   none        no barrier between dispatches (they may overlap)
 *   execution   compute-to-compute execution barrier, no memory barrier
 *   shader      compute-to-compute, shader writes made visible to shader
 *               reads and writes
 *   transfer    compute and transfer stages, shader and transfer writes made
 *               visible to shader and transfer reads and writes
 *               (rb_vulkan_barrier: the backend's barrier between calls)
 *   full        compute and transfer stages, any memory write made visible
 *               to any read or write (VK_ACCESS_MEMORY_*: the backend's
 *               barrier between calls until 2026-11-28)
 *   fill+full   a 4-byte vkCmdFillBuffer, a full barrier, the dispatch, a
 *               full barrier (an atomic finish's reset)
 *
 *   vulkan_dispatch_floor SHADER.spv [CALLS [DEVICE]]
 *
 * SHADER.spv is bench/vulkan_dispatch_floor.comp compiled by glslc
 * (bench/vulkan_dispatch_floor.sh builds and runs both). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        VkResult r_ = (call);                                                        \
        if (r_ != VK_SUCCESS) {                                                      \
            fprintf(stderr, "vulkan_dispatch_floor: %s failed (%d)\n", #call, r_); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

enum form { NONE, EXECUTION, SHADER, TRANSFER, FULL, FILL_FULL, FORMS };
static const char *const form_names[FORMS] = {"none", "execution", "shader", "transfer", "full",
                                              "fill+full"};

typedef struct push {
    VkDeviceAddress word;
    uint32_t value;
} push;

static uint32_t *read_spirv(const char *path, size_t *bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "vulkan_dispatch_floor: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = malloc((size_t)size + 4);
    if (!words || size <= 0 || size % 4 || fread(words, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "vulkan_dispatch_floor: %s is not SPIR-V\n", path);
        exit(1);
    }
    fclose(f);
    *bytes = (size_t)size;
    return words;
}

static void barrier(VkCommandBuffer cmd, enum form form)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, 0, 0};
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    switch (form) {
    case NONE: return;
    case EXECUTION:
        vkCmdPipelineBarrier(cmd, stages, stages, 0, 0, NULL, 0, NULL, 0, NULL);
        return;
    case SHADER:
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        break;
    case TRANSFER:
        stages |= VK_PIPELINE_STAGE_TRANSFER_BIT;
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                           VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        break;
    default:
        stages |= VK_PIPELINE_STAGE_TRANSFER_BIT;
        mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
        break;
    }
    vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &mb, 0, NULL, 0, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: vulkan_dispatch_floor SHADER.spv [CALLS [DEVICE]]\n");
        return 2;
    }
    uint32_t calls = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 2000;
    uint32_t index = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 0;
    if (calls == 0)
        calls = 1;

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    uint32_t count = 0;
    CHECK(vkEnumeratePhysicalDevices(instance, &count, NULL));
    VkPhysicalDevice devices[16];
    if (count > 16)
        count = 16;
    CHECK(vkEnumeratePhysicalDevices(instance, &count, devices));
    if (index >= count) {
        fprintf(stderr, "vulkan_dispatch_floor: no device %u (%u found)\n", index, count);
        return 1;
    }
    VkPhysicalDevice phys = devices[index];
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(phys, &props);

    uint32_t nfam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &nfam, NULL);
    VkQueueFamilyProperties fams[32];
    if (nfam > 32)
        nfam = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &nfam, fams);
    uint32_t family = UINT32_MAX;
    for (uint32_t k = 0; k < nfam && family == UINT32_MAX; k++)
        if ((fams[k].queueFlags & VK_QUEUE_COMPUTE_BIT) && fams[k].timestampValidBits)
            family = k;
    if (family == UINT32_MAX) {
        fprintf(stderr, "vulkan_dispatch_floor: no compute queue with timestamps\n");
        return 1;
    }
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.bufferDeviceAddress = VK_TRUE;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &f12;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    VkDevice device;
    CHECK(vkCreateDevice(phys, &dci, NULL, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    /* one 256-byte buffer in device-local memory, by address */
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 256;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    VkBuffer buffer;
    CHECK(vkCreateBuffer(device, &bci, NULL, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(phys, &mem);
    uint32_t type = UINT32_MAX;
    for (uint32_t k = 0; k < mem.memoryTypeCount && type == UINT32_MAX; k++)
        if ((req.memoryTypeBits & (1u << k)) &&
            (mem.memoryTypes[k].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            type = k;
    VkMemoryAllocateFlagsInfo flags = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.pNext = &flags;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(device, &mai, NULL, &memory));
    CHECK(vkBindBufferMemory(device, buffer, memory, 0));
    VkBufferDeviceAddressInfo bai = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    bai.buffer = buffer;
    push pc = {vkGetBufferDeviceAddress(device, &bai), 1};

    size_t bytes;
    uint32_t *code = read_spirv(argv[1], &bytes);
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = bytes;
    smci.pCode = code;
    VkShaderModule module;
    CHECK(vkCreateShaderModule(device, &smci, NULL, &module));
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push)};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(device, &plci, NULL, &layout));
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    cpci.layout = layout;
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline));

    VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2;
    VkQueryPool pool;
    CHECK(vkCreateQueryPool(device, &qpci, NULL, &pool));
    VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.queueFamilyIndex = family;
    VkCommandPool cmdpool;
    CHECK(vkCreateCommandPool(device, &cpi, NULL, &cmdpool));
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(device, &fci, NULL, &fence));

    printf("device: %s, %u calls per command buffer, best of 5\n", props.deviceName, calls);
    for (int form = 0; form < FORMS; form++) {
        VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cai.commandPool = cmdpool;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        VkCommandBuffer cmd;
        CHECK(vkAllocateCommandBuffers(device, &cai, &cmd));
        VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK(vkBeginCommandBuffer(cmd, &cbi));
        vkCmdResetQueryPool(cmd, pool, 0, 2);
        barrier(cmd, FULL);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
        for (uint32_t k = 0; k < calls; k++) {
            if (form == FILL_FULL) {
                vkCmdFillBuffer(cmd, buffer, 16, 4, 0);
                barrier(cmd, FULL);
            }
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
            vkCmdDispatch(cmd, 1, 1, 1);
            barrier(cmd, form == FILL_FULL ? FULL : (enum form)form);
        }
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
        CHECK(vkEndCommandBuffer(cmd));
        double best = 1e30;
        for (int rep = 0; rep < 5; rep++) {
            VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
            si.commandBufferCount = 1;
            si.pCommandBuffers = &cmd;
            CHECK(vkQueueSubmit(queue, 1, &si, fence));
            CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
            CHECK(vkResetFences(device, 1, &fence));
            uint64_t t[2];
            CHECK(vkGetQueryPoolResults(device, pool, 0, 2, sizeof t, t, sizeof t[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
            double us = (double)(t[1] - t[0]) * props.limits.timestampPeriod / 1e3 / calls;
            if (us < best)
                best = us;
        }
        printf("%-10s %8.3f us per dispatch\n", form_names[form], best);
        vkFreeCommandBuffers(device, cmdpool, 1, &cmd);
    }
    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, cmdpool, NULL);
    vkDestroyQueryPool(device, pool, NULL);
    vkDestroyPipeline(device, pipeline, NULL);
    vkDestroyPipelineLayout(device, layout, NULL);
    vkDestroyShaderModule(device, module, NULL);
    vkDestroyBuffer(device, buffer, NULL);
    vkFreeMemory(device, memory, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    free(code);
    return 0;
}
