#!/bin/bash
# tests/fuzz/test_fuzz_replay.sh: the fuzzing harnesses (fuzz/), built with the
# ordinary compiler and fuzz/replay.c, replay the seed corpus (every
# experiment file in conf/ and tests/; for the results reader, every results
# file in a fixtures/ folder of tests/) and fuzz/regressions/ (inputs that
# once found a bug, and hand-made edge cases). Each input must be handled
# without a crash; in a sanitized build, without a sanitizer report or leak.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 6

# replays NAME SEEDS WHAT: fuzz/replay_NAME replays the files listed in
# SEEDS (WHAT, in the first test's name) and fuzz/regressions/NAME, and
# handles every one of them (two tests).
replays() {
  xargs "$top_builddir/fuzz/replay_$1" "$top_srcdir/fuzz/regressions/$1" <"$2" >"$tmp/out" \
    2>"$tmp/err"
  is "$?" 0 "the $1 harness handles $3 and its regressions"
  n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$tmp/err")
  seeds=$(wc -l <"$2")
  ok "... every one of them ($n inputs, $seeds seeds)" test "${n:-0}" -gt "$seeds"
}

find "$top_srcdir/conf" "$top_srcdir/tests" -name '*.ini' | sort >"$tmp/seeds"
replays experiment "$tmp/seeds" "the seed corpus"
FUZZ_PLUGIN=$top_builddir/fuzz/.libs/fuzz-plugin.so
export FUZZ_PLUGIN
replays descriptor "$tmp/seeds" "the seed corpus"
find "$top_srcdir/tests" -path '*/fixtures/*' -name '*.json' | sort >"$tmp/results"
replays results "$tmp/results" "the results files of tests/*/fixtures"
done_testing
