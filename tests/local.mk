# tests/local.mk: the TAP test suite (automake's tap-driver.sh). Each area
# keeps its tests in its own fragment, included below.
# Each test's duration is appended to its log (tests/timed-driver.sh).
LOG_DRIVER = $(SHELL) $(top_srcdir)/tests/timed-driver.sh \
	env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	REDBENCH='$(abs_top_builddir)/redbench'; JQ='$(JQ)'; \
	export top_srcdir top_builddir REDBENCH JQ;

# Unit tests (and fuzz/'s replays) link the program's library: LDADD is
# every program's that does not name its own (redbench and write-completion
# do), so a test needs only its sources.
LDADD = $(REDBENCH_LIBS) -lm
# Test plugins: modules that are never installed, that see only the SDK.
TEST_PLUGIN_CPPFLAGS = -I$(top_srcdir)/sdk
TEST_PLUGIN_LINK_FLAGS = $(PLUGIN_LINK_FLAGS) -rpath /nowhere
# $(gather_plugins) DIR MODULE.la...: the folder of a test's --plugin-path,
# holding those modules' shared objects (tests/gather-plugins.sh).
gather_plugins = $(SHELL) $(top_srcdir)/tests/gather-plugins.sh

EXTRA_DIST += tests/tap.h tests/lib.sh tests/capture.h tests/gather-plugins.sh tests/timed-driver.sh
check_SCRIPTS =
check_DATA =
# Unit tests include tap.h and capture.h from here.
AM_CPPFLAGS += -I$(top_srcdir)/tests

# Tests keep what they cache (the measured peaks, and what other programs
# they run cache) in the build tree, not in ~/.cache. The host's peak is
# measured once, before the tests, into that cache (tests/cache/host-peak.stamp),
# and every run after reads it from there: measuring it reads 4 times the
# last-level cache, 5 times over (6 GB on a machine with 300 MiB of L3),
# which took most of the suite's time when every run measured it. The tests
# of the measurement and of the cache (test_timing.sh, test_peak_check.sh,
# test_gpu_timing.sh, test_isolation.sh's counts) use folders of their own.
# The load the peak is measured under is read from a stand-in of an idle
# host (tests/idle.loadavg), so that whether the suite's cached peak is
# kept does not depend on the machine's load (a busy host's is kept 15 min).
AM_TESTS_ENVIRONMENT += XDG_CACHE_HOME='$(abs_top_builddir)/tests/cache'; export XDG_CACHE_HOME; \
	unset REDBENCH_PEAK; REDBENCH_LOADAVG='$(abs_top_srcdir)/tests/idle.loadavg'; export REDBENCH_LOADAVG;
check_DATA += tests/cache/host-peak.stamp
EXTRA_DIST += tests/host-peak.ini tests/idle.loadavg
tests/cache/host-peak.stamp: redbench$(EXEEXT) $(top_srcdir)/tests/host-peak.ini
	$(AM_V_GEN)$(MKDIR_P) tests/cache && rm -f $@ && \
	XDG_CACHE_HOME='$(abs_top_builddir)/tests/cache' REDBENCH_PEAK= \
	  REDBENCH_LOADAVG='$(abs_top_srcdir)/tests/idle.loadavg' ./redbench$(EXEEXT) -q \
	  -c $(top_srcdir)/tests/host-peak.ini -o tests/cache/host-peak.json && \
	rm -f tests/cache/host-peak.json && touch $@
RB_CLEAN_HOOKS += timing-clean
timing-clean:
	rm -rf tests/cache
.PHONY: timing-clean

# Each area of tests/ mirrors the source tree and keeps its tests, fixtures
# (its fixtures/ folder: $fixtures in lib.sh), test plugins and fragment
# (local.mk) together:
#   tests/<layer>/        the tests of src/<layer>/: base, host, config, run,
#                         plot, report, compare, tune, cli
#   tests/packs/<pack>/   the tests of the pack in plugins/<pack>/ (cpu,
#                         cuda, vulkan, mpi, nccl: those that have tests)
#   tests/sdk/            the installed SDK (sdk/)
#   tests/fuzz/           the fuzzing harnesses of fuzz/
#   tests/source/         the source tree itself (the layers of src/)
#   tests/plugins/        shared test plugins (tiny-sum, test_plugin.h, the
#                         loader's broken ones) that the other areas use
# A test lives in the area that owns the code it tests.
#
# make -j starts the tests in the order of TESTS: the fragments whose tests
# take longest (.ci/run lists the slowest) come first, and list their
# slowest first, so that none of them starts last and runs alone: sdk's
# test_install and test_reconfigure, run's robustness tests (test_limits,
# test_interrupt, test_isolation), compare's test_compare_rounds, report's
# test_results_large and test_html; the vulkan and mpi packs' tests, the
# slowest under the sanitizers (lavapipe's compiler allocates through
# their allocator), before any of these.
include tests/packs/vulkan/local.mk
include tests/packs/mpi/local.mk
include tests/sdk/local.mk
include tests/run/local.mk
include tests/procs/local.mk
include tests/compare/local.mk
include tests/report/local.mk
include tests/history/local.mk
include tests/config/local.mk
include tests/base/local.mk
include tests/host/local.mk
include tests/plot/local.mk
include tests/tune/local.mk
include tests/cli/local.mk
include tests/fuzz/local.mk
include tests/source/local.mk
include tests/plugins/local.mk
include tests/packs/cuda/local.mk
include tests/packs/p2p/local.mk
include tests/packs/nccl/local.mk
