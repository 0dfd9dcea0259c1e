// plugins/vulkan/shaders/common.glsl: what the pack's reduction shaders
// share. Compiled once per element type (-DT_I32, -DT_I64, -DT_F32,
// -DT_F64; -DT_F16 and -DT_BF16 where a shader reads halves) and operation
// (-DOP_SUM, -DOP_MIN, -DOP_MAX); -DATOMIC adds the atomic finishes, so
// that a module without it needs no atomic capability.
// Halves (T_F16, T_BF16) define HALF_INPUT and are reduced as f32 (T is
// float: partials, shared memory, atomics and the result); the shader
// reads them as 32-bit words of two halves (Words, Quads, halves()), so
// that no 16-bit storage or arithmetic feature is needed.
//   T       the element type; VEC a 16-byte vector of it (VEC_N elements)
//   IDENT   the operation's identity; combine(a, b) the operation
//   Elems, Vecs   read-only views of memory by device address
//   Values  a writable view (partials, results)
// With ATOMIC: Ordered (uint of T's width) and to_ordered(), a mapping of
// T onto unsigned integers that keeps the order, so that min and max of any
// type are atomicMin / atomicMax on integers; atomic_combine() finishes.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#if defined(T_F16) || defined(T_BF16)
#define HALF_INPUT 1
#define T_F32 1 // reduced in f32
#endif

#if defined(T_I32)
#define T int
#define VEC ivec4
#define VEC_N 4
#define ORDERED uint
#elif defined(T_I64)
#define T int64_t
#define VEC i64vec2
#define VEC_N 2
#define ORDERED uint64_t
#elif defined(T_F32)
#define T float
#define VEC vec4
#define VEC_N 4
#define ORDERED uint
#elif defined(T_F64)
#define T double
#define VEC dvec2
#define VEC_N 2
#define ORDERED uint64_t
#else
#error define one of T_I32, T_I64, T_F32, T_F64
#endif

#if defined(OP_SUM)
#define IDENT T(0)
T combine(T a, T b) { return a + b; }
#elif defined(OP_MIN) || defined(OP_MAX)
#if defined(T_I32)
#define T_LARGEST int(0x7fffffff)
#define T_SMALLEST int(0x80000000)
#elif defined(T_I64)
#define T_LARGEST int64_t(0x7fffffffffffffffl)
#define T_SMALLEST (-int64_t(0x7fffffffffffffffl) - int64_t(1))
#elif defined(T_F32)
#define T_LARGEST uintBitsToFloat(0x7f800000u)
#define T_SMALLEST uintBitsToFloat(0xff800000u)
#else
#define T_LARGEST packDouble2x32(uvec2(0u, 0x7ff00000u))
#define T_SMALLEST packDouble2x32(uvec2(0u, 0xfff00000u))
#endif
#if defined(OP_MIN)
#define IDENT T_LARGEST
T combine(T a, T b) { return min(a, b); }
#else
#define IDENT T_SMALLEST
T combine(T a, T b) { return max(a, b); }
#endif
#else
#error define one of OP_SUM, OP_MIN, OP_MAX
#endif

#if VEC_N == 4
T combine_vec(VEC v) { return combine(combine(v.x, v.y), combine(v.z, v.w)); }
#else
T combine_vec(VEC v) { return combine(v.x, v.y); }
#endif

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Elems { T v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Vecs { VEC v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Values { T v[]; };

#if defined(HALF_INPUT)
#extension GL_EXT_buffer_reference_uvec2 : require
// Halves as 32-bit words, two a word (the lower address in the low 16
// bits), and as 16-byte vectors of eight.
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Words { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Quads { uvec4 v[]; };

// The two halves of a word as f32 values, exact: (low, high).
vec2 halves(uint w)
{
#if defined(T_BF16)
    return vec2(uintBitsToFloat(w << 16), uintBitsToFloat(w & 0xffff0000u));
#else
    return unpackHalf2x16(w);
#endif
}

T combine_word(uint w)
{
    vec2 h = halves(w);
    return combine(h.x, h.y);
}

T combine_quad(uvec4 q)
{
    return combine(combine(combine_word(q.x), combine_word(q.y)),
                   combine(combine_word(q.z), combine_word(q.w)));
}
#endif

#if defined(ATOMIC)
#extension GL_EXT_shader_atomic_int64 : enable
#extension GL_EXT_shader_atomic_float : enable
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Ordered { ORDERED v[]; };

// Keeps the order of T: negative floats have their bits flipped, the rest
// their sign bit set; integers have their sign bit flipped.
ORDERED to_ordered(T x)
{
#if defined(T_I32)
    return uint(x) ^ 0x80000000u;
#elif defined(T_I64)
    return uint64_t(x) ^ (uint64_t(1) << 63);
#elif defined(T_F32)
    uint b = floatBitsToUint(x);
    return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u);
#else
    uvec2 h = unpackDouble2x32(x);
    uint64_t b = (uint64_t(h.y) << 32) | uint64_t(h.x);
    return (h.y & 0x80000000u) != 0u ? ~b : (b | (uint64_t(1) << 63));
#endif
}

// Joins v into result k at `target`: atomicAdd in T for sums (a float
// needs VK_EXT_shader_atomic_float), atomicMin / atomicMax on the ordered
// integers otherwise (the result starts as all ones for min, zero for max:
// atomic_start_at).
void atomic_combine_at(Values target, uint k, T v)
{
#if defined(OP_SUM)
    atomicAdd(target.v[k], v);
#elif defined(OP_MIN)
    atomicMin(Ordered(target).v[k], to_ordered(v));
#else
    atomicMax(Ordered(target).v[k], to_ordered(v));
#endif
}

void atomic_combine(Values target, T v)
{
    atomic_combine_at(target, 0u, v);
}

// Result k at `target` set to where the atomics start: 0 (a sum's zero in
// any type, and the smallest ordered value for max), all ones for min.
void atomic_start_at(Values target, uint k)
{
#if defined(OP_MIN)
    Ordered(target).v[k] = ~ORDERED(0);
#else
    Ordered(target).v[k] = ORDERED(0);
#endif
}
#endif
