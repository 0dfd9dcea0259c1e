#!/bin/bash
# tests/compare/test_compare_energy.sh: `redbench compare` on rows with
# energy (energy = on), measured on the `standin` backend through the
# stand-in NVML (tests/run/energy/, as tests/run/test_energy_rows.sh runs it):
# each round's energy per call kept in JSON and read back; power scripted
# 100x higher in a second run (more than a loaded machine can slow a call:
# energy per call is power x time): every pair's energy higher, exit 1, and
# --energy report leaves the exit status to time. Then files made from the
# run with rounds 0.5% apart (time the same in both): energy 30% higher is
# a regression (exit 1; 0 with --energy report), 1% higher is the same,
# 30% lower is lower (exit 0); one round a side is unclear, saying why; a
# file without energy against one with: each pair says which has none, not
# an error; two files without energy compare as before (no energy column,
# CSV header, JSON member); a bad round energy is refused, naming the file.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
energy_standin
plan 24
{ experiment_header energy energy=on energy_min_time=0.05 timing=graph graph_calls=200
  printf '[data]\nop = sum\ndtype = i32\nn = 64K, 256K\n[run s]\nplugin = standin-sum\n'
} >"$tmp/e.ini"
measure() { # measure WATTS OUT
  printf 'power_w = %s\nenergy_period_ms = 0\n' "$1" >"$tmp/script"
  "$rb" -q -p "$dir" -c "$tmp/e.ini" -D rounds=3 -D min_reps=5 -D max_reps=10 -o "$2" \
    2>"$tmp/err" || cat "$tmp/err"; }
measure 300 "$tmp/old.json"
measure 30000 "$tmp/new.json"

ok "each round keeps its energy per call" "$JQ" -e \
  '[.results[].rounds | length == 3 and all(.energy_j > 0)] | all' "$tmp/old.json"
"$rb" report --format json "$tmp/old.json" >"$tmp/again.json" 2>"$tmp/err"
is "$("$JQ" -c '[.results[].rounds[].energy_j]' "$tmp/again.json")" \
   "$("$JQ" -c '[.results[].rounds[].energy_j]' "$tmp/old.json")" \
   "... written again the same once read back (JSON round trip)"

"$rb" compare --format json "$tmp/old.json" "$tmp/new.json" >"$tmp/c.json" 2>/dev/null
st=$?
is "$("$JQ" -r '[.comparisons[].energy.verdict] | unique | join(",")' "$tmp/c.json")" higher \
   "measured: power 100x higher, every pair's energy higher"
is "$st" 1 "... and the exit status 1"
is "$("$JQ" -r '.summary.energy | "\(.higher) \(.with_energy) \(.gate)"' "$tmp/c.json")" "2 2 true" \
   "... counted in the summary, gating"
"$rb" compare --energy report "$tmp/old.json" "$tmp/new.json" >"$tmp/c.txt" 2>/dev/null
st=$?
time_slower=$("$JQ" '.summary.slower' "$tmp/c.json")
is "$st" "$([ "$time_slower" -gt 0 ] && echo 1 || echo 0)" \
   "--energy report: the exit status is time's alone"
ok "... and the table says the regression is reported only" \
  grep -q "regression (reported only: --energy report): 2 configurations used more than 5% more energy" "$tmp/c.txt"

