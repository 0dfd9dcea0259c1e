/* plugins/vulkan/subgroup.c: a grid-stride reduction with subgroup
 * operations (shaders/subgroup.comp; seed 000's reduce6/7 on Vulkan): each
 * invocation folds its share of the input (`items` loads in flight, 16-byte
 * loads with `vector`), subgroupAdd/Min/Max reduce each subgroup, shared
 * memory joins the subgroups of a workgroup, and then `finish`:
 *   atomic    one atomic per workgroup into the result (a float sum needs
 *             VK_EXT_shader_atomic_float's add; 64-bit min and max need
 *             64-bit buffer atomics)
 *   two-pass  each workgroup writes its value, and one more workgroup
 *             reduces those in a second dispatch
 *   one-pass  each workgroup writes its value and counts itself done on a
 *             32-bit counter; the last one reduces the values and sets the
 *             counter back to 0, all in the one dispatch: no clearing
 *             before it, no barrier and no second dispatch inside a call
 *             (the counter is zeroed once, in init, and every call leaves
 *             it at 0), and a float sum in a fixed order
 *   atomic-epoch  atomic with no clearing before it: a call's workgroups
 *             take tickets on a counter, and the call's number picks which
 *             of two results its atomics go to, the call's first ticket
 *             setting the other back for the next call (no fill, no
 *             barrier and no last-workgroup pass inside a call); verify
 *             reads the counter to know which result the last call made
 *   auto      atomic where the device has the atomic, else two-pass
 * `order = alternate` reads every other call's vectors (elements, without
 * `vector`) from the end: under cache = hot a call then starts on what the
 * call before read last, still in L2 where the input is not much larger
 * than it (as the cuda pack's onepass; f16 and bf16 are read forward only).
 * A reversed call hands each invocation other elements, so float sums of
 * the two orders may differ in their last bits (determinism `differs`).
 * f16 and bf16 are read as 32-bit words of two halves (16-byte vectors of
 * eight with `vector`), widened to f32 and reduced in f32: no 16-bit
 * storage or arithmetic feature is needed, and the input needs only its
 * 2-byte alignment (the shader reads an odd first or last half from the
 * word that holds it). Their partials and result are f32; the two-pass
 * finish's second pass is the f32 shader's. */
#include "plugins/vulkan/pack.h"

enum finish { FINISH_AUTO, FINISH_ATOMIC, FINISH_TWO_PASS, FINISH_ONE_PASS, FINISH_EPOCH };
enum order { ORDER_FORWARD, ORDER_ALTERNATE };

static const char *const finish_words[] = {"auto",     "atomic",       "two-pass",
                                           "one-pass", "atomic-epoch", NULL};
static const char *const order_words[] = {"forward", "alternate", NULL};

/* Its planted-bug twins, tests/packs/vulkan/bug-reverse-round-up and
 * bug-epoch-keep, are this file built with SUBGROUP_NAME and SUBGROUP_SPV,
 * the header of subgroup.comp's shaders built with
 * -DPLANTED_REVERSE_ROUND_UP or -DPLANTED_EPOCH_KEEP. */
#ifndef SUBGROUP_NAME
#define SUBGROUP_NAME "subgroup"
#define SUBGROUP_SPV "plugins/vulkan/subgroup_spv.h"
#endif
#include SUBGROUP_SPV

static const rb_param_spec subgroup_params[] = {
    PACK_PARAM_BLOCK,
    PACK_PARAM_GRID(
        "workgroups (auto: enough to fill the device, at most one per block x items x vector)"),
    {"items", RB_PARAM_INT, "2", 1, 8, NULL, RB_PARAM_POW2,
     "loads in flight per invocation and loop step"},
    {"vector", RB_PARAM_BOOL, "true", 0, 0, NULL, 0,
     "16-byte loads (4 elements of 32 bits, 2 of 64 bits, 8 halves)"},
    {"finish", RB_PARAM_CHOICE, "auto", 0, 0, finish_words, 0,
     "auto | atomic | two-pass | one-pass (the last workgroup done joins them) | "
     "atomic-epoch (atomics into one of two results, no clearing): how the workgroups' "
     "values are joined"},
    {"order", RB_PARAM_CHOICE, "forward", 0, 0, order_words, 0,
     "forward | alternate (every other call reads from the end, starting on what the "
     "call before left in L2)"},
};

