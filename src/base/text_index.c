/* src/base/text_index.c: the hash index of texts (see text_index.h): open
 * addressing with linear probing, grown to stay at most half full. */
#include "base/text_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

size_t text_hash(const char *text, size_t seed)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)seed;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    return (size_t)(h ^ (h >> 29));
}

static size_t slot_of(const text_index *ix, const char *key)
{
    size_t mask = ix->cap - 1;
    size_t k = text_hash(key, 0) & mask;
    while (ix->keys[k] && strcmp(ix->keys[k], key) != 0)
        k = (k + 1) & mask;
    return k;
}

size_t *text_index_find(const text_index *ix, const char *key)
{
    if (!ix->cap || !key)
        return NULL;
    size_t k = slot_of(ix, key);
    return ix->keys[k] ? &ix->values[k] : NULL;
}

static void rehash(text_index *ix, size_t cap)
{
    text_index bigger = {.keys = xcalloc(cap, sizeof *bigger.keys),
                         .values = xcalloc(cap, sizeof *bigger.values),
                         .cap = cap,
                         .count = ix->count,
                         .owns_keys = ix->owns_keys};
    for (size_t k = 0; k < ix->cap; k++)
        if (ix->keys[k]) {
            size_t s = slot_of(&bigger, ix->keys[k]);
            bigger.keys[s] = ix->keys[k];
            bigger.values[s] = ix->values[k];
        }
    free(ix->keys);
    free(ix->values);
    *ix = bigger;
}

size_t *text_index_put(text_index *ix, const char *key, size_t value, int *added)
{
    if (2 * (ix->count + 1) > ix->cap)
        rehash(ix, ix->cap ? ix->cap * 2 : 16);
    size_t k = slot_of(ix, key);
    int is_new = ix->keys[k] == NULL;
    if (is_new) {
        ix->keys[k] = key;
        ix->values[k] = value;
        ix->count++;
    }
    if (added)
        *added = is_new;
    return &ix->values[k];
}

const char *text_index_intern(text_index *ix, const char *text)
{
    if (!text)
        return NULL;
    if (ix->count == 0)
        ix->owns_keys = 1;
    size_t *slot = text_index_find(ix, text);
    if (slot)
        return ix->keys[slot - ix->values];
    char *copy = xstrdup(text);
    text_index_put(ix, copy, 0, NULL);
    return copy;
}

void text_index_free(text_index *ix)
{
    if (ix->owns_keys)
        for (size_t k = 0; k < ix->cap; k++)
            free((char *)ix->keys[k]);
    free(ix->keys);
    free(ix->values);
    memset(ix, 0, sizeof *ix);
}
