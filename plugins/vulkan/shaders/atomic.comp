// plugins/vulkan/shaders/atomic.comp: a grid-stride reduction finished by
// atomics into dst[0] (seed 003 on Vulkan). SCOPE (constant 1):
//   0 workgroup  the invocations' values meet in a shared-memory tree
//                (sequential addressing) and one atomic joins the result
//   1 thread     every invocation joins its own value with an atomic
#version 460
#define ATOMIC
#include "common.glsl"
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint SCOPE = 0u;
layout(push_constant) uniform Push { Elems src; Values dst; uint n; uint groups; } p;

shared T s[gl_WorkGroupSize.x];

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return;
    uint tid = gl_LocalInvocationID.x, block = gl_WorkGroupSize.x;
    uint threads = p.groups * block;
    T acc = IDENT;
    for (uint i = group * block + tid; i < p.n; i += threads)
        acc = combine(acc, p.src.v[i]);
    if (SCOPE == 1u) {
        atomic_combine(p.dst, acc);
        return;
    }
    s[tid] = acc;
    barrier();
    for (uint stride = block / 2u; stride > 0u; stride >>= 1u) {
        if (tid < stride)
            s[tid] = combine(s[tid], s[tid + stride]);
        barrier();
    }
    if (tid == 0u)
        atomic_combine(p.dst, s[0]);
}
