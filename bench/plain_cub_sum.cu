// bench/plain_cub_sum.cu: a plain event-timed loop around
// cub::DeviceReduce::Sum, written without any redbench code, to check
// redbench's `timing = launch` against what a user would measure by hand.
//
// For each n (f32, 1K to 1G by factors of 4 unless sizes are given): the
// input is filled on the device, CUB's temporary storage is allocated once,
// three calls warm up, and then each repetition is
//
//     cudaEventRecord(start, stream);
//     cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream);
//     cudaEventRecord(stop, stream);
//     cudaEventSynchronize(stop);
//
// until 0.5 s of measured time and at least 20 repetitions (at most 10000).
// Prints one CSV line per n: n,reps,median_ns,min_ns,mean_ns.
//
// With --blocking, the device's own time of a call, without the host's
// launch: each repetition is queued behind a one-thread kernel that holds
// the stream until the host has queued the events and the call, and is then
// released through a flag in mapped host memory (the check for redbench's
// `timing = device`):
//
//     hold<<<1, 1, 0, stream>>>(flag);   // spins while *flag == 0
//     cudaEventRecord(start, stream); CUB; cudaEventRecord(stop, stream);
//     *flag = 1; cudaEventSynchronize(stop);
//
//     nvcc -O3 -arch=sm_90 -o plain_cub_sum plain_cub_sum.cu
//     ./plain_cub_sum [--blocking] [N ...]      (N: a count, or with K, M or G)
//
// Built with -DPLAIN_CUB_SUM_LIBRARY as a shared object instead, the same
// loop is the exported function plain_cub_sum_main, which
// bench/plain_dlopen.c loads with dlopen as redbench loads a plugin; it can
// hand the loop another object's cudaEventRecord (plain_cub_sum_use_record),
// so that the events go through one CUDA runtime and CUB through another,
// as with redbench's backend and its cub plugin.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/device/device_reduce.cuh>

#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t e_ = (call);                                               \
        if (e_ != cudaSuccess) {                                               \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(e_));                              \
            std::exit(1);                                                      \
        }                                                                      \
    } while (0)

// Values in [0, 1) from a hash of the index: not constant, not zero.
__global__ void fill(float *data, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u + 12345u;
        x ^= x >> 15;
        x *= 2246822519u;
        x ^= x >> 13;
        data[i] = (x >> 8) * (1.0f / 16777216.0f);
    }
}

// Holds the stream until the host sets *flag (or about two seconds pass, so
// that a lost release cannot hang the program).
__global__ void hold(volatile int *flag)
{
    const long long start = clock64();
    while (*flag == 0 && clock64() - start < 4000000000LL) {
    }
}

static bool blocking = false;
static volatile int *flag_host = nullptr;
static int *flag_device = nullptr;

// The event record of the timed loop: this program's, or another object's.
typedef cudaError_t (*record_fn)(cudaEvent_t, cudaStream_t);
static cudaError_t record_here(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecord(event, stream);
}
static record_fn record = record_here;

#ifdef PLAIN_CUB_SUM_LIBRARY
extern "C" __attribute__((visibility("default"))) void plain_cub_sum_use_record(record_fn other)
{
    record = other;
}
#endif

// A size as an experiment writes it: 1000, 1K, 16M, 1G (powers of 1024).
static size_t parse_size(const char *text)
{
    char *end = nullptr;
    size_t n = std::strtoull(text, &end, 10);
    switch (*end) {
    case 'K': return n << 10;
    case 'M': return n << 20;
    case 'G': return n << 30;
    default: return n;
    }
}

static void measure(size_t n, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop)
{
    float *in = nullptr, *out = nullptr;
    void *temp = nullptr;
    size_t temp_bytes = 0;
    const int count = (int)n; // CUB's 32-bit offsets, as n < 2^31
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, sizeof(float)));
    fill<<<1024, 256, 0, stream>>>(in, n);
    CHECK(cudaGetLastError());
    CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, count, stream));
    CHECK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
    CHECK(cudaStreamSynchronize(stream));

    for (int k = 0; k < 3; k++)
        CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, count, stream));
    CHECK(cudaStreamSynchronize(stream));

    std::vector<double> samples;
    double total_ns = 0;
    while ((total_ns < 0.5e9 || samples.size() < 20) && samples.size() < 10000) {
        float ms = 0;
        if (blocking) {
            *flag_host = 0;
            hold<<<1, 1, 0, stream>>>(flag_device);
            CHECK(cudaGetLastError());
        }
        CHECK(record(start, stream));
        CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, count, stream));
        CHECK(record(stop, stream));
        if (blocking) {
            __sync_synchronize();
            *flag_host = 1;
        }
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        samples.push_back(ms * 1e6);
        total_ns += ms * 1e6;
    }
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    size_t m = sorted.size() / 2;
    double median = sorted.size() % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    std::printf("%zu,%zu,%.1f,%.1f,%.1f\n", n, samples.size(), median, sorted.front(),
                total_ns / samples.size());
    std::fflush(stdout);
    CHECK(cudaFree(temp));
    CHECK(cudaFree(out));
    CHECK(cudaFree(in));
}

#ifdef PLAIN_CUB_SUM_LIBRARY
extern "C" __attribute__((visibility("default"))) int plain_cub_sum_main(int argc, char **argv)
#else
int main(int argc, char **argv)
#endif
{
    std::vector<size_t> sizes;
    for (int k = 1; k < argc; k++) {
        if (std::string(argv[k]) == "--blocking")
            blocking = true;
        else
            sizes.push_back(parse_size(argv[k]));
    }
    if (sizes.empty())
        for (size_t n = 1024; n <= ((size_t)1 << 30); n *= 4)
            sizes.push_back(n);

    cudaStream_t stream;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    if (blocking) {
        int *mapped = nullptr;
        CHECK(cudaHostAlloc(&mapped, sizeof *mapped, cudaHostAllocMapped));
        CHECK(cudaHostGetDevicePointer(&flag_device, mapped, 0));
        flag_host = mapped;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::fprintf(stderr, "device: %s\n", prop.name);
    std::printf("n,reps,median_ns,min_ns,mean_ns\n");
    for (size_t n : sizes)
        measure(n, stream, start, stop);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
