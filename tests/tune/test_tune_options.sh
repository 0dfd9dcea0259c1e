#!/bin/bash
# tests/tune/test_tune_options.sh: `redbench tune` takes -r, -D and
# --dry-run as a run does: -r keeps the runs named, -D sets keys as if
# written in the file, --dry-run lists the data sets to search with their
# candidate counts and measures and writes nothing; a bad -D or -r is a
# usage error of tune (exit 2).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 14

"$rb" tune --dry-run -c "$fixtures/cpu.ini" -o "$tmp/dry.ini" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "--dry-run exits 0"
ok "it counts the data sets and candidates" grep -qx "$fixtures/cpu.ini: 4 data sets to search, 84 candidates in all" "$tmp/out"
ok "it lists a small space's candidates and search" \
  grep -qE '^ +1  \[unrolled\] unrolled sum f32 n=64K: 14 candidates, successive halving' "$tmp/out"
ok "... and a large space's" \
  grep -qE '^ +4  \[threads\] threads sum f32 n=1M: 28 candidates, coordinate descent' "$tmp/out"
ok "it writes nothing" test ! -e "$tmp/dry.ini" -a ! -e "$tmp/dry.json"

"$rb" tune --dry-run -c "$fixtures/cpu.ini" -r 'unr*' -D n=128K -D unrolled.lanes=4,8 >"$tmp/out" 2>&1
is "$?" 0 "-r and -D with --dry-run exit 0"
ok "-r keeps the runs named, -D sets n and a run's parameter" \
  grep -qx "$fixtures/cpu.ini: 1 data set to search, 4 candidates in all" "$tmp/out"
ok "... at the n given" grep -q '\[unrolled\] unrolled sum f32 n=128K: 4 candidates' "$tmp/out"

"$rb" tune -q -c "$fixtures/cpu.ini" -r unrolled -D n=128K -D lanes=4,8 -o "$tmp/t.ini" >"$tmp/out" 2>&1
is "$?" 0 "tune with -r and -D searches and exits 0"
is "$(grep -c '^\[run ' "$tmp/t.ini")" 1 "the tuned file holds the one data set searched"
ok "... the unrolled run at 128K" grep -q '^\[run unrolled-sum-f32-128K\]' "$tmp/t.ini"

"$rb" tune -c "$fixtures/cpu.ini" -D nokey >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "-D without = is a usage error"
ok "... of tune, saying what -D takes" grep -q '^redbench tune: error: -D takes KEY=VALUE' "$tmp/err"
"$rb" tune --dry-run -c "$fixtures/cpu.ini" -r nope >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "-r matching no run exits 2"
done_testing
