/* vksum.c: the example pack's Vulkan strategy: the sum of i32 or f32 data
 * in two passes of one shader (vksum.comp): 256 workgroups each add a
 * grid-stride share of the input into a partial, then one workgroup adds
 * the partials. The SPIR-V is compiled at build time and included as C
 * arrays (vksum_spv.h, see Makefile.am).
 *
 * The vulkan backend (<redbench/vulkan.h>) hands the plugin its device and
 * queue (cfg->queue, an rb_vulkan_queue), the input as a buffer with a
 * device address (cfg->input, from cfg->input_offset on), and command
 * buffers: run records between q->begin and q->submit and never waits, so
 * that the backend can time it in every mode (one submission, or many runs
 * recorded into one command buffer). */
#include <stdlib.h>

#include <redbench/plugin.h>
#include <redbench/vulkan.h>

#include "vksum_spv.h"

#define GROUPS 256u

/* vksum.comp's push constants */
typedef struct vksum_push {
    VkDeviceAddress src, dst;
    uint32_t n, unused;
} vksum_push;

typedef struct vksum_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_buffer partials, total, readback;
    vksum_push first, second;
} vksum_state;

static int vksum_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    const rb_vulkan_queue *q = cfg->queue;
    if (!(q->features & RB_VULKAN_SUBGROUP_ARITHMETIC)) {
        cfg->host->error(cfg->host, "the device has no subgroup arithmetic");
        return RB_UNSUPPORTED;
    }
    if (cfg->n >= (1ull << 31)) {
        cfg->host->error(cfg->host, "n must be below 2^31 (32-bit indices)");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static void vksum_teardown(void *state)
{
    vksum_state *s = state;
    rb_vulkan_pipeline_destroy(s->q, &s->pipeline);
    rb_vulkan_buffer *buffers[] = {&s->partials, &s->total, &s->readback};
    for (int k = 0; k < 3; k++)
        if (buffers[k]->buffer)
            s->q->buffer_destroy(s->q, buffers[k]);
    free(s);
}

static int vksum_init(const rb_config *cfg, void **state)
{
    vksum_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = cfg->queue;
    *state = s;
    const uint32_t *code = cfg->dtype == RB_DTYPE_I32 ? vksum_i32_spv : vksum_f32_spv;
    size_t words = cfg->dtype == RB_DTYPE_I32 ? sizeof vksum_i32_spv / 4 : sizeof vksum_f32_spv / 4;
    int st;
    if ((st = rb_vulkan_pipeline_create(s->q, cfg->host, code, words, sizeof(vksum_push), NULL,
                                        0, &s->pipeline)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, GROUPS * 4, RB_VULKAN_DEVICE_MEMORY,
                                  &s->partials)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 4, RB_VULKAN_DEVICE_MEMORY, &s->total)) !=
            RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 4, RB_VULKAN_HOST_MEMORY, &s->readback)) !=
            RB_OK) {
        vksum_teardown(s);
        *state = NULL;
        return st;
    }
    s->first = (vksum_push){rb_vulkan_input_address(cfg), s->partials.address, (uint32_t)cfg->n, 0};
    s->second = (vksum_push){s->partials.address, s->total.address, GROUPS, 0};
    return RB_OK;
}

static int vksum_run(void *state)
{
    vksum_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
    rb_vulkan_dispatch(cmd, &s->pipeline, &s->first, GROUPS);
    rb_vulkan_barrier(cmd); /* the partials are written before they are read */
    rb_vulkan_dispatch(cmd, &s->pipeline, &s->second, 1);
    return s->q->submit(s->q, s->cfg->host, cmd);
}

static int vksum_verify(void *state, rb_result *result)
{
    vksum_state *s = state;
    union { int32_t i; float f; } total;
    if (rb_vulkan_read(s->q, s->cfg->host, &s->total, 0, &s->readback, &total, 4) != RB_OK)
        return RB_ERROR;
    if (s->cfg->dtype == RB_DTYPE_I32)
        result->i = total.i;
    else
        result->f = total.f;
    return RB_OK;
}

static const rb_plugin vksum = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "vksum", .summary = "i32/f32 sum in two passes of a Vulkan compute shader",
    .version = "1.0", .backend = "vulkan",
    .ops = RB_OP_BIT(RB_OP_SUM), .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),
    .describe = vksum_describe, .init = vksum_init, .run = vksum_run, .verify = vksum_verify,
    .teardown = vksum_teardown,
};

RB_PLUGIN_ENTRY(vksum)
