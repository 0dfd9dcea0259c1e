# tests/plugins/local.mk: the shared test plugins, used by many areas
# (tests/host/ for the loader tests, run, cli, ...), built by `make check` and
# never installed: three good ones (tiny-sum, wrong-answer, old-minor: ABI
# 1.4, never offered f16 or bf16) and five that are
# each broken in one way (tests/plugins/README says which, and the
# rejection to expect). All of them, plus a text file named notaplugin.so,
# are gathered in $(top_builddir)/tests/plugins/dir/ for
# `redbench --list --plugin-path tests/plugins/dir`.
TEST_PLUGINS = \
	tests/plugins/tiny-sum.la \
	tests/plugins/wrong-answer.la \
	tests/plugins/old-minor.la \
	tests/plugins/no-entry.la \
	tests/plugins/wrong-major.la \
	tests/plugins/newer-minor.la \
	tests/plugins/too-small.la \
	tests/plugins/no-run.la
check_LTLIBRARIES += $(TEST_PLUGINS)

tests_plugins_tiny_sum_la_SOURCES = tests/plugins/tiny-sum.c tests/plugins/test_plugin.h
tests_plugins_tiny_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_tiny_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_plugins_wrong_answer_la_SOURCES = tests/plugins/wrong-answer.c tests/plugins/test_plugin.h
tests_plugins_wrong_answer_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_wrong_answer_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_plugins_old_minor_la_SOURCES = tests/plugins/old-minor.c tests/plugins/test_plugin.h
tests_plugins_old_minor_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_old_minor_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

# Exports redbench_entry instead of the entry point: no symbol filter.
tests_plugins_no_entry_la_SOURCES = tests/plugins/no-entry.c tests/plugins/test_plugin.h
tests_plugins_no_entry_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_no_entry_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere

tests_plugins_wrong_major_la_SOURCES = tests/plugins/wrong-major.c tests/plugins/test_plugin.h
tests_plugins_wrong_major_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_wrong_major_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_plugins_newer_minor_la_SOURCES = tests/plugins/newer-minor.c tests/plugins/test_plugin.h
tests_plugins_newer_minor_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_newer_minor_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_plugins_too_small_la_SOURCES = tests/plugins/too-small.c tests/plugins/test_plugin.h
tests_plugins_too_small_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_too_small_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_plugins_no_run_la_SOURCES = tests/plugins/no-run.c tests/plugins/test_plugin.h
tests_plugins_no_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_no_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

# The folder the loader tests point --plugin-path at.
tests/plugins/dir.stamp: $(TEST_PLUGINS)
	$(AM_V_GEN)$(gather_plugins) tests/plugins/dir $(TEST_PLUGINS) && \
	echo 'redbench test file: text, not a shared object' > tests/plugins/dir/notaplugin.so && \
	touch $@
