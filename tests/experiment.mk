# tests/experiment.mk: unit tests of the experiment file reader, the sweep
# expansion and the units parser, with their fixtures; every [experiment]
# key through a results file and a tuned experiment (test_settings).
check_PROGRAMS += tests/test_units tests/test_experiment tests/test_sweep tests/test_settings
TESTS += tests/test_units tests/test_experiment tests/test_sweep tests/test_settings

tests_test_units_SOURCES = tests/test_units.c
tests_test_experiment_SOURCES = tests/test_experiment.c
tests_test_sweep_SOURCES = tests/test_sweep.c
tests_test_settings_SOURCES = tests/test_settings.c

EXTRA_DIST += \
	tests/fixtures/experiment/valid.ini \
	tests/fixtures/experiment/long-line.ini \
	tests/fixtures/experiment/empty.ini
