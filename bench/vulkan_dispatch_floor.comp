// bench/vulkan_dispatch_floor.comp: the least a call of a reduction does,
// for bench/vulkan_dispatch_floor.c: one invocation adds to a word reached
// by a buffer address in the push constants.
#version 460
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Word { uint v; };
layout(push_constant) uniform Push { Word word; uint value; } p;

void main()
{
    if (gl_LocalInvocationIndex == 0u)
        p.word.v += p.value;
}
