# tests/timing.mk: the measurement's tests. Unit tests of the stop rule,
# batch sizes, bit comparison and names (src/run/rules.c) and of the peak
# cache; tests/test_timing.sh runs the cpu pack and the plugins of
# tests/timing/ in every timing mode and checks the rows' timing,
# stopped_by, error_ratio, determinism and clock fields, the peak cache and
# --profile; tests/test_peak_check.sh: one cache entry for run and tune, a
# measurement far from the cached figure taken again; tests/test_rounds.sh:
# rounds (each configuration measured K times in shuffled orders, the rows'
# rounds, the order recorded and listed in the HTML report, a failed round
# final, a run interrupted in a later round); tests/test_gpu_timing.sh does the same on a GPU with the cuda
# pack. tests/timing/: delay-sum (an i32 sum that reads delay% of its
# input again: a planted slowdown), flaky-bits (right, but its last bit changes between
# runs), old-clock (a backend of ABI 1.0) and old-sum (a plugin on it),
# gathered in tests/timing/dir/. The standalone check in bench/ is shipped.
check_PROGRAMS += tests/test_rules tests/test_peak_cache
TESTS += tests/test_rules tests/test_peak_cache tests/test_timing.sh tests/test_peak_check.sh \
	tests/test_rounds.sh
tests_test_rules_SOURCES = tests/test_rules.c
tests_test_peak_cache_SOURCES = tests/test_peak_cache.c

TIMING_PLUGINS = \
	tests/timing/delay-sum.la \
	tests/timing/flaky-bits.la \
	tests/timing/old-clock.la \
	tests/timing/old-sum.la
check_LTLIBRARIES += $(TIMING_PLUGINS)
tests_timing_delay_sum_la_SOURCES = tests/timing/delay-sum.c
tests_timing_delay_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_timing_delay_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_timing_flaky_bits_la_SOURCES = tests/timing/flaky-bits.c
tests_timing_flaky_bits_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_timing_flaky_bits_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_timing_flaky_bits_la_LIBADD = -lm
tests_timing_old_clock_la_SOURCES = tests/timing/old-clock.c
tests_timing_old_clock_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_timing_old_clock_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_timing_old_sum_la_SOURCES = tests/timing/old-sum.c
tests_timing_old_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_timing_old_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/timing/dir.stamp: $(TIMING_PLUGINS)
	$(AM_V_GEN)$(gather_plugins) tests/timing/dir $(TIMING_PLUGINS) && touch $@
check_DATA += tests/timing/dir.stamp
CLEANFILES += tests/timing/dir.stamp tests/timing/dir/*.so

EXTRA_DIST += tests/test_timing.sh tests/test_gpu_timing.sh tests/test_peak_check.sh tests/test_rounds.sh \
	bench/Makefile bench/plain_cub_sum.cu bench/plain_dlopen.c bench/plain_record.cu bench/launch_vs_plain.py \
	bench/launch-vs-plain.ini bench/hopper_vs_cub.py bench/results.py \
	bench/launch_rounds.sh bench/launch_rounds.py bench/launch-rounds.ini \
	bench/compare_acceptance.sh bench/compare-acceptance.ini bench/compare-acceptance-gpu.ini \
	bench/timing_rounds.sh tests/timing/delay-cuda.cu
if BUILD_CUDA
TESTS += tests/test_gpu_timing.sh
endif

# Tests keep what they cache (the measured peaks, and what other programs
# they run cache) in the build tree, not in ~/.cache. The host's peak is
# measured once, before the tests, into that cache (tests/cache/host-peak.stamp),
# and every run after reads it from there: measuring it reads 8 times the
# last-level cache, 5 times over (12 GB on a machine with 300 MiB of L3),
# which took most of the suite's time when every run measured it. The tests
# of the measurement and of the cache (test_timing.sh, test_peak_check.sh,
# test_gpu_timing.sh, test_isolation.sh's counts) use folders of their own.
AM_TESTS_ENVIRONMENT += XDG_CACHE_HOME='$(abs_top_builddir)/tests/cache'; export XDG_CACHE_HOME; \
	unset REDBENCH_PEAK;
check_DATA += tests/cache/host-peak.stamp
EXTRA_DIST += tests/fixtures/timing/host-peak.ini
tests/cache/host-peak.stamp: redbench$(EXEEXT) $(top_srcdir)/tests/fixtures/timing/host-peak.ini
	$(AM_V_GEN)$(MKDIR_P) tests/cache && rm -f $@ && \
	XDG_CACHE_HOME='$(abs_top_builddir)/tests/cache' REDBENCH_PEAK= ./redbench$(EXEEXT) -q \
	  -c $(top_srcdir)/tests/fixtures/timing/host-peak.ini -o tests/cache/host-peak.json && \
	rm -f tests/cache/host-peak.json && touch $@
RB_CLEAN_HOOKS += timing-clean
timing-clean:
	rm -rf tests/cache
.PHONY: timing-clean
