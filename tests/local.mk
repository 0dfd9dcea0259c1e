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
LDADD = src/libredbench.la -lm
# Test plugins: modules that are never installed, that see only the SDK.
TEST_PLUGIN_CPPFLAGS = -I$(top_srcdir)/sdk
TEST_PLUGIN_LINK_FLAGS = $(PLUGIN_LINK_FLAGS) -rpath /nowhere
# $(gather_plugins) DIR MODULE.la...: the folder of a test's --plugin-path,
# holding those modules' shared objects (tests/gather-plugins.sh).
gather_plugins = $(SHELL) $(top_srcdir)/tests/gather-plugins.sh

EXTRA_DIST += tests/tap.h tests/lib.sh tests/capture.h tests/gather-plugins.sh tests/timed-driver.sh
check_SCRIPTS =
check_DATA =

# make -j starts the tests in the order of TESTS: the fragments whose tests
# take longest (.ci/run lists the slowest) come first, so that none of them
# starts last and runs alone.
include tests/sdk.mk
include tests/crashers.mk
include tests/robust.mk
include tests/compare.mk
include tests/plot.mk
include tests/ranks.mk
include tests/packs/mpi/local.mk
include tests/experiment.mk
include tests/data.mk
include tests/report.mk
include tests/plugins.mk
include tests/cli.mk
include tests/packs/cuda/local.mk
include tests/timing.mk
include tests/packs/vulkan/local.mk
include tests/judge.mk
include tests/source.mk
