/* tests/packs/cuda/rows-reverse-twin.cu: the planted twin of the cuda
 * pack's rows strategies at order = alternate: plugins/cuda/rows.cu built
 * with ROWS_TWIN_REVERSE_STORE, so that a reversed call (every other one)
 * reduces row rows - 1 - g but stores its answer at g: the answers of such
 * a call come back in reverse order. Correct at order = forward. The host
 * must judge it wrong and name a row (tests/packs/cuda/test_gpu_shaped.sh). */
#define ROWS_NAME "rows-reverse-twin"
#define ROWS_SUMMARY "rows whose reversed calls store each answer at the wrong row (a planted bug)"
#define ROWS_TWIN_REVERSE_STORE 1
#include "../../../plugins/cuda/rows.cu"
