/* plugins/vulkan/atomic.c: a grid-stride reduction finished with atomics
 * (shaders/atomic.comp; seed 003's scenarios on Vulkan). `scope`:
 *   workgroup  the invocations' values meet in a shared-memory tree and
 *              one atomic per workgroup joins the result
 *   thread     one atomic per invocation
 * Sums use atomicAdd in the element's type (floats need
 * VK_EXT_shader_atomic_float); min and max use atomicMin / atomicMax on
 * integers that keep the elements' order (64-bit ones need
 * shaderBufferInt64Atomics). What the device lacks is declined. */
#include "plugins/vulkan/pack.h"
#include "plugins/vulkan/atomic_spv.h"

static const char *const scope_words[] = {"workgroup", "thread", NULL};

static const rb_param_spec atomic_params[] = {
    {"scope", RB_PARAM_CHOICE, "workgroup", 0, 0, scope_words, 0,
     "workgroup | thread: one atomic per workgroup or per invocation"},
    PACK_PARAM_BLOCK,
    PACK_PARAM_GRID(
        "workgroups (auto: enough to fill the device, at most one per block elements)"),
};

typedef struct atomic_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_buffer result, readback;
    uint32_t groups;
    pack_push push;
} atomic_state;

static int atomic_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    return pack_check(cfg, pack_block(cfg), 1, 0);
}

static void atomic_teardown(void *state)
{
    atomic_state *s = state;
    rb_vulkan_buffer *buffers[] = {&s->result, &s->readback};
    pack_release(s->q, &s->pipeline, buffers, 2);
    free(s);
}

static int atomic_init(const rb_config *cfg, void **state)
{
    uint32_t block = pack_block(cfg);
    uint32_t scope = (uint32_t)rb_param_int(cfg, "scope", 0);
    int st = pack_check(cfg, block, 1, 0);
    if (st != RB_OK)
        return st;
    atomic_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = pack_queue(cfg);
    *state = s;
    s->groups = pack_groups(cfg, cfg->n, block, block);
    uint32_t constants[2] = {block, scope};
    if ((st = pack_pipeline(cfg, atomic_spirv, 1, sizeof(pack_push), constants, 2,
                            &s->pipeline)) != RB_OK ||
        (st = pack_result_buffers(s->q, cfg->host, &s->result, &s->readback)) != RB_OK) {
        atomic_teardown(s);
        *state = NULL;
        return st;
    }
    s->push = (pack_push){rb_vulkan_input_address(cfg), s->result.address, (uint32_t)cfg->n,
                          s->groups};
    return RB_OK;
}

static int atomic_run(void *state)
{
    atomic_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
    pack_reset(cmd, &s->result, pack_atomic_start(s->cfg->op));
    pack_dispatch(s->q, cmd, &s->pipeline, &s->push, s->groups);
    return s->q->submit(s->q, s->cfg->host, cmd);
}

static int atomic_verify(void *state, rb_result *result)
{
    atomic_state *s = state;
    return pack_read_result(s->q, s->cfg, &s->result, &s->readback, s->cfg->op != RB_OP_SUM,
                            result);
}

static const rb_plugin atomic_plugin = {
    PACK_DESCRIPTOR_FIELDS,
    .name = "atomic",
    .summary = "grid-stride loop, then one atomic per workgroup (or per invocation)",
    .ops = PACK_OPS,
    .dtypes = PACK_DTYPES,
    RB_PLUGIN_PARAMS(atomic_params),
    .describe = atomic_describe,
    .init = atomic_init,
    .run = atomic_run,
    .verify = atomic_verify,
    .teardown = atomic_teardown,
};

RB_PLUGIN_ENTRY(atomic_plugin)
