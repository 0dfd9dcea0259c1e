/* plugins/cpu/cpu_shaped.h: shapes in the cpu pack (redbench/plugin.h,
 * "Shapes"), for serial and threads: every row of a matrix (fixed or
 * ragged lengths) or every column, for sum, min, max and argmax, and
 * argmax of the one array (rows = 1). A row is reduced by cpu_reduce (the
 * pack's loops, cpu_reduce.h) over its elements; columns are reduced a
 * block of columns at a time, row after row, so that each row is read in
 * order; argmax keeps the first index of the maximum. Answers are kept in
 * the answer's type (the dtype's, f32 for halves) and copied to the
 * host's buffers by verify. */
#ifndef RB_CPU_SHAPED_H
#define RB_CPU_SHAPED_H

#include <stddef.h>

#include "cpu_reduce.h"

/* Columns reduced together, each row's run of them read in order. */
#define CPU_COLUMN_BLOCK 256

typedef struct cpu_shaped {
    cpu_job job;             /* job.n: every element, rows x cols */
    int shaped;              /* rows > 1, columns or ragged: answers by vector */
    uint64_t rows, cols, n_answers;
    int axis;                /* enum rb_axis */
    const uint64_t *offsets; /* ragged: rows + 1, host memory; else NULL */
    unsigned char *answers;  /* n_answers of the answer type */
    uint64_t *indices;       /* argmax: n_answers */
} cpu_shaped;

/* The answer type's size: 8 for i64 and f64, else 4 (halves' answers are f32). */
static inline size_t cpu_answer_size(int dtype)
{
    return dtype == RB_DTYPE_I64 || dtype == RB_DTYPE_F64 ? 8 : 4;
}

/* Element e of the input as a double (floating dtypes) or an int64. */
static inline double cpu_element_f(int dtype, const void *x, uint64_t e)
{
    switch (dtype) {
    case RB_DTYPE_F32: return ((const float *)x)[e];
    case RB_DTYPE_F64: return ((const double *)x)[e];
    case RB_DTYPE_F16: return rb_f16_to_f32(((const uint16_t *)x)[e]);
    default: return rb_bf16_to_f32(((const uint16_t *)x)[e]);
    }
}

static inline int64_t cpu_element_i(int dtype, const void *x, uint64_t e)
{
    return dtype == RB_DTYPE_I32 ? ((const int32_t *)x)[e] : ((const int64_t *)x)[e];
}

/* Stores answer k: a floating value, or an integer wrapped to the dtype. */
static inline void cpu_put_answer(const cpu_shaped *sh, uint64_t k, double f, int64_t i)
{
    switch (sh->job.dtype) {
    case RB_DTYPE_F64: ((double *)sh->answers)[k] = f; break;
    case RB_DTYPE_I64: ((int64_t *)sh->answers)[k] = i; break;
    case RB_DTYPE_I32: ((int32_t *)sh->answers)[k] = (int32_t)cpu_wrap((uint64_t)i, 32); break;
    default: ((float *)sh->answers)[k] = (float)f; break;
    }
}

/* An empty row's answer: the op's identity (redbench/plugin.h). */
static inline void cpu_put_identity(const cpu_shaped *sh, uint64_t k)
{
    int op = sh->job.op, wide = sh->job.dtype == RB_DTYPE_I64;
    double f = op == RB_OP_SUM ? 0.0 : op == RB_OP_MIN ? INFINITY : -INFINITY;
    int64_t i = op == RB_OP_SUM ? 0
                : op == RB_OP_MIN ? (wide ? INT64_MAX : INT32_MAX)
                                  : (wide ? INT64_MIN : INT32_MIN);
    cpu_put_answer(sh, k, f, i);
    if (sh->indices)
        sh->indices[k] = 0;
}

/* Fills *sh from cfg (a host older than 1.6 gives one array). Returns
 * RB_OK, or the status of cpu_job_setup with its reason. */
