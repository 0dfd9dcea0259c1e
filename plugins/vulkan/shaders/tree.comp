// plugins/vulkan/shaders/tree.comp: one pass of the classic shared-memory
// tree (seed 000's reduce0..reduce3). Workgroup g reduces its slice of
// `src` (block elements, 2 x block with first-add) into dst[g]; the plugin
// runs passes until one value is left. VARIANT (constant 1):
//   0 divergent    interleaved pairs, tid % (2s) == 0 (divergent subgroups)
//   1 interleaved  interleaved pairs, index = 2 s tid (bank conflicts)
//   2 sequential   sequential addressing, tid < s
//   3 first-add    sequential, two elements per invocation added on load
#version 460
#include "common.glsl"
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VARIANT = 2u;
layout(push_constant) uniform Push { Elems src; Values dst; uint n; uint groups; } p;

shared T s[gl_WorkGroupSize.x];

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return; // the rows of a 2D grid past the last group: whole workgroups
    uint tid = gl_LocalInvocationID.x, block = gl_WorkGroupSize.x;
    bool two = VARIANT == 3u;
    uint i = group * block * (two ? 2u : 1u) + tid;
    T v = IDENT;
    if (i < p.n)
        v = p.src.v[i];
    if (two && i + block < p.n)
        v = combine(v, p.src.v[i + block]);
    s[tid] = v;
    barrier();
    if (VARIANT == 0u) {
        for (uint stride = 1u; stride < block; stride *= 2u) {
            if ((tid & (2u * stride - 1u)) == 0u)
                s[tid] = combine(s[tid], s[tid + stride]);
            barrier();
        }
    } else if (VARIANT == 1u) {
        for (uint stride = 1u; stride < block; stride *= 2u) {
            uint index = 2u * stride * tid;
            if (index < block)
                s[index] = combine(s[index], s[index + stride]);
            barrier();
        }
    } else {
        for (uint stride = block / 2u; stride > 0u; stride >>= 1u) {
            if (tid < stride)
                s[tid] = combine(s[tid], s[tid + stride]);
            barrier();
        }
    }
    if (tid == 0u)
        p.dst.v[group] = s[0];
}
