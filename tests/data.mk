# tests/data.mk: unit tests of the data path: input generation, reference
# results and verdicts, sample statistics and the cpu backend.
check_PROGRAMS += tests/test_input tests/test_reference tests/test_stats tests/test_backend_cpu
tests_test_input_SOURCES = tests/test_input.c
tests_test_reference_SOURCES = tests/test_reference.c
tests_test_stats_SOURCES = tests/test_stats.c
tests_test_backend_cpu_SOURCES = tests/test_backend_cpu.c

TESTS += tests/test_input tests/test_reference tests/test_stats tests/test_backend_cpu
