/* plugins/vulkan/tree.c: the classic shared-memory tree on Vulkan (seed
 * 000's reduce0..reduce7). Each workgroup reduces its slice of the input in
 * shared memory and writes one partial; the same shader runs again on the
 * partials until one value is left, as the seeds do. Variants
 * (shaders/tree.comp):
 *   divergent    reduce0: interleaved pairs, tid % (2s) == 0
 *   interleaved  reduce1: interleaved pairs, index = 2 s tid
 *   sequential   reduce2: sequential addressing
 *   first-add    reduce3: two elements per invocation, added while loading
 *   warp-unroll  reduce4: the levels below the subgroup's size in one
 *                subgroup, without workgroup barriers
 *   full-unroll  reduce5: warp-unroll with the loops unrolled over the
 *                workgroup size (a specialization constant)
 *   grid-stride  reduce6: full-unroll after a grid-stride loop over a fixed
 *                number of workgroups (`grid`)
 *   subgroup     reduce7: the grid-stride loop, then subgroupAdd/Min/Max
 *                instead of the shared-memory levels (the shader's
 *                SUBGROUP build: needs subgroup arithmetic) */
#include "plugins/vulkan/pack.h"
#include "plugins/vulkan/tree_spv.h"

enum tree_variant {
    DIVERGENT, INTERLEAVED, SEQUENTIAL, FIRST_ADD, WARP_UNROLL, FULL_UNROLL, GRID_STRIDE,
    SUBGROUP
};

static const char *const variant_words[] = {"divergent", "interleaved", "sequential",
                                            "first-add", "warp-unroll", "full-unroll",
                                            "grid-stride", "subgroup", NULL};

static const rb_param_spec tree_params[] = {
    {"variant", RB_PARAM_CHOICE, "sequential", 0, 0, variant_words, 0,
     "divergent | interleaved | sequential | first-add | warp-unroll | full-unroll | "
     "grid-stride | subgroup (reduce0..reduce7)"},
    PACK_PARAM_BLOCK,
    PACK_PARAM_GRID("workgroups of each pass of grid-stride and subgroup (auto: enough to "
                    "fill the device, at most one per 2 x block elements); the other "
                    "variants take one workgroup per block"),
};

#define MAX_PASSES 16

typedef struct tree_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_buffer partials[2], readback;
    uint32_t n_passes;
    pack_push push[MAX_PASSES];
    uint32_t groups[MAX_PASSES];
    int result_in; /* which partials buffer holds the result */
} tree_state;

static int tree_describe(const rb_config *cfg, rb_description *out)
{
    uint32_t block = pack_block(cfg);
    int variant = (int)rb_param_int(cfg, "variant", SEQUENTIAL);
    static const char *const labels[] = {"reduce0", "reduce1", "reduce2", "reduce3",
                                         "reduce4", "reduce5", "reduce6", "reduce7"};
    snprintf(out->label, sizeof out->label, "%s", labels[variant]);
    return pack_check(cfg, block, 0, variant == SUBGROUP);
}

static void tree_teardown(void *state)
{
    tree_state *s = state;
    rb_vulkan_buffer *buffers[] = {&s->partials[0], &s->partials[1], &s->readback};
    pack_release(s->q, &s->pipeline, buffers, 3);
    free(s);
}

static int tree_init(const rb_config *cfg, void **state)
{
    uint32_t block = pack_block(cfg);
    uint32_t variant = (uint32_t)rb_param_int(cfg, "variant", SEQUENTIAL);
    int st = pack_check(cfg, block, 0, variant == SUBGROUP);
    if (st != RB_OK)
        return st;
    tree_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = pack_queue(cfg);
    *state = s;
    size_t size = rb_dtype_size(cfg->dtype);
    uint64_t per_group = (uint64_t)block * (variant >= FIRST_ADD ? 2 : 1);
    int strided = variant >= GRID_STRIDE;

    /* The passes: input -> partials[0] -> partials[1] -> partials[0] ... */
    uint64_t count = cfg->n;
    VkDeviceAddress from = rb_vulkan_input_address(cfg);
    uint64_t first_groups = (count + per_group - 1) / per_group;
    if (strided && pack_groups(cfg, count, block, per_group) < first_groups)
        first_groups = pack_groups(cfg, count, block, per_group);
    uint64_t second = (first_groups + per_group - 1) / per_group;
    uint32_t constants[2] = {block, variant};
    if ((st = pack_pipeline_suffix(cfg, tree_spirv, variant == SUBGROUP ? "_subgroup" : "",
                                   sizeof(pack_push), constants, 2, &s->pipeline)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, first_groups * size, RB_VULKAN_DEVICE_MEMORY,
                                  &s->partials[0])) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, (second ? second : 1) * size,
                                  RB_VULKAN_DEVICE_MEMORY, &s->partials[1])) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 8, RB_VULKAN_HOST_MEMORY, &s->readback)) !=
            RB_OK) {
        tree_teardown(s);
        *state = NULL;
        return st;
    }
    int to = 0;
    do {
        /* one workgroup per 2 x block (per block) elements; grid-stride
         * and subgroup at most `grid`, so that each pass shrinks */
        uint64_t groups = (count + per_group - 1) / per_group;
        if (strided && pack_groups(cfg, count, block, per_group) < groups)
            groups = pack_groups(cfg, count, block, per_group);
        pack_push *p = &s->push[s->n_passes];
        p->src = from;
        p->dst = s->partials[to].address;
        p->n = (uint32_t)count;
        p->groups = (uint32_t)groups;
        s->groups[s->n_passes++] = (uint32_t)groups;
        s->result_in = to;
        from = s->partials[to].address;
        to ^= 1;
        count = groups;
    } while (count > 1 && s->n_passes < MAX_PASSES);
    return RB_OK;
}

static int tree_run(void *state)
{
    tree_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
    for (uint32_t k = 0; k < s->n_passes; k++) {
        if (k > 0)
            rb_vulkan_barrier(cmd);
        pack_dispatch(s->q, cmd, &s->pipeline, &s->push[k], s->groups[k]);
    }
    return s->q->submit(s->q, s->cfg->host, cmd);
}

static int tree_verify(void *state, rb_result *result)
{
    tree_state *s = state;
    return pack_read_result(s->q, s->cfg, &s->partials[s->result_in], &s->readback, 0, result);
}

static const rb_plugin tree_plugin = {
    PACK_DESCRIPTOR_FIELDS,
    .name = "tree",
    .summary = "shared-memory tree in workgroups, one pass per level (reduce0..reduce7)",
    .ops = PACK_OPS,
    .dtypes = PACK_DTYPES,
    RB_PLUGIN_PARAMS(tree_params),
    .describe = tree_describe,
    .init = tree_init,
    .run = tree_run,
    .verify = tree_verify,
    .teardown = tree_teardown,
};

RB_PLUGIN_ENTRY(tree_plugin)
