#!/bin/bash
# tests/report/test_results_large.sh: `redbench report`, `plot` and `compare` on a
# results file of 200,000 rows (tests/report/gen_results.sh: 1000 runs sweeping two
# parameters over many sizes) take time linear in the rows: each well
# under 30 s of processor time (60 under the sanitizers), its own and its
# children's (plot was quadratic: 100,000 rows took 25 s). Processor time, not the clock: on a
# busy machine (make -j with other tests) the clock gave 43 s for 10 s of
# work. And each holds at most 4 times the file's size in memory (its
# peak resident set; the reader streams the rows into compact records: it
# held 11 times the file's size): not measured under the sanitizers,
# whose shadow memory counts, and there on 50,000 rows: what the sanitized
# suite checks is the reader's memory safety over a large file; the time
# is the plain suite's to judge. A million rows are measured by hand
# (docs/results/reader-memory.md).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 11
rows=200000
! sanitized || rows=50000
bash "$top_srcdir/tests/report/gen_results.sh" $rows 1000 >"$tmp/a.json"
bash "$top_srcdir/tests/report/gen_results.sh" $rows 1000 2 >"$tmp/b.json"
ok "a results file of $rows rows" test "$(grep -c '"run":' "$tmp/a.json")" -eq $rows
bytes=$(wc -c <"$tmp/a.json")

# measured COMMAND...: runs it (at most 120 s on the clock), its output in
# $tmp/out and $tmp/err, and prints its exit status, the processor seconds
# (user + system) it and its children took and its peak memory in KB
measured() {
  "$top_builddir/tests/report/measure" "$tmp/measured" timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"
  cat "$tmp/measured"; }

# 30 s, or 60 under the sanitizers (25 s seen there; quadratic would be
# about 100 s plain).
limit=30
! sanitized || limit=60
under() { test "$(echo "$1 < $limit" | bc)" -eq 1; }
# at most 4 times the file's size, in KB
fits() { if sanitized; then skip "the sanitizers' shadow memory counts"; else
  ok "... holding at most 4 times the file's $((bytes / 1024)) KB (peak $1 KB)" \
    test "$1" -le $((4 * bytes / 1024)); fi; }

read -r status took peak < <(measured "$rb" report "$tmp/a.json" -o "$tmp/a.md")
is "$status" 0 "report of $rows rows as Markdown: exit 0"
ok "... in under $limit s of processor time (took ${took} s)" under "$took"
fits "$peak"

read -r status took peak < <(measured "$rb" compare "$tmp/a.json" "$tmp/b.json")
ok "compare of $rows rows against the same rows twice as slow: exit 0 or 1 ($status)" test "$status" -le 1
ok "... every configuration compared" grep -q "^$rows configurations in both files" "$tmp/out"
ok "... in under $limit s of processor time (took ${took} s)" under "$took"
fits "$peak"
if command -v gnuplot >/dev/null; then
  read -r status took peak < <(measured "$rb" plot "$tmp/a.json" -o "$tmp/plots")
  is "$status" 0 "plot of $rows rows: exit 0"
  ok "... in under $limit s of processor time (took ${took} s)" under "$took"
  fits "$peak"
else
  skip "gnuplot not found"; skip "gnuplot not found"; skip "gnuplot not found"
fi
done_testing
