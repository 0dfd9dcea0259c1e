/* tests/judge/pattern-tail.cu: plugins/cuda/pattern.cu with the bug such a
 * kernel is most likely to have: only whole 16-byte vectors are read (the
 * `if (i < n / 4)` guard alone), so the n % 4 elements after the last whole
 * vector (n % 2 for 8-byte types) are never counted. Everything else is the
 * strategy as it is: this file builds pattern.cu itself with the bug
 * switched on. Built and run by tests/test_gpu_judge.sh, which expects its
 * sums reported `wrong` wherever n is not a multiple of 4. */
#define PATTERN_NAME "pattern-tail"
#define PATTERN_SUMMARY "the pattern without its tail: the n % 4 elements after the last vector are lost"
#define PATTERN_DROP_TAIL 1
#include "../../../plugins/cuda/pattern.cu"
