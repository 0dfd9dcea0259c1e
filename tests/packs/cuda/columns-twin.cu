/* tests/packs/cuda/columns-twin.cu: the planted twin of the cuda pack's
 * columns strategies: plugins/cuda/columns.cu built with
 * COLUMNS_TWIN_ROUND_DOWN, so that the grid is rounded down (at least one
 * block): the tile and split strategies launch cols / tile tiles, the
 * thread strategy (cols / vector) / block blocks. When the columns are no
 * multiple of what a block takes (and pass it), the last columns are never
 * reduced. Correct otherwise. The host must judge it wrong and name the
 * first column left out (tests/packs/cuda/test_gpu_shaped.sh). */
#define COLUMNS_NAME "columns-twin"
#define COLUMNS_SUMMARY "columns whose grid leaves out the last partial tile (a planted bug)"
#define COLUMNS_TWIN_ROUND_DOWN 1
#include "../../../plugins/cuda/columns.cu"
