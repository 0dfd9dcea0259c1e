// plugins/vulkan/shaders/histogram.comp: counts of u8 values in `n_bins`
// bins (the bin of byte b is b * n_bins / 256) with one set of bins per
// workgroup in shared memory, joined into the global bins with one atomic
// per non-empty bin. The input is read 16 bytes at a time (the backend
// pads every buffer to 16 bytes); bytes past n are not counted.
#version 460
#extension GL_EXT_buffer_reference : require
layout(local_size_x_id = 0) in;
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Bytes { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Bins { uint v[]; };
layout(push_constant) uniform Push { Bytes src; Bins bins; uint n; uint groups; uint n_bins; } p;

shared uint h[256];

void count_word(uint w, uint first, uint limit)
{
    for (uint k = 0u; k < 4u; k++)
        if (first + k < limit)
            atomicAdd(h[((w >> (8u * k)) & 255u) * p.n_bins / 256u], 1u);
}

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return;
    uint tid = gl_LocalInvocationID.x, block = gl_WorkGroupSize.x;
    for (uint k = tid; k < 256u; k += block)
        h[k] = 0u;
    barrier();
    uint words = p.n / 16u + (p.n % 16u != 0u ? 1u : 0u);
    uint threads = p.groups * block;
    for (uint i = group * block + tid; i < words; i += threads) {
        uvec4 w = p.src.v[i];
        uint first = 16u * i;
        count_word(w.x, first, p.n);
        count_word(w.y, first + 4u, p.n);
        count_word(w.z, first + 8u, p.n);
        count_word(w.w, first + 12u, p.n);
    }
    barrier();
    for (uint k = tid; k < p.n_bins; k += block)
        if (h[k] != 0u)
            atomicAdd(p.bins.v[k], h[k]);
}
