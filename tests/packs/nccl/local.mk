# tests/packs/nccl/local.mk: the nccl pack on two GPUs: a rank killed
# inside an NCCL collective fails its row naming the rank, and the next row
# runs in a fresh group (test_nccl_faults.sh, with the test plugin
# nccl-crash.cu built by nvcc and NCCL there). Skips without two GPUs.
EXTRA_DIST += tests/packs/nccl/test_nccl_faults.sh tests/packs/nccl/nccl-crash.cu
if BUILD_CUDA
TESTS += tests/packs/nccl/test_nccl_faults.sh
endif
