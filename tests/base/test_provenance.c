/* tests/base/test_provenance.c: SHA-256 against the FIPS 180-4 examples and
 * messages that end at every padding boundary, fed whole and in pieces, of
 * memory and of a file; and the build's git revision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/provenance.h"
#include "tap.h"

static const struct {
    const char *what;
    char fill;     /* repeated `length` times when text is NULL */
    size_t length;
    const char *text;
    const char *digest;
} vectors[] = {
    {"empty message", 0, 0, "",
     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"\"abc\" (FIPS 180-4 one block)", 0, 3, "abc",
     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"448-bit message (FIPS 180-4 two blocks)", 0, 56,
     "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {"55 bytes: the length fits in the last block", 'x', 55, NULL,
     "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"},
    {"56 bytes: the length needs one more block", 'x', 56, NULL,
     "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"},
    {"64 bytes: one whole block", 'x', 64, NULL,
     "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"},
    {"119 bytes", 'x', 119, NULL,
     "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"},
    {"one million 'a' (FIPS 180-4 long message)", 'a', 1000000, NULL,
     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
};

static char *message(size_t k)
{
    char *m = malloc(vectors[k].length + 1);
    if (vectors[k].text)
        memcpy(m, vectors[k].text, vectors[k].length);
    else
        memset(m, vectors[k].fill, vectors[k].length);
    m[vectors[k].length] = '\0';
    return m;
}

/* The same digest fed in pieces of 1, 7, 63 and 65 bytes in turn. */
static void hex_in_pieces(const char *m, size_t len, char hex[65])
{
    static const size_t pieces[] = {1, 7, 63, 65};
    rb_sha256 ctx;
    unsigned char digest[32];
    sha256_init(&ctx);
    for (size_t at = 0, k = 0; at < len; k++) {
        size_t take = pieces[k % 4] < len - at ? pieces[k % 4] : len - at;
        sha256_update(&ctx, m + at, take);
        at += take;
    }
    sha256_final(&ctx, digest);
    for (int k = 0; k < 32; k++)
        snprintf(hex + 2 * k, 3, "%02x", digest[k]);
}

int main(void)
{
    size_t n_vectors = sizeof vectors / sizeof vectors[0];
    plan((int)(3 * n_vectors + 4));

    char dir[] = "/tmp/rb-provenance-XXXXXX";
    if (!mkdtemp(dir))
        bail("cannot make a temporary folder");
    char path[64];
    snprintf(path, sizeof path, "%s/file.bin", dir);

    for (size_t k = 0; k < n_vectors; k++) {
        char *m = message(k);
        char hex[65];
        sha256_hex(m, vectors[k].length, hex);
        is_str(hex, vectors[k].digest, "sha256 of %s", vectors[k].what);
        hex_in_pieces(m, vectors[k].length, hex);
        is_str(hex, vectors[k].digest, "sha256 of %s, fed in pieces", vectors[k].what);

        FILE *f = fopen(path, "wb");
        fwrite(m, 1, vectors[k].length, f);
        fclose(f);
        memset(hex, 0, sizeof hex);
        int status = sha256_file(path, hex);
        ok(status == 0 && strcmp(hex, vectors[k].digest) == 0, "sha256_file of %s",
           vectors[k].what);
        free(m);
    }

    char hex[65] = "untouched";
    char missing[80];
    snprintf(missing, sizeof missing, "%s/no-such-file", dir);
    is_int(sha256_file(missing, hex), -1, "sha256_file of a missing file fails");
    is_str(hex, "untouched", "and leaves the digest alone");

    const char *rev = provenance_git_revision();
    ok(rev && *rev, "the git revision is not empty (%s)", rev ? rev : "(null)");
    ok(rev && !strchr(rev, '"') && !strchr(rev, '\n'), "the git revision is one word");

    unlink(path);
    rmdir(dir);
    return done();
}
