/* tests/sdk/test_half.c: the half-precision conversions of the SDK
 * (sdk/redbench/half.h): every one of the 65536 f16 and bf16 patterns goes
 * to f32 and back unchanged (NaNs aside, which stay NaNs), the values are
 * the formats' own (smallest subnormal, largest finite, infinity), and f32
 * is rounded to each format to nearest with ties to even, at ties,
 * overflow and underflow. */
#include <math.h>
#include <stdint.h>

#include "tap.h"

#include <redbench/half.h>

static int is_nan16(uint16_t h, int bf16)
{
    return bf16 ? (h & 0x7f80u) == 0x7f80u && (h & 0x7fu) : (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

/* Every pattern to f32 and back; NaNs stay NaNs (of the same sign). */
static void round_trips(int bf16)
{
    unsigned changed = 0, nan_lost = 0, first = 0;
    for (unsigned h = 0; h < 65536; h++) {
        float f = bf16 ? rb_bf16_to_f32((uint16_t)h) : rb_f16_to_f32((uint16_t)h);
        uint16_t back = bf16 ? rb_bf16_from_f32(f) : rb_f16_from_f32(f);
        if (is_nan16((uint16_t)h, bf16)) {
            if (!isnan(f) || !is_nan16(back, bf16) || (back ^ h) & 0x8000u)
                nan_lost++;
        } else if (back != h && changed++ == 0) {
            first = h;
        }
    }
    ok(changed == 0, "%s: every one of the 65536 patterns but NaNs goes to f32 and back unchanged",
       bf16 ? "bf16" : "f16");
    if (changed)
        diag("  %u changed, the first 0x%04x", changed, first);
    ok(nan_lost == 0, "%s: every NaN stays a NaN of its sign", bf16 ? "bf16" : "f16");
}

/* f32 bits rounded to a format. */
static uint16_t f16_of(uint32_t bits) { return rb_f16_from_f32(rb_f32_from_bits(bits)); }
static uint16_t bf16_of(uint32_t bits) { return rb_bf16_from_f32(rb_f32_from_bits(bits)); }

int main(void)
{
    plan(28);
    round_trips(0);
    round_trips(1);

    /* the formats' values */
    is_double(rb_f16_to_f32(0x0001), 0x1p-24, 0, "f16 0x0001 is 2^-24 (the smallest subnormal)");
    is_double(rb_f16_to_f32(0x0400), 0x1p-14, 0, "f16 0x0400 is 2^-14 (the smallest normal)");
    is_double(rb_f16_to_f32(0x7bff), 65504, 0, "f16 0x7bff is 65504 (the largest)");
    ok(isinf(rb_f16_to_f32(0xfc00)) && rb_f16_to_f32(0xfc00) < 0, "f16 0xfc00 is -inf");
    is_double(rb_f16_to_f32(0x3c01), 1 + 0x1p-10, 0, "f16 0x3c01 is 1 + 2^-10");
    is_double(rb_bf16_to_f32(0x3f81), 1 + 0x1p-7, 0, "bf16 0x3f81 is 1 + 2^-7");
    is_double(rb_bf16_to_f32(0x0001), 0x1p-133, 0, "bf16 0x0001 is 2^-133 (f32's subnormals)");

    /* f32 -> f16: ties to even, between 1 and 1 + 2^-10 and the next pair */
    is_int(f16_of(0x3f801000), 0x3c00, "f16: 1 + 2^-11 (a tie) rounds to 1 (even)");
    is_int(f16_of(0x3f803000), 0x3c02, "f16: 1 + 3 x 2^-11 (a tie) rounds up to 1 + 2^-9 (even)");
    is_int(f16_of(0x3f801001), 0x3c01, "f16: just above the tie rounds up");
    is_int(f16_of(0x3f802fff), 0x3c01, "f16: just below the next tie rounds down");
    is_int(f16_of(0x477fefff), 0x7bff, "f16: just below 65520 rounds to 65504");
    is_int(f16_of(0x477ff000), 0x7c00, "f16: 65520 (the tie above 65504) overflows to inf");
    is_int(f16_of(0x33000000), 0x0000, "f16: 2^-25 (a tie) rounds to 0 (even)");
    is_int(f16_of(0x33000001), 0x0001, "f16: just above 2^-25 rounds to the smallest subnormal");
    is_int(f16_of(0x33c00000), 0x0002, "f16: 3 x 2^-25 (a tie) rounds to 2 x 2^-24 (even)");
    is_int(f16_of(0x387fe000), 0x0400, "f16: just below 2^-14 at a tie rounds up into the normals");
    is_int(f16_of(0xbf801000), 0xbc00, "f16: -(1 + 2^-11) rounds to -1");

    /* f32 -> bf16 */
    is_int(bf16_of(0x3f808000), 0x3f80, "bf16: 1 + 2^-8 (a tie) rounds to 1 (even)");
    is_int(bf16_of(0x3f818000), 0x3f82, "bf16: 1 + 3 x 2^-8 (a tie) rounds up (even)");
    is_int(bf16_of(0x3f808001), 0x3f81, "bf16: just above the tie rounds up");
    is_int(bf16_of(0x7f7fffff), 0x7f80, "bf16: f32's largest rounds to inf");
    is_int(bf16_of(0xff800000), 0xff80, "bf16: -inf stays -inf");
    ok(is_nan16(bf16_of(0x7f800001), 1), "bf16: a NaN whose payload is in the low bits stays a NaN");
    return done();
}
