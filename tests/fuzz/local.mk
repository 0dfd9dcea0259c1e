# tests/fuzz/local.mk: the fuzzing harnesses of fuzz/. `make check` replays
# their seed corpus and regressions (test_fuzz_replay.sh); `make fuzz`
# (fuzz/run.sh, clang's libFuzzer) fuzzes for FUZZ_SECONDS (default 60).
TESTS += tests/fuzz/test_fuzz_replay.sh
EXTRA_DIST += tests/fuzz/test_fuzz_replay.sh

check_PROGRAMS += fuzz/replay_experiment fuzz/replay_descriptor
fuzz_replay_experiment_SOURCES = fuzz/fuzz_experiment.c fuzz/fuzz_sweep.h fuzz/replay.c
fuzz_replay_descriptor_SOURCES = fuzz/fuzz_descriptor.c fuzz/fuzz_sweep.h fuzz/replay.c
check_PROGRAMS += fuzz/replay_results
fuzz_replay_results_SOURCES = fuzz/fuzz_results.c fuzz/replay.c

# The module whose descriptor fuzz_descriptor sets (it exports a setter).
check_LTLIBRARIES += fuzz/fuzz-plugin.la
fuzz_fuzz_plugin_la_SOURCES = fuzz/fuzz_plugin.c
fuzz_fuzz_plugin_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
fuzz_fuzz_plugin_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere

EXTRA_DIST += fuzz/run.sh fuzz/README fuzz/experiment.dict fuzz/descriptor.dict fuzz/results.dict \
	fuzz/regressions

FUZZ_SECONDS = 60
fuzz:
	BUILD='$(abs_top_builddir)' $(SHELL) $(top_srcdir)/fuzz/run.sh $(FUZZ_SECONDS)
.PHONY: fuzz
