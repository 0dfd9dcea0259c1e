/* tests/run/judge/onepass-tail.cu: plugins/cuda/onepass.cu with the bug such a
 * kernel is most likely to have: its grid computed as n / (block x batch x
 * V) with integer division, so the last, partial block is never launched
 * and the elements it would have read (the partial block's vectors and the
 * scalars after the last whole vector) are not counted. Everything else is
 * the strategy as it is: this file builds onepass.cu itself with the bug
 * switched on. Built and run by tests/run/test_gpu_judge.sh, which expects its
 * sums reported `wrong` wherever n is not a multiple of block x batch x V,
 * found by a probe where the random input's check cannot see a few missing
 * elements (f32). */
#define ONEPASS_NAME "onepass-tail"
#define ONEPASS_SUMMARY "onepass with its grid rounded down: the last partial block is lost"
#define ONEPASS_GRID_ROUNDED_DOWN 1
#include "../../../plugins/cuda/onepass.cu"
