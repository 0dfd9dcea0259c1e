/* tests/packs/cuda/columns-vector-twin.cu: the planted twin of the cuda
 * pack's vector column loads: plugins/cuda/columns.cu built with
 * COLUMNS_TWIN_VECTOR_UNITS, so that the tile and split strategies count a
 * tile's first column in vectors (block x times the threads across a tile)
 * where it is in columns (that times the columns a load). With vectors
 * the tiles overlap and the last columns are never reduced (1,000 f32
 * columns, tiles of 32 at 4 a load: columns 280 on); without them it is
 * correct. The host must judge it wrong and name the first column left
 * out (tests/packs/cuda/test_gpu_shaped.sh). Run it on 32-bit types only:
 * with halves (8 columns a load) a tile of 32 starts at 4 columns a block,
 * an address only 8-byte aligned, and the misaligned load is a fault of
 * the device, not a wrong answer. */
#define COLUMNS_NAME "columns-vector-twin"
#define COLUMNS_SUMMARY "columns whose tiles start at a count of vectors, not of columns (a planted bug)"
#define COLUMNS_TWIN_VECTOR_UNITS 1
#include "../../../plugins/cuda/columns.cu"
