// vksum.comp: the example pack's Vulkan shader. One pass of a sum: each
// workgroup adds a grid-stride share of `src` (n elements) with
// subgroupAdd and shared memory, and writes its total to dst[group].
// Compiled twice, with -DT=int and -DT=float (see Makefile.am).
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Values { T v[]; };
layout(push_constant) uniform Push { Values src; Values dst; uint n; } p;

shared T subgroup_totals[256];

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    T acc = T(0);
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride)
        acc += p.src.v[i];
    acc = subgroupAdd(acc);
    if (subgroupElect())
        subgroup_totals[gl_SubgroupID] = acc;
    barrier();
    if (gl_SubgroupID == 0u) {
        T total = T(0);
        for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize)
            total += subgroup_totals[k];
        total = subgroupAdd(total);
        if (subgroupElect())
            p.dst.v[gl_WorkGroupID.x] = total;
    }
}
