// plugins/vulkan/shaders/stream_read.comp: the backend's read-bandwidth
// test. Reads `count` 16-byte words with four loads in flight per
// invocation; the XOR of everything is stored only if it equals an
// impossible value, so that the loads cannot be dropped.
#version 460
#extension GL_EXT_buffer_reference : require
layout(local_size_x_id = 0) in;
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Words { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Sink { uint v[]; };
layout(push_constant) uniform Push { Words data; Sink sink; uint count; } p;

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint i = gl_GlobalInvocationID.x;
    uvec4 acc = uvec4(0u);
    for (; i + 3u * stride < p.count; i += 4u * stride) {
        uvec4 a = p.data.v[i], b = p.data.v[i + stride], c = p.data.v[i + 2u * stride],
              d = p.data.v[i + 3u * stride];
        acc ^= a ^ b ^ c ^ d;
    }
    for (; i < p.count; i += stride)
        acc ^= p.data.v[i];
    uint x = acc.x ^ acc.y ^ acc.z ^ acc.w;
    if (x == 0x9e3779b9u)
        p.sink.v[0] = x;
}
