#!/bin/bash
# tests/test_fuzz_replay.sh: the fuzzing harnesses (fuzz/), built with the
# ordinary compiler and fuzz/replay.c, replay the seed corpus (every
# experiment file in conf/ and tests/; for the results reader, every results
# file in tests/fixtures) and fuzz/regressions/ (inputs that
# once found a bug, and hand-made edge cases). Each input must be handled
# without a crash; in a sanitized build, without a sanitizer report or leak.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 6
find "$top_srcdir/conf" "$top_srcdir/tests" -name '*.ini' | sort >"$tmp/seeds"
seeds=$(wc -l <"$tmp/seeds")

xargs "$top_builddir/fuzz/replay_experiment" "$top_srcdir/fuzz/regressions/experiment" \
  <"$tmp/seeds" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "the experiment harness handles the seed corpus and its regressions"
n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$tmp/err")
ok "... every one of them ($n inputs, $seeds seeds)" test "${n:-0}" -gt "$seeds"

plugin=$top_builddir/fuzz/.libs/fuzz-plugin.so
FUZZ_PLUGIN=$plugin xargs "$top_builddir/fuzz/replay_descriptor" \
  "$top_srcdir/fuzz/regressions/descriptor" <"$tmp/seeds" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "the descriptor harness handles the seed corpus and its regressions"
n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$tmp/err")
ok "... every one of them ($n inputs, $seeds seeds)" test "${n:-0}" -gt "$seeds"

find "$top_srcdir/tests/fixtures" -name '*.json' | sort >"$tmp/results"
seeds=$(wc -l <"$tmp/results")
xargs "$top_builddir/fuzz/replay_results" "$top_srcdir/fuzz/regressions/results" \
  <"$tmp/results" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "the results harness handles the results files of tests/fixtures and its regressions"
n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$tmp/err")
ok "... every one of them ($n inputs, $seeds seeds)" test "${n:-0}" -gt "$seeds"
done_testing
