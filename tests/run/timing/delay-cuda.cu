/* tests/run/timing/delay-cuda.cu: the cuda twin of tests/run/timing/delay-sum.c, a
 * plugin with a slowdown to plant, for compare's acceptance on a GPU
 * (bench/compare_acceptance.sh, docs/results/compare-acceptance.md): the
 * sum of i32 data by a grid-stride kernel with an atomic finish, which
 * reads the input once and then the first `delay` percent of it again (the
 * same loop carried on past n), so that a size bound by memory takes about
 * delay% longer, as a real regression of the same kernel would. delay = 0
 * is the plain sum. $DELAY_SUM_PERCENT, when set, takes the parameter's
 * place, so that a planted slowdown leaves the configuration as it was.
 * Built with nvcc by the acceptance script, as a plugin author builds one. */
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

static const rb_param_spec delay_params[] = {
    {"delay", RB_PARAM_INT, "0", 0, 1000, NULL, 0,
     "percent of the input read again after the sum (the planted slowdown)"},
};

/* Indices below n add to the sum; those from n to `total` read the input
 * again from its start into `extra`, kept in *sink so that the pass stays. */
__global__ void delay_sum(const unsigned *__restrict__ in, size_t n, size_t total,
                          unsigned *out, unsigned *sink)
{
    __shared__ unsigned scratch[32];
    unsigned sum = 0, extra = 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        if (i < n)
            sum += in[i];
        else
            extra += in[i - n];
    }
    sum = rb_cuda::block_reduce<rb_cuda::op_sum>(sum, scratch);
    extra = rb_cuda::block_reduce<rb_cuda::op_sum>(extra, scratch);
    if (threadIdx.x == 0) {
        atomicAdd(out, sum);
        if (extra == 0x9e3779b9u) /* almost never: a store the compiler must keep */
            *sink = extra;
    }
}

/* out: the sum (read back as i32), then the sink */
struct delay_state : rb_cuda::result_state {
    size_t total; /* elements read: n and delay% of n again */
    unsigned grid;
};

static int percent_of(const rb_config *cfg, long *percent)
{
    *percent = (long)rb_param_int(cfg, "delay", 0);
    const char *planted = getenv("DELAY_SUM_PERCENT");
    if (!planted || !*planted)
        return RB_OK;
    char *end;
    *percent = strtol(planted, &end, 10);
    if (*end != '\0' || *percent < 0 || *percent > 1000) {
        cfg->host->error(cfg->host, "DELAY_SUM_PERCENT = %s is not valid; valid: a whole "
                         "number of percent from 0 to 1000", planted);
        return RB_ERROR;
    }
    return RB_OK;
}

static int delay_describe(const rb_config *cfg, rb_description *out)
{
    if (cfg->op != RB_OP_SUM || cfg->dtype != RB_DTYPE_I32) {
        cfg->host->error(cfg->host, "delay-cuda sums i32");
        return RB_UNSUPPORTED;
    }
    snprintf(out->label, sizeof out->label, "delay-cuda");
    return RB_OK;
}

static int delay_setup(delay_state *s, const rb_config *cfg)
{
    long percent;
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    if (percent_of(cfg, &percent) != RB_OK)
        return RB_ERROR;
    s->total = cfg->n + cfg->n * (size_t)percent / 100;
    s->grid = rb_cuda::wave_grid(cfg->device, 256, s->total, 256);
    s->out_bytes = sizeof(unsigned);
    s->out_dtype = RB_DTYPE_I32;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, 2 * s->out_bytes));
    return RB_OK;
}

static int delay_run(void *state)
{
    delay_state *s = (delay_state *)state;
    unsigned *out = static_cast<unsigned *>(s->out);
    if (rb_cuda::reset_result(s->cfg, out, s->out_bytes, s->stream) != RB_OK)
        return RB_ERROR;
    delay_sum<<<s->grid, 256, 0, s->stream>>>(static_cast<const unsigned *>(s->cfg->input),
                                              s->cfg->n, s->total, out, out + 1);
    RB_CUDA_CHECK_LAUNCH(s->cfg->host);
    return RB_OK;
}

static constexpr rb_plugin delay_plugin = rb_cuda::plugin({
    .name = "delay-cuda",
    .summary = "i32 sum that reads delay% of its input again: a slowdown to plant",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32),
    .params = delay_params, .n_params = rb_cuda::count_of(delay_params),
    .describe = delay_describe, .init = rb_cuda::init_with<delay_state, delay_setup>,
    .run = delay_run, .verify = rb_cuda::verify_result<delay_state>,
    .teardown = rb_cuda::teardown_result<delay_state>,
});

RB_CUDA_PLUGIN_ENTRY(delay_plugin)
