# tests/report/local.mk: the tests of src/report/.
#   test_results_large.sh  `redbench report`, `plot` and `compare` on a
#                    results file of 200,000 rows (gen_results.sh writes it):
#                    their processor time and their memory (measure.c
#                    measures both)
#   test_html.sh     `--format html`: one self-contained page
#   test_html_shaped.sh  the HTML report of shaped results: rows, axis and
#                    lengths columns where the rows have them, none for
#                    one reduction
#   test_html_layout.sh  the page of fixtures/html-wide.json fits 1400
#                    pixels (headless Chromium), its skipped rows folded,
#                    units in its headers, its strategy x n map
#   test_results_untrusted.sh  results files as untrusted input to plot and
#                    compare
#   test_results_read.sh  the results reader, with the malformed files it
#                    refuses (fixtures/)
#   test_read_strict.sh  names given twice, a newer schema_version and
#                    numbers out of a run's ranges refused, naming file and line
#   test_reports     the reporters (table, csv, json, md), the JSON writer,
#                    results_free and results_count, on a results set built
#                    by hand; its JSON checks read the report back with jq
#                    and are skipped without it
#   test_results_schema.sh  a real run's JSON against
#                    docs/results-schema.md; seeds as strings; parameters
#                    typed alike
#   test_writers     the writers every report shares (report/output.c) on
#                    hostile text: CSV formulas, Markdown links, images,
#                    raw HTML, autolinks and control characters, fences
#   test_report_scaling  every reporter's work grows as rows log rows: 16
#                    times the rows, at most 32 times the instructions (or
#                    CPU time), on results built in memory
#   test_report_hostile.sh  `redbench report` of a stranger's results:
#                    CSV formulas, Markdown links and control characters,
#                    the terminal, rows short of their rounds, Ctrl-C
#   test_labels.sh   every report says how the rows were timed, as the
#                    run's table does, and what the experiment asked for
# html_check.py tells whether a page holding strangers' text is well-formed
# and inert (test_results_untrusted.sh, tests/history/test_history_report.sh).
# test_results_large.sh and test_html.sh are among the slowest of the
# suite: listed first.
TESTS += tests/report/test_results_large.sh tests/report/test_html.sh \
	tests/report/test_html_layout.sh tests/report/test_results_untrusted.sh tests/report/test_results_read.sh \
	tests/report/test_read_strict.sh tests/report/test_html_shaped.sh
EXTRA_DIST += tests/report/test_results_large.sh tests/report/test_html.sh tests/report/test_html_shaped.sh \
	tests/report/test_html_layout.sh tests/report/fixtures/html-wide.json \
	tests/report/fixtures/html-wide.ini \
	tests/report/test_results_untrusted.sh tests/report/test_results_read.sh \
	tests/report/test_read_strict.sh tests/report/gen_results.sh \
	tests/report/fixtures/deterministic-text.json tests/report/fixtures/device-out-of-range.json \
	tests/report/fixtures/experiment-cache.json tests/report/fixtures/host-text.json \
	tests/report/fixtures/median-text.json tests/report/fixtures/n-text.json \
	tests/report/fixtures/no-plugin.json tests/report/fixtures/param-object.json \
	tests/report/fixtures/params-array.json tests/report/fixtures/samples-not-reps.json \
	tests/report/fixtures/too-many-devices.json tests/report/fixtures/unknown-op.json \
	tests/report/fixtures/unknown-status.json

check_PROGRAMS += tests/report/test_reports tests/report/test_writers \
	tests/report/test_report_scaling tests/report/measure
tests_report_measure_SOURCES = tests/report/measure.c
tests_report_measure_LDADD =
tests_report_test_reports_SOURCES = tests/report/test_reports.c
tests_report_test_writers_SOURCES = tests/report/test_writers.c
tests_report_test_report_scaling_SOURCES = tests/report/test_report_scaling.c
TESTS += tests/report/test_reports tests/report/test_writers tests/report/test_report_scaling \
	tests/report/test_report_hostile.sh tests/report/test_results_schema.sh tests/report/test_labels.sh
EXTRA_DIST += tests/report/test_report_hostile.sh tests/report/test_results_schema.sh docs/results-schema.md tests/report/test_labels.sh \
	tests/report/html_check.py
