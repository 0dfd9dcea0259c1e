/* tests/packs/cuda/repro-twin.cu: the planted twin of the cuda pack's repro
 * sum: plugins/cuda/repro.cu built with REPRO_BLOCK_TREE, so that each lane
 * adds all of its chunks of a tile in one accumulator and the tile's tree
 * follows the block size, while its label still says "fixed tree". The
 * host must judge its rows run-to-run, not layout-independent, wherever
 * two block sizes give different bits (tests/packs/cuda/test_gpu_repro.sh). */
#define REPRO_NAME "repro-twin"
#define REPRO_SUMMARY "repro with a tree that follows the block size (a planted bug)"
#define REPRO_BLOCK_TREE 1
#include "../../../plugins/cuda/repro.cu"
