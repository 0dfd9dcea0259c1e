/* tests/packs/vulkan/planted.c: vulkan plugins with planted bugs, each of which
 * the judge must report `wrong`, and the control of the fifth. Built six
 * times (PLANTED = 1 to 6):
 *   1 bug-skip-tail     a subgroup sum (two-pass) whose grid covers only
 *                       whole workgroups: the elements after the last full
 *                       workgroup's block are never read (odd sizes)
 *   2 bug-last-byte     the shared-memory histogram told n - 1 bytes: the
 *                       last byte is never counted
 *   3 bug-stale         a subgroup sum that records its work on the first
 *                       call only: later calls return the first call's
 *                       answer, right on the random input and wrong on the
 *                       probes the host writes between calls
 *   4 bug-one-pass-count  subgroup's one-pass finish whose last workgroup
 *                       never sets the counter of workgroups done back to
 *                       0: from the second call on no workgroup counts
 *                       last, and the result keeps the first call's answer
 *                       (right on the random input, wrong on the probes)
 *   5 bug-half-tail     subgroup's f16 and bf16 reduction (one-pass) that
 *                       never reads an odd last half (odd sizes, and even
 *                       ones at an odd `shift`)
 *   6 half-shifted      the control: 5 without the bug, judged `ok`
 * 5 and 6 copy the input, at each call, to `shift` halves past a 16-byte
 * boundary of a buffer of their own (the host hands the input at offset 0):
 * they show that the half shaders read an input at any 2-byte offset.
 * They use the pack's shaders (the SPIR-V headers of the build tree; 4 its
 * own build of subgroup.comp with -DPLANTED_KEEP_COUNT, planted_spv.h, and
 * 5 one with -DPLANTED_DROP_TAIL, planted_half_spv.h) and pack.h. */
#include "plugins/vulkan/pack.h"
#if PLANTED == 2
#include "plugins/vulkan/histogram_spv.h"
#elif PLANTED == 4
#include "tests/packs/vulkan/planted_spv.h"
#define subgroup_spirv planted_spirv
#elif PLANTED == 5
#include "tests/packs/vulkan/planted_half_spv.h"
#define subgroup_spirv planted_half_spirv
#else
#include "plugins/vulkan/subgroup_spv.h"
#endif

#define BLOCK 256u
#define HALVES (PLANTED == 5 || PLANTED == 6)

#if HALVES
static const rb_param_spec half_params[] = {
    {"shift", RB_PARAM_INT, "0", 0, 7, NULL, 0,
     "halves between a 16-byte boundary and the copy of the input"},
    {"vector", RB_PARAM_BOOL, "false", 0, 0, NULL, 0, "16-byte loads of 8 halves"},
};
#endif

typedef struct planted_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_buffer partials, counter, result, readback;
    rb_vulkan_buffer shifted; /* 5, 6: the copy of the input */
    uint32_t groups, calls, shift;
    subgroup_push first, second;
    uint32_t hist_push[8];
} planted_state;

static void planted_teardown(void *state)
{
    planted_state *s = state;
    rb_vulkan_buffer *buffers[] = {&s->partials, &s->counter, &s->result, &s->readback,
                                   &s->shifted};
    pack_release(s->q, &s->pipeline, buffers, 5);
    free(s);
}

static int planted_init(const rb_config *cfg, void **state)
{
    planted_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = pack_queue(cfg);
    *state = s;
    uint32_t n = (uint32_t)cfg->n;
    VkDeviceAddress input = rb_vulkan_input_address(cfg);
    /* block, items, vector, one-pass */
    uint32_t constants[4] = {BLOCK, 1, 0, PLANTED >= 4};
    int st;
#if PLANTED == 2
    s->groups = 64;
    if ((st = rb_vulkan_pipeline_create(s->q, cfg->host, histogram_spv,
                                        sizeof histogram_spv / sizeof histogram_spv[0], 32,
                                        constants, 1, &s->pipeline)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 1024, RB_VULKAN_DEVICE_MEMORY,
                                  &s->result)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 1024, RB_VULKAN_HOST_MEMORY,
                                  &s->readback)) != RB_OK) {
        planted_teardown(s);
        *state = NULL;
        return st;
    }
    memcpy(&s->hist_push[0], &input, 8);
    memcpy(&s->hist_push[2], &s->result.address, 8);
    s->hist_push[4] = n - 1; /* the planted bug: the last byte is left out */
    s->hist_push[5] = s->groups;
    s->hist_push[6] = cfg->bins;
#else
    size_t size = rb_dtype_size(pack_value_dtype(cfg->dtype));
    uint32_t covered = n;
#if HALVES
    s->shift = (uint32_t)rb_param_int(cfg, "shift", 0);
    constants[2] = (uint32_t)rb_param_int(cfg, "vector", 0);
    if ((st = s->q->buffer_create(s->q, cfg->host, (uint64_t)n * 2 + 16,
                                  RB_VULKAN_DEVICE_MEMORY, &s->shifted)) != RB_OK) {
        planted_teardown(s);
        *state = NULL;
        return st;
    }
    if (s->shifted.address % 16 != 0) {
        cfg->host->error(cfg->host, "the copy's buffer is not 16-byte aligned");
        planted_teardown(s);
        *state = NULL;
        return RB_ERROR;
    }
    input = s->shifted.address + 2 * s->shift;
