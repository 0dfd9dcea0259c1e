/* plugins/cuda/atomic.cu: reductions finished by atomics on one global
 * result (seed 003's scenarios 1, 2 and 4). Thread t of the grid reads
 * values_per_thread consecutive elements starting at t * values_per_thread,
 * as in the seed (so a warp's loads are strided), and the grid has
 * ceil(n / (values_per_thread * block)) blocks. The scope says how often the
 * global result is updated:
 *   value   one atomic per element (scenario 1)
 *   thread  one atomic per thread with its total (scenario 2)
 *   warp    one atomic per warp, after a shuffle reduction
 *   block   every thread adds its total to one shared-memory value with a
 *           shared atomic, then one global atomic per block (scenario 4)
 * The result is reset with cudaMemsetAsync inside every run (for min and
 * max it starts as the first element). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum atomic_scope { SCOPE_VALUE, SCOPE_THREAD, SCOPE_WARP, SCOPE_BLOCK };
enum atomic_acc { ACC_AUTO, ACC_F32, ACC_F64 };

static const char *const scope_words[] = {"value", "thread", "warp", "block", NULL};
static const char *const acc_words[] = {"auto", "f32", "f64", NULL};

static const rb_param_spec atomic_params[] = {
    {"scope", RB_PARAM_CHOICE, "thread", 0, 0, scope_words, 0,
     "value | thread | warp | block: one global atomic per element, thread, warp or block"},
    {"values_per_thread", RB_PARAM_INT, "16", 1, 1 << 20, NULL, 0,
     "consecutive elements each thread reads"},
    {"block", RB_PARAM_INT, "512", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"acc", RB_PARAM_CHOICE, "auto", 0, 0, acc_words, 0,
     "floating data: the result's type (auto: the data's; f64 for f32 data stops one float "
     "accumulator from stalling at large n)"},
};

template <class Op, class T, class A, int Scope>
__global__ void atomic_reduce(const T *__restrict__ in, size_t n, unsigned values_per_thread,
                              A *out)
{
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * values_per_thread;
    const size_t count = rb_cuda::slice_length(first, values_per_thread, n);

    if (Scope == SCOPE_VALUE) {
#pragma unroll 16
        for (size_t i = 0; i < count; i++)
            rb_cuda::atomic_combine<Op>::apply(out, (A)in[first + i]);
        return;
    }

    A total = Op::template identity<A>();
#pragma unroll 16
    for (size_t i = 0; i < count; i++)
        total = Op::apply(total, (A)in[first + i]);

    if (Scope == SCOPE_THREAD) {
        rb_cuda::atomic_combine<Op>::apply(out, total);
    } else if (Scope == SCOPE_WARP) {
        total = rb_cuda::warp_reduce<Op>(total);
        if ((threadIdx.x & 31u) == 0)
            rb_cuda::atomic_combine<Op>::apply(out, total);
    } else { /* SCOPE_BLOCK */
        __shared__ A block_total;
        if (threadIdx.x == 0)
            block_total = Op::template identity<A>();
        __syncthreads();
        rb_cuda::atomic_combine<Op>::apply(&block_total, total);
        __syncthreads();
        if (threadIdx.x == 0)
            rb_cuda::atomic_combine<Op>::apply(out, block_total);
    }
}

typedef struct atomic_state atomic_state;
typedef void (*atomic_launch_fn)(const atomic_state *s);

/* out: the result in the accumulator's type, read back as f64 when acc = f64 */
struct atomic_state : rb_cuda::result_state {
    unsigned values_per_thread, block, grid;
    atomic_launch_fn launch;
};

template <class Op, class T, class A, int Scope> static void launch_scope(const atomic_state *s)
{
    atomic_reduce<Op, T, A, Scope><<<s->grid, s->block, 0, s->stream>>>(
        static_cast<const T *>(s->cfg->input), s->cfg->n, s->values_per_thread,
        static_cast<A *>(s->out));
}

template <class Op, class T, class A> static atomic_launch_fn pick_scope(int scope)
{
    switch (scope) {
    case SCOPE_VALUE: return launch_scope<Op, T, A, SCOPE_VALUE>;
    case SCOPE_THREAD: return launch_scope<Op, T, A, SCOPE_THREAD>;
    case SCOPE_WARP: return launch_scope<Op, T, A, SCOPE_WARP>;
    default: return launch_scope<Op, T, A, SCOPE_BLOCK>;
    }
}

