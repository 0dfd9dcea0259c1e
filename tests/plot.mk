# tests/plot.mk: the JSON reader, `redbench plot` and the HTML report.
check_PROGRAMS += tests/test_json_reader
tests_test_json_reader_SOURCES = tests/test_json_reader.c
tests_test_json_reader_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_json_reader_LDADD = $(TEST_LIBS)
TESTS += tests/test_json_reader

check_PROGRAMS += tests/test_plot_data
tests_test_plot_data_SOURCES = tests/test_plot_data.c
tests_test_plot_data_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_plot_data_LDADD = $(TEST_LIBS)
TESTS += tests/test_plot_data

TESTS += tests/test_plot.sh tests/test_html.sh
EXTRA_DIST += tests/test_plot.sh tests/test_html.sh tests/fixtures/plot/small.ini tests/fixtures/plot/none-ok.ini
