/* plugins/vulkan/rows.c: shaped reductions along rows (ABI 1.6, "Shapes"
 * in redbench/plugin.h), a subgroup per row (shaders/rows.comp): every
 * subgroup of the dispatch reduces whole rows, its lanes reading adjacent
 * elements and subgroupAdd/Min/Max joining them; no shared memory, no
 * barrier, no second pass. Rows of fixed length (r x cols on) or ragged
 * (the host's offsets, on the device), sum, min, max and argmax (the
 * first maximum of the row: subgroupMax, then subgroupMin over the lanes'
 * indices that hold it) of i32, i64, f32, f64 (where the device has them)
 * and f16 and bf16 (read as 32-bit words, reduced in f32, answers f32).
 * The answers (and argmax's indices, as 32-bit words) stay in one device
 * buffer that verify reads back; each run writes every answer, so nothing
 * is cleared between calls. The workgroups: one subgroup per row at the
 * device's default subgroup size (rows / (block / subgroup size), rounded
 * up) or `grid`; the shader strides over the rows by the subgroups the
 * dispatch really has, so any subgroup size or grid reduces every row.
 * rows = 1 (a one-reduction configuration, or a host older than 1.6) is
 * one subgroup over all n elements: right, but a single subgroup's pace;
 * vulkan/subgroup is the strategy for one long reduction. Columns are not
 * offered (shapes: rows and ragged rows). */
#include <stddef.h>

#include "plugins/vulkan/pack.h"

/* Its planted twin, tests/packs/vulkan/rows-twin, is this file built with
 * ROWS_NAME and ROWS_SPV, the header of rows.comp's shaders built with
 * -DPLANTED_FIXED_LENGTHS. */
#ifndef ROWS_NAME
#define ROWS_NAME "rows"
#define ROWS_SPV "plugins/vulkan/rows_spv.h"
#endif
#include ROWS_SPV

static const rb_param_spec rows_params[] = {
    PACK_PARAM_BLOCK,
    PACK_PARAM_GRID("workgroups (auto: a subgroup per row at the device's subgroup size; "
                    "fewer stride over the rows)"),
};

/* Push constants of shaders/rows.comp (its `Push` block). */
typedef struct rows_push {
    VkDeviceAddress src, dst, at, offsets;
    uint32_t rows, cols, ragged, groups;
} rows_push;

typedef struct rows_state {
    const rb_config *cfg;
    rb_vulkan_queue *q;
    rb_vulkan_pipeline pipeline;
    rb_vulkan_buffer answers, readback; /* values, then (argmax) 32-bit indices */
    unsigned char *copy;                /* verify's copy of readback */
    uint64_t n_answers, value_bytes, index_at;
    uint32_t groups;
    rows_push push;
} rows_state;

/* Whether the host set the shape's fields (ABI 1.6). */
static int has_shape(const rb_config *cfg)
{
    return cfg->size >= offsetof(rb_config, host_offsets) + sizeof cfg->host_offsets;
}

static uint64_t shape_rows(const rb_config *cfg)
{
    return has_shape(cfg) && cfg->rows ? cfg->rows : 1;
}

static int is_ragged(const rb_config *cfg)
{
    return has_shape(cfg) && cfg->ragged;
}

/* The checks of describe and init: the shape, then pack_check's. */
static int rows_check(const rb_config *cfg)
{
    const rb_host *host = cfg->host;
    if (has_shape(cfg)) {
        if (cfg->axis != RB_AXIS_ROW) {
            host->error(host, "reduces along rows (axis = row); columns are not offered");
            return RB_UNSUPPORTED;
        }
        if (cfg->n_answers != shape_rows(cfg) ||
            (!cfg->ragged && shape_rows(cfg) * cfg->cols != cfg->n)) {
            host->error(host, "inconsistent shape: rows %llu, cols %llu, %llu answers, n = %llu",
                        (unsigned long long)cfg->rows, (unsigned long long)cfg->cols,
                        (unsigned long long)cfg->n_answers, (unsigned long long)cfg->n);
            return RB_UNSUPPORTED;
        }
    }
    /* rows <= n < 2^31 (every row of a fixed shape, and the mean of a
     * ragged one, is at least 1 long) once pack_check takes n */
    return pack_check(cfg, pack_block(cfg), 0, 1);
}

static int rows_describe(const rb_config *cfg, rb_description *out)
{
    snprintf(out->label, sizeof out->label, "subgroup-per-row");
    return rows_check(cfg);
}

static void rows_teardown(void *state)
{
    rows_state *s = state;
    rb_vulkan_buffer *buffers[] = {&s->answers, &s->readback};
    pack_release(s->q, &s->pipeline, buffers, 2);
    free(s->copy);
    free(s);
}

/* The ragged rows' offsets on the device, or 0 with the reason. */
static VkDeviceAddress offsets_address(const rb_config *cfg)
{
    const rb_vulkan_buffer *b = (const rb_vulkan_buffer *)cfg->offsets;
    if (!b) {
        cfg->host->error(cfg->host, "ragged rows without their offsets on the device");
        return 0;
    }
    VkDeviceAddress at = b->address + cfg->offsets_offset;
    if (at % 8 != 0) {
        cfg->host->error(cfg->host, "the rows' offsets are not 8-byte aligned");
        return 0;
    }
    return at;
}

