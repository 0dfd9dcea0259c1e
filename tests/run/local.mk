# tests/run/local.mk: the tests of src/run/: running configurations and
# what keeps a run whole. Test plugins of this area, each gathered in its
# folder's dir/ for --plugin-path:
#   crashers/  deliberately broken plugins (crashers/README says what each
#              does), with tiny-sum in crashers/dir/ for test_isolation.sh,
#              test_interrupt.sh, test_limits.sh, test_progress.sh and
#              test_rounds.sh; the hostile ones (hostile.c) with tiny-sum
#              and slow-sum in crashers/hostile/ for test_hostile.sh: one of
#              them hangs while it loads
#   timing/    delay-sum (an i32 sum that reads delay% of its input again: a
#              planted slowdown), flaky-bits (right, but its last bit
#              changes between runs), old-clock (a backend of ABI 1.0) and
#              old-sum (a plugin on it); also run by tune's and compare's
#              tests and by bench/
#   judge/     buggy.c, a cpu strategy with planted bugs (bugs.h lists
#              them), and its cuda twins built with nvcc by
#              test_gpu_judge.sh where there is a GPU (buggy.cu,
#              onepass-tail.cu: the cuda pack's onepass, its grid rounded
#              down; onepass-reverse.cu: its reversed calls skip slice 0)
# The tests:
#   test_limits.sh, test_interrupt.sh, test_isolation.sh, test_hostile.sh,
#   test_gpu_isolation.sh  robustness: limits of sizes, interrupts, broken
#              and hostile plugins contained in worker processes, a real
#              sticky CUDA error (crashers/cuda-fault.cu, built with nvcc)
#   test_input, test_reference  input generation, reference results and
#              verdicts
#   test_rules, test_timing.sh, test_peak_check.sh, test_rounds.sh,
#   test_gpu_timing.sh  the measurement: the stop rule, batch sizes, bit
#              comparison (src/run/rules.c); every timing mode's rows, the
#              peak cache as run and tune use it, a measurement far from
#              the cached figure taken again; rounds; the same on a GPU
#   test_shaped.sh  shapes: rows, columns, ragged rows, their planted bugs
#   test_probe, test_judge.sh, test_gpu_judge.sh  the judge's probes, and
#              no wrong, partial, stale or remembered answer looks right
#   test_progress.sh  the progress of a run on standard error
#   test_provenance.sh  the provenance a real run records in its JSON
# The robustness tests and test_timing are among the slowest of the suite:
# listed first.
TESTS += tests/run/test_timing.sh tests/run/test_limits.sh tests/run/test_interrupt.sh tests/run/test_isolation.sh \
	tests/run/test_hostile.sh tests/run/test_gpu_isolation.sh
EXTRA_DIST += tests/run/test_limits.sh tests/run/test_interrupt.sh tests/run/test_isolation.sh \
	tests/run/test_hostile.sh tests/run/test_gpu_isolation.sh tests/run/crashers/cuda-fault.cu

CRASHER_PLUGINS = \
	tests/run/crashers/crash-describe.la \
	tests/run/crashers/crash-init.la \
	tests/run/crashers/crash-run.la \
	tests/run/crashers/crash-verify.la \
	tests/run/crashers/crash-teardown.la \
	tests/run/crashers/hang-run.la \
	tests/run/crashers/exit-run.la \
	tests/run/crashers/wrong-sum.la \
	tests/run/crashers/print-stdout.la \
	tests/run/crashers/huge-error.la \
	tests/run/crashers/slow-sum.la \
	tests/run/crashers/fragile-sum.la \
	tests/run/crashers/fragile-backend.la \
	tests/run/crashers/absurd-null-name.la \
	tests/run/crashers/absurd-long-name.la \
	tests/run/crashers/absurd-huge-params.la \
	tests/run/crashers/absurd-null-default.la \
	tests/run/crashers/absurd-long-summary.la \
	tests/run/crashers/absurd-many-choices.la \
	tests/run/crashers/absurd-bad-masks.la
check_LTLIBRARIES += $(CRASHER_PLUGINS)

