/* tests/run/judge/onepass-reverse.cu: plugins/cuda/onepass.cu with the bug that
 * `order = alternate` is most likely to have: the reversed slice of block b
 * computed as grid - b instead of grid - 1 - b, so that on every other call
 * block 0 reads past the last slice (its checked loads find nothing) and
 * slice 0, with the head before the first 16-byte boundary, is never read.
 * Calls in forward order are right, so a check of one call in two passes.
 * Built and run by tests/run/test_gpu_judge.sh (finish = atomic only: with a
 * partial per slice the bug would also write one past the partials), which
 * expects its sums `wrong`. */
#define ONEPASS_NAME "onepass-reverse"
#define ONEPASS_SUMMARY "onepass whose reversed calls skip slice 0"
#define ONEPASS_REVERSE_OFF_BY_ONE 1
#include "../../../plugins/cuda/onepass.cu"
