/* tests/packs/cuda/columns-twin.cu: the planted twin of the cuda pack's
 * columns strategies: plugins/cuda/columns.cu built with
 * COLUMNS_TWIN_ROUND_DOWN, so that the tile and split strategies launch
 * cols / tile tiles rounded down (at least one): when cols is not a
 * multiple of the tile (and passes it), the last columns are never
 * reduced. Correct otherwise. The host must judge it wrong and name the
 * first column left out (tests/packs/cuda/test_gpu_shaped.sh). */
#define COLUMNS_NAME "columns-twin"
#define COLUMNS_SUMMARY "columns whose grid leaves out the last partial tile (a planted bug)"
#define COLUMNS_TWIN_ROUND_DOWN 1
#include "../../../plugins/cuda/columns.cu"
