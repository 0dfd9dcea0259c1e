#!/bin/bash
# tests/report/test_results_large.sh: `redbench plot` and `redbench compare` on a
# results file of 200,000 rows (tests/report/gen_results.sh: 1000 runs sweeping two
# parameters over many sizes) take time linear in the rows: each well
# under 30 s of processor time (60 under the sanitizers), its own and its
# children's (plot was quadratic: 100,000 rows took 25 s). Processor time, not the clock: on a
# busy machine (make -j with other tests) the clock gave 43 s for 10 s of
# work. A million rows are measured by hand.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 6
rows=200000
bash "$top_srcdir/tests/report/gen_results.sh" $rows 1000 >"$tmp/a.json"
bash "$top_srcdir/tests/report/gen_results.sh" $rows 1000 2 >"$tmp/b.json"
ok "a results file of $rows rows" test "$(grep -c '"run":' "$tmp/a.json")" -eq $rows

# seconds COMMAND...: runs it (at most 120 s on the clock), prints its exit
# status and the processor seconds (user + system) it and its children took
seconds() { local TIMEFORMAT='%U %S' s times
  times=$( { time timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; echo "status $?" >"$tmp/status"; } 2>&1)
  s=$(cut -d' ' -f2 "$tmp/status"); echo "$s $(echo "$times" | tail -n 1 | awk '{print $1 + $2}')"; }

# 30 s, or 60 under the sanitizers (25 s seen there; quadratic would be
# about 100 s plain).
limit=30
! sanitized || limit=60
read -r status took < <(seconds "$rb" compare "$tmp/a.json" "$tmp/b.json")
ok "compare of $rows rows against the same rows twice as slow: exit 0 or 1 ($status)" test "$status" -le 1
ok "... every configuration compared" grep -q "^$rows configurations in both files" "$tmp/out"
ok "... in under $limit s of processor time (took ${took} s)" test "$(echo "$took < $limit" | bc)" -eq 1
if command -v gnuplot >/dev/null; then
  read -r status took < <(seconds "$rb" plot "$tmp/a.json" -o "$tmp/plots")
  is "$status" 0 "plot of $rows rows: exit 0"
  ok "... in under $limit s of processor time (took ${took} s)" test "$(echo "$took < $limit" | bc)" -eq 1
else
  skip "gnuplot not found"; skip "gnuplot not found"
fi
done_testing