tests_run_crashers_crash_describe_la_SOURCES = tests/run/crashers/crash-describe.c tests/run/crashers/crasher.h
tests_run_crashers_crash_describe_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_crash_describe_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_crash_init_la_SOURCES = tests/run/crashers/crash-init.c tests/run/crashers/crasher.h
tests_run_crashers_crash_init_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_crash_init_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_crash_run_la_SOURCES = tests/run/crashers/crash-run.c tests/run/crashers/crasher.h
tests_run_crashers_crash_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_crash_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_crash_verify_la_SOURCES = tests/run/crashers/crash-verify.c tests/run/crashers/crasher.h
tests_run_crashers_crash_verify_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_crash_verify_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_crash_teardown_la_SOURCES = tests/run/crashers/crash-teardown.c tests/run/crashers/crasher.h
tests_run_crashers_crash_teardown_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_crash_teardown_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hang_run_la_SOURCES = tests/run/crashers/hang-run.c tests/run/crashers/crasher.h
tests_run_crashers_hang_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_hang_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_exit_run_la_SOURCES = tests/run/crashers/exit-run.c tests/run/crashers/crasher.h
tests_run_crashers_exit_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_exit_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_wrong_sum_la_SOURCES = tests/run/crashers/wrong-sum.c tests/run/crashers/crasher.h
tests_run_crashers_wrong_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_wrong_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_print_stdout_la_SOURCES = tests/run/crashers/print-stdout.c tests/run/crashers/crasher.h
tests_run_crashers_print_stdout_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_print_stdout_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_huge_error_la_SOURCES = tests/run/crashers/huge-error.c tests/run/crashers/crasher.h
tests_run_crashers_huge_error_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_huge_error_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_slow_sum_la_SOURCES = tests/run/crashers/slow-sum.c tests/run/crashers/crasher.h
tests_run_crashers_slow_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_slow_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_fragile_sum_la_SOURCES = tests/run/crashers/fragile-sum.c tests/run/crashers/crasher.h tests/run/crashers/fragile.h
tests_run_crashers_fragile_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_fragile_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_fragile_backend_la_SOURCES = tests/run/crashers/fragile-backend.c tests/run/crashers/fragile.h
tests_run_crashers_fragile_backend_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_crashers_fragile_backend_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_null_name_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_null_name_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=1
tests_run_crashers_absurd_null_name_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_long_name_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_long_name_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=2
tests_run_crashers_absurd_long_name_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_huge_params_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_huge_params_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=3
tests_run_crashers_absurd_huge_params_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_null_default_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_null_default_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=4
tests_run_crashers_absurd_null_default_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_long_summary_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_long_summary_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=5
tests_run_crashers_absurd_long_summary_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_many_choices_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_many_choices_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=6
tests_run_crashers_absurd_many_choices_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_absurd_bad_masks_la_SOURCES = tests/run/crashers/absurd.c tests/run/crashers/crasher.h
tests_run_crashers_absurd_bad_masks_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=7
tests_run_crashers_absurd_bad_masks_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

# The folder the tests point --plugin-path at.
tests/run/crashers/dir.stamp: $(CRASHER_PLUGINS) tests/plugins/tiny-sum.la
	$(AM_V_GEN)$(gather_plugins) tests/run/crashers/dir $(CRASHER_PLUGINS) \
	  tests/plugins/tiny-sum.la && touch $@