typedef struct subgroup_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_pipeline f32_pipeline; /* halves, two-pass: the second pass's */
    const rb_vulkan_pipeline *second_pipeline;
    rb_vulkan_buffer partials, counter, result, readback;
    int atomic, one_pass, epoch, alternate;
    uint32_t groups;
    uint64_t calls; /* runs recorded so far: alternate's parity */
    subgroup_push first, second; /* second: the two-pass finish's pass */
} subgroup_state;

/* The finish this configuration gets. */
static int uses_atomic(const rb_config *cfg)
{
    int finish = (int)rb_param_int(cfg, "finish", FINISH_AUTO);
    return finish == FINISH_ATOMIC || finish == FINISH_EPOCH ||
           (finish == FINISH_AUTO && pack_has_atomic(cfg));
}

static int uses_epoch(const rb_config *cfg)
{
    return rb_param_int(cfg, "finish", FINISH_AUTO) == FINISH_EPOCH;
}

static int uses_one_pass(const rb_config *cfg)
{
    return rb_param_int(cfg, "finish", FINISH_AUTO) == FINISH_ONE_PASS;
}

static int subgroup_describe(const rb_config *cfg, rb_description *out)
{
    uint32_t block = pack_block(cfg);
    int atomic = uses_atomic(cfg);
    snprintf(out->label, sizeof out->label, "subgroup-%s",
             uses_epoch(cfg) ? "epoch"
             : atomic        ? "atomic"
             : uses_one_pass(cfg) ? "1pass"
                                  : "2pass");
    return pack_check(cfg, block, atomic, 1);
}

static void subgroup_teardown(void *state)
{
    subgroup_state *s = state;
    rb_vulkan_buffer *buffers[] = {&s->partials, &s->counter, &s->result, &s->readback};
    rb_vulkan_pipeline_destroy(s->q, &s->f32_pipeline);
    pack_release(s->q, &s->pipeline, buffers, 4);
    free(s);
}

static int subgroup_init(const rb_config *cfg, void **state)
{
    uint32_t block = pack_block(cfg);
    uint32_t items = (uint32_t)rb_param_int(cfg, "items", 2);
    uint32_t vector = (uint32_t)rb_param_int(cfg, "vector", 1);
    int atomic = uses_atomic(cfg);
    int st = pack_check(cfg, block, atomic, 1);
    if (st != RB_OK)
        return st;
    VkDeviceAddress input = rb_vulkan_input_address(cfg);
    int half = pack_is_half(cfg->dtype);
    int alternate = rb_param_int(cfg, "order", ORDER_FORWARD) == ORDER_ALTERNATE;
    if (half && alternate) {
        cfg->host->error(cfg->host, "order = alternate is for 32- and 64-bit types; %s is read "
                                    "forward only", pack_dtype_word(cfg->dtype));
        return RB_UNSUPPORTED;
    }
    if (half && input % 2 != 0) {
        cfg->host->error(cfg->host, "%s input at an odd byte address: halves need 2-byte "
                                    "alignment", pack_dtype_word(cfg->dtype));
        return RB_UNSUPPORTED;
    }
    if (!half && vector && input % 16 != 0) {
        cfg->host->error(cfg->host, "vector = true needs the input 16-byte aligned");
        return RB_UNSUPPORTED;
    }
    subgroup_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = pack_queue(cfg);
    s->atomic = atomic;
    s->one_pass = uses_one_pass(cfg);
    s->epoch = uses_epoch(cfg);
    s->alternate = alternate;
    *state = s;
    size_t size = rb_dtype_size(cfg->dtype);
    /* halves: a load is a word of two, or a vector of eight */
    uint64_t per_load = vector ? 16 / size : half ? 2 : 1;
    s->groups = pack_groups(cfg, cfg->n, block, (uint64_t)block * items * per_load);
    size_t value_size = rb_dtype_size(pack_value_dtype(cfg->dtype));
    uint32_t constants[5] = {block, items, vector, (uint32_t)s->one_pass, (uint32_t)s->epoch};
    s->second_pipeline = &s->pipeline;
    if (half && !atomic && !s->one_pass && s->groups > 1) {
        s->second_pipeline = &s->f32_pipeline;
        if ((st = pack_pipeline_dtype(cfg, subgroup_spirv, RB_DTYPE_F32, "",
                                      sizeof(subgroup_push), constants, 5,
                                      &s->f32_pipeline)) != RB_OK) {
            subgroup_teardown(s);
            *state = NULL;
            return st;
        }
    }
    /* atomic-epoch: two results, both where atomics start */
    uint64_t result_bytes = s->epoch ? 2 * value_size : 8;
    if ((st = pack_pipeline(cfg, subgroup_spirv, atomic, sizeof(subgroup_push), constants, 5,
                            &s->pipeline)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, (uint64_t)s->groups * value_size,
                                  RB_VULKAN_DEVICE_MEMORY, &s->partials)) != RB_OK ||
        (st = s->q->buffer_create(s->q, cfg->host, 4, RB_VULKAN_DEVICE_MEMORY,
                                  &s->counter)) != RB_OK ||
        (st = pack_readback_buffers(s->q, cfg->host, result_bytes, &s->result, &s->readback)) !=
            RB_OK ||
        (st = pack_zero(s->q, cfg->host, &s->counter)) != RB_OK ||
        (s->epoch &&
         (st = pack_fill(s->q, cfg->host, &s->result, pack_atomic_start(cfg->op))) != RB_OK)) {
        subgroup_teardown(s);
        *state = NULL;
        return st;
    }
    /* atomic, one-pass, or two-pass with one workgroup: into the result */
    int direct = atomic || s->one_pass || s->groups == 1;
    s->first = (subgroup_push){{input, direct ? s->result.address : s->partials.address,
                                (uint32_t)cfg->n, s->groups},
                               s->partials.address, s->counter.address, 0, 0};
    s->second = (subgroup_push){{s->partials.address, s->result.address, s->groups, 1},
                                s->partials.address, s->counter.address, 0, 0};
    return RB_OK;
}

