/* src/base/provenance.c: the build's git revision and SHA-256 digests of files
 * (FIPS 180-4, written out here so that the core needs no crypto library). */
#include "base/provenance.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Generated at build time by src/local.mk: defines RB_GIT_REVISION. */
#include "base/git_revision.h"

const char *provenance_git_revision(void)
{
    return RB_GIT_REVISION[0] ? RB_GIT_REVISION : "unknown";
}

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes. */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t rotate_right(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t state[8], const unsigned char block[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
               (uint32_t)block[4 * t + 2] << 8 | (uint32_t)block[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotate_right(w[t - 15], 7) ^ rotate_right(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotate_right(w[t - 2], 17) ^ rotate_right(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t sum1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
        uint32_t choose = (e & f) ^ (~e & g);
        uint32_t t1 = h + sum1 + choose + round_constants[t] + w[t];
        uint32_t sum0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = sum0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void sha256_init(rb_sha256 *ctx)
{
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(ctx->state, initial, sizeof initial);
    ctx->total_bytes = 0;
    ctx->block_used = 0;
}

void sha256_update(rb_sha256 *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;
    ctx->total_bytes += len;
    while (len > 0) {
        size_t take = sizeof ctx->block - ctx->block_used;
        if (take > len)
            take = len;
        memcpy(ctx->block + ctx->block_used, p, take);
        ctx->block_used += take;
        p += take;
        len -= take;
        if (ctx->block_used == sizeof ctx->block) {
            compress(ctx->state, ctx->block);
            ctx->block_used = 0;
        }
    }
}

void sha256_final(rb_sha256 *ctx, unsigned char digest[32])
{
    uint64_t bits = ctx->total_bytes * 8;
    /* A 1 bit, zeros up to 56 bytes into a block, then the length in bits. */
    static const unsigned char padding[64] = {0x80};
    size_t pad = ctx->block_used < 56 ? 56 - ctx->block_used : 120 - ctx->block_used;
    sha256_update(ctx, padding, pad);
    unsigned char length[8];
    for (int k = 0; k < 8; k++)
        length[k] = (unsigned char)(bits >> (56 - 8 * k));
    sha256_update(ctx, length, sizeof length);
    for (int k = 0; k < 8; k++) {
        digest[4 * k] = (unsigned char)(ctx->state[k] >> 24);
        digest[4 * k + 1] = (unsigned char)(ctx->state[k] >> 16);
        digest[4 * k + 2] = (unsigned char)(ctx->state[k] >> 8);
        digest[4 * k + 3] = (unsigned char)ctx->state[k];
    }
}

static void digest_to_hex(const unsigned char digest[32], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int k = 0; k < 32; k++) {
        hex[2 * k] = digits[digest[k] >> 4];
        hex[2 * k + 1] = digits[digest[k] & 15];
    }
    hex[64] = '\0';
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
    rb_sha256 ctx;
    unsigned char digest[32];
    sha256_init(&ctx);
    sha256_update(&ctx, data, len);
    sha256_final(&ctx, digest);
    digest_to_hex(digest, hex);
}

int sha256_file(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    rb_sha256 ctx;
    sha256_init(&ctx);
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&ctx, buf, got);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        errno = EIO;
        return -1;
    }
    unsigned char digest[32];
    sha256_final(&ctx, digest);
    digest_to_hex(digest, hex);
    return 0;
}
