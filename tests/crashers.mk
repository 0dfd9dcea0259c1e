# tests/crashers.mk: deliberately broken plugins (tests/crashers/README
# says what each does), built by `make check`, never installed, and gathered
# in $(top_builddir)/tests/crashers/dir/ together with tiny-sum for
# tests/test_isolation.sh and tests/test_interrupt.sh; the hostile ones (in
# tests/crashers/hostile/) for tests/test_hostile.sh.
CRASHER_PLUGINS = \
	tests/crashers/crash-describe.la \
	tests/crashers/crash-init.la \
	tests/crashers/crash-run.la \
	tests/crashers/crash-verify.la \
	tests/crashers/crash-teardown.la \
	tests/crashers/hang-run.la \
	tests/crashers/exit-run.la \
	tests/crashers/wrong-sum.la \
	tests/crashers/print-stdout.la \
	tests/crashers/huge-error.la \
	tests/crashers/slow-sum.la \
	tests/crashers/fragile-sum.la \
	tests/crashers/fragile-backend.la \
	tests/crashers/absurd-null-name.la \
	tests/crashers/absurd-long-name.la \
	tests/crashers/absurd-huge-params.la \
	tests/crashers/absurd-null-default.la \
	tests/crashers/absurd-long-summary.la \
	tests/crashers/absurd-many-choices.la \
	tests/crashers/absurd-bad-masks.la
check_LTLIBRARIES += $(CRASHER_PLUGINS)

tests_crashers_crash_describe_la_SOURCES = tests/crashers/crash-describe.c tests/crashers/crasher.h
tests_crashers_crash_describe_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_crash_describe_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_crash_init_la_SOURCES = tests/crashers/crash-init.c tests/crashers/crasher.h
tests_crashers_crash_init_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_crash_init_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_crash_run_la_SOURCES = tests/crashers/crash-run.c tests/crashers/crasher.h
tests_crashers_crash_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_crash_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_crash_verify_la_SOURCES = tests/crashers/crash-verify.c tests/crashers/crasher.h
tests_crashers_crash_verify_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_crash_verify_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_crash_teardown_la_SOURCES = tests/crashers/crash-teardown.c tests/crashers/crasher.h
tests_crashers_crash_teardown_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_crash_teardown_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hang_run_la_SOURCES = tests/crashers/hang-run.c tests/crashers/crasher.h
tests_crashers_hang_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_hang_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_exit_run_la_SOURCES = tests/crashers/exit-run.c tests/crashers/crasher.h
tests_crashers_exit_run_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_exit_run_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_wrong_sum_la_SOURCES = tests/crashers/wrong-sum.c tests/crashers/crasher.h
tests_crashers_wrong_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_wrong_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_print_stdout_la_SOURCES = tests/crashers/print-stdout.c tests/crashers/crasher.h
tests_crashers_print_stdout_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_print_stdout_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_huge_error_la_SOURCES = tests/crashers/huge-error.c tests/crashers/crasher.h
tests_crashers_huge_error_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_huge_error_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_slow_sum_la_SOURCES = tests/crashers/slow-sum.c tests/crashers/crasher.h
tests_crashers_slow_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_slow_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_fragile_sum_la_SOURCES = tests/crashers/fragile-sum.c tests/crashers/crasher.h tests/crashers/fragile.h
tests_crashers_fragile_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_fragile_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_fragile_backend_la_SOURCES = tests/crashers/fragile-backend.c tests/crashers/fragile.h
tests_crashers_fragile_backend_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_crashers_fragile_backend_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_null_name_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_null_name_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=1
tests_crashers_absurd_null_name_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_long_name_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_long_name_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=2
tests_crashers_absurd_long_name_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_huge_params_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_huge_params_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=3
tests_crashers_absurd_huge_params_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_null_default_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_null_default_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=4
tests_crashers_absurd_null_default_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_long_summary_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_long_summary_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=5
tests_crashers_absurd_long_summary_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_many_choices_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_many_choices_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=6
tests_crashers_absurd_many_choices_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_absurd_bad_masks_la_SOURCES = tests/crashers/absurd.c tests/crashers/crasher.h
tests_crashers_absurd_bad_masks_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DABSURD_CASE=7
tests_crashers_absurd_bad_masks_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

# The folder the tests point --plugin-path at.
tests/crashers/dir.stamp: $(CRASHER_PLUGINS) tests/plugins/tiny-sum.la
	$(AM_V_GEN)$(gather_plugins) tests/crashers/dir $(CRASHER_PLUGINS) \
	  tests/plugins/tiny-sum.la && touch $@
check_DATA += tests/crashers/dir.stamp
CLEANFILES += tests/crashers/dir.stamp tests/crashers/dir/*.so
EXTRA_DIST += tests/crashers/README

# Plugins that attack the process that loads or runs them (hostile.c says
# what each does), gathered with tiny-sum and slow-sum in
# $(top_builddir)/tests/crashers/hostile/ for tests/test_hostile.sh. They
# are kept out of tests/crashers/dir/: one of them hangs while it loads.
HOSTILE_PLUGINS = \
	tests/crashers/hostile-segv.la \
	tests/crashers/hostile-exit.la \
	tests/crashers/hostile-hang.la \
	tests/crashers/hostile-chdir.la \
	tests/crashers/hostile-sigmask.la \
	tests/crashers/hostile-dtor.la \
	tests/crashers/hostile-thread.la \
	tests/crashers/hostile-fork.la \
	tests/crashers/hostile-bad-default.la \
	tests/crashers/hostile-evil-summary.la \
	tests/crashers/hostile-evil-name.la \
	tests/crashers/hostile-shifty.la
check_LTLIBRARIES += $(HOSTILE_PLUGINS)

tests_crashers_hostile_segv_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_segv_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=1
tests_crashers_hostile_segv_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_exit_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_exit_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=2
tests_crashers_hostile_exit_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_hang_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_hang_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=3
tests_crashers_hostile_hang_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_chdir_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_chdir_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=4
tests_crashers_hostile_chdir_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_sigmask_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_sigmask_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=5
tests_crashers_hostile_sigmask_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_dtor_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_dtor_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=6
tests_crashers_hostile_dtor_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_thread_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_thread_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=7
tests_crashers_hostile_thread_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_crashers_hostile_thread_la_LIBADD = $(PTHREAD_LIBS)

tests_crashers_hostile_fork_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_fork_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=8
tests_crashers_hostile_fork_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_bad_default_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_bad_default_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=9
tests_crashers_hostile_bad_default_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_evil_summary_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_evil_summary_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=10
tests_crashers_hostile_evil_summary_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_evil_name_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_evil_name_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=11
tests_crashers_hostile_evil_name_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests_crashers_hostile_shifty_la_SOURCES = tests/crashers/hostile.c tests/crashers/crasher.h
tests_crashers_hostile_shifty_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) -DHOSTILE_CASE=12
tests_crashers_hostile_shifty_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/crashers/hostile.stamp: $(HOSTILE_PLUGINS) tests/plugins/tiny-sum.la tests/crashers/slow-sum.la
	$(AM_V_GEN)$(gather_plugins) tests/crashers/hostile $(HOSTILE_PLUGINS) \
	  tests/plugins/tiny-sum.la tests/crashers/slow-sum.la && touch $@
check_DATA += tests/crashers/hostile.stamp
CLEANFILES += tests/crashers/hostile.stamp tests/crashers/hostile/*.so

TESTS += tests/test_hostile.sh
EXTRA_DIST += tests/test_hostile.sh
