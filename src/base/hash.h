/* src/base/hash.h: the core's one byte hash, 64-bit FNV-1a (Fowler, Noll and
 * Vo): seeds from names (input.c), the bits of an answer (rules.c) and the
 * digest of a shaped answer (shape.c). Small and the same on every machine;
 * not for anything a stranger could aim at. */
#ifndef RB_HASH_H
#define RB_HASH_H

#include <stddef.h>
#include <stdint.h>

#define RB_FNV1A_BASIS 14695981039346656037ull

/* FNV-1a over `bytes` bytes at p, continuing from the hash h (RB_FNV1A_BASIS
 * to start). */
static inline uint64_t rb_fnv1a(uint64_t h, const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < bytes; k++) {
        h ^= b[k];
        h *= 1099511628211ull;
    }
    return h;
}

#endif
