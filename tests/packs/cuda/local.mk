# tests/packs/cuda/local.mk: tests of the cuda pack on a GPU: every
# strategy verified at sizes up to 2^30 (2^32 + 5 bytes for histograms),
# and compute-sanitizer's memcheck and racecheck over every plugin
# (test_gpu_correct.sh, test_gpu_sanitize.sh), the reproducibility
# levels of repro, cub-deterministic and their planted twins
# (test_gpu_repro.sh), and the shaped
# reductions (segmented, rows, columns), their planted twins and
# compute-sanitizer over them (test_gpu_shaped.sh). They run when the pack is built
# and skip (TAP SKIP) without a CUDA device, jq or compute-sanitizer. The
# linkage of the pack's modules is checked wherever the pack is built.
EXTRA_DIST += tests/packs/cuda/test_gpu_correct.sh tests/packs/cuda/test_gpu_sanitize.sh \
	tests/packs/cuda/test_cuda_linkage.sh tests/packs/cuda/test_gpu_repro.sh \
	tests/packs/cuda/repro-twin.cu tests/packs/cuda/test_gpu_shaped.sh \
	tests/packs/cuda/rows-twin.cu tests/packs/cuda/columns-twin.cu \
	tests/packs/cuda/columns-vector-twin.cu tests/packs/cuda/rows-waves-twin.cu \
	tests/packs/cuda/rows-block-twin.cu tests/packs/cuda/rows-ticket-twin.cu \
	tests/packs/cuda/rows-reverse-twin.cu \
	tests/packs/cuda/segmented-twin.cu tests/packs/cuda/cub-deterministic-twin.cu
# test_gpu_repro.sh builds cub-deterministic's twin with the CCCL the
# pack's plugin was built with (plugins/cuda/local.mk's CUDA_CCCL_FLAGS).
AM_TESTS_ENVIRONMENT += CUDA_CCCL_FLAGS='$(CUDA_CCCL_FLAGS)'; export CUDA_CCCL_FLAGS;
if BUILD_CUDA
TESTS += tests/packs/cuda/test_gpu_correct.sh tests/packs/cuda/test_gpu_sanitize.sh \
	tests/packs/cuda/test_cuda_linkage.sh tests/packs/cuda/test_gpu_repro.sh \
	tests/packs/cuda/test_gpu_shaped.sh
endif
