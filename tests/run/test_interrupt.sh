#!/bin/bash
# tests/run/test_interrupt.sh: SIGINT or SIGTERM is answered within a second:
# the configuration in progress is abandoned (its worker killed) and marked
# `skipped`, "interrupted while it ran", the rest "interrupted before it
# ran"; the results of what finished are written whole and valid, and the
# exit status is 130. With isolation off, the configuration in progress
# cannot be abandoned: one signal stops after it. The slow-sum test plugin
# creates $SLOW_SUM_MARK when a configuration starts, so the signals arrive
# while one is in progress.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/run/crashers/dir
[ -d "$dir" ] || skip_all "test plugins not built"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 29
export SLOW_SUM_MARK=$tmp/started

cat >"$tmp/slow.ini" <<'INI'
[experiment]
warmup = 0
min_time = 1
max_reps = 60
[data]
dtype = i32
[run slow]
plugin = slow-sum
n = 1K, 2K, 4K
[run after]
plugin = tiny-sum
INI

# Starts redbench in the background and waits until a slow configuration
# is in progress. Sets $pid.
start() { start_slow --plugin-path "$dir" "$@"; }

# Waits for redbench; sets $status and $took, the milliseconds from the
# signal to its end.
finish() {
  local t0; t0=$(date +%s%N)
  wait "$pid"; status=$?
  took=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# interrupted WHAT INI JSON: one SIGINT to a run of INI into JSON while a
# slow configuration is in progress; checks (3 tests) that it ends with exit
# status 130 within 2 s of the signal and leaves valid results in JSON.
interrupted() {
  start -c "$2" -o "$3"
  kill -INT "$pid"; finish; is "$status" 130 "$1: exit status 130"
  ok "... within 2 s of the signal (took $took ms)" test "$took" -lt 2000
  ok "... the results are valid JSON" "$JQ" -e .results "$3"
}

# One SIGINT: the configuration in progress is abandoned; the rest are skipped.
interrupted SIGINT "$tmp/slow.ini" "$tmp/int.json"
is "$(statuses "$tmp/int.json")" "skipped skipped skipped skipped" "... the configuration in progress abandoned, the others skipped"
is "$("$JQ" -r '.results[0].reason' "$tmp/int.json")" "interrupted while it ran" "... the abandoned one says it was interrupted while it ran"
is "$("$JQ" -r '.results[1].reason' "$tmp/int.json")" "interrupted before it ran" "... the others that they were interrupted before they ran"
is "$(ls "$tmp" | grep -c '\.tmp\.')" 0 "... no temporary file is left behind"

# SIGTERM does the same.
start -c "$tmp/slow.ini" -o "$tmp/term.json"
kill -TERM "$pid"; finish; is "$status" 130 "SIGTERM: exit status 130"
is "$(statuses "$tmp/term.json")" "skipped skipped skipped skipped" "... the configuration in progress abandoned"

# Results on standard output are whole too.
start -c "$tmp/slow.ini" --format json >"$tmp/stdout.json"
kill -INT "$pid"; finish; is "$status" 130 "SIGINT with results on standard output: 130"
ok "... standard output holds valid JSON" "$JQ" -e .results "$tmp/stdout.json"

# Ctrl-C reaches the whole process group, workers included: they ignore it
# and the parent decides.
set -m
start -c "$tmp/slow.ini" -o "$tmp/group.json"
set +m
kill -INT -- -"$pid"; finish; is "$status" 130 "SIGINT to the process group: 130"
is "$("$JQ" -r '.results[0].reason' "$tmp/group.json")" "interrupted while it ran" "... the configuration in progress is interrupted, not failed by the signal"

# A configuration of 60 s: abandoned at once, what finished before it kept.
cat >"$tmp/long.ini" <<'INI'
[experiment]
warmup = 0
min_time = 60
max_reps = 100000
timeout = 600
[data]
dtype = i32
n = 1K
[run quick]
plugin = tiny-sum
[run long]
plugin = slow-sum
[run after]
plugin = tiny-sum
INI
interrupted "SIGINT in a 60 s configuration" "$tmp/long.ini" "$tmp/long.json"
is "$(statuses "$tmp/long.json")" "ok skipped skipped" "... the finished one ok, the abandoned one and the rest skipped"
is "$("$JQ" -r '.results[1].reason' "$tmp/long.json")" "interrupted while it ran" "... the abandoned one says so"
ok "... the finished configuration kept its samples" "$JQ" -e '.results[0].reps > 0 and (.results[0].samples_ns|length) == .results[0].reps' "$tmp/long.json"
start -c "$tmp/long.ini" -o "$tmp/twice.json"
kill -INT "$pid"; kill -INT "$pid" 2>/dev/null; finish; is "$status" 130 "a second SIGINT changes nothing: exit status 130"
is "$(statuses "$tmp/twice.json")" "ok skipped skipped" "... and the same rows"

# With isolation off, one signal still stops after the configuration in progress.
start --no-isolation -c "$tmp/slow.ini" -o "$tmp/inproc.json"
kill -INT "$pid"; finish; is "$status" 130 "--no-isolation, SIGINT: exit status 130"
is "$(statuses "$tmp/inproc.json")" "ok skipped skipped skipped" "... the configuration in progress finished ok"

# A run of one configuration: the one in progress is also the last.
cat >"$tmp/one.ini" <<'INI'
[experiment]
min_time = 2
max_reps = 1000
[data]
dtype = i32
n = 1K
[run slow]
plugin = slow-sum
INI
start -c "$tmp/one.ini" -o "$tmp/one.json"
kill -INT "$pid"; finish; is "$status" 130 "a run of one configuration, SIGINT: 130"
is "$(statuses "$tmp/one.json")" "skipped" "... it was abandoned and its row written"

# An existing result file is replaced whole, never left half-written.
echo '{"old": true}' >"$tmp/keep.json"
start -c "$tmp/slow.ini" -o "$tmp/keep.json"
kill -INT "$pid"; finish; is "$status" 130 "SIGINT with an existing result file: 130"
ok "... the file now holds the new, valid results" "$JQ" -e '.results|length == 4' "$tmp/keep.json"
ok "... the old content is gone" bash -c "! grep -q '\"old\"' '$tmp/keep.json'"
is "$(ls "$tmp" | grep -c '\.tmp\.')" 0 "no temporary file is left behind by any of these runs"
done_testing
