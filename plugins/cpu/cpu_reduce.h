/* plugins/cpu/cpu_reduce.h: what the cpu pack's strategies share (internal
 * to the pack, never installed). It owns the reduction loops, written once
 * and instantiated per data type: sum, min and max of i32, i64, f32, f64,
 * f16 and bf16 over a compile-time number of independent accumulators
 * ("lanes"), the
 * compensated (Neumaier) sum, and the u8 histogram; the parameter specs the
 * plugins declare; how a configuration becomes a cpu_job; how partial
 * results combine and reach rb_result; the callbacks of the
 * single-threaded strategies (serial, unrolled, kahan); and the
 * descriptor's fields that every strategy has.
 *
 * Lanes: element i goes to accumulator i % lanes; at the end accumulator l
 * takes accumulator l + lanes/2, then l + lanes/4, ... (a pairwise combine).
 * The result depends only on the data and the parameters. Independent
 * accumulators let the compiler vectorize a floating sum without
 * reassociation flags: the order of every addition is the one written here.
 *
 * f16 and bf16: every element is read as its exact f32 value
 * (redbench/half.h); sums accumulate in f32 (acc = native or f32) or f64,
 * never in the half type, and min and max are kept in f32, which holds
 * every half value exactly (redbench/plugin.h, "Half precision").
 */
#ifndef RB_CPU_REDUCE_H
#define RB_CPU_REDUCE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/half.h>
#include <redbench/plugin.h>

/* ---- parameters ------------------------------------------------------- */

/* acc: the type floating sums accumulate in. */
enum cpu_acc { CPU_ACC_NATIVE = 0, CPU_ACC_F32 = 1, CPU_ACC_F64 = 2 };

static const char *const cpu_acc_choices[] __attribute__((unused)) = {
    "native", "f32", "f64", NULL};

#define CPU_LANES_MAX 64
#define CPU_LANES_DEFAULT 16

#define CPU_PARAM_ACC                                                          \
    {"acc", RB_PARAM_CHOICE, "native", 0, 0, cpu_acc_choices, 0,               \
     "type floating sums accumulate in: native (the data type; f32 for f16 and bf16), f32 or f64"}

#define CPU_STRING_(x) #x
#define CPU_STRING(x) CPU_STRING_(x)

#define CPU_PARAM_LANES                                                        \
    {"lanes", RB_PARAM_INT, CPU_STRING(CPU_LANES_DEFAULT), 1, CPU_LANES_MAX,   \
     NULL, RB_PARAM_POW2,                                                      \
     "independent accumulators (for histogram: sub-histograms) per thread"}

#define CPU_OPS                                                                \
    (RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX) |      \
     RB_OP_BIT(RB_OP_HISTOGRAM))
#define CPU_DTYPES                                                             \
    (RB_DTYPE_BIT(RB_DTYPE_I32) | RB_DTYPE_BIT(RB_DTYPE_I64) |                 \
     RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64) |                 \
     RB_DTYPE_BIT(RB_DTYPE_U8) | RB_DTYPE_BIT(RB_DTYPE_F16) |                  \
     RB_DTYPE_BIT(RB_DTYPE_BF16))

/* The descriptor's fields that every strategy of the pack has: the ABI it
 * was built with, its version, the cpu backend, and the ops and dtypes
 * above. A strategy's descriptor adds its name, summary, parameters and
 * callbacks. */
#define CPU_PACK_DESCRIPTOR_FIELDS                                             \
    RB_PLUGIN_ABI_FIELDS, .version = "1.0", .backend = "cpu", .ops = CPU_OPS,  \
    .dtypes = CPU_DTYPES

/* serial and threads: argmax too, and shapes (cpu_shaped.h). */
#define CPU_SHAPED_DESCRIPTOR_FIELDS                                           \
    RB_PLUGIN_ABI_FIELDS, .version = "1.1", .backend = "cpu",                  \
    .ops = CPU_OPS | RB_OP_BIT(RB_OP_ARGMAX), .dtypes = CPU_DTYPES,            \
    .shapes = RB_SHAPE_ROWS | RB_SHAPE_COLUMNS | RB_SHAPE_RAGGED

