# tests/tune/local.mk: the tests of `redbench tune` (src/tune/ and its
# command).
#   test_tune.sh  tune on the cpu pack (fixtures/cpu.ini) and on the
#                 slowed plugin of tests/run/timing/
TESTS += tests/tune/test_tune.sh
EXTRA_DIST += tests/tune/test_tune.sh tests/tune/fixtures/cpu.ini
