# tests/report.mk: the reporters (table, csv, json, md), the JSON writer,
# results_free and results_count, on a results set built by hand. The JSON
# checks read the report back with jq and are skipped without it.
check_PROGRAMS += tests/test_reports
tests_test_reports_SOURCES = tests/test_reports.c
tests_test_reports_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_reports_LDADD = $(TEST_LIBS)
TESTS += tests/test_reports
