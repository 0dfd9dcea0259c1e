# tests/report.mk: the reporters (table, csv, json, md), the JSON writer,
# results_free and results_count, on a results set built by hand. The JSON
# checks read the report back with jq and are skipped without it.
# tests/test_results_schema.sh: a real run's JSON against
# docs/results-schema.md; seeds as strings; parameters typed alike.
check_PROGRAMS += tests/test_reports
tests_test_reports_SOURCES = tests/test_reports.c
TESTS += tests/test_reports tests/test_results_schema.sh
EXTRA_DIST += tests/test_results_schema.sh docs/results-schema.md