static inline int cpu_shaped_setup(const rb_config *cfg, cpu_shaped *sh)
{
    memset(sh, 0, sizeof *sh);
    int rc = cpu_job_setup(cfg, 0, &sh->job);
    if (rc != RB_OK)
        return rc;
    int has_shape = cfg->size >= offsetof(rb_config, host_offsets) + sizeof cfg->host_offsets;
    sh->rows = has_shape && cfg->rows ? cfg->rows : 1;
    sh->cols = has_shape && cfg->rows ? cfg->cols : cfg->n;
    sh->axis = has_shape ? (int)cfg->axis : RB_AXIS_ROW;
    sh->offsets = has_shape && cfg->ragged ? cfg->host_offsets : NULL;
    sh->n_answers = sh->axis == RB_AXIS_COLUMN ? sh->cols : sh->rows;
    sh->shaped = sh->rows > 1 || sh->axis == RB_AXIS_COLUMN || sh->offsets;
    if (has_shape && cfg->ragged && !sh->offsets && cfg->input) { /* describe has none */
        cfg->host->error(cfg->host, "ragged rows without their offsets (rb_config.host_offsets)");
        return RB_ERROR;
    }
    if (sh->shaped && cfg->op == RB_OP_HISTOGRAM) {
        cfg->host->error(cfg->host, "a histogram has no shape: rows = 1 only");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

/* The answers' buffers, for init. */
static inline int cpu_shaped_allocate(const rb_config *cfg, cpu_shaped *sh)
{
    if (!sh->shaped && sh->job.op != RB_OP_ARGMAX)
        return RB_OK;
    sh->answers = calloc(sh->n_answers, 8);
    sh->indices = sh->job.op == RB_OP_ARGMAX ? calloc(sh->n_answers, sizeof *sh->indices) : NULL;
    if (!sh->answers || (sh->job.op == RB_OP_ARGMAX && !sh->indices)) {
        cfg->host->error(cfg->host, "out of memory for %llu answers",
                         (unsigned long long)sh->n_answers);
        return RB_ERROR;
    }
    return RB_OK;
}

static inline void cpu_shaped_free(cpu_shaped *sh)
{
    free(sh->answers);
    free(sh->indices);
    sh->answers = NULL;
    sh->indices = NULL;
}

/* Whether the op goes through the answers (a shape, or argmax). */
static inline int cpu_shaped_by_answers(const cpu_shaped *sh)
{
    return sh->shaped || sh->job.op == RB_OP_ARGMAX;
}

/* Argmax of the elements e0, e0 + step, ... (len of them, len >= 1) as
 * answer k: the first index of the maximum. */
static inline void cpu_argmax(const cpu_shaped *sh, uint64_t k, uint64_t e0, uint64_t step,
                              uint64_t len)
{
    int dtype = sh->job.dtype;
    const void *x = sh->job.input;
    uint64_t best_at = 0, j;
    if (dtype == RB_DTYPE_I32 || dtype == RB_DTYPE_I64) {
        int64_t best = cpu_element_i(dtype, x, e0);
        for (j = 1; j < len; j++) {
            int64_t v = cpu_element_i(dtype, x, e0 + j * step);
            if (v > best) {
                best = v;
                best_at = j;
            }
        }
        cpu_put_answer(sh, k, 0, best);
    } else {
        double best = cpu_element_f(dtype, x, e0);
        for (j = 1; j < len; j++) {
            double v = cpu_element_f(dtype, x, e0 + j * step);
            if (v > best) {
                best = v;
                best_at = j;
            }
        }
        cpu_put_answer(sh, k, best, 0);
    }
    sh->indices[k] = best_at;
}

/* A finished partial of cpu_reduce as answer k. */
static inline void cpu_put_partial(const cpu_shaped *sh, uint64_t k, const cpu_partial *p)
{
    const cpu_job *job = &sh->job;
    switch (job->acc_dtype) {
    case RB_DTYPE_I32: case RB_DTYPE_I64:
        cpu_put_answer(sh, k, 0, job->op == RB_OP_SUM ? (int64_t)p->u : p->i);
        break;
    case RB_DTYPE_F32: cpu_put_answer(sh, k, p->f, 0); break;
    default: cpu_put_answer(sh, k, p->d, 0); break;
    }
}

/* Answers [first, last) along the rows. */
static inline void cpu_shaped_rows(const cpu_shaped *sh, uint64_t first, uint64_t last)
{
    for (uint64_t k = first; k < last; k++) {
        uint64_t start = sh->offsets ? sh->offsets[k] : k * sh->cols;
        uint64_t len = sh->offsets ? sh->offsets[k + 1] - sh->offsets[k] : sh->cols;
        if (len == 0) {
            cpu_put_identity(sh, k);
        } else if (sh->job.op == RB_OP_ARGMAX) {
            cpu_argmax(sh, k, start, 1, len);
        } else {
            cpu_partial p;
            cpu_reduce(&sh->job, start, start + len, &p, NULL);
            cpu_put_partial(sh, k, &p);
        }
    }
}

/* Columns [first, last) (a block at most CPU_COLUMN_BLOCK wide), row
 * after row. Floating sums accumulate in the job's type (f32, or f64 with
 * acc = f64 or for f64 data); integer sums wrap. */
static inline void cpu_column_block(const cpu_shaped *sh, uint64_t first, uint64_t last)
{
    const cpu_job *job = &sh->job;
    const void *x = job->input;
    int dtype = job->dtype, op = job->op;
    int fl = cpu_is_float(dtype), wide = job->acc_dtype == RB_DTYPE_F64;
    uint64_t width = last - first, c, r;
    if (op == RB_OP_ARGMAX) {
        for (c = first; c < last; c++)
            cpu_argmax(sh, c, c, sh->cols, sh->rows);
        return;
    }
    float acc_f[CPU_COLUMN_BLOCK];
    double acc_d[CPU_COLUMN_BLOCK];
    uint64_t acc_u[CPU_COLUMN_BLOCK];
    int64_t acc_i[CPU_COLUMN_BLOCK];
    for (c = 0; c < width; c++) {
        if (fl) {
            acc_d[c] = op == RB_OP_SUM ? 0 : cpu_element_f(dtype, x, first + c);
            acc_f[c] = (float)acc_d[c];
        } else {
            acc_u[c] = 0;
            acc_i[c] = cpu_element_i(dtype, x, first + c);
        }
    }
    for (r = op == RB_OP_SUM ? 0 : 1; r < sh->rows; r++) {
        uint64_t base = r * sh->cols + first;
        for (c = 0; c < width; c++) {
            if (fl) {
                double v = cpu_element_f(dtype, x, base + c);
                if (op == RB_OP_SUM) {
                    if (wide)
                        acc_d[c] += v;
                    else
                        acc_f[c] += (float)v;
                } else if (op == RB_OP_MIN ? v < acc_d[c] : v > acc_d[c]) {
                    acc_d[c] = v;
                }
            } else {
                int64_t v = cpu_element_i(dtype, x, base + c);
                if (op == RB_OP_SUM)
                    acc_u[c] += (uint64_t)v;
                else if (op == RB_OP_MIN ? v < acc_i[c] : v > acc_i[c])
                    acc_i[c] = v;
            }
        }
    }
    for (c = 0; c < width; c++) {
        if (fl)
            cpu_put_answer(sh, first + c, op == RB_OP_SUM && !wide ? acc_f[c] : acc_d[c], 0);
        else
            cpu_put_answer(sh, first + c, 0, op == RB_OP_SUM ? (int64_t)acc_u[c] : acc_i[c]);
    }
}

/* Answers [first, last): rows, or columns block by block. */
static inline void cpu_shaped_answers(const cpu_shaped *sh, uint64_t first, uint64_t last)
{
    if (sh->axis != RB_AXIS_COLUMN) {
        cpu_shaped_rows(sh, first, last);
        return;
    }
    for (uint64_t c = first; c < last; c += CPU_COLUMN_BLOCK)
        cpu_column_block(sh, c, last - c < CPU_COLUMN_BLOCK ? last : c + CPU_COLUMN_BLOCK);
}

/* verify: the answers to the host's buffers (a shape), or argmax's one
 * answer to result->f or ->i and ->index. */
static inline int cpu_shaped_store(const cpu_shaped *sh, rb_result *result)
{
    const rb_host *host = sh->job.host;
    size_t size = cpu_answer_size(sh->job.dtype);
    if (!sh->shaped) { /* argmax of the one array */
        if (cpu_is_float(sh->job.dtype))
            result->f = sh->job.dtype == RB_DTYPE_F64 ? ((const double *)sh->answers)[0]
                                                      : ((const float *)sh->answers)[0];
        else
            result->i = sh->job.dtype == RB_DTYPE_I64 ? ((const int64_t *)sh->answers)[0]
                                                      : ((const int32_t *)sh->answers)[0];
        result->index = sh->indices[0];
        return RB_OK;
    }
    if (result->size < sizeof(rb_result) || !result->elements ||
        (sh->job.op == RB_OP_ARGMAX && !result->indices)) {
        host->error(host, "the host offered no buffer for the %llu answers",
                    (unsigned long long)sh->n_answers);
        return RB_ERROR;
    }
    memcpy(result->elements, sh->answers, (size_t)sh->n_answers * size);
    result->n_elements = sh->n_answers;
    if (sh->indices)
        memcpy(result->indices, sh->indices, (size_t)sh->n_answers * sizeof *sh->indices);
    return RB_OK;
}

#endif
