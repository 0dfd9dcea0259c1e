#!/bin/bash
# tests/run/test_progress.sh: the progress of a run on standard error. Not on a
# terminal (a CI log): a plain line every $REDBENCH_PROGRESS_SECONDS (10 by
# default) naming i/N, the configuration in progress and the time elapsed,
# and a last line with the run's length; nothing for a run shorter than
# the interval. On a terminal (script(1) gives one): one line rewritten in place
# (\r and the erase-line sequence) with an estimate of the time left, cleared
# before the results; with rounds it says which, and counts each
# configuration once per round it runs. -q silences both.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/run/crashers/dir
[ -d "$dir" ] || skip_all "test plugins not built"
plan 13

cat >"$tmp/slow.ini" <<'INI'
[experiment]
rounds = 1
warmup = 1
min_time = 0.6
max_reps = 1000
[data]
dtype = i32
n = 1K
[run quick]
plugin = tiny-sum
[run slow]
plugin = slow-sum
fault = yes
n = 1K, 2K
INI

REDBENCH_PROGRESS_SECONDS=0.2 "$rb" --plugin-path "$dir" -c "$tmp/slow.ini" -o "$tmp/plain.json" 2>"$tmp/plain.err" >/dev/null
is "$?" 0 "plain progress: the run succeeds"
ok "... a line names i/N, the configuration in progress and the time elapsed" \
  grep -Eq '^redbench: \[2/3\] slow fault=yes sum i32 n=1K: [0-9]+ s elapsed' "$tmp/plain.err"
ok "... later lines estimate the time left" \
  grep -Eq '^redbench: \[3/3\] slow fault=yes sum i32 n=2K: [0-9]+ s elapsed, about [0-9]+ s left$' "$tmp/plain.err"
ok "... a last line gives the run's length" grep -Eq '^redbench: \[3/3\] the run took [0-9]+ s$' "$tmp/plain.err"
ok "... no terminal control sequence reaches the log" bash -c "! grep -q \$'[\\r\\033]' '$tmp/plain.err'"
REDBENCH_PROGRESS_SECONDS=0.2 "$rb" --plugin-path "$dir" -c "$tmp/slow.ini" -D rounds=2 -o "$tmp/rounds.json" 2>"$tmp/rounds.err" >/dev/null
ok "rounds = 2: the line says the round and counts both rounds' configurations" \
  grep -Eq '^redbench: round 2/2 \[[4-6]/6\] slow fault=yes sum i32 n=[12]K: [0-9]+ s elapsed' "$tmp/rounds.err"
# A configuration that is not ok in the first round runs in no other: it
# counts once, and the last line's count is whole.
{ cat "$tmp/slow.ini"; printf '[run odd]\nplugin = slow-sum\ndtype = f64\n'; } >"$tmp/odd.ini"
REDBENCH_PROGRESS_SECONDS=0.2 "$rb" --plugin-path "$dir" -c "$tmp/odd.ini" -D rounds=2 -o "$tmp/odd.json" 2>"$tmp/odd.err" >/dev/null
is "$(grep -Eo '^redbench: \[[0-9]+/[0-9]+\] the run took' "$tmp/odd.err")" "redbench: [7/7] the run took" \
  "rounds = 2, one of 4 configurations unsupported: each counted once per round it runs, 4 + 3"

REDBENCH_PROGRESS_SECONDS=120 "$rb" --plugin-path "$dir" -c "$tmp/slow.ini" -o "$tmp/short.json" 2>"$tmp/short.err" >/dev/null
is "$(grep -c '^redbench: \[' "$tmp/short.err")" 0 "a run shorter than the interval writes no progress line"

REDBENCH_PROGRESS_SECONDS=0.2 "$rb" -q --plugin-path "$dir" -c "$tmp/slow.ini" -o "$tmp/quiet.json" 2>"$tmp/quiet.err"
is "$(grep -c '^redbench: \[' "$tmp/quiet.err")" 0 "-q: no progress line"

if script -qec true /dev/null >/dev/null 2>&1; then
  script -qec "'$rb' --plugin-path '$dir' -c '$tmp/slow.ini' -o '$tmp/live.json' >/dev/null" "$tmp/live.err" >/dev/null
  ok "on a terminal: the line is rewritten in place" grep -q $'\r\033\\[K\\[2/3\\] slow fault=yes sum i32 n=1K: [0-9]* s elapsed' "$tmp/live.err"
  ok "... with an estimate of the time left" grep -q $'\\[3/3\\] slow fault=yes sum i32 n=2K: [0-9]* s elapsed, about [0-9]* s left' "$tmp/live.err"
  live=$(cat "$tmp/live.err"); after_last_erase=${live##*$'\033[K'}
  ok "... and cleared at the end" bash -c "! grep -q 'elapsed' <<<'$after_last_erase'"
  script -qec "'$rb' -q --plugin-path '$dir' -c '$tmp/slow.ini' -o '$tmp/live-q.json' >/dev/null" "$tmp/live-q.err" >/dev/null
  ok "... -q silences it" bash -c "! grep -q '\\[1/3\\]' '$tmp/live-q.err'"
else
  for _ in 1 2 3 4; do skip "script(1) is not available"; done
fi
done_testing
