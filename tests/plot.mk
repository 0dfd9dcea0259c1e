# tests/plot.mk: the JSON reader, `redbench plot` and the HTML report.
include core/plot.mk

check_PROGRAMS += tests/test_json_reader
tests_test_json_reader_SOURCES = tests/test_json_reader.c
tests_test_json_reader_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_json_reader_LDADD = $(TEST_LIBS)
TESTS += tests/test_json_reader
