// docs/results/h200/explore.cu: the exploratory harness of issue 31 (its
// output: explore-1128.txt, explore-ncu-1128.txt). It times the plain
// pattern, onepass's kernel as it was at c20b8fc, and onepass variants that
// differ in one thing each, plus read kernels for the peak, with events
// around back-to-back launches (best of 5). It includes onepass.cu of that
// commit: put this file in a folder beside that tree's plugins/ and sdk/,
//   nvcc -arch=sm_90 -O3 -std=c++20 -I../sdk -o explore explore.cu
//   ./explore            # every size;  ./explore 268435456: one size
// (ONCE=1 launches each kernel once, for ncu.)
#include "../plugins/cuda/onepass.cu"
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

// ---- the plain pattern, as issue 31 describes it ----
template <class T, bool NC>
__global__ void __launch_bounds__(1024) pattern_k(const T *in, size_t n, T *out)
{
    __shared__ T s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    typedef typename std::conditional<sizeof(T) == 4, int4, int4>::type V4;
    const int4 *in4 = reinterpret_cast<const int4 *>(in);
    const size_t n4 = n / 4;
    size_t base = (size_t)blockIdx.x * 1024 * 8 + threadIdx.x;
    int4 v[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
        size_t i = base + (size_t)k * 1024;
        if (i < n4) v[k] = NC ? __ldg(&in4[i]) : in4[i];
        else v[k] = make_int4(0, 0, 0, 0);
    }
    T sum = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        T a, b, c, d;
        memcpy(&a, &v[k].x, 4); memcpy(&b, &v[k].y, 4); memcpy(&c, &v[k].z, 4); memcpy(&d, &v[k].w, 4);
        sum += a + b + c + d;
    }
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % 4)
        sum += in[n4 * 4 + threadIdx.x];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(&s, sum);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, s);
}

// ---- onepass variants: one thing changed each ----
// EP: 0 memset before (no epoch), 1 epoch at start as onepass does, 2 epoch
// atomic issued at start and its result used after the loads, 3 epoch at
// the end; RED: 0 block_reduce (two barriers), 1 shared atomic per warp
template <int EP, int RED>
__global__ void __launch_bounds__(1024) var_k(const unsigned *__restrict__ in, layout at,
                                              unsigned long long *started_ctr, unsigned *out)
{
    __shared__ unsigned scratch[32];
    __shared__ unsigned slot, s;
    const unsigned tid = threadIdx.x, block = blockDim.x;
    const unsigned slice = blockIdx.x;
    unsigned acc = 0;
    unsigned long long started = 0;
    if (RED == 1 && tid == 0) s = 0;
    if (EP == 1 && tid == 0)
        slot = rb_cuda::epoch_slot(started_ctr, out, 0u);
    if (EP == 2 && tid == 0)
        started = atomicAdd(started_ctr, 1ull);
    const size_t per_block = (size_t)block * 8;
    const size_t first = (size_t)slice * per_block + tid;
    if ((size_t)(slice + 1) * per_block > at.units)
        acc = onepass_slice<rb_cuda::op_sum, unsigned, 8, true>(in + at.head, first, block, at.units, acc);
    else
        acc = onepass_slice<rb_cuda::op_sum, unsigned, 8, false>(in + at.head, first, block, at.units, acc);
    if (slice == 0 && tid < at.head) acc += in[tid];
    if (slice == at.units / per_block && at.tail_start + tid < at.n) acc += in[at.tail_start + tid];
    if (EP == 2 && tid == 0) {
        const unsigned g = gridDim.x;
        slot = (unsigned)(started / g) & 1u;
        if (started % g == 0) out[slot ^ 1u] = 0;
    }
    if (RED == 0) {
        acc = rb_cuda::block_reduce<rb_cuda::op_sum>(acc, scratch);
    } else {
        acc = rb_cuda::warp_reduce<rb_cuda::op_sum>(acc);
        __syncthreads(); // s = 0 seen
        if ((tid & 31) == 0) atomicAdd(&s, acc);
        __syncthreads();
        acc = s;
    }
    if (tid == 0) {
        if (EP == 0) atomicAdd(out, acc);
        else if (EP == 3) {
            unsigned sl = rb_cuda::epoch_slot(started_ctr, out, 0u);
            atomicAdd(out + sl, acc);
        } else atomicAdd(out + slot, acc);
    }
}

