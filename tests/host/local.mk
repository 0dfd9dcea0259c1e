# tests/host/local.mk: the tests of src/host/.
#   test_backend_cpu  the built-in cpu backend
#   test_peak_cache   the measured-peak cache
#   test_loader.sh    plugin discovery and ABI checks with the broken
#                     plugins of tests/plugins/
#   test_packs.sh     pack manifests and --list grouped by pack; two packs
#                     offering one name (PACK/NAME, the ambiguous plain
#                     name); shadowing; mistakes in a manifest; a plugin of
#                     the ABI 1.0 size (abi-1-0.c)
check_PROGRAMS += tests/host/test_backend_cpu tests/host/test_peak_cache
tests_host_test_backend_cpu_SOURCES = tests/host/test_backend_cpu.c
tests_host_test_peak_cache_SOURCES = tests/host/test_peak_cache.c
TESTS += tests/host/test_packs.sh tests/host/test_loader.sh tests/host/test_backend_cpu \
	tests/host/test_peak_cache
EXTRA_DIST += tests/host/test_packs.sh tests/host/test_loader.sh

# A plugin whose descriptor is exactly the ABI 1.0 layout (never installed).
check_LTLIBRARIES += tests/host/abi-1-0.la
tests_host_abi_1_0_la_SOURCES = tests/host/abi-1-0.c tests/plugins/test_plugin.h
tests_host_abi_1_0_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -I$(top_srcdir)/tests/plugins
tests_host_abi_1_0_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
