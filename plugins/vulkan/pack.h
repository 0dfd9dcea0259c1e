/* plugins/vulkan/pack.h: what the vulkan pack's strategies share: the
 * SPIR-V tables the build embeds (spirv-embed.sh), the checks describe
 * makes (the dtype's and the atomics' device features, the size limits),
 * the grid of a dispatch, the parameters `block` and `grid`, the buffers
 * of a result and their reset before an atomic finish, the zeroing of a
 * counter in init, what teardown
 * frees, the result as verify hands it over (halves' results are f32:
 * pack_value_dtype), and the descriptor's fields that every strategy has. Only SDK headers are included, as in an
 * external pack. */
#ifndef RB_VULKAN_PACK_H
#define RB_VULKAN_PACK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/plugin.h>
#include <redbench/vulkan.h>

/* One compiled variant of a shader: NAME_spv from spirv-embed.sh. */
typedef struct rb_vk_spirv {
    const char *name;
    const uint32_t *words;
    size_t count;
} rb_vk_spirv;

/* Push constants of tree, subgroup and atomic (their `Push` blocks). */
typedef struct pack_push {
    VkDeviceAddress src, dst;
    uint32_t n, groups;
} pack_push;

/* Push constants of subgroup (shaders/subgroup.comp): pack_push's, the
 * one-pass finish's partials and the counter of workgroups done, and
 * whether this call reads the vectors from the end (order = alternate). */
typedef struct subgroup_push {
    pack_push pass;
    VkDeviceAddress partials, counter;
    uint32_t reverse, unused;
} subgroup_push;

/* The descriptor's fields that every strategy of the pack has: the ABI it
 * was built with, its version and the vulkan backend. A strategy's
 * descriptor adds its name, summary, ops, dtypes, parameters and
 * callbacks. */
#define PACK_DESCRIPTOR_FIELDS RB_PLUGIN_ABI_FIELDS, .version = "1.0", .backend = "vulkan"

/* What tree, subgroup and atomic reduce: sum, min and max of the numeric
 * dtypes. */
#define PACK_OPS (RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX))
#define PACK_DTYPES (RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |               \
                     RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64))

/* The half-precision dtypes, for the strategies that read them (subgroup):
 * their shaders read the halves as 32-bit words and reduce them in f32. */
#define PACK_HALF_DTYPES (RB_DTYPE_BIT(RB_DTYPE_F16) | RB_DTYPE_BIT(RB_DTYPE_BF16))

static inline int pack_is_half(int dtype)
{
    return dtype == RB_DTYPE_F16 || dtype == RB_DTYPE_BF16;
}

/* The dtype a shader reduces and writes for `dtype`: f32 for the halves
 * (partials, shared memory, atomics and the result), else dtype itself. */
static inline int pack_value_dtype(int dtype)
{
    return pack_is_half(dtype) ? RB_DTYPE_F32 : dtype;
}

/* The parameter every strategy has, and its value. */
#define PACK_PARAM_BLOCK                                                                     \
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "invocations per workgroup"}

static inline uint32_t pack_block(const rb_config *cfg)
{
    return (uint32_t)rb_param_int(cfg, "block", 256);
}

/* The parameter `grid` of the grid-stride strategies; `help` says what
 * auto picks. Its value: pack_groups. */
#define PACK_PARAM_GRID(help)                                                                \
    {"grid", RB_PARAM_INT, "auto", 1, 0x7fffffff, NULL, RB_PARAM_AUTO, help}

/* The largest n the shaders index (32-bit unsigned indices, kept below
 * 2^31 so that index arithmetic cannot wrap). */
#define PACK_MAX_N ((uint64_t)1 << 31)

static inline const char *pack_op_word(int op)
{
    return op == RB_OP_SUM ? "sum" : op == RB_OP_MIN ? "min" : op == RB_OP_MAX ? "max"
           : op == RB_OP_ARGMAX ? "argmax" : "?";
}

