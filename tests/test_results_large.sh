#!/bin/bash
# tests/test_results_large.sh: `redbench plot` and `redbench compare` on a
# results file of 200,000 rows (tests/gen_results.sh: 1000 runs sweeping two
# parameters over many sizes) take time linear in the rows: each well
# under 30 s (plot was quadratic: 100,000 rows took 25 s). The bounds are
# loose, for a busy machine; a million rows are measured by hand.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 6
rows=200000
bash "$top_srcdir/tests/gen_results.sh" $rows 1000 >"$tmp/a.json"
bash "$top_srcdir/tests/gen_results.sh" $rows 1000 2 >"$tmp/b.json"
ok "a results file of $rows rows" test "$(grep -c '"run":' "$tmp/a.json")" -eq $rows

# seconds COMMAND...: runs it (at most 120 s), prints its exit status and seconds
seconds() { local t0 t1; t0=$(date +%s.%N); timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; local s=$?
  t1=$(date +%s.%N); echo "$s $(echo "$t1 - $t0" | bc)"; }

read -r status took < <(seconds "$rb" compare "$tmp/a.json" "$tmp/b.json")
ok "compare of $rows rows against the same rows twice as slow: exit 0 or 1 ($status)" test "$status" -le 1
ok "... every configuration compared" grep -q "^$rows configurations in both files" "$tmp/out"
ok "... in under 30 s (took ${took} s)" test "$(echo "$took < 30" | bc)" -eq 1
if command -v gnuplot >/dev/null; then
  read -r status took < <(seconds "$rb" plot "$tmp/a.json" -o "$tmp/plots")
  is "$status" 0 "plot of $rows rows: exit 0"
  ok "... in under 30 s (took ${took} s)" test "$(echo "$took < 30" | bc)" -eq 1
else
  skip "gnuplot not found"; skip "gnuplot not found"
fi
done_testing