#endif
#if PLANTED == 1
    /* the planted bug: one workgroup per whole block of input, and the
     * workgroups read only the elements they cover */
    s->groups = n / BLOCK ? n / BLOCK : 1;
    covered = n / BLOCK ? s->groups * BLOCK : n;
#else
    s->groups = 16;
#endif
    if ((st = pack_pipeline(cfg, subgroup_spirv, 0, sizeof(subgroup_push), constants, 4,
                            &s->pipeline)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, (uint64_t)s->groups * size,
                                  RB_VULKAN_DEVICE_MEMORY, &s->partials)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 4, RB_VULKAN_DEVICE_MEMORY,
                                  &s->counter)) != RB_OK ||
        (st = pack_result_buffers(s->q, cfg->host, &s->result, &s->readback)) != RB_OK ||
        (st = pack_zero(s->q, cfg->host, &s->counter)) != RB_OK) {
        planted_teardown(s);
        *state = NULL;
        return st;
    }
    s->first = (subgroup_push){{input, PLANTED >= 4 ? s->result.address : s->partials.address,
                                covered, s->groups},
                               s->partials.address, s->counter.address, 0, 0};
    s->second = (subgroup_push){{s->partials.address, s->result.address, s->groups, 1},
                                s->partials.address, s->counter.address, 0, 0};
#endif
    return RB_OK;
}

static int planted_run(void *state)
{
    planted_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
#if PLANTED == 2
    vkCmdFillBuffer(cmd, s->result.buffer, 0, VK_WHOLE_SIZE, 0);
    rb_vulkan_barrier(cmd);
    pack_dispatch(s->q, cmd, &s->pipeline, s->hist_push, s->groups);
#else
#if HALVES
    /* the input copied `shift` halves past the copy buffer's start */
    const rb_vulkan_buffer *in = s->cfg->input;
    VkBufferCopy region = {s->cfg->input_offset, 2 * (VkDeviceSize)s->shift,
                           2 * (VkDeviceSize)s->cfg->n};
    rb_vulkan_barrier(cmd); /* the last call's reads of the copy come first */
    vkCmdCopyBuffer(cmd, in->buffer, s->shifted.buffer, 1, &region);
    rb_vulkan_barrier(cmd);
#endif
#if PLANTED >= 4
    pack_dispatch(s->q, cmd, &s->pipeline, &s->first, s->groups); /* one pass */
#else
#if PLANTED == 3
    if (s->calls++ == 0) /* the planted bug: work on the first call only */
#endif
    {
        pack_dispatch(s->q, cmd, &s->pipeline, &s->first, s->groups);
        rb_vulkan_barrier(cmd);
        pack_dispatch(s->q, cmd, &s->pipeline, &s->second, 1);
    }
#endif
#endif
    return s->q->submit(s->q, s->cfg->host, cmd);
}

static int planted_verify(void *state, rb_result *result)
{
    planted_state *s = state;
#if PLANTED == 2
    uint32_t counts[256];
    if (rb_vulkan_read(s->q, s->cfg->host, &s->result, 0, &s->readback, counts,
                       s->cfg->bins * 4) != RB_OK)
        return RB_ERROR;
    for (uint32_t k = 0; k < s->cfg->bins && k < result->n_bins; k++)
        result->bins[k] = counts[k];
#else
    return pack_read_result(s->q, s->cfg, &s->result, &s->readback, 0, result);
#endif
    return RB_OK;
}

static const rb_plugin planted_plugin = {
    PACK_DESCRIPTOR_FIELDS,
#if PLANTED == 1
    .name = "bug-skip-tail",
    .summary = "planted bug: skips the elements after the last whole workgroup",
#elif PLANTED == 2
    .name = "bug-last-byte",
    .summary = "planted bug: a histogram that ignores the last byte",
#elif PLANTED == 3
    .name = "bug-stale",
    .summary = "planted bug: computes on the first call only",
#elif PLANTED == 4
    .name = "bug-one-pass-count",
    .summary = "planted bug: a one-pass finish that never sets its counter back to 0",
#elif PLANTED == 5
    .name = "bug-half-tail",
    .summary = "planted bug: f16 and bf16 reductions that never read an odd last half",
#else
    .name = "half-shifted",
    .summary = "f16 and bf16 reductions of a copy of the input at a 2-byte offset (the "
               "control of bug-half-tail)",
#endif
#if PLANTED == 2
    .ops = RB_OP_BIT(RB_OP_HISTOGRAM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_U8),
#elif HALVES
    .ops = PACK_OPS,
    .dtypes = PACK_HALF_DTYPES,
    RB_PLUGIN_PARAMS(half_params),
#else
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_F32),
#endif
    .init = planted_init,
    .run = planted_run,
    .verify = planted_verify,
    .teardown = planted_teardown,
};

RB_PLUGIN_ENTRY(planted_plugin)
