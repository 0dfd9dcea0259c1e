#!/bin/bash
# tests/history/test_history_large.sh: a history of 1,000 runs of 100 rows
# each (make-history: 100,000 rows, each run's document kept whole):
# `redbench history` lists every run, `history trend -o PAGE.html` draws a
# figure for each of the 100 configurations, `history check` judges the
# newest run against the 999 before it, and `report DB -o PAGE.html` draws
# the newest run's page with its 100 configurations' trends, each in under
# 10 s of the machine's time: its CPU time (user and system), which other
# work on a shared machine does not inflate as it does the wall clock (on
# an idle 2-core machine each takes about 1 s).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
gen=$top_builddir/tests/history/make-history
[ -x "$gen" ] || skip_all "make-history not built"
plan 10

db=$tmp/large.db
"$gen" "$db" 1000 100 noise=1 seed=5
is "$?" 0 "a history of 1,000 runs of 100 rows is made"

# timed COMMAND...: runs COMMAND, sets $status and $took, its CPU time
# (user and system) in milliseconds.
timed() {
  local TIMEFORMAT='%3U %3S' times
  times=$( { time "$@" >"$tmp/out" 2>"$tmp/err"; echo "status $?" >"$tmp/status"; } 2>&1 )
  status=$(sed 's/status //' "$tmp/status")
  took=$(awk '{ printf "%d", ($1 + $2) * 1000 }' <<<"$times")
}

timed "$rb" history "$db"
is "$(head -n 1 "$tmp/out")" "$db: 1000 runs" "history lists the 1,000 runs"
ok "... in under 10 s ($took ms of CPU time)" test "$took" -lt 10000

timed "$rb" history trend "$db" -o "$tmp/page.html"
is "$status" 0 "history trend -o page.html"
ok "... a figure for each of the 100 configurations" test "$(grep -c '<svg ' "$tmp/page.html")" -eq 100
ok "... in under 10 s ($took ms of CPU time)" test "$took" -lt 10000

timed "$rb" history check "$db"
ok "history check judges the newest run's 100 configurations" grep -q '^run 1000 (.*): 100 configurations: ' "$tmp/out"
ok "... in under 10 s ($took ms of CPU time)" test "$took" -lt 10000

timed "$rb" report "$db" -o "$tmp/report.html"
ok "report H.db -o report.html: the trends of the newest run's 100 configurations" \
  test "$status" -eq 0 -a "$(grep -c '^<div class="trend" id="trend-' "$tmp/report.html")" -eq 100
ok "... in under 10 s ($took ms of CPU time)" test "$took" -lt 10000
done_testing
