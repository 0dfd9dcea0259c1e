# tests/procs/local.mk: the tests of src/procs/: the rank processes (launch,
# supervise, hub, link, group). Test plugins of this area, gathered in
# ranks/dir/ for --plugin-path (also run by tests/packs/mpi/test_mpi.sh and
# tests/tune/test_dispatch.sh):
#   ranks/     exchange-sum.c, a cpu strategy across ranks (its partial
#              results gathered through the host's exchange) with planted
#              faults; slow-setup.c, whose group set-up sleeps; half-group.c,
#              a group_open without group_close
# The tests:
#   test_ranks.sh  exchange-sum on 1, 2 and 4 ranks, each fault in its row
#   test_rank_groups.sh  slow-setup: a group's set-up paid once per group;
#                  a fault ends the group; half-group refused
#   test_hub_socket  the ranks' TCP sockets send at once (TCP_NODELAY)
check_LTLIBRARIES += tests/procs/ranks/exchange-sum.la tests/procs/ranks/slow-setup.la \
	tests/procs/ranks/half-group.la
tests_procs_ranks_exchange_sum_la_SOURCES = tests/procs/ranks/exchange-sum.c tests/plugins/open_fds.h
tests_procs_ranks_exchange_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_procs_ranks_exchange_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_procs_ranks_slow_setup_la_SOURCES = tests/procs/ranks/slow-setup.c
tests_procs_ranks_slow_setup_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_procs_ranks_slow_setup_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests_procs_ranks_half_group_la_SOURCES = tests/procs/ranks/half-group.c
tests_procs_ranks_half_group_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_procs_ranks_half_group_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/procs/ranks/dir.stamp: tests/procs/ranks/exchange-sum.la tests/procs/ranks/slow-setup.la \
	  tests/procs/ranks/half-group.la
	$(AM_V_GEN)$(gather_plugins) tests/procs/ranks/dir tests/procs/ranks/exchange-sum.la \
	  tests/procs/ranks/slow-setup.la tests/procs/ranks/half-group.la && touch $@
check_DATA += tests/procs/ranks/dir.stamp
CLEANFILES += tests/procs/ranks/dir.stamp tests/procs/ranks/dir/*.so

TESTS += tests/procs/test_ranks.sh tests/procs/test_rank_groups.sh tests/procs/test_hub_socket
EXTRA_DIST += tests/procs/test_ranks.sh tests/procs/test_rank_groups.sh
check_PROGRAMS += tests/procs/test_hub_socket
tests_procs_test_hub_socket_SOURCES = tests/procs/test_hub_socket.c