// ---- read kernels for the peak ----
__global__ void stream_read(const uint4 *data, size_t count, unsigned *sink)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (; i + 3 * stride < count; i += 4 * stride) {
        uint4 a = data[i], b = data[i + stride], d = data[i + 2 * stride], e = data[i + 3 * stride];
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ d.x ^ d.y ^ d.z ^ d.w ^ e.x ^ e.y ^ e.z ^ e.w;
    }
    for (; i < count; i += stride) { uint4 a = data[i]; acc ^= a.x ^ a.y ^ a.z ^ a.w; }
    if (acc == 0x9e3779b9u) *sink = acc;
}
// one pass, B vectors per thread a block apart; reverse: slices from the end
template <int B>
__global__ void slice_read(const uint4 *data, size_t count, unsigned *sink, int reverse)
{
    const unsigned slice = reverse ? gridDim.x - 1 - blockIdx.x : blockIdx.x;
    const size_t base = (size_t)slice * blockDim.x * B + threadIdx.x;
    uint4 v[B];
#pragma unroll
    for (int k = 0; k < B; k++) {
        size_t i = base + (size_t)k * blockDim.x;
        v[k] = i < count ? data[i] : make_uint4(0, 0, 0, 0);
    }
    unsigned acc = 0;
#pragma unroll
    for (int k = 0; k < B; k++) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    if (acc == 0x9e3779b9u) *sink = acc;
}

static cudaStream_t st;
static cudaEvent_t e0, e1;
template <class F> static double time_us(F launch, int reps)
{
    if (getenv("ONCE")) { launch(); CK(cudaStreamSynchronize(st)); return 0; }
    launch(); launch();
    CK(cudaStreamSynchronize(st));
    double best = 1e30;
    for (int b = 0; b < 5; b++) {
        CK(cudaEventRecord(e0, st));
        for (int r = 0; r < reps; r++) launch();
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        best = std::min(best, ms * 1e3 / reps);
    }
    CK(cudaGetLastError());
    return best;
}
__global__ void empty_k() {}

