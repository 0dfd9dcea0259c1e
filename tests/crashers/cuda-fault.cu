/* tests/crashers/cuda-fault.cu: a CUDA sum whose kernel, when `fault = yes`,
 * writes to an address that is not mapped. The device reports an illegal
 * address: a sticky error, after which the CUDA context of the process is
 * unusable. redbench must report that configuration `failed`, say the device
 * is no longer usable, and run the next ones in a fresh worker process with
 * a fresh context. Built and run by tests/test_gpu_isolation.sh where nvcc
 * and a GPU are present. */
#include <stdint.h>
#include <stdlib.h>

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

typedef struct fault_state {
    const rb_config *cfg;
    unsigned long long *out;
} fault_state;

static int fault_init(const rb_config *cfg, void **state)
{
    if (cfg->op != RB_OP_SUM || cfg->dtype != RB_DTYPE_I32) {
        cfg->host->error(cfg->host, "this test plugin sums i32 data only");
        return RB_UNSUPPORTED;
    }
    fault_state *s = (fault_state *)calloc(1, sizeof *s);
    if (!s || cudaMalloc(&s->out, sizeof *s->out) != cudaSuccess) {
        free(s);
        cfg->host->error(cfg->host, "out of memory");
        return RB_ERROR;
    }
    s->cfg = cfg;
    *state = s;
    return RB_OK;
}

static int fault_run(void *state)
{
    fault_state *s = (fault_state *)state;
    cudaStream_t stream = (cudaStream_t)s->cfg->queue;
    cudaMemsetAsync(s->out, 0, sizeof *s->out, stream);
    fault_sum<<<64, 256, 0, stream>>>((const int *)s->cfg->input, s->cfg->n, s->out,
                                      rb_param_int(s->cfg, "fault", 1) == 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        s->cfg->host->error(s->cfg->host, "launch: %s", cudaGetErrorString(e));
        return RB_ERROR;
    }
    return RB_OK;
}

static int fault_verify(void *state, rb_result *result)
{
    fault_state *s = (fault_state *)state;
    unsigned long long sum = 0;
    cudaError_t e = cudaMemcpy(&sum, s->out, sizeof sum, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        s->cfg->host->error(s->cfg->host, "copy: %s", cudaGetErrorString(e));
        return RB_ERROR;
    }
    uint32_t wrapped = (uint32_t)sum;
    result->i = wrapped > INT32_MAX ? (int64_t)wrapped - ((int64_t)1 << 32) : (int64_t)wrapped;
    return RB_OK;
}

static void fault_teardown(void *state)
{
    fault_state *s = (fault_state *)state;
    cudaFree(s->out);
    free(s);
}

static const rb_plugin fault_plugin = {
    REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR, (uint32_t)sizeof(rb_plugin),
    "cuda-fault",
    "test plugin: a kernel that faults (a sticky CUDA error)",
    "1.0",
    "cuda",
    RB_OP_BIT(RB_OP_SUM),
    RB_DTYPE_BIT(RB_DTYPE_I32),
    fault_params,
    1,
    NULL,
    fault_init,
    fault_run,
    fault_verify,
    fault_teardown,
};

extern "C" RB_EXPORT const rb_plugin *redbench_plugin_entry(void);
extern "C" RB_EXPORT const rb_plugin *redbench_plugin_entry(void) { return &fault_plugin; }
