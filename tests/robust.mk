# tests/robust.mk: robustness: malformed experiment files, broken plugins
# contained in worker processes, interrupts, limits of sizes, and the
# fuzzing harnesses (fuzz/, run by `make fuzz` or .ci/run).
TESTS += tests/test_malformed.sh tests/test_isolation.sh tests/test_interrupt.sh \
	tests/test_limits.sh
EXTRA_DIST += tests/test_malformed.sh tests/test_isolation.sh tests/test_interrupt.sh \
	tests/test_limits.sh
