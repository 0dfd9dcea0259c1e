# tests/ranks.mk: the rank machinery's tests. tests/ranks/exchange-sum.c is
# a cpu strategy across ranks (its partial results gathered through the
# host's exchange) with planted faults; tests/test_ranks.sh runs it on 1, 2
# and 4 ranks and expects each fault in its row alone.
check_LTLIBRARIES += tests/ranks/exchange-sum.la
tests_ranks_exchange_sum_la_SOURCES = tests/ranks/exchange-sum.c
tests_ranks_exchange_sum_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_ranks_exchange_sum_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)

tests/ranks/dir.stamp: tests/ranks/exchange-sum.la
	$(AM_V_GEN)$(gather_plugins) tests/ranks/dir tests/ranks/exchange-sum.la && touch $@
check_DATA += tests/ranks/dir.stamp
CLEANFILES += tests/ranks/dir.stamp tests/ranks/dir/*.so

TESTS += tests/test_ranks.sh
EXTRA_DIST += tests/test_ranks.sh