check_DATA += tests/run/crashers/dir.stamp
CLEANFILES += tests/run/crashers/dir.stamp tests/run/crashers/dir/*.so
EXTRA_DIST += tests/run/crashers/README

# Plugins that attack the process that loads or runs them (hostile.c says
# what each does), gathered with tiny-sum and slow-sum in
# $(top_builddir)/tests/run/crashers/hostile/ for tests/run/test_hostile.sh. They
# are kept out of tests/run/crashers/dir/: one of them hangs while it loads.
HOSTILE_PLUGINS = \
	tests/run/crashers/hostile-segv.la \
	tests/run/crashers/hostile-exit.la \
	tests/run/crashers/hostile-hang.la \
	tests/run/crashers/hostile-chdir.la \
	tests/run/crashers/hostile-sigmask.la \
	tests/run/crashers/hostile-dtor.la \
	tests/run/crashers/hostile-thread.la \
	tests/run/crashers/hostile-fork.la \
	tests/run/crashers/hostile-bad-default.la \
	tests/run/crashers/hostile-evil-summary.la \
	tests/run/crashers/hostile-evil-name.la \
	tests/run/crashers/hostile-shifty.la
check_LTLIBRARIES += $(HOSTILE_PLUGINS)

tests_run_crashers_hostile_segv_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_segv_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=1
tests_run_crashers_hostile_segv_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_exit_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_exit_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=2
tests_run_crashers_hostile_exit_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_hang_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_hang_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=3
tests_run_crashers_hostile_hang_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_chdir_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_chdir_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=4
tests_run_crashers_hostile_chdir_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_sigmask_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_sigmask_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=5
tests_run_crashers_hostile_sigmask_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_dtor_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_dtor_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=6
tests_run_crashers_hostile_dtor_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_thread_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_thread_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=7
tests_run_crashers_hostile_thread_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_crashers_hostile_thread_la_LIBADD = $(PTHREAD_LIBS)

tests_run_crashers_hostile_fork_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_fork_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=8
tests_run_crashers_hostile_fork_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_bad_default_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_bad_default_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=9
tests_run_crashers_hostile_bad_default_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_evil_summary_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_evil_summary_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=10
tests_run_crashers_hostile_evil_summary_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_evil_name_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_evil_name_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=11
tests_run_crashers_hostile_evil_name_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_run_crashers_hostile_shifty_la_SOURCES = tests/run/crashers/hostile.c tests/run/crashers/crasher.h
tests_run_crashers_hostile_shifty_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=12
tests_run_crashers_hostile_shifty_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/run/crashers/hostile.stamp: $(HOSTILE_PLUGINS) tests/plugins/tiny-sum.la tests/run/crashers/slow-sum.la
	$(AM_V_GEN)$(gather_plugins) tests/run/crashers/hostile $(HOSTILE_PLUGINS) \
	  tests/plugins/tiny-sum.la tests/run/crashers/slow-sum.la && touch $@
check_DATA += tests/run/crashers/hostile.stamp
CLEANFILES += tests/run/crashers/hostile.stamp tests/run/crashers/hostile/*.so

check_PROGRAMS += tests/run/test_input tests/run/test_reference
tests_run_test_input_SOURCES = tests/run/test_input.c
tests_run_test_reference_SOURCES = tests/run/test_reference.c
TESTS += tests/run/test_input tests/run/test_reference

check_PROGRAMS += tests/run/test_rules
TESTS += tests/run/test_rules tests/run/test_peak_check.sh \
	tests/run/test_rounds.sh
tests_run_test_rules_SOURCES = tests/run/test_rules.c

TIMING_PLUGINS = \
	tests/run/timing/delay-sum.la \
	tests/run/timing/flaky-bits.la \
	tests/run/timing/old-clock.la \
	tests/run/timing/old-sum.la
check_LTLIBRARIES += $(TIMING_PLUGINS)
tests_run_timing_delay_sum_la_SOURCES = tests/run/timing/delay-sum.c
tests_run_timing_delay_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_timing_delay_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_timing_flaky_bits_la_SOURCES = tests/run/timing/flaky-bits.c
tests_run_timing_flaky_bits_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_timing_flaky_bits_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_timing_flaky_bits_la_LIBADD = -lm
tests_run_timing_old_clock_la_SOURCES = tests/run/timing/old-clock.c
tests_run_timing_old_clock_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_timing_old_clock_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_timing_old_sum_la_SOURCES = tests/run/timing/old-sum.c
tests_run_timing_old_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_timing_old_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/run/timing/dir.stamp: $(TIMING_PLUGINS)
	$(AM_V_GEN)$(gather_plugins) tests/run/timing/dir $(TIMING_PLUGINS) && touch $@
check_DATA += tests/run/timing/dir.stamp
CLEANFILES += tests/run/timing/dir.stamp tests/run/timing/dir/*.so

EXTRA_DIST += tests/run/test_timing.sh tests/run/test_gpu_timing.sh tests/run/test_peak_check.sh tests/run/test_rounds.sh \
	bench/Makefile bench/plain_cub_sum.cu bench/plain_dlopen.c bench/plain_record.cu bench/launch_vs_plain.py \
	bench/launch-vs-plain.ini bench/hopper_vs_cub.py bench/results.py \
	bench/launch_rounds.sh bench/launch_rounds.py bench/launch-rounds.ini \
	bench/compare_acceptance.sh bench/compare-acceptance.ini bench/compare-acceptance-gpu.ini \
	bench/timing_rounds.sh bench/energy_check.sh tests/run/timing/delay-cuda.cu
if BUILD_CUDA
TESTS += tests/run/test_gpu_timing.sh
endif

check_LTLIBRARIES += tests/run/judge/buggy.la
tests_run_judge_buggy_la_SOURCES = tests/run/judge/buggy.c tests/run/judge/bugs.h
tests_run_judge_buggy_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_judge_buggy_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/run/judge/dir.stamp: tests/run/judge/buggy.la
	$(AM_V_GEN)$(gather_plugins) tests/run/judge/dir tests/run/judge/buggy.la && touch $@
check_DATA += tests/run/judge/dir.stamp
CLEANFILES += tests/run/judge/dir.stamp tests/run/judge/dir/*.so

TESTS += tests/run/test_judge.sh tests/run/test_probe tests/run/test_gpu_judge.sh
# shapes on the cpu backend, with the planted bugs of tests/plugins/shaped-twin.c
TESTS += tests/run/test_shaped.sh
EXTRA_DIST += tests/run/test_shaped.sh
EXTRA_DIST += tests/run/test_judge.sh tests/run/test_gpu_judge.sh tests/run/judge/buggy.cu \
	tests/run/judge/onepass-tail.cu tests/run/judge/onepass-reverse.cu \
	tests/run/judge/pattern-tail.cu tests/run/judge/pattern-no-reset.cu
check_PROGRAMS += tests/run/test_probe
tests_run_test_probe_SOURCES = tests/run/test_probe.c
TESTS += tests/run/test_progress.sh tests/run/test_provenance.sh
EXTRA_DIST += tests/run/test_progress.sh tests/run/test_provenance.sh

# Energy (src/run/energy.c): the arithmetic, and runs on the `standin`
# backend (energy/standin-backend.c: host memory with an NVIDIA UUID) whose
# energy, power, clocks and throttle reasons come from the stand-in NVML
# (energy/nvml-standin.c, opened through REDBENCH_NVML_LIBRARY as the real
# one is, answering from the script REDBENCH_NVML_STANDIN names).
check_PROGRAMS += tests/run/test_energy
tests_run_test_energy_SOURCES = tests/run/test_energy.c
TESTS += tests/run/test_energy tests/run/test_energy_rows.sh
EXTRA_DIST += tests/run/test_energy_rows.sh
ENERGY_PLUGINS = tests/run/energy/standin-backend.la tests/run/energy/standin-sum.la \
	tests/run/energy/standin-exchange.la
check_LTLIBRARIES += $(ENERGY_PLUGINS) tests/run/energy/nvml-standin.la
tests_run_energy_standin_backend_la_SOURCES = tests/run/energy/standin-backend.c
tests_run_energy_standin_backend_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_energy_standin_backend_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_energy_standin_sum_la_SOURCES = tests/run/energy/standin-sum.c
tests_run_energy_standin_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_run_energy_standin_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_energy_standin_exchange_la_SOURCES = tests/procs/ranks/exchange-sum.c tests/plugins/open_fds.h
tests_run_energy_standin_exchange_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) \
	-DEXCHANGE_SUM_NAME='"standin-exchange"' -DEXCHANGE_SUM_BACKEND='"standin"'
tests_run_energy_standin_exchange_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_run_energy_nvml_standin_la_SOURCES = tests/run/energy/nvml-standin.c
tests_run_energy_nvml_standin_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere

tests/run/energy/dir.stamp: $(ENERGY_PLUGINS) tests/run/energy/nvml-standin.la
	$(AM_V_GEN)$(gather_plugins) tests/run/energy/dir $(ENERGY_PLUGINS) && \
	cp tests/run/energy/.libs/nvml-standin.so tests/run/energy/ && touch $@
check_DATA += tests/run/energy/dir.stamp
CLEANFILES += tests/run/energy/dir.stamp tests/run/energy/dir/*.so tests/run/energy/nvml-standin.so
