# tests/ranks.mk: the rank machinery's tests. tests/ranks/exchange-sum.c is
# a cpu strategy across ranks (its partial results gathered through the
# host's exchange) with planted faults; tests/test_ranks.sh runs it on 1, 2
# and 4 ranks and expects each fault in its row alone. tests/ranks/
# slow-setup.c sets its communicator up in group_open, slowly (a planted
# 0.5 s); tests/test_rank_groups.sh checks that a group's set-up is paid
# once per group, not once per configuration, and that a fault ends the
# group; tests/ranks/half-group.c, a group_open without group_close, is
# refused.
check_LTLIBRARIES += tests/ranks/exchange-sum.la tests/ranks/slow-setup.la \
	tests/ranks/half-group.la
tests_ranks_exchange_sum_la_SOURCES = tests/ranks/exchange-sum.c
tests_ranks_exchange_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_ranks_exchange_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_ranks_slow_setup_la_SOURCES = tests/ranks/slow-setup.c
tests_ranks_slow_setup_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_ranks_slow_setup_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_ranks_half_group_la_SOURCES = tests/ranks/half-group.c
tests_ranks_half_group_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_ranks_half_group_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/ranks/dir.stamp: tests/ranks/exchange-sum.la tests/ranks/slow-setup.la \
	  tests/ranks/half-group.la
	$(AM_V_GEN)$(gather_plugins) tests/ranks/dir tests/ranks/exchange-sum.la \
	  tests/ranks/slow-setup.la tests/ranks/half-group.la && touch $@
check_DATA += tests/ranks/dir.stamp
CLEANFILES += tests/ranks/dir.stamp tests/ranks/dir/*.so

TESTS += tests/test_ranks.sh tests/test_rank_groups.sh
EXTRA_DIST += tests/test_ranks.sh tests/test_rank_groups.sh

# The MPI tests (tests/test_mpi.sh) run the mpi pack and tests/ranks/
# mpi-faults.c, built where configure found MPI.
if BUILD_MPI
check_LTLIBRARIES += tests/ranks/mpi-faults.la
tests/ranks/mpi.stamp: tests/ranks/mpi-faults.la
	$(AM_V_GEN)$(gather_plugins) tests/ranks/mpi tests/ranks/mpi-faults.la && touch $@
check_DATA += tests/ranks/mpi.stamp
endif
tests_ranks_mpi_faults_la_SOURCES = tests/ranks/mpi-faults.c
tests_ranks_mpi_faults_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS) $(MPI_CFLAGS)
tests_ranks_mpi_faults_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_ranks_mpi_faults_la_LIBADD = $(MPI_LIBS)
CLEANFILES += tests/ranks/mpi.stamp tests/ranks/mpi/*.so

TESTS += tests/test_mpi.sh
EXTRA_DIST += tests/test_mpi.sh
EXTRA_DIST += bench/nccl_tests_beside.sh
