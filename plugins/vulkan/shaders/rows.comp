// plugins/vulkan/shaders/rows.comp: shaped reductions along rows, a
// subgroup per row (plugins/vulkan/rows.c). Subgroup s of the dispatch
// (workgroup x gl_NumSubgroups + gl_SubgroupID) reduces rows s, s + S,
// s + 2S, ... (S: the dispatch's subgroups), so every row is reduced
// whatever subgroup size the device picks. In a row its lanes read
// adjacent elements (lane l elements l, l + size, ...), fold them, and
// subgroupAdd/Min/Max joins the lanes; the first lane writes the answer
// to dst[row]. A row is [r x cols, (r + 1) x cols), or with RAGGED
// [offsets[r], offsets[r + 1]) (the host's uint64_t offsets, read as
// their low 32 bits: the pack takes n < 2^31). An empty row's answer is
// the identity.
// Argmax (-DOP_MAX -DARGMAX): each lane keeps the first largest of its
// elements and its index in the row, subgroupMax finds the maximum and
// subgroupMin the smallest index holding it (the row's first maximum);
// the indices go to `at` as 32-bit words (an empty row's: 0).
// Halves (T_F16, T_BF16: common.glsl's HALF_INPUT) are read from the 32-bit
// word that holds each, and reduced in f32; their address is 2-byte
// aligned only. Built with PLANTED_FIXED_LENGTHS (the tests' planted twin
// only), ragged rows are taken as cols long.
#version 460
#if defined(ARGMAX) && !defined(OP_MAX)
#define OP_MAX 1
#endif
#include "common.glsl"
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#if defined(T_I64)
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#endif
#if !defined(HALF_INPUT)
#extension GL_EXT_buffer_reference_uvec2 : require
#endif
layout(local_size_x_id = 0) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Offsets { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Indices { uint v[]; };

// plugins/vulkan/rows.c's rows_push
layout(push_constant) uniform Push {
    uvec2 src;       // the first element's address (low, high 32 bits)
    Values dst;      // one answer per row
    Indices at;      // argmax: one index per row
    Offsets offsets; // ragged: rows + 1 uint64_t, as pairs of words
    uint rows; uint cols; uint ragged; uint groups;
} p;

// Element e of the input.
T element(uint e)
{
#if defined(HALF_INPUT)
    uint h = ((p.src.x & 3u) >> 1) + e; // halves from the word at or below src
    uint w = Words(uvec2(p.src.x & ~3u, p.src.y)).v[h >> 1];
    vec2 two = halves(w);
    return (h & 1u) != 0u ? two.y : two.x;
#else
    return Elems(p.src).v[e];
#endif
}

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return;
    uint lanes = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
    uint stride = p.groups * gl_NumSubgroups;
    // r is the same in every lane of the subgroup: the loop and the
    // subgroup operations in it are uniform within the subgroup.
    for (uint r = group * gl_NumSubgroups + gl_SubgroupID; r < p.rows; r += stride) {
        uint from = r * p.cols, to = from + p.cols;
#if !defined(PLANTED_FIXED_LENGTHS)
        if (p.ragged != 0u) {
            from = p.offsets.v[2u * r];
            to = p.offsets.v[2u * r + 2u];
        }
#endif
        T acc = IDENT;
#if defined(ARGMAX)
        const uint none = 0xffffffffu;
        uint best = none;
        for (uint e = from + lane; e < to; e += lanes) {
            T x = element(e);
            if (best == none || x > acc) {
                acc = x;
                best = e - from;
            }
        }
        T m = subgroupMax(acc);
        uint first = subgroupMin(best != none && acc == m ? best : none);
        if (subgroupElect()) {
            p.dst.v[r] = m;
            p.at.v[r] = first == none ? 0u : first;
        }
#else
        for (uint e = from + lane; e < to; e += lanes)
            acc = combine(acc, element(e));
#if defined(OP_SUM)
        acc = subgroupAdd(acc);
#elif defined(OP_MIN)
        acc = subgroupMin(acc);
#else
        acc = subgroupMax(acc);
#endif
        if (subgroupElect())
            p.dst.v[r] = acc;
#endif
    }
}
