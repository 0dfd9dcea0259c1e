// plugins/vulkan/shaders/tree.comp: one pass of the classic shared-memory
// tree (seed 000's reduce0..reduce7). Workgroup g reduces its slice of
// `src` into dst[g]; the plugin runs passes until one value is left.
// VARIANT (constant 1):
//   0 divergent    interleaved pairs, tid % (2s) == 0 (divergent subgroups)
//   1 interleaved  interleaved pairs, index = 2 s tid (bank conflicts)
//   2 sequential   sequential addressing, tid < s
//   3 first-add    sequential, two elements per invocation added on load
//   4 warp-unroll  first-add, and the levels below the subgroup's size in
//                  subgroup 0 alone, with subgroup barriers instead of
//                  workgroup barriers (CUDA's unrolled last warp)
//   5 full-unroll  warp-unroll with every loop unrolled over the workgroup
//                  size, a specialization constant (CUDA's template)
//   6 grid-stride  full-unroll after a grid-stride loop: each invocation
//                  adds pairs `2 x block x groups` apart (a fixed grid)
//   7 subgroup     the grid-stride loop, then subgroup reductions and
//                  shared memory across the subgroups (CUDA's shuffles);
//                  built with SUBGROUP only, which needs subgroup
//                  arithmetic (the other variants need basic subgroups)
#version 460
#include "common.glsl"
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_arithmetic : require
#if defined(T_I64)
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#endif
#endif
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VARIANT = 2u;
layout(push_constant) uniform Push { Elems src; Values dst; uint n; uint groups; } p;

shared T s[gl_WorkGroupSize.x];

#if defined(SUBGROUP)
T subgroup_combine(T v)
{
#if defined(OP_SUM)
    return subgroupAdd(v);
#elif defined(OP_MIN)
    return subgroupMin(v);
#else
    return subgroupMax(v);
#endif
}
#endif

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return; // the rows of a 2D grid past the last group: whole workgroups
    uint tid = gl_LocalInvocationID.x;
    const uint block = gl_WorkGroupSize.x;
    T v = IDENT;
    if (VARIANT >= 6u) {
        for (uint i = group * block * 2u + tid; i < p.n; i += block * 2u * p.groups) {
            v = combine(v, p.src.v[i]);
            if (i + block < p.n)
                v = combine(v, p.src.v[i + block]);
        }
    } else {
        bool two = VARIANT >= 3u;
        uint i = group * block * (two ? 2u : 1u) + tid;
        if (i < p.n)
            v = p.src.v[i];
        if (two && i + block < p.n)
            v = combine(v, p.src.v[i + block]);
    }
#if defined(SUBGROUP)
    if (VARIANT == 7u) {
        v = subgroup_combine(v);
    }
#endif
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
    } else if (VARIANT <= 3u) {
        for (uint stride = block / 2u; stride > 0u; stride >>= 1u) {
            if (tid < stride)
                s[tid] = combine(s[tid], s[tid + stride]);
            barrier();
        }
    } else if (VARIANT <= 6u) {
        // workgroup barriers down to the subgroup's size, then subgroup 0
        // alone (its own lanes, whichever invocations they are)
        uint stride = block / 2u;
        [[unroll]] for (; stride >= gl_SubgroupSize && stride > 0u; stride >>= 1u) {
            if (tid < stride)
                s[tid] = combine(s[tid], s[tid + stride]);
            barrier();
        }
        if (gl_SubgroupID == 0u) {
            uint lane = gl_SubgroupInvocationID;
            [[unroll]] for (; stride > 0u; stride >>= 1u) {
                if (lane < stride)
                    s[lane] = combine(s[lane], s[lane + stride]);
                subgroupMemoryBarrierShared();
                subgroupBarrier();
            }
        }
    }
#if defined(SUBGROUP)
    else {
        // s[tid] holds its subgroup's value; one per subgroup into s[k]
        barrier();
        if (subgroupElect())
            s[gl_SubgroupID] = v;
        barrier();
        if (gl_SubgroupID == 0u) {
            T w = IDENT;
            for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize)
                w = combine(w, s[k]);
            w = subgroup_combine(w);
            if (subgroupElect())
                s[0] = w;
            subgroupMemoryBarrierShared();
            subgroupBarrier();
        }
    }
#endif
    if (gl_SubgroupID == 0u && subgroupElect())
        p.dst.v[group] = s[0];
}
