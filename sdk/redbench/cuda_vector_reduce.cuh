/* SPDX-License-Identifier: Apache-2.0 */
/* redbench/cuda_vector_reduce.cuh: CUB's reduction of a device vector of n
 * elements of a configuration's dtype to its one value, for the packs whose
 * collectives leave an n-element vector and whose `result = value` reduces
 * it further (nccl, p2p). Integer sums are reduced in the unsigned type, so
 * that they wrap like the dtype. */
#ifndef RB_CUDA_VECTOR_REDUCE_CUH
#define RB_CUDA_VECTOR_REDUCE_CUH

#include <cub/device/device_reduce.cuh>

#include <redbench/cuda_helpers.cuh>

namespace rb_cuda {

/* The sum, min or max (`op`) of n elements of T at `in` into *out (device
 * memory); temp == NULL asks for the temporary storage's size. */
template <class T>
inline cudaError_t reduce_vector(int op, const void *in, void *out, size_t n, void *temp,
                                 size_t *temp_bytes, cudaStream_t stream)
{
    typedef typename sum_type<T>::type S; /* unsigned for integer sums */
    if (op == RB_OP_SUM)
        return cub::DeviceReduce::Sum(temp, *temp_bytes, static_cast<const S *>(in),
                                      static_cast<S *>(out), (int64_t)n, stream);
    if (op == RB_OP_MIN)
        return cub::DeviceReduce::Min(temp, *temp_bytes, static_cast<const T *>(in),
                                      static_cast<T *>(out), (int64_t)n, stream);
    return cub::DeviceReduce::Max(temp, *temp_bytes, static_cast<const T *>(in),
                                  static_cast<T *>(out), (int64_t)n, stream);
}

/* The same for the configuration's op and dtype (i32, i64, f32, f64). */
inline cudaError_t reduce_vector(const rb_config *cfg, const void *in, void *out, size_t n,
                                 void *temp, size_t *temp_bytes, cudaStream_t stream)
{
    return with_numeric_type(cfg->dtype, [&](auto t) {
        return reduce_vector<decltype(t)>(cfg->op, in, out, n, temp, temp_bytes, stream);
    });
}

} // namespace rb_cuda

#endif
