/* src/base/random.h: the core's random numbers: xoshiro256** (Blackman and
 * Vigna), small, fast, and the same sequence on every machine. Callers seed
 * the four words themselves (input.c per chunk, compare/significance.c per test);
 * and splitmix64, which seeds them and places probes and ragged rows. */
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

/* splitmix64 (Steele, Lea and Flood): the next value of the sequence whose
 * state is *state, which it advances; a strong 64-bit mixer of the state. */
static inline uint64_t rb_splitmix64(uint64_t *state)
{
    uint64_t x = (*state += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

#endif
