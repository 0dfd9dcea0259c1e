# tests/compare.mk: provenance (SHA-256, git revision, the JSON of a real
# run), the statistics behind `redbench compare`, and compare itself with
# its fixtures (files measured in different timing modes and cache regimes);
# compare on rows measured in rounds, with the short form of its measured
# acceptance (tests/test_compare_rounds.sh, bench/compare_acceptance.sh).
check_PROGRAMS += tests/test_provenance
tests_test_provenance_SOURCES = tests/test_provenance.c
TESTS += tests/test_provenance tests/test_provenance.sh
EXTRA_DIST += tests/test_provenance.sh

check_PROGRAMS += tests/test_compare_stats
tests_test_compare_stats_SOURCES = tests/test_compare_stats.c
TESTS += tests/test_compare_stats tests/test_compare.sh tests/test_compare_rounds.sh
EXTRA_DIST += tests/test_compare.sh tests/test_compare_rounds.sh tests/fixtures/compare/launch.json \
	tests/fixtures/compare/graph.json tests/fixtures/compare/cold.json \
	tests/fixtures/compare/unlabelled.json
