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
// counter is never set back. Built with ATOMIC and EPOCH (constant 4), the
// atomic finish needs no clearing before it: the workgroups of a call
// take tickets on `counter`, and the call's number (ticket / groups, the
// counter set back by 2 groups at the end of every second call) picks
// which of dst[0] and dst[1] its atomics go to; the call's first ticket
// sets the other one to where atomics start, for the next call. The host
// reads the last call's from the counter: groups after an even call, 0
// after an odd one. Built with PLANTED_EPOCH_KEEP (the tests' planted bug
// only), the other result is never set back, so every second call adds to
// what the call two before left.
// Halves (T_F16, T_BF16: common.glsl's HALF_INPUT) are read as 32-bit
// words and reduced in f32 (fold_halves); their address in the push
// constants is 2-byte aligned only. The two-pass finish's second pass
// reduces the f32 partials with the f32 build. Built with
// PLANTED_DROP_TAIL (the tests' planted bug only), an odd last half is
// never read.
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
layout(constant_id = 4) const uint EPOCH = 0u;

// The one-pass finish's partials and counter: coherent, so that the last
// workgroup reads what the others wrote, not what its caches hold.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Partials { T v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Counter { uint v[]; };

// plugins/vulkan/pack.h's subgroup_push
layout(push_constant) uniform Push {
#if defined(HALF_INPUT)
    uvec2 src; // the first half's address (low, high 32 bits): 2-byte aligned only
#else
    Elems src;
#endif
    Values dst; uint n; uint groups; Partials partials; Counter counter;
    uint reverse; // order = alternate: this call reads the vectors from the end
} p;

// Where the j-th of `count` vectors (or, without vectors, elements) is read
// from: j itself, or from the end in a reversed call. The sum is over the
// same elements either way; what changes is which part of the input the
// call reads last, and so leaves in L2 for the next call.
uint at(uint j, uint count)
{
#if defined(PLANTED_REVERSE_ROUND_UP)
    // planted bug (tests/packs/vulkan): the vectors counted rounded up, so
    // that a reversed call reads the partial vector at the end whole (the
    // tail twice, with the padding) and never reads vector 0
    if (VECTOR != 0u && count == p.n / uint(VEC_N))
        count = (p.n + uint(VEC_N) - 1u) / uint(VEC_N);
#endif
    return p.reverse != 0u ? count - 1u - j : j;
}

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

#if defined(HALF_INPUT)
// This invocation's share of the n halves from p.src, folded in f32. The
// halves are numbered from the 16-byte boundary at or below p.src: they
// are halves [lo, hi) of the words from there, lo = 0..7. Half h is the
// low (h even) or high (h odd) half of word h / 2. The whole words
// [wb, we) are read in 16-byte vectors (VECTOR, those of whole vectors)
// and single words; an odd first half (the high half of word wb - 1) and
// an odd last half (the low half of word we) are read by invocation 0.
T fold_halves(uint gid, uint threads)
{
    uvec2 base = uvec2(p.src.x & ~15u, p.src.y);
    uint lo = (p.src.x & 15u) >> 1, hi = lo + p.n;
    uint wb = (lo + 1u) >> 1, we = hi >> 1;
    Words ws = Words(base);
    T acc = IDENT;
    if (gid == 0u) {
        if ((lo & 1u) != 0u)
            acc = combine(acc, halves(ws.v[lo >> 1]).y);
#if !defined(PLANTED_DROP_TAIL)
        if ((hi & 1u) != 0u)
            acc = combine(acc, halves(ws.v[we]).x);
#endif
    }
    uint words_to = we, rest_from = we; // single words: [wb, words_to), [rest_from, we)
    uint vb = (wb + 3u) >> 2, ve = we >> 2;
    if (VECTOR != 0u && vb < ve) {
        Quads qs = Quads(base);
        uint i = vb + gid;
        for (; i + (ITEMS - 1u) * threads < ve; i += ITEMS * threads) {
            uvec4 x[ITEMS];
            for (uint k = 0u; k < ITEMS; k++)
                x[k] = qs.v[i + k * threads];
            for (uint k = 0u; k < ITEMS; k++)
                acc = combine(acc, combine_quad(x[k]));
        }
        for (; i < ve; i += threads)
            acc = combine(acc, combine_quad(qs.v[i]));
        words_to = vb * 4u;
        rest_from = ve * 4u;
    }
    uint i = wb + gid;
    for (; i + (ITEMS - 1u) * threads < words_to; i += ITEMS * threads) {
        uint x[ITEMS];
        for (uint k = 0u; k < ITEMS; k++)
            x[k] = ws.v[i + k * threads];
        for (uint k = 0u; k < ITEMS; k++)
            acc = combine(acc, combine_word(x[k]));
    }
    for (; i < words_to; i += threads)
        acc = combine(acc, combine_word(ws.v[i]));
    for (i = rest_from + gid; i < we; i += threads)
        acc = combine(acc, combine_word(ws.v[i]));
    return acc;
}
#endif

void main()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (group >= p.groups)
        return;
    uint threads = p.groups * gl_WorkGroupSize.x;
    uint gid = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
#if defined(HALF_INPUT)
    T acc = fold_halves(gid, threads);
#else
    T acc = IDENT;
    uint scalar_from = 0u;
    if (VECTOR != 0u) {
        Vecs vs = Vecs(p.src);
        uint nv = p.n / uint(VEC_N);
        uint i = gid;
        for (; i + (ITEMS - 1u) * threads < nv; i += ITEMS * threads) {
            VEC x[ITEMS];
            for (uint k = 0u; k < ITEMS; k++)
                x[k] = vs.v[at(i + k * threads, nv)];
            for (uint k = 0u; k < ITEMS; k++)
                acc = combine(acc, combine_vec(x[k]));
        }
        for (; i < nv; i += threads)
            acc = combine(acc, combine_vec(vs.v[at(i, nv)]));
        scalar_from = nv * uint(VEC_N);
    }
    uint i = scalar_from + gid;
    for (; i + (ITEMS - 1u) * threads < p.n; i += ITEMS * threads) {
        T x[ITEMS];
        for (uint k = 0u; k < ITEMS; k++)
            x[k] = p.src.v[VECTOR != 0u ? i + k * threads : at(i + k * threads, p.n)];
        for (uint k = 0u; k < ITEMS; k++)
            acc = combine(acc, x[k]);
    }
    for (; i < p.n; i += threads)
        acc = combine(acc, p.src.v[VECTOR != 0u ? i : at(i, p.n)]);
#endif

    T v = workgroup_combine(acc);
    bool one_pass = ONE_PASS != 0u && p.groups > 1u;
    bool leader = gl_SubgroupID == 0u && subgroupElect();
    if (leader) {
#if defined(ATOMIC)
        if (EPOCH != 0u) {
            uint ticket = atomicAdd(p.counter.v[0], 1u);
            uint slot = (ticket / p.groups) & 1u;
            atomic_combine_at(p.dst, slot, v);
#if !defined(PLANTED_EPOCH_KEEP)
            if (ticket % p.groups == 0u)
                atomic_start_at(p.dst, slot ^ 1u); // the next call's, which starts after this one
#endif
            if (ticket == 2u * p.groups - 1u)
                atomicAdd(p.counter.v[0], 0u - 2u * p.groups); // every ticket of the pair taken
        } else {
            atomic_combine(p.dst, v);
        }
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
