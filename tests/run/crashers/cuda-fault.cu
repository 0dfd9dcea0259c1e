/* tests/run/crashers/cuda-fault.cu: a CUDA sum whose kernel, when `fault = yes`,
 * writes to an address that is not mapped. The device reports an illegal
 * address: a sticky error, after which the CUDA context of the process is
 * unusable. redbench must report that configuration `failed`, say the device
 * is no longer usable, and run the next ones in a fresh worker process with
 * a fresh context. Built and run by tests/run/test_gpu_isolation.sh where nvcc
 * and a GPU are present. */
#include <stdint.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

static const char *const fault_words[] = {"none", "yes", NULL};

static const rb_param_spec fault_params[] = {
    {"fault", RB_PARAM_CHOICE, "yes", 0, 0, fault_words, 0,
     "write to an unmapped address in the kernel (yes) or not"},
};

__global__ void fault_sum(const int *in, size_t n, unsigned long long *out, int fault)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (fault && i == 0)
        *(volatile int *)(uintptr_t)16 = 1;
    unsigned long long sum = 0;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x)
        sum += (unsigned)in[i];
    atomicAdd(out, sum);
}

/* out: the unsigned sum, whose low 32 bits are the wrapped i32 sum */
typedef rb_cuda::result_state fault_state;

static int fault_setup(fault_state *s, const rb_config *cfg)
{
    if (cfg->op != RB_OP_SUM || cfg->dtype != RB_DTYPE_I32) {
        cfg->host->error(cfg->host, "this test plugin sums i32 data only");
        return RB_UNSUPPORTED;
    }
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    s->out_bytes = 4;
    s->out_dtype = RB_DTYPE_I32;
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, sizeof(unsigned long long)));
    return RB_OK;
}

static int fault_run(void *state)
{
    fault_state *s = (fault_state *)state;
    unsigned long long *out = static_cast<unsigned long long *>(s->out);
    cudaMemsetAsync(out, 0, sizeof *out, s->stream);
    fault_sum<<<64, 256, 0, s->stream>>>((const int *)s->cfg->input, s->cfg->n, out,
                                         rb_param_int(s->cfg, "fault", 1) == 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        s->cfg->host->error(s->cfg->host, "launch: %s", cudaGetErrorString(e));
        return RB_ERROR;
    }
    return RB_OK;
}

static constexpr rb_plugin fault_plugin = rb_cuda::plugin({
    .name = "cuda-fault",
    .summary = "test plugin: a kernel that faults (a sticky CUDA error)",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32),
    .params = fault_params, .n_params = rb_cuda::count_of(fault_params),
    .describe = NULL,
    .init = rb_cuda::init_with<fault_state, fault_setup>, .run = fault_run,
    .verify = rb_cuda::verify_result<fault_state>,
    .teardown = rb_cuda::teardown_result<fault_state>,
});

RB_CUDA_PLUGIN_ENTRY(fault_plugin)
