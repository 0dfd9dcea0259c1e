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

/* out: the sum in the accumulator's type, read back as f64 when acc = f64 */
struct single_state : rb_cuda::result_state {
    int acc;
};

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
    s->out_dtype = cfg->dtype == RB_DTYPE_F32 && s->acc == ACC_F64 ? RB_DTYPE_F64 : cfg->dtype;
    s->out_bytes = rb_dtype_size(s->out_dtype);
    const int status = check(cfg, s->acc);
    if (status != RB_OK)
        return status;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    return RB_OK;
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

static constexpr rb_plugin single_plugin = rb_cuda::plugin({
    .name = "single-thread",
    .summary = "one thread reads everything (seed 002's V0): the floor",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = single_params, .n_params = rb_cuda::count_of(single_params),
    .describe = single_describe, .init = rb_cuda::init_with<single_state, single_setup>,
    .run = single_run, .verify = rb_cuda::verify_result<single_state>,
    .teardown = rb_cuda::teardown_result<single_state>,
});

RB_CUDA_PLUGIN_ENTRY(single_plugin)
