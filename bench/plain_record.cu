// bench/plain_record.cu: cudaEventRecord behind a CUDA runtime of its own
// (this object links the runtime statically), for bench/plain_dlopen's
// --record: the plain loop's events then go through another runtime than
// its CUB calls, as redbench's backend's events do.
//     nvcc -shared -Xcompiler -fPIC -o plain_record.so plain_record.cu
#include <cuda_runtime.h>

extern "C" __attribute__((visibility("default"))) cudaError_t plain_record(cudaEvent_t event,
                                                                           cudaStream_t stream)
{
    return cudaEventRecord(event, stream);
}
