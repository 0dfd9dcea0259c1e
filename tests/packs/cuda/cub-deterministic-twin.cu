/* tests/packs/cuda/cub-deterministic-twin.cu: the planted twin of the cuda
 * pack's cub-deterministic: plugins/cuda/cub_deterministic.cu built with
 * CUB_DETERMINISTIC_NO_STORAGE, so that its memory resource gives CUB a
 * null buffer and no error; CUB, given no storage, only computes how much
 * it needs, and every call returns without reducing. The host must judge
 * its rows wrong (tests/packs/cuda/test_gpu_repro.sh). */
#define CUB_DETERMINISTIC_NAME "cub-deterministic-twin"
#define CUB_DETERMINISTIC_SUMMARY "cub-deterministic whose storage is never handed over (a planted bug)"
#define CUB_DETERMINISTIC_NO_STORAGE 1
#include "../../../plugins/cuda/cub_deterministic.cu"