/* The kernel for a configuration, or NULL with the reason. */
static atomic_launch_fn pick(const rb_config *cfg, size_t *acc_bytes, int *result_dtype)
{
    const int scope = (int)rb_param_int(cfg, "scope", SCOPE_THREAD);
    const int acc = (int)rb_param_int(cfg, "acc", ACC_AUTO);
    const bool floating = cfg->dtype == RB_DTYPE_F32 || cfg->dtype == RB_DTYPE_F64;
    const rb_host *host = cfg->host;
    *result_dtype = cfg->dtype;
    if (!floating && acc != ACC_AUTO) {
        host->error(host, "acc applies to f32 and f64 data; integer results are exact");
        return NULL;
    }
    if (cfg->dtype == RB_DTYPE_F64 && acc == ACC_F32) {
        host->error(host, "acc = f32 would round f64 data; use auto or f64");
        return NULL;
    }
    if (cfg->op == RB_OP_SUM) {
        switch (cfg->dtype) {
        case RB_DTYPE_I32:
            *acc_bytes = 4;
            return pick_scope<rb_cuda::op_sum, unsigned, unsigned>(scope);
        case RB_DTYPE_I64:
            *acc_bytes = 8;
            return pick_scope<rb_cuda::op_sum, unsigned long long, unsigned long long>(scope);
        case RB_DTYPE_F32:
            if (acc == ACC_F64) {
                *acc_bytes = 8;
                *result_dtype = RB_DTYPE_F64;
                return pick_scope<rb_cuda::op_sum, float, double>(scope);
            }
            *acc_bytes = 4;
            return pick_scope<rb_cuda::op_sum, float, float>(scope);
        case RB_DTYPE_F64:
            *acc_bytes = 8;
            return pick_scope<rb_cuda::op_sum, double, double>(scope);
        default: break;
        }
    } else if (cfg->op == RB_OP_MIN || cfg->op == RB_OP_MAX) {
        const bool is_min = cfg->op == RB_OP_MIN;
        if (cfg->dtype == RB_DTYPE_I32) {
            *acc_bytes = 4;
            return is_min ? pick_scope<rb_cuda::op_min, int, int>(scope)
                          : pick_scope<rb_cuda::op_max, int, int>(scope);
        }
        if (cfg->dtype == RB_DTYPE_I64) {
            *acc_bytes = 8;
            return is_min ? pick_scope<rb_cuda::op_min, long long, long long>(scope)
                          : pick_scope<rb_cuda::op_max, long long, long long>(scope);
        }
        if (floating) {
            host->error(host, "CUDA has no atomicMin/atomicMax for floating types; "
                              "min and max take i32 or i64 here");
            return NULL;
        }
    }
    host->error(host, "atomic reduces sum (i32, i64, f32, f64) and min, max (i32, i64)");
    return NULL;
}

static int atomic_describe(const rb_config *cfg, rb_description *out)
{
    size_t out_bytes;
    int out_dtype;
    unsigned grid;
    if (!pick(cfg, &out_bytes, &out_dtype))
        return RB_UNSUPPORTED;
    const size_t per_block =
        (size_t)rb_param_int(cfg, "values_per_thread", 16) * rb_param_int(cfg, "block", 512);
    if (rb_cuda::plan_blocks(cfg, per_block, &grid) != RB_OK)
        return RB_UNSUPPORTED;
    snprintf(out->label, sizeof out->label, "atomic-per-%s",
             scope_words[rb_param_int(cfg, "scope", SCOPE_THREAD)]);
    return RB_OK;
}

static int atomic_setup(atomic_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->values_per_thread = (unsigned)rb_param_int(cfg, "values_per_thread", 16);
    s->block = (unsigned)rb_param_int(cfg, "block", 512);
    s->launch = pick(cfg, &s->out_bytes, &s->out_dtype);
    if (!s->launch ||
        rb_cuda::plan_blocks(cfg, (size_t)s->values_per_thread * s->block, &s->grid) != RB_OK)
        return RB_UNSUPPORTED;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    return RB_OK;
}

static int atomic_run(void *state)
{
    atomic_state *s = (atomic_state *)state;
    const rb_host *host = s->cfg->host;
    if (rb_cuda::reset_result(s->cfg, s->out, s->out_bytes, s->stream) != RB_OK)
        return RB_ERROR;
    s->launch(s);
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

static constexpr rb_plugin atomic_plugin = rb_cuda::plugin({
    .name = "atomic",
    .summary = "atomics on one global result per value, thread, warp or block (seed 003)",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = atomic_params, .n_params = rb_cuda::count_of(atomic_params),
    .describe = atomic_describe, .init = rb_cuda::init_with<atomic_state, atomic_setup>,
    .run = atomic_run, .verify = rb_cuda::verify_result<atomic_state>,
    .teardown = rb_cuda::teardown_result<atomic_state>,
});

RB_CUDA_PLUGIN_ENTRY(atomic_plugin)