static int rows_init(const rb_config *cfg, void **state)
{
    int st = rows_check(cfg);
    if (st != RB_OK)
        return st;
    VkDeviceAddress input = rb_vulkan_input_address(cfg), offsets = 0;
    if (pack_is_half(cfg->dtype) ? input % 2 != 0 : input % rb_dtype_size(cfg->dtype) != 0) {
        cfg->host->error(cfg->host, "%s input not aligned to its element",
                         pack_dtype_word(cfg->dtype));
        return RB_UNSUPPORTED;
    }
    if (is_ragged(cfg) && !(offsets = offsets_address(cfg)))
        return RB_ERROR;
    rows_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    s->q = pack_queue(cfg);
    *state = s;

    uint32_t block = pack_block(cfg);
    uint64_t rows = shape_rows(cfg);
    uint32_t subgroup = s->q->subgroup_size ? s->q->subgroup_size : 32;
    uint64_t per_group = block > subgroup ? block / subgroup : 1;
    uint64_t grid = (uint64_t)rb_param_int(cfg, "grid", 0);
    s->groups = (uint32_t)(grid ? grid : (rows + per_group - 1) / per_group);
    s->n_answers = rows;
    s->value_bytes = rb_dtype_size(pack_value_dtype(cfg->dtype));
    s->index_at = (rows * s->value_bytes + 15) / 16 * 16;
    uint64_t bytes = s->index_at + (cfg->op == RB_OP_ARGMAX ? rows * 4 : 0);
    uint32_t constants[1] = {block};
    if ((st = pack_pipeline(cfg, rows_spirv, 0, sizeof(rows_push), constants, 1,
                            &s->pipeline)) != RB_OK ||
        (st = pack_readback_buffers(s->q, cfg->host, bytes, &s->answers, &s->readback)) !=
            RB_OK ||
        (st = pack_zero(s->q, cfg->host, &s->answers)) != RB_OK) {
        rows_teardown(s);
        *state = NULL;
        return st;
    }
    if (!(s->copy = malloc(bytes))) {
        cfg->host->error(cfg->host, "out of memory");
        rows_teardown(s);
        *state = NULL;
        return RB_ERROR;
    }
    s->push = (rows_push){input, s->answers.address, s->answers.address + s->index_at, offsets,
                          (uint32_t)rows, (uint32_t)(is_ragged(cfg) ? cfg->cols : cfg->n / rows),
                          (uint32_t)is_ragged(cfg), s->groups};
    return RB_OK;
}

static int rows_run(void *state)
{
    rows_state *s = state;
    VkCommandBuffer cmd = s->q->begin(s->q, s->cfg->host);
    if (!cmd)
        return RB_ERROR;
    pack_dispatch(s->q, cmd, &s->pipeline, &s->push, s->groups);
    return s->q->submit(s->q, s->cfg->host, cmd);
}

/* Hands the answers to the host's buffers, or with rows = 1 and none
 * offered (a one-reduction configuration) the one answer as 1.5 did. */
static int rows_verify(void *state, rb_result *result)
{
    rows_state *s = state;
    const rb_config *cfg = s->cfg;
    int argmax = cfg->op == RB_OP_ARGMAX;
    uint64_t bytes = s->index_at + (argmax ? s->n_answers * 4 : 0);
    if (rb_vulkan_read(s->q, cfg->host, &s->answers, 0, &s->readback, s->copy, bytes) != RB_OK)
        return RB_ERROR;
    const uint32_t *at = (const uint32_t *)(s->copy + s->index_at);
    int offered = result->size >= offsetof(rb_result, indices) + sizeof result->indices &&
                  result->elements && (!argmax || result->indices);
    if (!offered) {
        if (s->n_answers != 1) {
            cfg->host->error(cfg->host, "this host's result takes no answers per row");
            return RB_ERROR;
        }
        pack_result(pack_value_dtype(cfg->dtype), s->copy, 0, result);
        if (argmax)
            result->index = at[0];
        return RB_OK;
    }
    memcpy(result->elements, s->copy, s->n_answers * s->value_bytes);
    if (argmax)
        for (uint64_t k = 0; k < s->n_answers; k++)
            result->indices[k] = at[k];
    result->n_elements = s->n_answers;
    return RB_OK;
}

static const rb_plugin rows_plugin = {
    PACK_DESCRIPTOR_FIELDS,
    .name = ROWS_NAME,
    .summary = "a subgroup per row: adjacent loads, subgroupAdd/Min/Max (argmax: subgroupMax, "
               "then subgroupMin of the indices), fixed or ragged rows",
    .ops = PACK_OPS | RB_OP_BIT(RB_OP_ARGMAX),
    .dtypes = PACK_DTYPES | PACK_HALF_DTYPES,
    RB_PLUGIN_PARAMS(rows_params),
    .describe = rows_describe,
    .init = rows_init,
    .run = rows_run,
    .verify = rows_verify,
    .teardown = rows_teardown,
    .shapes = RB_SHAPE_ROWS | RB_SHAPE_RAGGED,
};

RB_PLUGIN_ENTRY(rows_plugin)
