/* plugins/cuda/single_thread.cu: one GPU thread reads every element in
 * order (seed 002's V0): the floor every other strategy is measured from.
 * Its time is the memory latency of one dependent stream of loads, not the
 * bandwidth. One float accumulator stalls once the sum outgrows the
 * elements (2^24 ulps), so for f32 data `acc = f64` is offered; with
 * acc = f32 a large n is, correctly, judged wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum single_acc { ACC_AUTO, ACC_F32, ACC_F64 };

static const char *const acc_words[] = {"auto", "f32", "f64", NULL};

static const rb_param_spec single_params[] = {
    {"acc", RB_PARAM_CHOICE, "auto", 0, 0, acc_words, 0,
     "floating data: the accumulator (auto: the data's type)"},
};

template <class T, class A>
__global__ void single_thread_sum(const T *__restrict__ in, size_t n, A *out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    A sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (A)in[i];
    *out = sum;
}

typedef struct single_state {
    const rb_config *cfg;
    cudaStream_t stream;
    int acc;
    size_t acc_bytes;
    int result_dtype;
    void *out;
} single_state;

static int check(const rb_config *cfg, int acc)
{
    const rb_host *host = cfg->host;
    const bool floating = cfg->dtype == RB_DTYPE_F32 || cfg->dtype == RB_DTYPE_F64;
    if (cfg->op != RB_OP_SUM || rb_dtype_size(cfg->dtype) < 4) {
        host->error(host, "single-thread sums i32, i64, f32 or f64");
        return RB_UNSUPPORTED;
    }
    if (!floating && acc != ACC_AUTO) {
        host->error(host, "acc applies to f32 and f64 data; integer sums are exact");
        return RB_UNSUPPORTED;
    }
    if (cfg->dtype == RB_DTYPE_F64 && acc == ACC_F32) {
        host->error(host, "acc = f32 would round f64 data; use auto or f64");
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static int single_describe(const rb_config *cfg, rb_description *out)
{
    int status = check(cfg, (int)rb_param_int(cfg, "acc", ACC_AUTO));
    if (status == RB_OK)
        snprintf(out->label, sizeof out->label, "V0-single-thread");
    return status;
}

static int single_setup(single_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->acc = (int)rb_param_int(cfg, "acc", ACC_AUTO);
    s->result_dtype = cfg->dtype == RB_DTYPE_F32 && s->acc == ACC_F64 ? RB_DTYPE_F64 : cfg->dtype;
    s->acc_bytes = rb_dtype_size(s->result_dtype);
    const int status = check(cfg, s->acc);
    if (status != RB_OK)
        return status;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->acc_bytes));
    return RB_OK;
}

static void single_teardown(void *state);

static int single_init(const rb_config *cfg, void **state)
{
    return rb_cuda::init_state(cfg, state, single_setup, single_teardown);
}

template <class T, class A> static void launch(const single_state *s)
{
    single_thread_sum<T, A><<<1, 1, 0, s->stream>>>(static_cast<const T *>(s->cfg->input),
                                                   s->cfg->n, static_cast<A *>(s->out));
}

static int single_run(void *state)
{
    single_state *s = (single_state *)state;
    switch (s->cfg->dtype) { /* integer sums wrap in the unsigned type */
    case RB_DTYPE_I32: launch<unsigned, unsigned>(s); break;
    case RB_DTYPE_I64: launch<unsigned long long, unsigned long long>(s); break;
    case RB_DTYPE_F32:
        if (s->acc == ACC_F64)
            launch<float, double>(s);
        else
            launch<float, float>(s);
        break;
    default: launch<double, double>(s); break;
    }
    RB_CUDA_CHECK_LAUNCH(s->cfg->host);
    return RB_OK;
}

static int single_verify(void *state, rb_result *result)
{
    single_state *s = (single_state *)state;
    return rb_cuda::read_value(s->cfg->host, s->stream, s->out, s->acc_bytes, s->result_dtype,
                               result);
}

static void single_teardown(void *state)
{
    single_state *s = (single_state *)state;
    if (!s)
        return;
    cudaFree(s->out);
    free(s);
}

static const rb_plugin single_plugin = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
    .name = "single-thread",
    .summary = "one thread reads everything (seed 002's V0): the floor",
    .version = "1.0", .backend = "cuda",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = single_params, .n_params = rb_cuda::count_of(single_params),
    .describe = single_describe, .init = single_init, .run = single_run, .verify = single_verify,
    .teardown = single_teardown,
};

RB_CUDA_PLUGIN_ENTRY(single_plugin)
