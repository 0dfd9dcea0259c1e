/* tests/packs/cuda/segmented-twin.cu: the planted twin of the cuda pack's
 * segmented baseline: plugins/cuda/segmented.cu built with
 * SEGMENTED_TWIN_FIXED_LENGTHS, so that ragged rows are taken as cols
 * (their mean length) long each, from r x cols on, instead of from the
 * offsets. Correct for fixed lengths and columns. The host must judge its
 * ragged rows wrong and name the first row whose bounds differ
 * (tests/packs/cuda/test_gpu_shaped.sh). */
#define SEGMENTED_NAME "segmented-twin"
#define SEGMENTED_SUMMARY "segmented with every ragged row cols long (a planted bug)"
#define SEGMENTED_TWIN_FIXED_LENGTHS 1
#include "../../../plugins/cuda/segmented.cu"
