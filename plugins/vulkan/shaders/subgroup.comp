// plugins/vulkan/shaders/subgroup.comp: a grid-stride reduction with
// subgroup operations (seed 000's reduce6/7 on Vulkan). Each invocation
// folds its share of the input (ITEMS loads in flight; 16-byte loads when
// VECTOR is 1, the remainder element by element), each subgroup reduces
// with subgroupAdd/Min/Max, the subgroups' values meet in shared memory and
// the first subgroup reduces them. Then, built with ATOMIC, one atomic per
// workgroup into dst[0]; without, dst[group] = the workgroup's value (a
// second dispatch of one workgroup reduces those: the two-pass finish), or
// with ONE_PASS (constant 3) and more than one workgroup, the one-pass
// finish in the same dispatch: each workgroup writes partials[group],
// makes it visible to the device and counts itself done on `counter`; the
// workgroup that counts last reduces the partials into dst[0] and sets the
// counter back to 0 for the next call (the plugin zeroes it once, in
// init). Built with PLANTED_KEEP_COUNT (the tests' planted bug only), the
// counter is never set back.
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
layout(constant_id = 3) const uint ONE_PASS = 0u;

// The one-pass finish's partials and counter: coherent, so that the last
// workgroup reads what the others wrote, not what its caches hold.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Partials { T v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Counter { uint v[]; };

// plugins/vulkan/pack.h's subgroup_push
layout(push_constant) uniform Push {
    Elems src; Values dst; uint n; uint groups; Partials partials; Counter counter;
} p;

shared T partial[gl_WorkGroupSize.x]; // one per subgroup
shared uint last_group;                // one-pass: this workgroup counted last

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

// The workgroup's value, in every invocation of subgroup 0: each subgroup
// reduces, the subgroups' values meet in shared memory and the first
// subgroup reduces those. Every invocation of the workgroup calls it (it
// holds a barrier); a second call needs a barrier between the two, so that
// subgroup 0 has read partial[] before it is written again.
T workgroup_combine(T acc)
{
    acc = subgroup_combine(acc);
    if (subgroupElect())
        partial[gl_SubgroupID] = acc;
    barrier();
    T v = IDENT;
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize)
            v = combine(v, partial[k]);
        v = subgroup_combine(v);
    }
    return v;
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

    T v = workgroup_combine(acc);
    bool one_pass = ONE_PASS != 0u && p.groups > 1u;
    bool leader = gl_SubgroupID == 0u && subgroupElect();
    if (leader) {
#if defined(ATOMIC)
        atomic_combine(p.dst, v);
#else
        if (one_pass) {
            p.partials.v[group] = v;
            memoryBarrierBuffer(); // the partial is visible before the count
            uint done = atomicAdd(p.counter.v[0], 1u);
            last_group = done == p.groups - 1u ? 1u : 0u;
        } else {
            p.dst.v[group] = v;
        }
#endif
    }
#if !defined(ATOMIC)
    if (!one_pass)
        return; // the whole workgroup: p.groups is uniform
    barrier(); // last_group, as the leader wrote it; subgroup 0 is done with partial[]
    if (last_group == 0u)
        return;
    memoryBarrierBuffer(); // every other workgroup's partial is visible
    T w = IDENT;
    for (uint k = gl_LocalInvocationID.x; k < p.groups; k += gl_WorkGroupSize.x)
        w = combine(w, p.partials.v[k]);
    w = workgroup_combine(w);
    if (gl_SubgroupID == 0u && subgroupElect()) {
        p.dst.v[0] = w;
#if !defined(PLANTED_KEEP_COUNT)
        p.counter.v[0] = 0u; // the next call counts from 0 again
#endif
    }
#endif
}
