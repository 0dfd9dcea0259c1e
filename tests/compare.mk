# tests/compare.mk: provenance (SHA-256, git revision, the JSON of a real
# run), the statistics behind `redbench compare`, and compare itself.
check_PROGRAMS += tests/test_provenance
tests_test_provenance_SOURCES = tests/test_provenance.c
tests_test_provenance_CPPFLAGS = $(TEST_CPPFLAGS)
tests_test_provenance_LDADD = $(TEST_LIBS)
TESTS += tests/test_provenance tests/test_provenance.sh
EXTRA_DIST += tests/test_provenance.sh