check_DATA += tests/plugins/dir.stamp
CLEANFILES += tests/plugins/dir.stamp tests/plugins/dir/*.so
EXTRA_DIST += tests/plugins/README

# count-fds (count-fds.c, open_fds.h) and loader-fds (loader-fds.c): kept
# out of dir/ (the loader tests count its plugins), in fds/ for
# tests/run/test_isolation.sh (what a worker inherits) and
# tests/host/test_loader.sh (what the loading process inherits).
check_LTLIBRARIES += tests/plugins/count-fds.la tests/plugins/loader-fds.la
tests_plugins_count_fds_la_SOURCES = tests/plugins/count-fds.c tests/plugins/open_fds.h \
	tests/plugins/test_plugin.h
tests_plugins_count_fds_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_count_fds_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_loader_fds_la_SOURCES = tests/plugins/loader-fds.c tests/plugins/open_fds.h \
	tests/plugins/test_plugin.h
tests_plugins_loader_fds_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_loader_fds_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests/plugins/fds.stamp: tests/plugins/count-fds.la tests/plugins/loader-fds.la
	$(AM_V_GEN)$(gather_plugins) tests/plugins/fds tests/plugins/count-fds.la \
	  tests/plugins/loader-fds.la && touch $@
check_DATA += tests/plugins/fds.stamp
CLEANFILES += tests/plugins/fds.stamp tests/plugins/fds/*.so

# The reproducibility levels' cpu plugins (tests/plugins/chunk-sum.h), in a
# folder of their own so that the loader tests' folder keeps its plugins:
# chunk-fixed (the same bits on every layout), its planted twin
# chunk-twin (its bits follow its parameter) and chunk-varies (its bits
# change from run to run), for tests/plugins/test_repro.sh.
REPRO_TEST_PLUGINS = tests/plugins/chunk-fixed.la tests/plugins/chunk-twin.la \
	tests/plugins/chunk-varies.la
check_LTLIBRARIES += $(REPRO_TEST_PLUGINS)
tests_plugins_chunk_varies_la_SOURCES = tests/plugins/chunk-varies.c tests/plugins/chunk-sum.h
tests_plugins_chunk_varies_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_chunk_varies_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_chunk_fixed_la_SOURCES = tests/plugins/chunk-fixed.c tests/plugins/chunk-sum.h
tests_plugins_chunk_fixed_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_chunk_fixed_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_chunk_twin_la_SOURCES = tests/plugins/chunk-twin.c tests/plugins/chunk-sum.h
tests_plugins_chunk_twin_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_plugins_chunk_twin_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests/plugins/repro-dir.stamp: $(REPRO_TEST_PLUGINS)
	$(AM_V_GEN)$(gather_plugins) tests/plugins/repro-dir $(REPRO_TEST_PLUGINS) && touch $@
check_DATA += tests/plugins/repro-dir.stamp
CLEANFILES += tests/plugins/repro-dir.stamp tests/plugins/repro-dir/*.so
TESTS += tests/plugins/test_repro.sh
EXTRA_DIST += tests/plugins/test_repro.sh

# The planted bugs of shaped reductions (tests/plugins/shaped-twin.c, one
# plugin per bug, built with SHAPED_BUG), in shaped-dir/ for
# tests/run/test_shaped.sh (shaped-near, whose sums pass but are not
# exact, for tests/plugins/test_repro.sh).
SHAPED_TEST_PLUGINS = tests/plugins/shaped-right.la tests/plugins/shaped-next-row.la tests/plugins/shaped-last-row.la tests/plugins/shaped-fixed-len.la tests/plugins/shaped-empty.la tests/plugins/shaped-swapped.la tests/plugins/shaped-remembered.la \
	tests/plugins/shaped-near.la
check_LTLIBRARIES += $(SHAPED_TEST_PLUGINS)
tests_plugins_shaped_right_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_right_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=0
tests_plugins_shaped_right_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_next_row_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_next_row_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=1
tests_plugins_shaped_next_row_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_last_row_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_last_row_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=2
tests_plugins_shaped_last_row_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_fixed_len_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_fixed_len_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=3
tests_plugins_shaped_fixed_len_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_empty_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_empty_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=4
tests_plugins_shaped_empty_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_swapped_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_swapped_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=5
tests_plugins_shaped_swapped_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_remembered_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_remembered_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=6
tests_plugins_shaped_remembered_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_plugins_shaped_near_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_near_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_BUG=7
tests_plugins_shaped_near_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests/plugins/shaped-dir.stamp: $(SHAPED_TEST_PLUGINS)
	$(AM_V_GEN)$(gather_plugins) tests/plugins/shaped-dir $(SHAPED_TEST_PLUGINS) && touch $@
check_DATA += tests/plugins/shaped-dir.stamp
CLEANFILES += tests/plugins/shaped-dir.stamp tests/plugins/shaped-dir/*.so

# The control on the fragile test backend (a device of 1 GiB), with that
# backend in shaped-fragile-dir/, for tests/run/test_limits.sh.
check_LTLIBRARIES += tests/plugins/shaped-fragile.la
tests_plugins_shaped_fragile_la_SOURCES = tests/plugins/shaped-twin.c
tests_plugins_shaped_fragile_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DSHAPED_FRAGILE
tests_plugins_shaped_fragile_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests/plugins/shaped-fragile-dir.stamp: tests/plugins/shaped-fragile.la tests/run/crashers/fragile-backend.la
	$(AM_V_GEN)$(gather_plugins) tests/plugins/shaped-fragile-dir tests/plugins/shaped-fragile.la \
	  tests/run/crashers/fragile-backend.la && touch $@
check_DATA += tests/plugins/shaped-fragile-dir.stamp
CLEANFILES += tests/plugins/shaped-fragile-dir.stamp tests/plugins/shaped-fragile-dir/*.so
