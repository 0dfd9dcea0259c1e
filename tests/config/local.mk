# tests/config/local.mk: the tests of src/config/.
#   test_experiment  the experiment file reader, with its fixtures
#   test_sweep       the expansion of [run] sections into configurations
#   test_settings    every [experiment] key of config/settings.c through an
#                    experiment file, a results file and a tuned experiment
#   test_malformed.sh  every malformed experiment file in malformed/ makes
#                    redbench exit 2 and print the error malformed/EXPECTED
#                    gives for it
#   test_one_pass.sh  a file's errors in one pass (keys, plugin parameters),
#                    sorted by line, then the closing line
#   test_shipped.sh  every experiment file of conf/ checks out against the
#                    plugins this build has
check_PROGRAMS += tests/config/test_experiment tests/config/test_sweep tests/config/test_settings
tests_config_test_experiment_SOURCES = tests/config/test_experiment.c
tests_config_test_sweep_SOURCES = tests/config/test_sweep.c
tests_config_test_settings_SOURCES = tests/config/test_settings.c
TESTS += tests/config/test_malformed.sh tests/config/test_one_pass.sh tests/config/test_shipped.sh tests/config/test_experiment tests/config/test_sweep tests/config/test_settings
EXTRA_DIST += tests/config/test_malformed.sh tests/config/test_one_pass.sh tests/config/test_shipped.sh tests/config/malformed \
	tests/config/fixtures/valid.ini \
	tests/config/fixtures/long-line.ini \
	tests/config/fixtures/empty.ini
