# tests/base/local.mk: the tests of src/base/.
#   test_units        sizes, numbers, booleans and durations (units.c)
#   test_stats        sample statistics on samples with known answers
#   test_json_reader  the JSON reader
#   test_printable    printable_text (util.c)
#   test_provenance   SHA-256 and the build's git revision
#   test_output.sh    the files redbench writes (safe_file.c)
#   test_diag_escape.sh  an experiment file's words reach the terminal
#                     escaped (diag.c)
check_PROGRAMS += tests/base/test_units tests/base/test_stats tests/base/test_json_reader \
	tests/base/test_printable tests/base/test_provenance
tests_base_test_units_SOURCES = tests/base/test_units.c
tests_base_test_stats_SOURCES = tests/base/test_stats.c
tests_base_test_json_reader_SOURCES = tests/base/test_json_reader.c
tests_base_test_printable_SOURCES = tests/base/test_printable.c
tests_base_test_provenance_SOURCES = tests/base/test_provenance.c
TESTS += tests/base/test_output.sh tests/base/test_units tests/base/test_stats \
	tests/base/test_json_reader tests/base/test_printable tests/base/test_provenance \
	tests/base/test_diag_escape.sh
EXTRA_DIST += tests/base/test_output.sh tests/base/test_diag_escape.sh