int main(int argc, char **argv)
{
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    const size_t maxn = (size_t)1 << 30;
    unsigned *in; CK(cudaMalloc(&in, maxn * 4 + 64));
    std::vector<unsigned> h(1 << 20);
    for (size_t i = 0; i < h.size(); i++) h[i] = (unsigned)(i * 2654435761u) >> 20;
    for (size_t off = 0; off < maxn; off += h.size()) CK(cudaMemcpy(in + off, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    unsigned *out; CK(cudaMalloc(&out, 64));
    unsigned long long *ctr; CK(cudaMalloc(&ctr, 8));
    CK(cudaMemset(ctr, 0, 8)); CK(cudaMemset(out, 0, 64));
    printf("empty kernel: %.2f us\n", time_us([&] { empty_k<<<1, 1, 0, st>>>(); }, 200));
    const size_t sizes[] = {(size_t)1 << 10, (size_t)1 << 20, (size_t)1 << 24, (size_t)1 << 26, (size_t)1 << 28, (size_t)1 << 30};
    for (size_t n : sizes) {
        if (argc > 1 && n != (size_t)atoll(argv[1])) continue;
        int reps = n >= (1 << 28) ? 20 : 200;
        layout at = rb_cuda::split_aligned(in, n, 4, 16, 16);
        unsigned grid = (unsigned)((n + 32767) / 32768);
        unsigned og = (unsigned)((n - at.head + 32767) / 32768);
        auto gbs = [&](double us) { return n * 4.0 / us / 1e3; };
        double t;
        t = time_us([&] { cudaMemsetAsync(out, 0, 4, st); pattern_k<unsigned, false><<<grid, 1024, 0, st>>>(in, n, out); }, reps);
        printf("n=%zu pattern            %9.2f us %7.0f GB/s\n", n, t, gbs(t));
        t = time_us([&] { cudaMemsetAsync(out, 0, 4, st); pattern_k<float, false><<<grid, 1024, 0, st>>>((const float *)in, n, (float *)out); }, reps);
        printf("n=%zu pattern-f32        %9.2f us %7.0f GB/s\n", n, t, gbs(t));
        t = time_us([&] { cudaMemsetAsync(out, 0, 4, st); pattern_k<unsigned, true><<<grid, 1024, 0, st>>>(in, n, out); }, reps);
        printf("n=%zu pattern-ldg        %9.2f us %7.0f GB/s\n", n, t, gbs(t));
        onepass_sync sy = {}; sy.out = out; sy.blocks_started = ctr;
        t = time_us([&] { onepass_main<rb_cuda::op_sum, unsigned, 8><<<og, 1024, 0, st>>>(in, at, sy, ATOMIC, false, 0); }, reps);
        printf("n=%zu onepass-real       %9.2f us %7.0f GB/s\n", n, t, gbs(t));
        t = time_us([&] { onepass_main<rb_cuda::op_sum, unsigned, 8><<<og * 2, 512, 0, st>>>(in, at, sy, ATOMIC, false, 0); }, reps);
        printf("n=%zu onepass-real-512   %9.2f us %7.0f GB/s\n", n, t, gbs(t));
#define VAR(EP, RED, MS) \
        t = time_us([&] { if (MS) cudaMemsetAsync(out, 0, 4, st); var_k<EP, RED><<<og, 1024, 0, st>>>(in, at, ctr, out); }, reps); \
        printf("n=%zu var ep%d red%d       %9.2f us %7.0f GB/s\n", n, EP, RED, t, gbs(t));
        VAR(0, 0, 1) VAR(1, 0, 0) VAR(2, 0, 0) VAR(3, 0, 0) VAR(0, 1, 1) VAR(1, 1, 0) VAR(2, 1, 0) VAR(3, 1, 0)
    }
    if (argc > 1) return 0;
    // read kernels over 1 GiB and 4 GiB
    for (size_t bytes : {(size_t)1 << 30, (size_t)1 << 32}) {
        size_t count = bytes / 16;
        int reps = 10;
        unsigned *sink = out + 8;
        auto gbs = [&](double us) { return bytes / us / 1e3; };
        int bps = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, stream_read, 512, 0);
        double t = time_us([&] { stream_read<<<132 * bps, 512, 0, st>>>((const uint4 *)in, count, sink); }, reps);
        printf("bytes=%zu stream_read(now) %9.2f us %7.0f GB/s\n", bytes, t, gbs(t));
        int par = 0;
#define SLICE(B, T) \
        t = time_us([&] { slice_read<B><<<(unsigned)((count + (size_t)T * B - 1) / ((size_t)T * B)), T, 0, st>>>((const uint4 *)in, count, sink, 0); }, reps); \
        printf("bytes=%zu slice %4dx%-2d fwd %9.2f us %7.0f GB/s\n", bytes, T, B, t, gbs(t)); \
        t = time_us([&] { slice_read<B><<<(unsigned)((count + (size_t)T * B - 1) / ((size_t)T * B)), T, 0, st>>>((const uint4 *)in, count, sink, (par++) & 1); }, reps); \
        printf("bytes=%zu slice %4dx%-2d alt %9.2f us %7.0f GB/s\n", bytes, T, B, t, gbs(t));
        SLICE(8, 1024) SLICE(8, 512) SLICE(16, 512) SLICE(16, 256) SLICE(4, 1024) SLICE(8, 256)
    }
    return 0;
}
