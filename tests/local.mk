# tests/local.mk: the TAP test suite (automake's tap-driver.sh). Each area
# keeps its tests in its own fragment, included below.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
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

EXTRA_DIST += tests/tap.h tests/lib.sh tests/capture.h tests/gather-plugins.sh

# The include order of src/'s folders (docs/architecture.md).
TESTS += tests/test_layers.sh
EXTRA_DIST += tests/test_layers.sh
check_SCRIPTS =
check_DATA =

include tests/experiment.mk
include tests/data.mk
include tests/report.mk
include tests/plugins.mk
include tests/cli.mk
include tests/gpu.mk
include tests/compare.mk
include tests/plot.mk
include tests/crashers.mk
include tests/robust.mk
include tests/ranks.mk
include tests/sdk.mk
include tests/timing.mk
include tests/vulkan.mk
include tests/judge.mk
