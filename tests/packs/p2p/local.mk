# tests/packs/p2p/local.mk: the p2p pack on the GPUs of one machine: every
# strategy at 2 ranks and at every GPU, value and vector, launch and graph
# timing, its planted-bug twins (tests/run/judge/p2p-*.cu) caught, and
# compute-sanitizer over every rank (test_p2p.sh). Skips without two GPUs.
EXTRA_DIST += tests/packs/p2p/test_p2p.sh tests/run/judge/p2p-skip-peer.cu \
	tests/run/judge/p2p-stale.cu tests/run/judge/p2p-no-fence.cu \
	tests/run/judge/p2p-one-stage.cu
if BUILD_CUDA
TESTS += tests/packs/p2p/test_p2p.sh
endif