static int subgroup_run(void *state)
{
    subgroup_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
    s->first.reverse = s->alternate && (s->calls++ & 1u);
    if (s->epoch) {
        pack_dispatch(s->q, cmd, &s->pipeline, &s->first, s->groups);
    } else if (s->atomic) {
        pack_reset(cmd, &s->result, pack_atomic_start(s->cfg->op));
        pack_dispatch(s->q, cmd, &s->pipeline, &s->first, s->groups);
    } else if (s->one_pass) {
        pack_dispatch(s->q, cmd, &s->pipeline, &s->first, s->groups);
    } else {
        pack_dispatch(s->q, cmd, &s->pipeline, &s->first, s->groups);
        if (s->groups > 1) {
            rb_vulkan_barrier(cmd);
            pack_dispatch(s->q, cmd, s->second_pipeline, &s->second, 1);
        }
    }
    return s->q->submit(s->q, s->cfg->host, cmd);
}

/* atomic-epoch: the last call's result is dst[1] where the counter is
 * back at 0 (an odd call), dst[0] where it stands at groups (an even
 * one); anything else is no state the shader leaves. */
static int epoch_read(subgroup_state *s, rb_result *result)
{
    const rb_config *cfg = s->cfg;
    uint32_t counter = 0;
    if (rb_vulkan_read(s->q, cfg->host, &s->counter, 0, &s->readback, &counter,
                       sizeof counter) != RB_OK)
        return RB_ERROR;
    if (counter != 0 && counter != s->groups) {
        cfg->host->error(cfg->host, "atomic-epoch: the ticket counter reads %u after the calls, "
                                    "neither 0 nor the %u workgroups",
                         counter, s->groups);
        return RB_ERROR;
    }
    int dtype = pack_value_dtype(cfg->dtype);
    size_t size = rb_dtype_size(dtype);
    unsigned char bytes[8];
    if (rb_vulkan_read(s->q, cfg->host, &s->result, counter == 0 ? size : 0, &s->readback,
                       bytes, size) != RB_OK)
        return RB_ERROR;
    pack_result(dtype, bytes, cfg->op != RB_OP_SUM, result);
    return RB_OK;
}

static int subgroup_verify(void *state, rb_result *result)
{
    subgroup_state *s = state;
    if (s->epoch)
        return epoch_read(s, result);
    return pack_read_result(s->q, s->cfg, &s->result, &s->readback,
                            s->atomic && s->cfg->op != RB_OP_SUM, result);
}

static const rb_plugin subgroup_plugin = {
    PACK_DESCRIPTOR_FIELDS,
    .name = SUBGROUP_NAME,
    .summary = "grid-stride loads, subgroupAdd/Min/Max, shared memory across subgroups, "
               "then one atomic per workgroup or a second pass",
    .ops = PACK_OPS,
    .dtypes = PACK_DTYPES | PACK_HALF_DTYPES,
    RB_PLUGIN_PARAMS(subgroup_params),
    .describe = subgroup_describe,
    .init = subgroup_init,
    .run = subgroup_run,
    .verify = subgroup_verify,
    .teardown = subgroup_teardown,
};

RB_PLUGIN_ENTRY(subgroup_plugin)
