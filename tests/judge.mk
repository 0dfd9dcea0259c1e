# tests/judge.mk: the judge's tests. tests/judge/buggy.c is a cpu strategy
# with planted bugs (tests/judge/bugs.h lists them); tests/test_judge.sh
# expects each reported `wrong` with what the probes found, and the correct
# strategy `ok` with every probe passed. tests/judge/buggy.cu is its twin
# on CUDA, built with nvcc by tests/test_gpu_judge.sh where there is a GPU,
# as are tests/judge/onepass-tail.cu (the cuda pack's onepass, its grid
# rounded down), onepass-reverse.cu (its reversed calls skip slice 0),
# pattern-tail.cu (the pack's pattern without the n % 4 elements after its
# last vector) and pattern-no-reset.cu (the pattern without its memset).
check_LTLIBRARIES += tests/judge/buggy.la
tests_judge_buggy_la_SOURCES = tests/judge/buggy.c tests/judge/bugs.h
tests_judge_buggy_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_judge_buggy_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/judge/dir.stamp: tests/judge/buggy.la
	$(AM_V_GEN)$(gather_plugins) tests/judge/dir tests/judge/buggy.la && touch $@
check_DATA += tests/judge/dir.stamp
CLEANFILES += tests/judge/dir.stamp tests/judge/dir/*.so

TESTS += tests/test_judge.sh tests/test_probe tests/test_gpu_judge.sh
EXTRA_DIST += tests/test_judge.sh tests/test_gpu_judge.sh tests/judge/buggy.cu \
	tests/judge/onepass-tail.cu tests/judge/onepass-reverse.cu \
	tests/judge/pattern-tail.cu tests/judge/pattern-no-reset.cu
check_PROGRAMS += tests/test_probe
tests_test_probe_SOURCES = tests/test_probe.c
