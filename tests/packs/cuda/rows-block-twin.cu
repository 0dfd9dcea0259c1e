/* tests/packs/cuda/rows-block-twin.cu: the planted twin of the cuda pack's
 * block and blocks strategies: plugins/cuda/rows.cu built with
 * ROWS_TWIN_CHUNK_DOWN, so that the part of a row each block takes is its
 * share rounded down to whole 16-byte vectors: the elements past split
 * times that (a row of 1,001 f32 at one block: its last; at three
 * blocks: its last five) are never taken. Correct where a row's share is
 * a whole number of vectors. The host must judge it wrong and name a row
 * (tests/packs/cuda/test_gpu_shaped.sh). */
#define ROWS_NAME "rows-block-twin"
#define ROWS_SUMMARY "rows whose blocks' parts are rounded down to whole vectors (a planted bug)"
#define ROWS_TWIN_CHUNK_DOWN 1
#include "../../../plugins/cuda/rows.cu"
