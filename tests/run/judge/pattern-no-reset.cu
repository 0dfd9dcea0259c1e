/* tests/judge/pattern-no-reset.cu: plugins/cuda/pattern.cu without the
 * cudaMemsetAsync of its result inside every call, the pattern's other
 * likely bug: each call adds onto what the calls before it left, so only
 * the first call is right. Everything else is the strategy as it is: this
 * file builds pattern.cu itself with the bug switched on. Built and run by
 * tests/test_gpu_judge.sh, which expects its sums reported `wrong`. */
#define PATTERN_NAME "pattern-no-reset"
#define PATTERN_SUMMARY "the pattern without the memset of its result: calls add onto each other"
#define PATTERN_NO_RESET 1
#include "../../../plugins/cuda/pattern.cu"