/* ---- one configuration -------------------------------------------------- */

typedef struct cpu_job {
    const rb_host *host;
    const void *input;   /* n elements of dtype, host memory, read-only */
    uint64_t n;
    int op;              /* enum rb_op */
    int dtype;           /* enum rb_dtype of the data */
    int acc_dtype;       /* what the partial holds: the data type, except a
                            floating sum with acc = f32 or f64 */
    unsigned lanes;      /* 1..64, a power of two */
    int compensated;     /* floating sums use the Neumaier loop */
    uint32_t bins;       /* histogram */
} cpu_job;

/* A partial result: the field that job->op and job->acc_dtype name. */
typedef struct cpu_partial {
    uint64_t u;            /* integer sum, wrapped to the dtype's width */
    int64_t i;             /* integer min or max */
    float f;               /* f32 accumulator */
    double d;              /* f64 accumulator */
    uint64_t counts[256];  /* histogram: occurrences of each byte value */
} cpu_partial;

static inline int cpu_is_half(int dtype)
{
    return dtype == RB_DTYPE_F16 || dtype == RB_DTYPE_BF16;
}

/* f32, f64, f16 or bf16 */
static inline int cpu_is_float(int dtype)
{
    return dtype == RB_DTYPE_F32 || dtype == RB_DTYPE_F64 || cpu_is_half(dtype);
}

/* Fills *job from cfg. `compensated` selects the Neumaier sum. The
 * accumulator count comes from the parameter "lanes" and the accumulator
 * type from "acc" when the plugin declares them (the host hands a plugin
 * every parameter it declares); without them, one accumulator of the data
 * type. Returns RB_OK, or RB_UNSUPPORTED / RB_ERROR with the reason given
 * to cfg->host->error. */
static inline int cpu_job_setup(const rb_config *cfg, int compensated, cpu_job *job)
{
    const rb_host *host = cfg->host;
    unsigned lanes = (unsigned)rb_param_int(cfg, "lanes", 1);
    int64_t acc = rb_param_int(cfg, "acc", CPU_ACC_NATIVE);
    int numeric = cfg->dtype == RB_DTYPE_I32 || cfg->dtype == RB_DTYPE_I64 ||
                  cpu_is_float(cfg->dtype);

    memset(job, 0, sizeof *job);
    job->host = host;
    job->input = cfg->input;
    job->n = cfg->n;
    job->op = cfg->op;
    job->dtype = cfg->dtype;
    /* halves: every op accumulates in f32 unless acc says f64 */
    job->acc_dtype = cpu_is_half(cfg->dtype) ? RB_DTYPE_F32 : cfg->dtype;
    job->lanes = lanes;
    job->compensated = compensated;
    job->bins = cfg->bins;

    if (cfg->n < 1) {
        host->error(host, "n = 0: a reduction needs at least one element");
        return RB_ERROR;
    }
    if (lanes < 1 || lanes > CPU_LANES_MAX || (lanes & (lanes - 1)) != 0) {
        host->error(host, "lanes = %u is not valid: use a power of two from 1 to %d",
                    lanes, CPU_LANES_MAX);
        return RB_ERROR;
    }
    switch (cfg->op) {
    case RB_OP_SUM: case RB_OP_MIN: case RB_OP_MAX: case RB_OP_ARGMAX:
        if (!numeric) {
            host->error(host, "sum, min, max and argmax take i32, i64, f32, f64, f16 or bf16 "
                        "data");
            return RB_UNSUPPORTED;
        }
        break;
    case RB_OP_HISTOGRAM:
        if (cfg->dtype != RB_DTYPE_U8) {
            host->error(host, "histogram takes u8 data");
            return RB_UNSUPPORTED;
        }
        if (cfg->bins < 1 || cfg->bins > 256) {
            host->error(host, "histogram with %u bins: use 1 to 256 bins", cfg->bins);
            return RB_ERROR;
        }
        break;
    default:
        host->error(host, "the cpu pack computes sum, min, max, argmax (serial and threads) "
                    "and histogram");
        return RB_UNSUPPORTED;
    }
    if (acc < CPU_ACC_NATIVE || acc > CPU_ACC_F64) {
        host->error(host, "acc: choice %lld is not valid: use native, f32 or f64", (long long)acc);
        return RB_ERROR;
    }
    if (acc != CPU_ACC_NATIVE) {
        if (cfg->op != RB_OP_SUM || !cpu_is_float(cfg->dtype)) {
            host->error(host, "acc = %s only applies to sums of f32, f64, f16 or bf16 "
                        "data; use acc = native here", cpu_acc_choices[acc]);
            return RB_UNSUPPORTED;
        }
        job->acc_dtype = acc == CPU_ACC_F32 ? RB_DTYPE_F32 : RB_DTYPE_F64;
    }
    return RB_OK;
}

