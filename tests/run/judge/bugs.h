/* tests/run/judge/bugs.h: the bugs that tests/run/judge/buggy.c and its cuda twin
 * buggy.cu plant, one per value of their `bug` parameter, each the kind a
 * fast reduction is most likely to have:
 *
 *   none          the right answer
 *   drop-last     the last element is left out when n is not a multiple of
 *                 4 (a loop over vectors of 4 with no tail)
 *   drop-boundary the element at the largest power of two below n - 1 is
 *                 left out (an off-by-one at a chunk boundary)
 *   lose-block    one block of 256 elements in the middle is lost (a
 *                 block's partial that never reaches the result)
 *   tail-twice    the last n % 8 elements (or the last one) are counted twice
 *   first-answer  computes on the first call and returns that answer ever
 *                 after (a cached result)
 *   accumulate    never clears its accumulator between calls
 *   half          reads only the first half of the input
 *   constant      returns 0 (histogram: nothing counted)
 *   hist-last     a histogram that ignores the last byte
 * and three of half-precision data (f16, bf16), each a mistake of code that
 * reduces them as machine-learning code does:
 *   half-acc      sums accumulate in f16 instead of f32 (every partial sum
 *                 rounded to f16: a serial one stalls at 2048 on data below
 *                 1 and loses the tail of a large sum; the cuda twin rounds
 *                 every partial, and overflows past 65504)
 *   bf16-as-f16   bf16 elements read as if they were f16 (the two formats'
 *                 bits confused; on f16 data it is right)
 *   drop-odd      the last element is left out when n is odd (a loop over
 *                 pairs of halves, half2, with no tail)
 */
#ifndef RB_TEST_JUDGE_BUGS_H
#define RB_TEST_JUDGE_BUGS_H

#include <redbench/plugin.h>

enum bug {
    BUG_NONE, BUG_DROP_LAST, BUG_DROP_BOUNDARY, BUG_LOSE_BLOCK, BUG_TAIL_TWICE,
    BUG_FIRST_ANSWER, BUG_ACCUMULATE, BUG_HALF, BUG_CONSTANT, BUG_HIST_LAST,
    BUG_HALF_ACC, BUG_BF16_AS_F16, BUG_DROP_ODD
};

static const char *const bugs[] = {"none", "drop-last", "drop-boundary", "lose-block",
                                   "tail-twice", "first-answer", "accumulate", "half",
                                   "constant", "hist-last", "half-acc", "bf16-as-f16",
                                   "drop-odd", NULL};

static const rb_param_spec params[] = {
    {"bug", RB_PARAM_CHOICE, "none", 0, 0, bugs, 0, "the planted bug"},
};

#endif
