/* plugins/cuda/cub_deterministic.cu: CUB's device-wide sum with a
 * determinism requirement, as CCCL 3.1 and later offer it: the
 * environment overload of cub::DeviceReduce::Reduce given
 * cuda::execution::require(determinism::gpu_to_gpu) (the same bits on
 * every GPU, whatever its size: CUB's reproducible floating-point
 * accumulation) or determinism::run_to_run (the same bits run after run on
 * one GPU, CUB's default tree). It stands beside cuda/repro, redbench's
 * own layout-independent sum, so that one run compares the two.
 *
 * Its temporary storage is sized once, in init (by a call whose resource
 * notes what CUB asks for), and handed to every call through the
 * environment's memory resource (a resource that gives out that one
 * buffer), so that a call costs the reduction, not an allocation.
 *
 * A toolkit whose CCCL has no determinism requirements (CUDA 13.0 has
 * CCCL 3.0) builds the plugin all the same; it then declines every
 * configuration, naming the CCCL it was built with. To build it against a
 * newer CCCL's headers (header-only, from github.com/NVIDIA/cccl):
 *   make CUDA_CCCL_FLAGS="-I$CCCL/cub -I$CCCL/libcudacxx/include -I$CCCL/thrust"
 *
 * Its planted twin, tests/packs/cuda/cub-deterministic-twin.cu, is this
 * file built with CUB_DETERMINISTIC_NO_STORAGE: its resource hands CUB no
 * storage and no error, and CUB, given none, only sizes what it would need
 * and reduces nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <new>

#include <cub/version.cuh>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#if __has_include(<cuda/__execution/determinism.h>)
#include <cub/device/device_reduce.cuh>
#include <cuda/__execution/determinism.h>
#include <cuda/__execution/require.h>
#include <cuda/std/functional>
#define CUB_DETERMINISTIC_AVAILABLE 1
#else
#define CUB_DETERMINISTIC_AVAILABLE 0
#endif

enum determinism_level { GPU_TO_GPU, RUN_TO_RUN };

static const char *const determinism_words[] = {"gpu-to-gpu", "run-to-run", NULL};

static const rb_param_spec cub_deterministic_params[] = {
    {"determinism", RB_PARAM_CHOICE, "gpu-to-gpu", 0, 0, determinism_words, 0,
     "gpu-to-gpu (the same bits on every GPU) | run-to-run (on one GPU)"},
};

struct cub_deterministic_state : rb_cuda::result_state {
    void *temp;
    size_t temp_bytes;
    int level;
    int (*launch)(cub_deterministic_state *s);
};

#if CUB_DETERMINISTIC_AVAILABLE
/* A memory resource that gives out one buffer, sized in init: CUB asks it
 * for each call's temporary storage. Asked for more than the buffer holds,
 * it throws, and CUB's call fails with an allocation error. */
struct fixed_buffer {
    void *ptr;
    size_t bytes;
    size_t *asked; /* where to note the largest request (init's sizing call) */
    void *allocate(size_t n, size_t = alignof(max_align_t))
    {
        if (asked && n > *asked)
            *asked = n;
#ifdef CUB_DETERMINISTIC_NO_STORAGE
        return nullptr; /* the planted twin's bug: no storage, and no error */
#endif
        if (n > bytes)
            throw std::bad_alloc();
        return ptr;
    }
    void deallocate(void *, size_t, size_t = alignof(max_align_t)) noexcept {}
    void *allocate_sync(size_t n, size_t align) { return allocate(n, align); }
    void deallocate_sync(void *p, size_t n, size_t align) noexcept { deallocate(p, n, align); }
    void *allocate(cuda::stream_ref, size_t n, size_t align = alignof(max_align_t))
    {
        return allocate(n, align);
    }
    void deallocate(cuda::stream_ref, void *p, size_t n, size_t align = alignof(max_align_t)) noexcept
    {
        deallocate(p, n, align);
    }
    bool operator==(const fixed_buffer &o) const { return ptr == o.ptr; }
    bool operator!=(const fixed_buffer &o) const { return ptr != o.ptr; }
    friend void get_property(const fixed_buffer &, cuda::mr::device_accessible) noexcept {}
};

/* One call: the sum of cfg->input into out under the determinism Level,
 * its storage from `resource`. */
template <class T, class Level>
static cudaError_t reduce_with(const cub_deterministic_state *s, fixed_buffer resource)
{
    auto env = cuda::std::execution::env{
        cuda::execution::require(Level{}),
        cuda::std::execution::prop{cuda::mr::__get_memory_resource, resource},
        cuda::std::execution::prop{cuda::get_stream, cuda::stream_ref{s->stream}}};
    static_assert(cuda::mr::resource<fixed_buffer>, "fixed_buffer is a memory resource");
    static_assert(cuda::mr::__has_query_get_memory_resource<decltype(env)>,
                  "the environment hands CUB fixed_buffer, not its own allocator");
    return cub::DeviceReduce::Reduce(static_cast<const T *>(s->cfg->input),
                                     static_cast<T *>(s->out), (int)s->cfg->n,
                                     cuda::std::plus<>{}, T(0), env);
}

template <class T, class Level> static int launch_with(cub_deterministic_state *s)
{
    RB_CUDA_CHECK(s->cfg->host, (reduce_with<T, Level>(s, fixed_buffer{s->temp, s->temp_bytes, NULL})));
    return RB_OK;
}

/* init's sizing: calls with ever larger buffers (1 MiB, then what the
 * call asked for) until one is enough; s->temp and s->temp_bytes hold it. */
