#!/bin/bash
# tests/test_interrupt.sh: SIGINT or SIGTERM stops a run after the
# configuration in progress (it finishes and is kept), a second signal stops
# at once (the configuration in progress is abandoned); either way the
# results of what finished are written whole and valid, and the exit status
# is 130. The slow-sum test plugin creates $SLOW_SUM_MARK when a
# configuration starts, so the signals arrive while one is in progress.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/crashers/dir
[ -d "$dir" ] || skip_all "test plugins not built"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 26
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
start() {
  rm -f "$SLOW_SUM_MARK"
  "$rb" -q --plugin-path "$dir" "$@" 2>>"$tmp/stderr" &
  pid=$!
  for _ in $(seq 200); do [ -e "$SLOW_SUM_MARK" ] && return 0; sleep 0.05; done
  echo "# the slow configuration did not start"; return 1
}
statuses() { "$JQ" -r '[.results[]|.status]|join(" ")' "$1"; }

# One SIGINT: the configuration in progress finishes; the rest are skipped.
start -c "$tmp/slow.ini" -o "$tmp/int.json"
kill -INT "$pid"; wait "$pid"; is "$?" 130 "SIGINT: exit status 130"
ok "... the results are valid JSON" "$JQ" -e .results "$tmp/int.json"
is "$(statuses "$tmp/int.json")" "ok skipped skipped skipped" "... the configuration in progress finished ok, the others are skipped"
is "$("$JQ" -r '.results[1].reason' "$tmp/int.json")" "interrupted before it ran" "... saying they were interrupted before they ran"
ok "... the finished configuration kept its samples" "$JQ" -e '.results[0].reps > 0 and (.results[0].samples_ns|length) == .results[0].reps' "$tmp/int.json"
is "$(ls "$tmp" | grep -c '\.tmp\.')" 0 "... no temporary file is left behind"

# SIGTERM does the same.
start -c "$tmp/slow.ini" -o "$tmp/term.json"
kill -TERM "$pid"; wait "$pid"; is "$?" 130 "SIGTERM: exit status 130"
is "$(statuses "$tmp/term.json")" "ok skipped skipped skipped" "... the configuration in progress finished ok"

# Results on standard output are whole too.
start -c "$tmp/slow.ini" --format json >"$tmp/stdout.json"
kill -INT "$pid"; wait "$pid"; is "$?" 130 "SIGINT with results on standard output: 130"
ok "... standard output holds valid JSON" "$JQ" -e .results "$tmp/stdout.json"

# Ctrl-C reaches the whole process group, workers included: they keep going
# and the parent decides.
set -m
start -c "$tmp/slow.ini" -o "$tmp/group.json"
set +m
kill -INT -- -"$pid"; wait "$pid"; is "$?" 130 "SIGINT to the process group: 130"
is "$(statuses "$tmp/group.json")" "ok skipped skipped skipped" "... the worker was not killed by it: the configuration finished ok"

# Two signals: the configuration in progress is abandoned at once.
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
start -c "$tmp/long.ini" -o "$tmp/twice.json"
SECONDS=0 # from the moment the 60 s configuration is in progress
kill -INT "$pid"; sleep 0.3; kill -INT "$pid"; wait "$pid"; is "$?" 130 "two SIGINTs: exit status 130"
ok "... at once (within 10 s of a 60 s configuration; took ${SECONDS} s)" test "$SECONDS" -lt 10
ok "... the results are valid JSON" "$JQ" -e .results "$tmp/twice.json"
is "$(statuses "$tmp/twice.json")" "ok skipped skipped" "... the finished one ok, the abandoned one and the rest skipped"
is "$("$JQ" -r '.results[1].reason' "$tmp/twice.json")" "interrupted while it ran (stopped at once by a second signal)" "... the abandoned one says so"
is "$("$JQ" -r '.summary.ok // empty' "$tmp/twice.json" | head -c 20)" "1" "... and the summary counts one ok"

# With isolation off, one signal still stops after the configuration in progress.
start --no-isolation -c "$tmp/slow.ini" -o "$tmp/inproc.json"
kill -INT "$pid"; wait "$pid"; is "$?" 130 "--no-isolation, SIGINT: exit status 130"
is "$(statuses "$tmp/inproc.json")" "ok skipped skipped skipped" "... the configuration in progress finished ok"

# A run of one configuration: the one in progress is also the last; it is kept.
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
kill -INT "$pid"; wait "$pid"; is "$?" 130 "a run of one configuration, SIGINT: 130"
is "$(statuses "$tmp/one.json")" "ok" "... it finished and was written"

# An existing result file is replaced whole, never left half-written.
echo '{"old": true}' >"$tmp/keep.json"
start -c "$tmp/slow.ini" -o "$tmp/keep.json"
kill -INT "$pid"; wait "$pid"; is "$?" 130 "SIGINT with an existing result file: 130"
ok "... the file now holds the new, valid results" "$JQ" -e '.results|length == 4' "$tmp/keep.json"
ok "... the old content is gone" bash -c "! grep -q '\"old\"' '$tmp/keep.json'"
is "$(ls "$tmp" | grep -c '\.tmp\.')" 0 "no temporary file is left behind by any of these runs"
done_testing
