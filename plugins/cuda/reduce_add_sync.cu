/* plugins/cuda/reduce_add_sync.cu: sums of 32-bit integers with the warp
 * instruction __reduce_add_sync (sm_80 and newer; seed 003's scenarios 3 and
 * 6). Each thread sums values_per_thread consecutive elements, the warp adds
 * its threads' totals in one instruction, and then:
 *   atomic        lane 0 of every warp adds the warp's total to the result
 *   shared-array  lane 0 writes it to a shared array with one slot per warp;
 *                 thread 0 adds the slots and makes one atomic per block
 * The result is reset with cudaMemsetAsync inside every run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

enum ras_finish { FINISH_ATOMIC, FINISH_SHARED_ARRAY };

static const char *const finish_words[] = {"atomic", "shared-array", NULL};

static const rb_param_spec ras_params[] = {
    {"finish", RB_PARAM_CHOICE, "atomic", 0, 0, finish_words, 0,
     "atomic: one global atomic per warp; shared-array: one slot per warp, one atomic per block"},
    {"values_per_thread", RB_PARAM_INT, "16", 1, 1 << 20, NULL, 0,
     "consecutive elements each thread reads"},
    {"block", RB_PARAM_INT, "512", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
};

/* The warp's sum of v. Built for sm_80 and newer; describe declines older
 * devices, which would run the PTX of an older target. */
__device__ __forceinline__ unsigned warp_add(unsigned v)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    return __reduce_add_sync(rb_cuda::full_mask, v);
#else
    return rb_cuda::warp_reduce<rb_cuda::op_sum>(v); /* unreachable: see describe */
#endif
}

template <int Finish>
__global__ void reduce_add_sync_kernel(const unsigned *__restrict__ in, size_t n,
                                       unsigned values_per_thread, unsigned *out)
{
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * values_per_thread;
    const size_t count = rb_cuda::slice_length(first, values_per_thread, n);
    unsigned total = 0;
#pragma unroll 16
    for (size_t i = 0; i < count; i++)
        total += in[first + i];
    const unsigned warp_total = warp_add(total);
    const unsigned lane = threadIdx.x & 31u;

    if (Finish == FINISH_ATOMIC) {
        if (lane == 0)
            atomicAdd(out, warp_total);
        return;
    }
    __shared__ unsigned slots[32];
    if (lane == 0)
        slots[threadIdx.x >> 5] = warp_total;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned block_total = 0;
        for (unsigned w = 0; w < (blockDim.x >> 5); w++)
            block_total += slots[w];
        atomicAdd(out, block_total);
    }
}

/* out: the sum as an unsigned, whose wrapped bits are the i32 result's */
struct ras_state : rb_cuda::result_state {
    int finish;
    unsigned values_per_thread, block, grid;
};

/* Says why a configuration cannot run, or returns RB_OK. */
static int check(const rb_config *cfg, unsigned values_per_thread, unsigned block, unsigned *grid)
{
    if (cfg->op != RB_OP_SUM || cfg->dtype != RB_DTYPE_I32) {
        cfg->host->error(cfg->host, "__reduce_add_sync adds 32-bit integers: sum of i32 only");
        return RB_UNSUPPORTED;
    }
    const int status = rb_cuda::require_compute_capability(cfg, 80, "__reduce_add_sync needs");
    if (status != RB_OK)
        return status;
    return rb_cuda::plan_blocks(cfg, (size_t)values_per_thread * block, grid);
}

static int ras_describe(const rb_config *cfg, rb_description *out)
{
    unsigned grid;
    int status = check(cfg, (unsigned)rb_param_int(cfg, "values_per_thread", 16),
                       (unsigned)rb_param_int(cfg, "block", 512), &grid);
    if (status == RB_OK)
        snprintf(out->label, sizeof out->label, "%s",
                 rb_param_int(cfg, "finish", FINISH_ATOMIC) == FINISH_ATOMIC
                     ? "reduce-add-sync-per-warp"
                     : "shared-with-reduce-add-sync");
    return status;
}

static int ras_setup(ras_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->finish = (int)rb_param_int(cfg, "finish", FINISH_ATOMIC);
    s->values_per_thread = (unsigned)rb_param_int(cfg, "values_per_thread", 16);
    s->block = (unsigned)rb_param_int(cfg, "block", 512);
    const int status = check(cfg, s->values_per_thread, s->block, &s->grid);
    if (status != RB_OK)
        return status;
    s->out_bytes = sizeof(unsigned);
    s->out_dtype = RB_DTYPE_I32;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    return RB_OK;
}

static int ras_run(void *state)
{
    ras_state *s = (ras_state *)state;
    const rb_host *host = s->cfg->host;
    const unsigned *in = static_cast<const unsigned *>(s->cfg->input);
    unsigned *out = static_cast<unsigned *>(s->out);
    RB_CUDA_CHECK(host, cudaMemsetAsync(out, 0, s->out_bytes, s->stream));
    if (s->finish == FINISH_ATOMIC)
        reduce_add_sync_kernel<FINISH_ATOMIC><<<s->grid, s->block, 0, s->stream>>>(
            in, s->cfg->n, s->values_per_thread, out);
    else
        reduce_add_sync_kernel<FINISH_SHARED_ARRAY><<<s->grid, s->block, 0, s->stream>>>(
            in, s->cfg->n, s->values_per_thread, out);
    RB_CUDA_CHECK_LAUNCH(host);
    return RB_OK;
}

static constexpr rb_plugin ras_plugin = rb_cuda::plugin({
    .name = "reduce-add-sync",
    .summary = "__reduce_add_sync per warp, then atomics or a shared array (seed 003), sm_80+",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = ras_params, .n_params = rb_cuda::count_of(ras_params),
    .describe = ras_describe, .init = rb_cuda::init_with<ras_state, ras_setup>, .run = ras_run,
    .verify = rb_cuda::verify_result<ras_state>, .teardown = rb_cuda::teardown_result<ras_state>,
});

RB_CUDA_PLUGIN_ENTRY(ras_plugin)
