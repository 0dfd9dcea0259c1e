#!/bin/sh
# tests/procs/test_rank_groups.sh: rank groups that stay up (docs/scale-out.md).
# tests/procs/ranks/slow-setup.c sets its communicator up in group_open, with a
# planted 0.5 s on every rank: 24 configurations on 2 ranks must open it
# once (one group), in well under 24 x 0.5 s, each configuration still
# doing its own init, and close it at the end. A crashing rank fails its
# row, naming the rank, and ends the group: the next configuration gets a
# fresh group (a second open) and is ok. A plugin with group_open and no
# group_close (tests/procs/ranks/half-group.c) is refused, saying so.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
plugins=$top_builddir/tests/procs/ranks/dir
plan 10

cat >"$tmp/many.ini" <<INI
[experiment]
warmup = 0
min_time = 0
min_reps = 2
max_reps = 2
rounds = 1
timeout = 20
[data]
op = sum
dtype = i32, i64, f32, f64
n = 1K, 2K, 4K, 8K, 16K, 32K
ranks = 2
[run slow]
plugin = slow-setup
INI
log=$tmp/many.log
started=$(date +%s%N)
SLOW_SETUP_LOG=$log "$rb" -q -p "$plugins" -c "$tmp/many.ini" -o "$tmp/many.json" \
  2>"$tmp/many.err"
is "$?" 0 "24 configurations on 2 ranks: exit 0"
ms=$(( ($(date +%s%N) - started) / 1000000 ))
is "$("$JQ" '[.results[] | select(.status == "ok" and .ranks == 2)] | length' \
  "$tmp/many.json")" 24 "24 rows ok on 2 ranks"
is "$(grep -c '^open ' "$log")" 2 "the communicator was set up once on each rank (one group)"
inits=$(grep -c '^init ' "$log")
ok "each configuration did its own init on each rank ($inits inits, 48 at least)" \
  test "$inits" -ge 48
is "$(grep -c '^close ' "$log")" 2 "the group was closed in order at the end"
ok "24 configurations took less than 4 s, not 24 x 0.5 s ($ms ms)" test "$ms" -lt 4000

cat >"$tmp/crash.ini" <<INI
[experiment]
warmup = 0
min_time = 0
min_reps = 4
max_reps = 4
rounds = 1
timeout = 20
seed = 7
[data]
op = sum
dtype = i32
n = 1K, 2K, 4K
ranks = 2
[run slow]
plugin = slow-setup
bug = none, crash
INI
log=$tmp/crash.log
SLOW_SETUP_LOG=$log "$rb" -q -p "$plugins" -c "$tmp/crash.ini" -o "$tmp/crash.json" \
  2>"$tmp/crash.err"
is "$?" 1 "a crashing rank: exit 1"
is "$("$JQ" -r '[.results[] | select(.params_text == "bug=crash") | .reason] | unique | .[]' \
  "$tmp/crash.json")" "rank 1 crashed with SIGABRT in run" \
  "each crash fails its row, naming the rank"
# after each crash, the next configuration's init comes after a fresh open
fresh=$(awk '
  $1 == "open" { opened = 1 }
  $1 == "init" && $2 == 1 { if (crashed && !opened) bad = 1; crashed = ($4 == "crash"); opened = 0 }
  END { print bad ? "no" : "yes" }' "$log")
ok "the row after a crash runs in a fresh group, and every other row is ok" sh -c "
  [ '$fresh' = yes ] &&
  [ \"\$('$JQ' '[.results[] | select(.params_text == \"bug=none\" and .status == \"ok\")] |
    length' '$tmp/crash.json')\" = 3 ]"

"$rb" --list -p "$plugins" >"$tmp/list.txt" 2>&1
ok "a plugin with group_open and no group_close is refused, naming both" \
  grep -q "plugin 'half-group' has group_open without group_close" "$tmp/list.txt"
