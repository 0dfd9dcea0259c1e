/* src/base/text_index.h: a hash index from texts to numbers, for reading large
 * results files in time linear in their rows (which configuration, case or
 * value a text names) and for keeping one copy of each text.
 *
 *     text_index ix = {0};
 *     size_t *slot = text_index_put(&ix, name, ix.count, &added);
 *     size_t where = *slot;               // the number stored with name
 *     text_index_free(&ix);
 *
 * The index does not copy the texts it is given: they must outlive it
 * (text_index_intern makes copies the index owns). */
#ifndef RB_TEXT_INDEX_H
#define RB_TEXT_INDEX_H

#include <stddef.h>

typedef struct text_index {
    const char **keys; /* NULL: an empty slot */
    size_t *values;
    size_t count, cap; /* cap: a power of two, or 0 */
    int owns_keys;     /* text_index_intern was used: keys are freed */
} text_index;

/* The number stored with `key`, or NULL. */
size_t *text_index_find(const text_index *ix, const char *key);
/* The slot of `key`, stored with `value` if it was not there (*added = 1). */
size_t *text_index_put(text_index *ix, const char *key, size_t value, int *added);
/* The index's own copy of `text` (NULL stays NULL), made once per text. */
const char *text_index_intern(text_index *ix, const char *text);
void text_index_free(text_index *ix);

/* FNV-1a of a text, for callers that hash more than one text. */
size_t text_hash(const char *text, size_t seed);

#endif
