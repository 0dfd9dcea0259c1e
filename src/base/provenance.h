/* src/base/provenance.h: what identifies the code behind a result: the git
 * revision redbench was built from, and the SHA-256 digest of a file (each
 * plugin's shared object), computed here with no library. */
#ifndef RB_PROVENANCE_H
#define RB_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>

/* `git describe --always --dirty` of the source tree at build time, or
 * "unknown" when built from a release tarball or without git. */
const char *provenance_git_revision(void);

/* SHA-256 (FIPS 180-4), incrementally: init, update any number of times,
 * final. */
typedef struct rb_sha256 {
    uint32_t state[8];
    uint64_t total_bytes;
    unsigned char block[64];
    size_t block_used;
} rb_sha256;

void sha256_init(rb_sha256 *ctx);
void sha256_update(rb_sha256 *ctx, const void *data, size_t len);
void sha256_final(rb_sha256 *ctx, unsigned char digest[32]);

/* The digest of `len` bytes as 64 lower-case hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char hex[65]);

/* The digest of a file's contents, as sha256_hex. Returns 0, or -1 with
 * errno set when the file cannot be read. */
int sha256_file(const char *path, char hex[65]);

#endif
