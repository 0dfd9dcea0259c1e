# tests/tune/local.mk: the tests of `redbench tune` (src/tune/ and its
# command).
#   test_tune.sh  tune on the cpu pack (fixtures/cpu.ini) and on the
#                 slowed plugin of tests/run/timing/
#   test_tune_options.sh  -r, -D and --dry-run, as a run takes them
#   test_tune_settings.sh  the tuned experiment keeps every [experiment]
#                 setting it was tuned under
#   test_dispatch.sh  `redbench dispatch`: the crossover map as a C header
#                 (fixtures/crossover-map.json, fixtures/dispatch-check.c)
TESTS += tests/tune/test_tune.sh tests/tune/test_tune_options.sh tests/tune/test_tune_settings.sh \
	tests/tune/test_dispatch.sh
EXTRA_DIST += tests/tune/test_tune.sh tests/tune/test_tune_options.sh tests/tune/test_tune_settings.sh \
	tests/tune/fixtures/cpu.ini tests/tune/test_dispatch.sh tests/tune/fixtures/crossover-map.json \
	tests/tune/fixtures/dispatch-check.c
