/* src/base/random.h: the core's random numbers: xoshiro256** (Blackman and
 * Vigna), small, fast, and the same sequence on every machine. Callers seed
 * the four words themselves (input.c per chunk, compare/significance.c per test). */
#ifndef RB_RANDOM_H
#define RB_RANDOM_H

#include <stdint.h>

typedef struct rb_rng {
    uint64_t s[4];
} rb_rng;

static inline uint64_t rb_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rb_rng_next(rb_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rb_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rb_rotl(s[3], 45);
    return result;
}

#endif
