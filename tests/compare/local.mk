# tests/compare/local.mk: the tests of src/compare/.
#   test_compare_stats    the statistics behind `redbench compare` on
#                         samples with known answers
#   test_compare.sh       compare itself, with its fixtures (files measured
#                         in different timing modes and cache regimes)
#   test_compare_rounds.sh  compare on rows measured in rounds, with the
#                         short form of its measured acceptance
#                         (bench/compare_acceptance.sh); among the slowest
#                         of the suite: listed first
#   test_compare_settle.sh  an unclear verdict says how noisy each side was
#                         and what would settle it; the footer names its test
#   test_compare_energy.sh  energy judged beside time, on runs of the
#                         standin backend through the stand-in NVML
#                         (tests/run/energy/) and files made from them
#   test_compare_shaped.sh  the shape's columns (rows, axis, lengths) in the
#                         table, Markdown and CSV of shaped results, none
#                         for one reduction
check_PROGRAMS += tests/compare/test_compare_stats
tests_compare_test_compare_stats_SOURCES = tests/compare/test_compare_stats.c
TESTS += tests/compare/test_compare_rounds.sh tests/compare/test_compare_stats tests/compare/test_compare.sh \
	tests/compare/test_compare_energy.sh tests/compare/test_compare_settle.sh \
	tests/compare/test_compare_shaped.sh
EXTRA_DIST += tests/compare/test_compare.sh tests/compare/test_compare_rounds.sh \
	tests/compare/test_compare_shaped.sh \
	tests/compare/test_compare_settle.sh \
	tests/compare/test_compare_energy.sh \
	tests/compare/fixtures/launch.json tests/compare/fixtures/graph.json \
	tests/compare/fixtures/cold.json tests/compare/fixtures/unlabelled.json
