# tests/history/local.mk: the tests of src/history/.
#   test_steps          the step detection on series of known answer
#   test_history.sh     a run appended with -o FILE.db and read back byte for
#                       byte (report, compare, dispatch, plot take DB@WHICH);
#                       history add, the listing and its filters, a sqlite3
#                       query; 8 processes appending at once lose nothing; a
#                       run killed mid-way, or interrupted, adds nothing
#   test_history_gate.sh  synthetic histories (make-history): a planted 2x
#                       step found at its run, `history check` failing on the
#                       run after it only; 50 re-runs of an unchanged
#                       experiment on a quiet machine: no step, every check
#                       passes; the trend page
#   test_history_errors.sh  malformed, foreign, locked, read-only and
#                       newer-schema histories: an error naming the file,
#                       nothing changed
#   test_history_migrate.sh  a history of schema version 1 (made by hand,
#                       make-v1-history) read as it is, and upgraded in one
#                       transaction when written; an upgrade in the way
#                       refused, nothing changed
#   test_history_report.sh  the HTML report of a history's run: its
#                       configurations' trends over the history, linked from
#                       its rows; the JSON file's page otherwise unchanged
#   test_history_large.sh  1,000 runs of 100 rows: `history`, the trend page,
#                       `history check` and the report with its trends each
#                       under 10 s
# make-history writes a synthetic history fast (tests/history/make_history.c);
# make-v1-history one of schema version 1 (tests/history/make_v1_history.c).
check_PROGRAMS += tests/history/test_steps tests/history/make-history \
	tests/history/make-v1-history
tests_history_test_steps_SOURCES = tests/history/test_steps.c
tests_history_make_history_SOURCES = tests/history/make_history.c
tests_history_make_history_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
tests_history_make_v1_history_SOURCES = tests/history/make_v1_history.c
tests_history_make_v1_history_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
TESTS += tests/history/test_history_large.sh tests/history/test_history.sh \
	tests/history/test_history_gate.sh tests/history/test_history_errors.sh \
	tests/history/test_history_migrate.sh tests/history/test_history_report.sh \
	tests/history/test_steps
EXTRA_DIST += tests/history/test_history_large.sh tests/history/test_history.sh \
	tests/history/test_history_gate.sh tests/history/test_history_errors.sh \
	tests/history/test_history_migrate.sh tests/history/test_history_report.sh

