/* plugins/vulkan/histogram.c: counts of u8 values in `bins` bins with one
 * set of bins per workgroup in shared memory, joined into the result with
 * one atomic per non-empty bin (shaders/histogram.comp; seed 002's
 * block-shared histogram on Vulkan). */
#include "plugins/vulkan/pack.h"
#include "plugins/vulkan/histogram_spv.h"

static const rb_param_spec histogram_params[] = {
    PACK_PARAM_BLOCK,
    PACK_PARAM_GRID(
        "workgroups (auto: enough to fill the device, at most one per block x 16 bytes)"),
};

/* histogram.comp's push constants */
typedef struct histogram_push {
    VkDeviceAddress src, bins;
    uint32_t n, groups, n_bins, unused;
} histogram_push;

typedef struct histogram_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_buffer bins, readback;
    uint32_t groups;
    histogram_push push;
} histogram_state;

static int histogram_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    const rb_vulkan_queue *q = pack_queue(cfg);
    uint32_t block = pack_block(cfg);
    if (pack_check_n(cfg) != RB_OK)
        return RB_UNSUPPORTED;
    if (block > q->max_workgroup_invocations) {
        cfg->host->error(cfg->host, "block = %u: the device takes at most %u invocations per "
                                    "workgroup", block, q->max_workgroup_invocations);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static void histogram_teardown(void *state)
{
    histogram_state *s = state;
    rb_vulkan_buffer *buffers[] = {&s->bins, &s->readback};
    pack_release(s->q, &s->pipeline, buffers, 2);
    free(s);
}

static int histogram_init(const rb_config *cfg, void **state)
{
    uint32_t block = pack_block(cfg);
    int st = histogram_describe(cfg, NULL);
    if (st != RB_OK)
        return st;
    VkDeviceAddress input = rb_vulkan_input_address(cfg);
    if (input % 16 != 0) {
        cfg->host->error(cfg->host, "the input is not 16-byte aligned");
        return RB_UNSUPPORTED;
    }
    histogram_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = pack_queue(cfg);
    *state = s;
    s->groups = pack_groups(cfg, (cfg->n + 15) / 16, block, block);
    uint32_t constants[1] = {block};
    if ((st = rb_vulkan_pipeline_create(s->q, cfg->host, histogram_spv,
                                        sizeof histogram_spv / sizeof histogram_spv[0],
                                        sizeof(histogram_push), constants, 1, &s->pipeline)) !=
            RB_OK ||
        (st = pack_readback_buffers(s->q, cfg->host, 256 * 4, &s->bins, &s->readback)) !=
            RB_OK) {
        histogram_teardown(s);
        *state = NULL;
        return st;
    }
    s->push = (histogram_push){input, s->bins.address, (uint32_t)cfg->n, s->groups, cfg->bins, 0};
    return RB_OK;
}

static int histogram_run(void *state)
{
    histogram_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
    pack_reset(cmd, &s->bins, 0);
    pack_dispatch(s->q, cmd, &s->pipeline, &s->push, s->groups);
    return s->q->submit(s->q, s->cfg->host, cmd);
}

static int histogram_verify(void *state, rb_result *result)
{
    histogram_state *s = state;
    uint32_t counts[256];
    uint32_t n_bins = s->cfg->bins;
    if (rb_vulkan_read(s->q, s->cfg->host, &s->bins, 0, &s->readback, counts,
                       n_bins * sizeof counts[0]) != RB_OK)
        return RB_ERROR;
    for (uint32_t k = 0; k < n_bins && k < result->n_bins; k++)
        result->bins[k] = counts[k];
    return RB_OK;
}

static const rb_plugin histogram_plugin = {
    PACK_DESCRIPTOR_FIELDS,
    .name = "histogram",
    .summary = "u8 histogram: shared-memory bins per workgroup, one atomic per bin",
    .ops = RB_OP_BIT(RB_OP_HISTOGRAM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_U8),
    RB_PLUGIN_PARAMS(histogram_params),
    .describe = histogram_describe,
    .init = histogram_init,
    .run = histogram_run,
    .verify = histogram_verify,
    .teardown = histogram_teardown,
};

RB_PLUGIN_ENTRY(histogram_plugin)