/* ---- the loops ---------------------------------------------------------- */

/* A step updates the accumulators group by group: each group is one short
 * loop the compiler turns into vector instructions, and the groups are
 * unrolled so that every accumulator stays in a register. Four elements
 * per group suits SSE2 (and NEON); i64 min and max use two, because SSE2
 * has no 64-bit compare and a wider group makes the compiler emulate one. */

#define CPU_STEP_SUM(ACC, a, v) ((a) += (ACC)(v))
#define CPU_STEP_MIN(ACC, a, v) ((a) = (v) < (a) ? (v) : (a))
#define CPU_STEP_MAX(ACC, a, v) ((a) = (v) > (a) ? (v) : (a))
#define CPU_INIT_SUM(READ, x) 0
#define CPU_INIT_FIRST(READ, x) READ((x)[0])

/* How an element is read: as it is, or a half's bits as its f32 value. */
#define CPU_READ_PLAIN(v) (v)
#define CPU_READ_F16(v) rb_f16_to_f32(v)
#define CPU_READ_BF16(v) rb_bf16_to_f32(v)

/* a = a (OP) v, for OP sum, min or max. */
#define CPU_STEP_OP(OP, ACC, a, v)                                             \
    do {                                                                       \
        if ((OP) == RB_OP_SUM)                                                 \
            CPU_STEP_SUM(ACC, a, v);                                           \
        else if ((OP) == RB_OP_MIN)                                            \
            CPU_STEP_MIN(ACC, a, v);                                           \
        else                                                                   \
            CPU_STEP_MAX(ACC, a, v);                                           \
    } while (0)

/* Defines NAME(x, n, lanes): reduces x[0..n) (n >= 1), each element read
 * with READ, with STEP into `lanes` accumulators of type ACC, GROUP at a
 * time, then combines them pairwise. */
#define CPU_DEFINE_LANES(NAME, T, ACC, GROUP, INIT, STEP)                      \
    CPU_DEFINE_LANES_READ(NAME, T, ACC, GROUP, CPU_READ_PLAIN, INIT, STEP)
#define CPU_DEFINE_LANES_READ(NAME, T, ACC, GROUP, READ, INIT, STEP)           \
    static inline __attribute__((always_inline)) ACC NAME##_k(                 \
        const T *restrict x, size_t n, const unsigned lanes)                   \
    {                                                                          \
        const unsigned group = lanes < (GROUP) ? lanes : (GROUP);              \
        ACC acc[CPU_LANES_MAX];                                                \
        size_t i = 0;                                                          \
        unsigned g, l;                                                         \
        for (l = 0; l < lanes; l++)                                            \
            acc[l] = INIT(READ, x);                                            \
        for (; i + lanes <= n; i += lanes) {                                   \
            _Pragma("GCC unroll 64")                                           \
            for (g = 0; g < lanes; g += group)                                 \
                for (l = g; l < g + group; l++)                                \
                    STEP(ACC, acc[l], READ(x[i + l]));                         \
        }                                                                      \
        for (l = 0; i < n; i++, l++)                                           \
            STEP(ACC, acc[l], READ(x[i]));                                     \
        for (g = lanes / 2; g > 0; g /= 2)                                     \
            for (l = 0; l < g; l++)                                            \
                STEP(ACC, acc[l], acc[l + g]);                                 \
        return acc[0];                                                         \
    }                                                                          \
    static inline ACC NAME(const T *x, size_t n, unsigned lanes)               \
    {                                                                          \
        switch (lanes) {                                                       \
        case 2: return NAME##_k(x, n, 2);                                      \
        case 4: return NAME##_k(x, n, 4);                                      \
        case 8: return NAME##_k(x, n, 8);                                      \
        case 16: return NAME##_k(x, n, 16);                                    \
        case 32: return NAME##_k(x, n, 32);                                    \
        case 64: return NAME##_k(x, n, 64);                                    \
        default: return NAME##_k(x, n, 1);                                     \
        }                                                                      \
    }

