# tests/tune/local.mk: the tests of `redbench tune` (src/tune/ and its
# command).
#   test_tune.sh  tune on the cpu pack (fixtures/cpu.ini) and on the
#                 slowed plugin of tests/run/timing/
#   test_tune_options.sh  -r, -D and --dry-run, as a run takes them
#   test_tune_settings.sh  the tuned experiment keeps every [experiment]
#                 setting it was tuned under
#   test_tune_hostile.sh  what tune writes of strangers' texts (paths,
#                 names, a plugin's choice words: words/choice-words.c)
#                 reads back as it was, and no output destroys an input
#   test_ini_writer  base/ini_writer.c: what it writes, what it refuses
#   test_dispatch.sh  `redbench dispatch`: the crossover map as a C header
#                 (fixtures/crossover-map.json, fixtures/dispatch-check.c)
#   test_dispatch_hostile.sh  numbers no double holds and members of the
#                 wrong type refused naming file and line; headers made
#                 from hostile inputs compile
#   test_dispatch_shaped.sh  maps and headers of shaped reductions: find()
#                 by rows, axis, lengths and n (fixtures/shaped-map.json,
#                 fixtures/shaped-check.c), from results with known medians
#                 and from tune over a rows x n grid
#   test_dispatch_recorded.sh  the header of a measured shaped grid
#                 (docs/results/shaped/grid-h100-1207.json.xz): find()
#                 returns every cell's fastest plugin
TESTS += tests/tune/test_tune.sh tests/tune/test_tune_options.sh tests/tune/test_tune_settings.sh \
	tests/tune/test_dispatch.sh tests/tune/test_tune_hostile.sh tests/tune/test_ini_writer \
	tests/tune/test_dispatch_hostile.sh tests/tune/test_dispatch_shaped.sh \
	tests/tune/test_dispatch_recorded.sh
check_PROGRAMS += tests/tune/test_ini_writer
tests_tune_test_ini_writer_SOURCES = tests/tune/test_ini_writer.c
EXTRA_DIST += tests/tune/test_tune.sh tests/tune/test_tune_options.sh tests/tune/test_tune_settings.sh \
	tests/tune/fixtures/cpu.ini tests/tune/test_dispatch.sh tests/tune/fixtures/crossover-map.json \
	tests/tune/fixtures/dispatch-check.c tests/tune/test_tune_hostile.sh \
	tests/tune/test_dispatch_hostile.sh tests/tune/test_dispatch_shaped.sh \
	tests/tune/fixtures/shaped-map.json tests/tune/fixtures/shaped-check.c \
	tests/tune/test_dispatch_recorded.sh docs/results/shaped/grid-h100-1207.json.xz \
	tests/tune/fixtures/crossover-map.h

WORDS_PLUGINS = tests/tune/words/choice-words.la
check_LTLIBRARIES += $(WORDS_PLUGINS)
tests_tune_words_choice_words_la_SOURCES = tests/tune/words/choice-words.c
tests_tune_words_choice_words_la_CPPFLAGS = $(TEST_PLUGIN_CPPFLAGS)
tests_tune_words_choice_words_la_LDFLAGS = $(TEST_PLUGIN_LINK_FLAGS)
tests/tune/words/dir.stamp: $(WORDS_PLUGINS)
	$(AM_V_GEN)$(gather_plugins) tests/tune/words/dir $(WORDS_PLUGINS) && touch $@
check_DATA += tests/tune/words/dir.stamp
CLEANFILES += tests/tune/words/dir.stamp tests/tune/words/dir/*.so
