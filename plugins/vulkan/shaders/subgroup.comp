// plugins/vulkan/shaders/subgroup.comp: a grid-stride reduction with
// subgroup operations (seed 000's reduce6/7 on Vulkan). Each invocation
// folds its share of the input (ITEMS loads in flight; 16-byte loads when
// VECTOR is 1, the remainder element by element), each subgroup reduces
// with subgroupAdd/Min/Max, the subgroups' values meet in shared memory and
// the first subgroup reduces them. Then, built with ATOMIC, one atomic per
// workgroup into dst[0]; without, dst[group] = the workgroup's value (a
// second dispatch of one workgroup reduces those: the two-pass finish).
#version 460
#include "common.glsl"
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#if defined(T_I64)
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#endif
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 1u;
layout(constant_id = 2) const uint VECTOR = 0u;
layout(push_constant) uniform Push { Elems src; Values dst; uint n; uint groups; } p;

shared T partial[gl_WorkGroupSize.x]; // one per subgroup

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

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return;
    uint threads = p.groups * gl_WorkGroupSize.x;
    uint gid = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    T acc = IDENT;
    uint scalar_from = 0u;
    if (VECTOR != 0u) {
        Vecs vs = Vecs(p.src);
        uint nv = p.n / uint(VEC_N);
        uint i = gid;
        for (; i + (ITEMS - 1u) * threads < nv; i += ITEMS * threads) {
            VEC x[ITEMS];
            for (uint k = 0u; k < ITEMS; k++)
                x[k] = vs.v[i + k * threads];
            for (uint k = 0u; k < ITEMS; k++)
                acc = combine(acc, combine_vec(x[k]));
        }
        for (; i < nv; i += threads)
            acc = combine(acc, combine_vec(vs.v[i]));
        scalar_from = nv * uint(VEC_N);
    }
    uint i = scalar_from + gid;
    for (; i + (ITEMS - 1u) * threads < p.n; i += ITEMS * threads) {
        T x[ITEMS];
        for (uint k = 0u; k < ITEMS; k++)
            x[k] = p.src.v[i + k * threads];
        for (uint k = 0u; k < ITEMS; k++)
            acc = combine(acc, x[k]);
    }
    for (; i < p.n; i += threads)
        acc = combine(acc, p.src.v[i]);

    acc = subgroup_combine(acc);
    if (subgroupElect())
        partial[gl_SubgroupID] = acc;
    barrier();
    if (gl_SubgroupID == 0u) {
        T v = IDENT;
        for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize)
            v = combine(v, partial[k]);
        v = subgroup_combine(v);
        if (subgroupElect()) {
#if defined(ATOMIC)
            atomic_combine(p.dst, v);
#else
            p.dst.v[group] = v;
#endif
        }
    }
}