# Files with known rounds: each row's 3 rounds of 10 samples at 1, 1.005
# and 0.995 times its size in microseconds, its energy per round alike
# times the run's, times FACTOR.
tight() { # tight OUT FACTOR [ROUNDS]
  "$JQ" --argjson f "$2" --argjson k "${3:-3}" '
    [1, 1.005, 0.995][0:$k] as $r | (30 / $k) as $per
    | .results |= (to_entries | map(.value as $row | (.key * 3 + 1) as $size
      | [range(0; $k) as $i | range(0; $per) as $j
         | 1000 * $size * $r[$i] * (1 + 0.002 * ($j % 5 - 2))] as $samples
      | $row | .samples_ns = $samples | .reps = ($samples | length)
      | .energy_j = ($row.energy_j * $f) | .j_per_gb = ($row.j_per_gb * $f)
      | .rounds = [range(0; $k) as $i | {median_ns: (1000 * $size * $r[$i]), reps: $per,
                   position: 0, stopped_by: "max_reps", energy_j: ($row.energy_j * $f * $r[$i])}]))' \
    "$tmp/old.json" >"$1"; }
tight "$tmp/t-old.json" 1
tight "$tmp/t-up.json" 1.3
tight "$tmp/t-same.json" 1.01
tight "$tmp/t-down.json" 0.7
tight "$tmp/t-one.json" 1.3 1
verdicts() { "$rb" compare --format json "$@" >"$tmp/v.json" 2>/dev/null; echo "$? $("$JQ" -r \
  '[.comparisons[] | .verdict + "/" + .energy.verdict] | unique | join(",")' "$tmp/v.json")"; }
is "$(verdicts "$tmp/t-old.json" "$tmp/t-up.json")" "1 same/higher" \
   "energy 30% higher over tight rounds, time the same: an energy regression, exit 1"
is "$(verdicts --energy report "$tmp/t-old.json" "$tmp/t-up.json")" "0 same/higher" \
   "... exit 0 with --energy report"
is "$(verdicts --energy gate "$tmp/t-old.json" "$tmp/t-up.json")" "1 same/higher" "... exit 1 with --energy gate"
is "$(verdicts "$tmp/t-old.json" "$tmp/t-same.json")" "0 same/same" "energy 1% higher: same, exit 0"
is "$(verdicts "$tmp/t-old.json" "$tmp/t-down.json")" "0 same/lower" "energy 30% lower: lower, exit 0"
is "$(verdicts "$tmp/t-old.json" "$tmp/t-one.json")" "0 same/unclear" \
   "one round on a side: energy unclear, exit 0"
ok "... saying that judging energy takes two rounds a side" "$JQ" -e \
  'all(.comparisons[]; .energy.why | test("takes two rounds or more on both sides"))' "$tmp/v.json"

"$rb" compare --format csv "$tmp/t-old.json" "$tmp/t-up.json" >"$tmp/t.csv" 2>/dev/null
is "$(head -n 1 "$tmp/t.csv" | cut -d, -f26-33)" \
   "old_energy_j,new_energy_j,energy_ratio,energy_ci_low,energy_ci_high,energy_p_value,energy_verdict,energy_why" \
   "CSV: the energy columns after time's"
is "$(sed -n 2p "$tmp/t.csv" | cut -d, -f19,32)" "same,higher" "... time's verdict and energy's side by side"
"$rb" compare --format md "$tmp/t-old.json" "$tmp/t-up.json" >"$tmp/t.md" 2>/dev/null
ok "Markdown: an energy column and the regression" bash -c \
  "grep -q '| energy |' '$tmp/t.md' && grep -q 'Energy regression:\*\* 2 configurations' '$tmp/t.md'"

# Without energy on a side, or on both.
"$JQ" '.results |= map(del(.energy_j, .j_per_gb, .power_w, .energy_calls, .energy_s)
  | .energy_source = null | .energy_note = null | .rounds |= map(del(.energy_j)))' \
  "$tmp/t-old.json" >"$tmp/none.json"
"$JQ" '.results |= map(del(.energy_j, .j_per_gb, .power_w, .energy_calls, .energy_s)
  | .energy_source = null | .energy_note = null | .rounds |= map(del(.energy_j)))' \
  "$tmp/t-up.json" >"$tmp/none-up.json"
is "$(verdicts "$tmp/none.json" "$tmp/t-up.json")" "0 same/none" \
   "no energy in old: not compared, exit 0"
ok "... each pair saying so" "$JQ" -e 'all(.comparisons[]; .energy.why == "no energy in old")' "$tmp/v.json"
"$rb" compare "$tmp/t-up.json" "$tmp/none.json" >"$tmp/n.txt" 2>&1
ok "... in the table too, for the new side" grep -q "no energy in new" "$tmp/n.txt"
"$rb" compare "$tmp/none.json" "$tmp/none-up.json" >"$tmp/nn.txt" 2>&1
ok "files without energy: no energy column or line in the table" bash -c "! grep -qi 'energy\|J ratio' '$tmp/nn.txt'"
"$rb" compare --format csv "$tmp/none.json" "$tmp/none-up.json" >"$tmp/nn.csv" 2>/dev/null
is "$(head -n 1 "$tmp/nn.csv" | cut -d, -f21- | sed 's/,old_repro,new_repro$//')" \
   "old_timing,new_timing,old_cache,new_cache,measured_differently" "... nor CSV column"
"$rb" compare --format json "$tmp/none.json" "$tmp/none-up.json" >"$tmp/nn.json" 2>/dev/null
ok "... nor JSON member" "$JQ" -e '(.summary | has("energy") | not) and all(.comparisons[]; has("energy") | not)' "$tmp/nn.json"

"$JQ" '.results[0].rounds[1].energy_j = "many"' "$tmp/t-old.json" >"$tmp/bad.json"
"$rb" compare "$tmp/bad.json" "$tmp/t-up.json" >/dev/null 2>"$tmp/err"
ok "a round's energy that is not a number: exit 2, naming the file, row and what is valid" \
  bash -c "[ $? = 2 ] && grep -q 'bad.json.*results\[0\].*round 2 whose energy_j is not a number of joules' '$tmp/err'"
