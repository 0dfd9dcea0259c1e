# tests/plot.mk: the JSON reader, printable text, `redbench plot` and the
# HTML report, the results reader, and results files as untrusted input.
check_PROGRAMS += tests/test_json_reader
tests_test_json_reader_SOURCES = tests/test_json_reader.c
TESTS += tests/test_json_reader

check_PROGRAMS += tests/test_plot_data
tests_test_plot_data_SOURCES = tests/test_plot_data.c
TESTS += tests/test_plot_data

check_PROGRAMS += tests/test_printable
tests_test_printable_SOURCES = tests/test_printable.c
TESTS += tests/test_printable

TESTS += tests/test_plot.sh tests/test_html.sh
EXTRA_DIST += tests/test_plot.sh tests/test_html.sh tests/fixtures/plot/small.ini tests/fixtures/plot/none-ok.ini

# Results files as untrusted input (plot and compare), and large ones; the
# results reader, with the malformed files it refuses.
TESTS += tests/test_results_untrusted.sh tests/test_results_large.sh tests/test_results_read.sh
EXTRA_DIST += tests/test_results_untrusted.sh tests/test_results_large.sh tests/gen_results.sh \
	tests/test_results_read.sh \
	tests/fixtures/read/deterministic-text.json tests/fixtures/read/device-out-of-range.json \
	tests/fixtures/read/experiment-cache.json tests/fixtures/read/host-text.json \
	tests/fixtures/read/median-text.json tests/fixtures/read/n-text.json \
	tests/fixtures/read/no-plugin.json tests/fixtures/read/param-object.json \
	tests/fixtures/read/params-array.json tests/fixtures/read/samples-not-reps.json \
	tests/fixtures/read/too-many-devices.json tests/fixtures/read/unknown-op.json \
	tests/fixtures/read/unknown-status.json

# The results reader's fuzzing harness (fuzz/fuzz_results.c), replayed by
# tests/test_fuzz_replay.sh.
check_PROGRAMS += fuzz/replay_results
fuzz_replay_results_SOURCES = fuzz/fuzz_results.c fuzz/replay.c
EXTRA_DIST += fuzz/results.dict