static inline const char *pack_dtype_word(int dtype)
{
    switch (dtype) {
    case RB_DTYPE_I32: return "i32";
    case RB_DTYPE_I64: return "i64";
    case RB_DTYPE_F32: return "f32";
    case RB_DTYPE_F64: return "f64";
    case RB_DTYPE_U8: return "u8";
    case RB_DTYPE_F16: return "f16";
    case RB_DTYPE_BF16: return "bf16";
    default: return "?";
    }
}

/* The variant "OP_DTYPE" or "OP_DTYPE_atomic" of a table; with a suffix
 * ("_subgroup"), "OP_DTYPE_suffix" (spirv-embed.sh's @plain, @atomic,
 * @subgroup). */
static inline const rb_vk_spirv *pack_spirv_suffix(const rb_vk_spirv *table, int op, int dtype,
                                                   const char *suffix)
{
    char name[48];
    snprintf(name, sizeof name, "%s_%s%s", pack_op_word(op), pack_dtype_word(dtype), suffix);
    for (; table->name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}

static inline const rb_vk_spirv *pack_spirv(const rb_vk_spirv *table, int op, int dtype,
                                            int atomic)
{
    return pack_spirv_suffix(table, op, dtype, atomic ? "_atomic" : "");
}

static inline rb_vulkan_queue *pack_queue(const rb_config *cfg)
{
    return (rb_vulkan_queue *)cfg->queue;
}

/* Declines, with the reason, an n past the shaders' indices. */
static inline int pack_check_n(const rb_config *cfg)
{
    if (cfg->n >= PACK_MAX_N) {
        cfg->host->error(cfg->host, "n = %llu: the vulkan pack's shaders take n < 2^31",
                         (unsigned long long)cfg->n);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static inline const char *pack_device_name(const rb_vulkan_queue *q, char *out, size_t len)
{
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(q->physical_device, &p);
    snprintf(out, len, "%s", p.deviceName);
    return out;
}

/* Declines, with the reason, what the device cannot run: a 64-bit dtype
 * without shaderInt64 / shaderFloat64, sizes past the shaders' indices or
 * the device's largest buffer, a workgroup larger than the device's,
 * `atomic` finishes without the atomics they need, and subgroup operations
 * the device does not offer. */
static inline int pack_check(const rb_config *cfg, uint32_t block, int atomic, int subgroup)
{
    const rb_vulkan_queue *q = pack_queue(cfg);
    const rb_host *host = cfg->host;
    char name[256];
    if (!q || q->size < sizeof *q) {
        host->error(host, "the backend's queue is not a vulkan queue of this SDK");
        return RB_ERROR;
    }
    pack_device_name(q, name, sizeof name);
    uint32_t f = q->features;
    int d = pack_value_dtype(cfg->dtype), op = cfg->op;
    if (d == RB_DTYPE_I64 && !(f & RB_VULKAN_INT64)) {
        host->error(host, "%s has no 64-bit integers in shaders (shaderInt64)", name);
        return RB_UNSUPPORTED;
    }
    if (d == RB_DTYPE_F64 && !(f & RB_VULKAN_FLOAT64)) {
        host->error(host, "%s has no doubles in shaders (shaderFloat64)", name);
        return RB_UNSUPPORTED;
    }
    if (pack_check_n(cfg) != RB_OK)
        return RB_UNSUPPORTED;
    uint64_t bytes = cfg->n * rb_dtype_size(cfg->dtype);
    if (bytes > q->max_buffer_bytes) {
        host->error(host, "%llu bytes of input: more than %s's largest buffer (%llu bytes)",
                    (unsigned long long)bytes, name, (unsigned long long)q->max_buffer_bytes);
        return RB_UNSUPPORTED;
    }
    if (block > q->max_workgroup_invocations ||
        (uint64_t)block * rb_dtype_size(d) > q->max_shared_bytes) {
        host->error(host, "block = %u: %s takes at most %u invocations and %u bytes of shared "
                          "memory per workgroup", block, name, q->max_workgroup_invocations,
                    q->max_shared_bytes);
        return RB_UNSUPPORTED;
    }
    if (subgroup) {
        if (!(f & RB_VULKAN_SUBGROUP_ARITHMETIC)) {
            host->error(host, "%s has no subgroup arithmetic in compute shaders", name);
            return RB_UNSUPPORTED;
        }
        if (d == RB_DTYPE_I64 && !(f & RB_VULKAN_SUBGROUP_EXTENDED_TYPES)) {
            host->error(host, "%s has no subgroup operations on 64-bit integers "
                              "(shaderSubgroupExtendedTypes)", name);
            return RB_UNSUPPORTED;
        }
    }
    if (atomic) {
        int wide = d == RB_DTYPE_I64 || d == RB_DTYPE_F64;
        if (op == RB_OP_SUM && d == RB_DTYPE_F32 && !(f & RB_VULKAN_FLOAT32_ATOMIC_ADD)) {
            host->error(host, "%s has no float atomic add (VK_EXT_shader_atomic_float "
                              "shaderBufferFloat32AtomicAdd)", name);
            return RB_UNSUPPORTED;
        }
        if (op == RB_OP_SUM && d == RB_DTYPE_F64 && !(f & RB_VULKAN_FLOAT64_ATOMIC_ADD)) {
            host->error(host, "%s has no double atomic add (VK_EXT_shader_atomic_float "
                              "shaderBufferFloat64AtomicAdd)", name);
            return RB_UNSUPPORTED;
        }
        if (wide && !(op == RB_OP_SUM && d == RB_DTYPE_F64) && !(f & RB_VULKAN_INT64_ATOMICS)) {
            host->error(host, "%s has no 64-bit atomics on buffers (shaderBufferInt64Atomics)",
                        name);
            return RB_UNSUPPORTED;
        }
    }
    return RB_OK;
}

/* Whether the device has the atomics an atomic finish of this op and
 * dtype needs (pack_check's test, without a reason). */
static inline int pack_has_atomic(const rb_config *cfg)
{
    uint32_t f = pack_queue(cfg)->features;
    int d = pack_value_dtype(cfg->dtype), op = cfg->op;
    if (op == RB_OP_SUM && d == RB_DTYPE_F32)
        return (f & RB_VULKAN_FLOAT32_ATOMIC_ADD) != 0;
    if (op == RB_OP_SUM && d == RB_DTYPE_F64)
        return (f & RB_VULKAN_FLOAT64_ATOMIC_ADD) != 0;
    if (d == RB_DTYPE_I64 || d == RB_DTYPE_F64)
        return (f & RB_VULKAN_INT64_ATOMICS) != 0;
    return 1;
}

/* The value an atomic result starts from, as a 32-bit fill pattern: 0 for
 * sums and for max (the smallest ordered integer), all ones for min. */
static inline uint32_t pack_atomic_start(int op)
{
    return op == RB_OP_MIN ? 0xffffffffu : 0u;
}

/* Spreads `groups` workgroups over x and y within the device's limit; the
 * shaders number them y * x_count + x and skip those past `groups`. */
static inline void pack_grid(const rb_vulkan_queue *q, uint32_t groups, uint32_t *x, uint32_t *y)
{
    uint32_t limit = q->max_workgroup_count ? q->max_workgroup_count : 65535;
    if (groups <= limit) {
        *x = groups;
        *y = 1;
    } else {
        *x = limit;
        *y = (groups + limit - 1) / limit;
    }
}

static inline void pack_dispatch(const rb_vulkan_queue *q, VkCommandBuffer cmd,
                                 const rb_vulkan_pipeline *p, const void *push, uint32_t groups)
{
    uint32_t x, y;
    pack_grid(q, groups, &x, &y);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, p->push_bytes, push);
    vkCmdDispatch(cmd, x, y, 1);
}

/* A default grid: enough workgroups to fill the device, at most one per
 * `per_group` elements. */
static inline uint32_t pack_auto_groups(const rb_vulkan_queue *q, uint64_t n, uint32_t block,
                                        uint64_t per_group)
{
    uint64_t wave = q->compute_units ? (uint64_t)q->compute_units * (2048 / block ? 2048 / block : 1)
                                     : 1024;
    uint64_t need = (n + per_group - 1) / per_group;
    uint64_t groups = need < wave ? need : wave;
    return groups ? (uint32_t)groups : 1;
}

/* The workgroups of a dispatch over `n` elements: the parameter `grid`,
 * or with auto (0) pack_auto_groups's. */
static inline uint32_t pack_groups(const rb_config *cfg, uint64_t n, uint32_t block,
                                   uint64_t per_group)
{
    uint64_t grid = (uint64_t)rb_param_int(cfg, "grid", 0);
    return grid ? (uint32_t)grid : pack_auto_groups(pack_queue(cfg), n, block, per_group);
}

/* Makes the pipeline of a table's variant ("OP_DTYPE" and `suffix`, for
 * `dtype`: the configuration's, or the f32 of a second pass over a half
 * reduction's partials) with the given constants. */
static inline int pack_pipeline_dtype(const rb_config *cfg, const rb_vk_spirv *table, int dtype,
                                      const char *suffix, uint32_t push_bytes,
                                      const uint32_t *constants, uint32_t n_constants,
                                      rb_vulkan_pipeline *out)
{
    const rb_vk_spirv *code = pack_spirv_suffix(table, cfg->op, dtype, suffix);
    if (!code) {
        cfg->host->error(cfg->host, "no shader %s_%s%s in this module", pack_op_word(cfg->op),
                         pack_dtype_word(dtype), suffix);
        return RB_UNSUPPORTED;
    }
    return rb_vulkan_pipeline_create(pack_queue(cfg), cfg->host, code->words, code->count,
                                     push_bytes, constants, n_constants, out);
}

/* Makes the pipeline of a table's variant ("OP_DTYPE" and `suffix`) with
 * the given constants. */
static inline int pack_pipeline_suffix(const rb_config *cfg, const rb_vk_spirv *table,
                                       const char *suffix, uint32_t push_bytes,
                                       const uint32_t *constants, uint32_t n_constants,
                                       rb_vulkan_pipeline *out)
{
    return pack_pipeline_dtype(cfg, table, cfg->dtype, suffix, push_bytes, constants,
                               n_constants, out);
}

/* Makes the pipeline of a table's variant with the given constants. */
static inline int pack_pipeline(const rb_config *cfg, const rb_vk_spirv *table, int atomic,
                                uint32_t push_bytes, const uint32_t *constants,
                                uint32_t n_constants, rb_vulkan_pipeline *out)
{
    const rb_vk_spirv *code = pack_spirv(table, cfg->op, cfg->dtype, atomic);
    if (!code) {
        cfg->host->error(cfg->host, "no shader for %s %s%s in this module",
                         pack_op_word(cfg->op), pack_dtype_word(cfg->dtype),
                         atomic ? " with an atomic finish" : "");
        return RB_UNSUPPORTED;
    }
    return rb_vulkan_pipeline_create(pack_queue(cfg), cfg->host, code->words, code->count,
                                     push_bytes, constants, n_constants, out);
}

/* Fills *result from the device's value at `value`: one element of the
 * dtype, or (ordered) the order-keeping unsigned integer the atomic min
 * and max work on (shaders/common.glsl, to_ordered). */
static inline void pack_result(int dtype, const void *value, int ordered, rb_result *result)
{
    int wide = rb_dtype_size(dtype) == 8;
    uint64_t bits = 0;
    if (wide) {
        memcpy(&bits, value, 8);
    } else {
        uint32_t b32;
        memcpy(&b32, value, 4);
        bits = b32;
    }
    if (ordered) {
        uint64_t sign = wide ? (uint64_t)1 << 63 : (uint64_t)1 << 31;
        uint64_t all = wide ? ~(uint64_t)0 : 0xffffffffull;
        if (dtype == RB_DTYPE_I32 || dtype == RB_DTYPE_I64)
            bits ^= sign;
        else
            bits = (bits & sign) ? bits ^ sign : ~bits & all;
    }
    switch (dtype) {
    case RB_DTYPE_I32: result->i = (int32_t)(uint32_t)bits; break;
    case RB_DTYPE_I64: result->i = (int64_t)bits; break;
    case RB_DTYPE_F32: {
        uint32_t b32 = (uint32_t)bits;
        float v;
        memcpy(&v, &b32, 4);
        result->f = v;
        break;
    }
    default: {
        double v;
        memcpy(&v, &bits, 8);
        result->f = v;
        break;
    }
    }
}

/* The buffers of a result: `bytes` on the device, and as many the host
 * reads them back through. */
static inline int pack_readback_buffers(rb_vulkan_queue *q, const rb_host *host, uint64_t bytes,
                                        rb_vulkan_buffer *value, rb_vulkan_buffer *readback)
{
    int st = q->buffer_create(q, host, bytes, RB_VULKAN_DEVICE_MEMORY, value);
    return st != RB_OK ? st : q->buffer_create(q, host, bytes, RB_VULKAN_HOST_MEMORY, readback);
}

/* The buffers of a reduction's value: 8 bytes on the device, and 8 the
 * host reads it back through. */
static inline int pack_result_buffers(rb_vulkan_queue *q, const rb_host *host,
                                      rb_vulkan_buffer *value, rb_vulkan_buffer *readback)
{
    return pack_readback_buffers(q, host, 8, value, readback);
}

/* run's part before a dispatch that joins its values into `b` with
 * atomics: every 32-bit word of b set to `pattern` (pack_atomic_start, or
 * 0 for counts), then a barrier. */
static inline void pack_reset(VkCommandBuffer cmd, const rb_vulkan_buffer *b, uint32_t pattern)
{
    vkCmdFillBuffer(cmd, b->buffer, 0, VK_WHOLE_SIZE, pattern);
    rb_vulkan_barrier(cmd);
}

/* init's part: every 32-bit word of `b` set to `pattern` on the device,
 * and waited for (results that the shaders themselves set back between
 * calls start there). */
static inline int pack_fill(rb_vulkan_queue *q, const rb_host *host, const rb_vulkan_buffer *b,
                            uint32_t pattern)
{
    VkCommandBuffer cmd = q->begin(q, host);
    if (!cmd)
        return RB_ERROR;
    vkCmdFillBuffer(cmd, b->buffer, 0, VK_WHOLE_SIZE, pattern);
    if (q->submit(q, host, cmd) != RB_OK || q->wait(q, host) != RB_OK)
        return RB_ERROR;
    return RB_OK;
}

/* init's part: every byte of `b` set to 0 (a counter that the shaders
 * themselves set back to 0 at the end of each call starts there). */
static inline int pack_zero(rb_vulkan_queue *q, const rb_host *host, const rb_vulkan_buffer *b)
{
    return pack_fill(q, host, b, 0);
}

/* verify's part: the reduction's value read back from `value` into
 * *result (ordered: as the atomic min and max keep it). */
static inline int pack_read_result(rb_vulkan_queue *q, const rb_config *cfg,
                                   const rb_vulkan_buffer *value,
                                   const rb_vulkan_buffer *readback, int ordered,
                                   rb_result *result)
{
    unsigned char bytes[8];
    int dtype = pack_value_dtype(cfg->dtype); /* a half reduction's value is an f32 */
    if (rb_vulkan_read(q, cfg->host, value, 0, readback, bytes, rb_dtype_size(dtype)) != RB_OK)
        return RB_ERROR;
    pack_result(dtype, bytes, ordered, result);
    return RB_OK;
}

/* teardown's part: the pipeline, and each of `count` buffers that was
 * made (an init that failed half-way leaves some unmade). */
static inline void pack_release(rb_vulkan_queue *q, rb_vulkan_pipeline *pipeline,
                                rb_vulkan_buffer *const *buffers, size_t count)
{
    rb_vulkan_pipeline_destroy(q, pipeline);
    for (size_t k = 0; k < count; k++)
        if (buffers[k]->buffer)
            q->buffer_destroy(q, buffers[k]);
}

#endif
