/* SPDX-License-Identifier: Apache-2.0 */
/* redbench/half.h: the half-precision dtypes' bits (ABI 1.5), converted in
 * portable C with no compiler half type: f16 (IEEE 754 binary16) and bf16
 * (bfloat16, the top half of an f32) to f32 exactly, and f32 to either
 * rounded to nearest, ties to even (overflow gives infinity, a NaN stays a
 * quiet NaN with its sign). Every f16 and bf16 value is an f32 value, so
 * rb_f16_from_f32(rb_f16_to_f32(h)) == h for every pattern h but NaNs
 * (whose payload may be quieted), and the same for bf16.
 *
 * The host makes its inputs, probes and reference with these, and a CPU
 * plugin reads its input with them; a CUDA plugin can use the device's own
 * conversions (cuda_fp16.h, cuda_bf16.h), which agree. */
#ifndef REDBENCH_HALF_H
#define REDBENCH_HALF_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline float rb_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t rb_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* f16 bits to f32, exactly. */
static inline float rb_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu, fraction = h & 0x3ffu;
    if (exponent == 0x1f) /* infinity or NaN */
        return rb_f32_from_bits(sign | 0x7f800000u | (fraction << 13));
    if (exponent != 0) /* normal: rebias 15 -> 127 */
        return rb_f32_from_bits(sign | ((exponent + 112u) << 23) | (fraction << 13));
    /* zero or subnormal: fraction x 2^-24, exact in f32 */
    float magnitude = (float)fraction * 0x1p-24f;
    return sign ? -magnitude : magnitude;
}

/* bf16 bits to f32, exactly. */
static inline float rb_bf16_to_f32(uint16_t b)
{
    return rb_f32_from_bits((uint32_t)b << 16);
}

/* f32 to f16 bits, rounded to nearest, ties to even. */
static inline uint16_t rb_f16_from_f32(float f)
{
    uint32_t u = rb_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t exponent = (u >> 23) & 0xffu, fraction = u & 0x7fffffu;
    if (exponent == 0xff) /* infinity, or a quiet NaN */
        return (uint16_t)(sign | 0x7c00u | (fraction ? 0x200u | (fraction >> 13) : 0));
    int e = (int)exponent - 127; /* the f32's unbiased exponent */
    if (e > 15)
        return (uint16_t)(sign | 0x7c00u);
    uint32_t significand; /* with the implicit bit, 24 bits */
    int shift;            /* bits to drop: 13 for a normal f16 */
    if (e >= -14) {
        significand = fraction | 0x800000u;
        shift = 13;
    } else {
        /* an f16 subnormal (or zero): units of 2^-24 */
        if (exponent == 0 || e < -25)
            return sign; /* below half of the smallest subnormal: +-0 */
        significand = fraction | 0x800000u;
        shift = 13 + (-14 - e);
    }
    uint32_t kept = significand >> shift;
    uint32_t rest = significand & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (kept & 1u)))
        kept++;
    if (e >= -14) /* kept holds the implicit bit; a carry raises the exponent */
        return (uint16_t)(sign | ((((uint32_t)(e + 15)) << 10) + (kept - 0x400u)));
    return (uint16_t)(sign | kept); /* a carry to 0x400 is the smallest normal */
}

/* f32 to bf16 bits, rounded to nearest, ties to even. */
static inline uint16_t rb_bf16_from_f32(float f)
{
    uint32_t u = rb_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: keep it quiet */
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u); /* overflow rounds to infinity */
    return (uint16_t)(u >> 16);
}

#ifdef __cplusplus
}
#endif
#endif
