/* src/base/names.c: words for ops, dtypes, distributions, row statuses and
 * probe verdicts. */
#include "base/names.h"

#include <string.h>

#include "base/util.h"

static const char *const op_words[RB_OP_COUNT_] = {"sum", "min", "max", "argmax", "histogram"};
static const char *const dtype_words[RB_DTYPE_COUNT_] = {"i32", "i64", "f32", "f64", "u8"};
static const char *const distribution_words[RB_DIST_COUNT_] = {
    "uniform", "signed", "small", "ones", "float-bytes"};
static const char *const status_words[RB_ROW_COUNT_] = {
    "ok", "wrong", "failed", "unsupported", "skipped"};
/* in the order of enum rb_probes (results.h) */
static const char *const probes_words[] = {"not run", "passed", "failed", "off"};

static const char *word_at(const char *const *words, int count, int k)
{
    return k >= 0 && k < count ? words[k] : "?";
}

static int index_of(const char *const *words, int count, const char *word)
{
    for (int k = 0; k < count; k++)
        if (strcmp(words[k], word) == 0)
            return k;
    return -1;
}

const char *op_name(int op) { return word_at(op_words, RB_OP_COUNT_, op); }
const char *dtype_name(int dtype) { return word_at(dtype_words, RB_DTYPE_COUNT_, dtype); }
const char *distribution_name(int d) { return word_at(distribution_words, RB_DIST_COUNT_, d); }
const char *row_status_name(int s) { return word_at(status_words, RB_ROW_COUNT_, s); }
const char *probes_name(int p) { return word_at(probes_words, 4, p); }

int op_from_name(const char *word) { return index_of(op_words, RB_OP_COUNT_, word); }
int dtype_from_name(const char *word) { return index_of(dtype_words, RB_DTYPE_COUNT_, word); }
int distribution_from_name(const char *word)
{
    return index_of(distribution_words, RB_DIST_COUNT_, word);
}

const char *op_choices(void) { return "sum, min, max, argmax, histogram"; }
const char *dtype_choices(void) { return "i32, i64, f32, f64, u8"; }
const char *distribution_choices(void) { return "uniform, signed, small, ones, float-bytes"; }

static char *mask_text(const char *const *words, int count, uint32_t mask)
{
    const char *picked[32];
    size_t n = 0;
    for (int k = 0; k < count; k++)
        if (mask & (1u << k))
            picked[n++] = words[k];
    return join_words(picked, n, ", ");
}

char *op_mask_text(uint32_t mask) { return mask_text(op_words, RB_OP_COUNT_, mask); }
char *dtype_mask_text(uint32_t mask) { return mask_text(dtype_words, RB_DTYPE_COUNT_, mask); }