template <class T, class Level> static int size_storage(cub_deterministic_state *s)
{
    size_t asked = 0;
    for (size_t bytes = 1 << 20;; bytes = asked) {
        RB_CUDA_CHECK(s->cfg->host, cudaMalloc(&s->temp, bytes));
        s->temp_bytes = bytes;
        asked = 0;
        cudaError_t e = reduce_with<T, Level>(s, fixed_buffer{s->temp, bytes, &asked});
        if (e == cudaSuccess)
            return RB_OK;
        cudaFree(s->temp);
        s->temp = NULL;
        if (e != cudaErrorMemoryAllocation || asked <= bytes) {
            RB_CUDA_CHECK(s->cfg->host, e);
            return RB_ERROR;
        }
        (void)cudaGetLastError();
    }
}

typedef int (*launch_fn)(cub_deterministic_state *);

template <class T> static void pick_level(cub_deterministic_state *s, launch_fn *launch,
                                          int (**size)(cub_deterministic_state *))
{
    typedef cuda::execution::determinism::gpu_to_gpu_t gpu_to_gpu;
    typedef cuda::execution::determinism::run_to_run_t run_to_run;
    *launch = s->level == GPU_TO_GPU ? launch_with<T, gpu_to_gpu> : launch_with<T, run_to_run>;
    *size = s->level == GPU_TO_GPU ? size_storage<T, gpu_to_gpu> : size_storage<T, run_to_run>;
}
#endif

/* What it declines, with the reason: RB_OK or RB_UNSUPPORTED. */
static int cub_deterministic_declines(const rb_config *cfg)
{
#if !CUB_DETERMINISTIC_AVAILABLE
    cfg->host->error(cfg->host,
                     "built with CCCL %d.%d.%d (CUB %d), which has no determinism requirements "
                     "for cub::DeviceReduce (CCCL 3.1 and later have); build it with "
                     "CUDA_CCCL_FLAGS naming a newer CCCL's headers (docs/cuda-pack.md)",
                     CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, CUB_VERSION);
    return RB_UNSUPPORTED;
#else
    if (cfg->op != RB_OP_SUM || (cfg->dtype != RB_DTYPE_F32 && cfg->dtype != RB_DTYPE_F64)) {
        cfg->host->error(cfg->host, "sums f32 and f64 (CUB's gpu-to-gpu determinism is for "
                                    "float and double sums)");
        return RB_UNSUPPORTED;
    }
    if (cfg->n > INT32_MAX) {
        cfg->host->error(cfg->host, "n = %llu: CUB's deterministic reduction takes at most "
                                    "2^31 - 1 elements (32-bit offsets)",
                         (unsigned long long)cfg->n);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
#endif
}

static int cub_deterministic_describe(const rb_config *cfg, rb_description *out)
{
    const int status = cub_deterministic_declines(cfg);
    if (status != RB_OK)
        return status;
    snprintf(out->label, sizeof out->label, "cub-%s",
             determinism_words[rb_param_int(cfg, "determinism", GPU_TO_GPU)]);
    return RB_OK;
}

static int cub_deterministic_setup(cub_deterministic_state *s, const rb_config *cfg)
{
    s->cfg = cfg;
    s->stream = (cudaStream_t)cfg->queue;
    int status = cub_deterministic_declines(cfg);
    if (status != RB_OK)
        return status;
#if CUB_DETERMINISTIC_AVAILABLE
    s->level = (int)rb_param_int(cfg, "determinism", GPU_TO_GPU);
    s->out_dtype = cfg->dtype;
    s->out_bytes = rb_dtype_size(cfg->dtype);
    RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->out, s->out_bytes));
    RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(s->out, 0, s->out_bytes, s->stream));
    int (*size)(cub_deterministic_state *) = NULL;
    if (cfg->dtype == RB_DTYPE_F32)
        pick_level<float>(s, &s->launch, &size);
    else
        pick_level<double>(s, &s->launch, &size);
    /* the temporary storage, sized by a call (which also warms the tree up) */
    status = size(s);
    if (status != RB_OK)
        return status;
#endif
    return RB_OK;
}

static int cub_deterministic_run(void *state)
{
    cub_deterministic_state *s = static_cast<cub_deterministic_state *>(state);
    return s->launch(s); /* set in init, which declines where it cannot be */
}

static void cub_deterministic_teardown(void *state)
{
    cub_deterministic_state *s = static_cast<cub_deterministic_state *>(state);
    if (!s)
        return;
    cudaFree(s->out);
    cudaFree(s->temp);
    free(s);
}

#ifndef CUB_DETERMINISTIC_NAME
#define CUB_DETERMINISTIC_NAME "cub-deterministic"
#define CUB_DETERMINISTIC_SUMMARY                                                          \
    "CUB's sum with a determinism requirement: gpu-to-gpu (the same bits on every GPU) " \
    "or run-to-run (CCCL 3.1 and later)"
#endif

static constexpr rb_plugin cub_deterministic_plugin = rb_cuda::plugin({
    .name = CUB_DETERMINISTIC_NAME,
    .summary = CUB_DETERMINISTIC_SUMMARY,
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32) | RB_DTYPE_BIT(RB_DTYPE_F64),
    .params = cub_deterministic_params, .n_params = rb_cuda::count_of(cub_deterministic_params),
    .describe = cub_deterministic_describe,
    .init = rb_cuda::init_with<cub_deterministic_state, cub_deterministic_setup,
                               cub_deterministic_teardown>,
    .run = cub_deterministic_run,
    .verify = rb_cuda::verify_result<cub_deterministic_state>,
    .teardown = cub_deterministic_teardown,
});

RB_CUDA_PLUGIN_ENTRY(cub_deterministic_plugin)