CPU_DEFINE_LANES(cpu_sum_i32, int32_t, uint32_t, 4, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES(cpu_sum_i64, int64_t, uint64_t, 4, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES(cpu_sum_f32_f32, float, float, 4, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES(cpu_sum_f32_f64, float, double, 4, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES(cpu_sum_f64_f32, double, float, 4, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES(cpu_sum_f64_f64, double, double, 4, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES(cpu_min_i32, int32_t, int32_t, 4, CPU_INIT_FIRST, CPU_STEP_MIN)
CPU_DEFINE_LANES(cpu_min_i64, int64_t, int64_t, 2, CPU_INIT_FIRST, CPU_STEP_MIN)
CPU_DEFINE_LANES(cpu_min_f32, float, float, 4, CPU_INIT_FIRST, CPU_STEP_MIN)
CPU_DEFINE_LANES(cpu_min_f64, double, double, 4, CPU_INIT_FIRST, CPU_STEP_MIN)
CPU_DEFINE_LANES(cpu_max_i32, int32_t, int32_t, 4, CPU_INIT_FIRST, CPU_STEP_MAX)
CPU_DEFINE_LANES(cpu_max_i64, int64_t, int64_t, 2, CPU_INIT_FIRST, CPU_STEP_MAX)
CPU_DEFINE_LANES(cpu_max_f32, float, float, 4, CPU_INIT_FIRST, CPU_STEP_MAX)
CPU_DEFINE_LANES(cpu_max_f64, double, double, 4, CPU_INIT_FIRST, CPU_STEP_MAX)
CPU_DEFINE_LANES_READ(cpu_sum_f16_f32, uint16_t, float, 4, CPU_READ_F16, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES_READ(cpu_sum_f16_f64, uint16_t, double, 4, CPU_READ_F16, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES_READ(cpu_min_f16, uint16_t, float, 4, CPU_READ_F16, CPU_INIT_FIRST, CPU_STEP_MIN)
CPU_DEFINE_LANES_READ(cpu_max_f16, uint16_t, float, 4, CPU_READ_F16, CPU_INIT_FIRST, CPU_STEP_MAX)
CPU_DEFINE_LANES_READ(cpu_sum_bf16_f32, uint16_t, float, 4, CPU_READ_BF16, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES_READ(cpu_sum_bf16_f64, uint16_t, double, 4, CPU_READ_BF16, CPU_INIT_SUM, CPU_STEP_SUM)
CPU_DEFINE_LANES_READ(cpu_min_bf16, uint16_t, float, 4, CPU_READ_BF16, CPU_INIT_FIRST, CPU_STEP_MIN)
CPU_DEFINE_LANES_READ(cpu_max_bf16, uint16_t, float, 4, CPU_READ_BF16, CPU_INIT_FIRST, CPU_STEP_MAX)

/* Defines NAME(x, n): the Kahan-Babuska sum in Neumaier's form, one
 * accumulator and one compensation term, both of type ACC, over elements
 * of type T read with READ. */
#define CPU_DEFINE_NEUMAIER(NAME, T, ABS)                                      \
    CPU_DEFINE_NEUMAIER_READ(NAME, T, T, ABS, CPU_READ_PLAIN)
#define CPU_DEFINE_NEUMAIER_READ(NAME, T, ACC, ABS, READ)                      \
    static inline ACC NAME(const T *x, size_t n)                               \
    {                                                                          \
        ACC sum = 0, compensation = 0;                                         \
        size_t i;                                                              \
        for (i = 0; i < n; i++) {                                              \
            ACC v = READ(x[i]), t = sum + v;                                   \
            compensation += ABS(sum) >= ABS(v) ? (sum - t) + v : (v - t) + sum;\
            sum = t;                                                           \
        }                                                                      \
        return sum + compensation;                                             \
    }

CPU_DEFINE_NEUMAIER(cpu_neumaier_f32, float, fabsf)
CPU_DEFINE_NEUMAIER(cpu_neumaier_f64, double, fabs)
CPU_DEFINE_NEUMAIER_READ(cpu_neumaier_f16, uint16_t, float, fabsf, CPU_READ_F16)
CPU_DEFINE_NEUMAIER_READ(cpu_neumaier_bf16, uint16_t, float, fabsf, CPU_READ_BF16)

/* Counts each byte value of x[0..n) into `lanes` tables of 256 counts
 * (tables: lanes * 256 entries of scratch), then adds them into counts. */
static inline __attribute__((always_inline)) void cpu_count_bytes_k(
    const uint8_t *restrict x, size_t n, uint64_t *restrict tables,
    uint64_t *restrict counts, const unsigned lanes)
{
    size_t i = 0;
    unsigned l, b;
    memset(tables, 0, (size_t)lanes * 256 * sizeof *tables);
    for (; i + lanes <= n; i += lanes) {
        _Pragma("GCC unroll 64")
        for (l = 0; l < lanes; l++)
            tables[l * 256 + x[i + l]]++;
    }
    for (l = 0; i < n; i++, l++)
        tables[l * 256 + x[i]]++;
    for (b = 0; b < 256; b++) {
        uint64_t c = 0;
        for (l = 0; l < lanes; l++)
            c += tables[l * 256 + b];
        counts[b] = c;
    }
}

static inline void cpu_count_bytes(const uint8_t *x, size_t n, uint64_t *tables,
                                   uint64_t *counts, unsigned lanes)
{
    switch (lanes) {
    case 2: cpu_count_bytes_k(x, n, tables, counts, 2); break;
    case 4: cpu_count_bytes_k(x, n, tables, counts, 4); break;
    case 8: cpu_count_bytes_k(x, n, tables, counts, 8); break;
    case 16: cpu_count_bytes_k(x, n, tables, counts, 16); break;
    case 32: cpu_count_bytes_k(x, n, tables, counts, 32); break;
    case 64: cpu_count_bytes_k(x, n, tables, counts, 64); break;
    default: cpu_count_bytes_k(x, n, tables, counts, 1); break;
    }
}

/* Reduces elements [begin, end) of the job's input (begin < end) into *out.
 * `tables` is the histogram scratch (job->lanes * 256 counts), else unused. */
static inline void cpu_reduce(const cpu_job *job, uint64_t begin, uint64_t end,
                              cpu_partial *out, uint64_t *tables)
{
    const void *p = (const char *)job->input + begin * rb_dtype_size(job->dtype);
    size_t n = (size_t)(end - begin);
    unsigned lanes = job->lanes;

    if (job->op == RB_OP_HISTOGRAM) {
        cpu_count_bytes(p, n, tables, out->counts, lanes);
        return;
    }
    if (job->op == RB_OP_SUM) {
        switch (job->dtype * RB_DTYPE_COUNT_ + job->acc_dtype) {
        case RB_DTYPE_I32 * RB_DTYPE_COUNT_ + RB_DTYPE_I32:
            out->u = cpu_sum_i32(p, n, lanes);
            break;
        case RB_DTYPE_I64 * RB_DTYPE_COUNT_ + RB_DTYPE_I64:
            out->u = cpu_sum_i64(p, n, lanes);
            break;
        case RB_DTYPE_F32 * RB_DTYPE_COUNT_ + RB_DTYPE_F32:
            out->f = job->compensated ? cpu_neumaier_f32(p, n) : cpu_sum_f32_f32(p, n, lanes);
            break;
        case RB_DTYPE_F32 * RB_DTYPE_COUNT_ + RB_DTYPE_F64:
            out->d = cpu_sum_f32_f64(p, n, lanes);
            break;
        case RB_DTYPE_F64 * RB_DTYPE_COUNT_ + RB_DTYPE_F32:
            out->f = cpu_sum_f64_f32(p, n, lanes);
            break;
        case RB_DTYPE_F64 * RB_DTYPE_COUNT_ + RB_DTYPE_F64:
            out->d = job->compensated ? cpu_neumaier_f64(p, n) : cpu_sum_f64_f64(p, n, lanes);
            break;
        case RB_DTYPE_F16 * RB_DTYPE_COUNT_ + RB_DTYPE_F32:
            out->f = job->compensated ? cpu_neumaier_f16(p, n) : cpu_sum_f16_f32(p, n, lanes);
            break;
        case RB_DTYPE_F16 * RB_DTYPE_COUNT_ + RB_DTYPE_F64:
            out->d = cpu_sum_f16_f64(p, n, lanes);
            break;
        case RB_DTYPE_BF16 * RB_DTYPE_COUNT_ + RB_DTYPE_F32:
            out->f = job->compensated ? cpu_neumaier_bf16(p, n) : cpu_sum_bf16_f32(p, n, lanes);
            break;
        case RB_DTYPE_BF16 * RB_DTYPE_COUNT_ + RB_DTYPE_F64:
            out->d = cpu_sum_bf16_f64(p, n, lanes);
            break;
        }
        return;
    }
    switch (job->dtype) {
    case RB_DTYPE_I32:
        out->i = job->op == RB_OP_MIN ? cpu_min_i32(p, n, lanes) : cpu_max_i32(p, n, lanes);
        break;
    case RB_DTYPE_I64:
        out->i = job->op == RB_OP_MIN ? cpu_min_i64(p, n, lanes) : cpu_max_i64(p, n, lanes);
        break;
    case RB_DTYPE_F32:
        out->f = job->op == RB_OP_MIN ? cpu_min_f32(p, n, lanes) : cpu_max_f32(p, n, lanes);
        break;
    case RB_DTYPE_F64:
        out->d = job->op == RB_OP_MIN ? cpu_min_f64(p, n, lanes) : cpu_max_f64(p, n, lanes);
        break;
    case RB_DTYPE_F16:
        out->f = job->op == RB_OP_MIN ? cpu_min_f16(p, n, lanes) : cpu_max_f16(p, n, lanes);
        break;
    case RB_DTYPE_BF16:
        out->f = job->op == RB_OP_MIN ? cpu_min_bf16(p, n, lanes) : cpu_max_bf16(p, n, lanes);
        break;
    }
}

/* Folds `next`, the partial of the elements that follow, into *into. */
static inline void cpu_combine(const cpu_job *job, cpu_partial *into, const cpu_partial *next)
{
    unsigned b;
    if (job->op == RB_OP_HISTOGRAM) {
        for (b = 0; b < 256; b++)
            into->counts[b] += next->counts[b];
        return;
    }
    switch (job->acc_dtype) {
    case RB_DTYPE_I32: case RB_DTYPE_I64:
        if (job->op == RB_OP_SUM)
            into->u = job->dtype == RB_DTYPE_I32 ? (uint32_t)(into->u + next->u)
                                                 : into->u + next->u;
        else
            CPU_STEP_OP(job->op, int64_t, into->i, next->i);
        break;
    case RB_DTYPE_F32:
        CPU_STEP_OP(job->op, float, into->f, next->f);
        break;
    case RB_DTYPE_F64:
        CPU_STEP_OP(job->op, double, into->d, next->d);
        break;
    }
}

/* The two's complement value of the low `bits` bits of u. */
static inline int64_t cpu_wrap(uint64_t u, unsigned bits)
{
    if (bits < 64) {
        uint64_t sign = (uint64_t)1 << (bits - 1);
        u &= (sign << 1) - 1;
        return u & sign ? (int64_t)(u - sign) - (int64_t)sign : (int64_t)u;
    }
    return u >> 63 ? -(int64_t)(~u) - 1 : (int64_t)u;
}

/* Copies a finished partial into the host's rb_result. */
static inline int cpu_store(const cpu_job *job, const cpu_partial *p, rb_result *result)
{
    const rb_host *host = job->host;
    if (result->size < sizeof(rb_result)) {
        host->error(host, "the host's rb_result is %u bytes, expected at least %u",
                    (unsigned)result->size, (unsigned)sizeof(rb_result));
        return RB_ERROR;
    }
    if (job->op == RB_OP_HISTOGRAM) {
        unsigned b;
        if (!result->bins || result->n_bins < job->bins) {
            host->error(host, "the host's histogram buffer holds %u bins, %u needed",
                        (unsigned)result->n_bins, (unsigned)job->bins);
            return RB_ERROR;
        }
        memset(result->bins, 0, job->bins * sizeof *result->bins);
        for (b = 0; b < 256; b++)
            result->bins[b * job->bins / 256] += p->counts[b];
        result->n_bins = job->bins;
        return RB_OK;
    }
    switch (job->acc_dtype) {
    case RB_DTYPE_I32:
        result->i = job->op == RB_OP_SUM ? cpu_wrap(p->u, 32) : p->i;
        break;
    case RB_DTYPE_I64:
        result->i = job->op == RB_OP_SUM ? cpu_wrap(p->u, 64) : p->i;
        break;
    case RB_DTYPE_F32:
        result->f = p->f;
        break;
    case RB_DTYPE_F64:
        result->f = p->d;
        break;
    }
    return RB_OK;
}

/* ---- single-threaded strategies ----------------------------------------- */

typedef struct cpu_single {
    cpu_job job;
    uint64_t *tables;   /* histogram scratch: lanes * 256 counts */
    cpu_partial result; /* of the last run */
} cpu_single;

/* describe (state NULL) or init (state not NULL) of a single-threaded
 * strategy: the job set up from cfg (cpu_job_setup) and, for init, the
 * state that holds it allocated. */
static inline int cpu_single_setup(const rb_config *cfg, int compensated, void **state)
{
    cpu_job job;
    int rc = cpu_job_setup(cfg, compensated, &job);
    if (rc != RB_OK || !state)
        return rc;
    cpu_single *st = rb_state_alloc(cfg, sizeof *st);
    if (!st)
        return RB_ERROR;
    st->job = job;
    if (job.op == RB_OP_HISTOGRAM) {
        st->tables = malloc((size_t)job.lanes * 256 * sizeof *st->tables);
        if (!st->tables) {
            job.host->error(job.host, "out of memory for %u histogram tables", job.lanes);
            free(st);
            return RB_ERROR;
        }
    }
    *state = st;
    return RB_OK;
}

/* describe and init of serial and unrolled; kahan's pass compensated = 1
 * to cpu_single_setup. */
static inline int cpu_single_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    return cpu_single_setup(cfg, 0, NULL);
}

static inline int cpu_single_init(const rb_config *cfg, void **state)
{
    return cpu_single_setup(cfg, 0, state);
}

static inline int cpu_single_run(void *state)
{
    cpu_single *st = state;
    cpu_reduce(&st->job, 0, st->job.n, &st->result, st->tables);
    return RB_OK;
}

static inline int cpu_single_verify(void *state, rb_result *result)
{
    cpu_single *st = state;
    return cpu_store(&st->job, &st->result, result);
}

static inline void cpu_single_teardown(void *state)
{
    cpu_single *st = state;
    if (st) {
        free(st->tables);
        free(st);
    }
}

/* The callbacks after init of every single-threaded strategy. */
#define CPU_SINGLE_CALLBACKS                                                   \
    .run = cpu_single_run, .verify = cpu_single_verify,                        \
    .teardown = cpu_single_teardown

#endif
