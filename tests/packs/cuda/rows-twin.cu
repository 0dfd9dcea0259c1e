/* tests/packs/cuda/rows-twin.cu: the planted twin of the cuda pack's rows
 * strategies: plugins/cuda/rows.cu built with ROWS_TWIN_ROUND_DOWN, so that
 * the grid of the thread, subwarp and warp strategies is rows / (rows per
 * block) rounded down (at least one block): when rows is not a multiple of
 * block / lanes, the last rows are never reduced. Correct otherwise. The
 * host must judge it wrong and name the first row left out
 * (tests/packs/cuda/test_gpu_shaped.sh). */
#define ROWS_NAME "rows-twin"
#define ROWS_SUMMARY "rows whose grid leaves out the last rows (a planted bug)"
#define ROWS_TWIN_ROUND_DOWN 1
#include "../../../plugins/cuda/rows.cu"
