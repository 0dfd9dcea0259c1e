#!/bin/bash
# tests/history/test_history_gate.sh: the steps and the gate on synthetic
# histories (make-history: each run's rows as a run's JSON holds them, with
# a machine's noise). 60 runs of 4 configurations with one planted 2x step
# at run 31: the trend finds it at run 31 in every configuration and
# nowhere else, and `history check` judged at each run from 24 to 40 fails
# (exit 1, slower) on run 32 alone, the run that confirms the step; run
# 31, one night off, is unclear. 50 re-runs of an unchanged experiment on a quiet
# machine (1% noise, one night 40% off): no step, and the check passes at
# every run. The trend page marks the step, with the runs' revisions in
# its tooltips. 30 runs whose energy per call doubles at run 16 and whose
# time does not: the trend finds the energy's step at run 16 and no step
# in time (its JSON, table, Markdown, CSV and page say so), and `history
# check`, which judges time alone, passes at every run.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
gen=$top_builddir/tests/history/make-history
[ -x "$gen" ] || skip_all "make-history not built"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 25

db=$tmp/step.db
"$gen" "$db" 60 4 noise=1 step=31:2 seed=3
is "$?" 0 "a history of 60 runs with a 2x step at run 31 is made"
"$rb" history trend "$db" --format json >"$tmp/trend.json"
is "$?" 0 "history trend --format json"
is "$("$JQ" '.configurations | length' "$tmp/trend.json")" 4 "... 4 configurations"
is "$("$JQ" -c '[.configurations[].steps | map(.run)] | unique' "$tmp/trend.json")" "[[31]]" \
  "... each with one step, at run 31"
is "$("$JQ" -r '[.configurations[].steps[].verdict] | unique | join(" ")' "$tmp/trend.json")" slower \
  "... slower"
ok "... of ratio 2 (within 10%)" "$JQ" -e '[.configurations[].steps[].ratio] | all(. > 1.8 and . < 2.2)' "$tmp/trend.json"

# The gate, judged at each run around the step in turn (and at the newest).
failing=
for k in $(seq 24 40); do
  "$rb" history check "$db" --run "$k" >"$tmp/check.$k" 2>&1
  st=$?
  [ "$st" -eq 0 ] || failing="$failing $k:$st"
done
is "$failing" " 32:1" "history check at runs 24 to 40 fails on run 32 alone, the run after the step (exit 1)"
ok "... saying slower, with the step at run 31" grep -q "slower.*a step at run 31 (2026-01-02, rev-31)" "$tmp/check.32"
ok "... run 31, one night off, is unclear" grep -q "unclear.*one run off" "$tmp/check.31"
ok "... run 33 is the same as the new level" grep -q "4 configurations: 4 same" "$tmp/check.33"
"$rb" history check "$db" --format json >"$tmp/latest.json"
is "$("$JQ" -r '[.configurations[].verdict] | unique | join(" ")' "$tmp/latest.json")" same \
  "... the newest run (60): same"

# The trend page: the steps marked, the revisions in tooltips.
"$rb" history trend "$db" -o "$tmp/trend.html"
is "$?" 0 "history trend -o trend.html"
ok "... marks the step at run 31 in each figure" test "$(grep -c '<title>step at run 31 ' "$tmp/trend.html")" -eq 4
ok "... names each run's revision in its point's tooltip" grep -q '<title>run 17, 2026-01-01T16:00:00Z, revision rev-17: ' "$tmp/trend.html"

# 50 re-runs of an unchanged experiment on a quiet machine.
quiet=$tmp/quiet.db
"$gen" "$quiet" 50 4 noise=1 outlier=23:1.4 seed=11
"$rb" history trend "$quiet" --format json >"$tmp/quiet.json"
is "$("$JQ" '[.configurations[].steps[]] | length' "$tmp/quiet.json")" 0 \
  "50 re-runs of an unchanged experiment (1% noise, run 23 40% off): no step"
failing=
for k in $(seq 1 50); do
  "$rb" history check "$quiet" --run "$k" >/dev/null 2>&1 || failing="$failing $k"
done
is "$failing" "" "... and history check passes on every one"

# A step in energy alone.
energy=$tmp/energy.db
"$gen" "$energy" 30 4 noise=1 energy=0.002 energy_step=16:2 seed=5
"$rb" history trend "$energy" --format json >"$tmp/energy.json"
is "$("$JQ" -c '[.configurations[].energy_steps | map(.run)] | unique' "$tmp/energy.json")" "[[16]]" \
  "energy doubled at run 16, time unchanged: each configuration's energy has one step, at run 16"
ok "... of ratio 2 (within 10%), more energy" \
  "$JQ" -e '[.configurations[].energy_steps[]] | all(.ratio > 1.8 and .ratio < 2.2 and .verdict == "more")' "$tmp/energy.json"
is "$("$JQ" '[.configurations[].steps[]] | length' "$tmp/energy.json")" 0 "... and its time none"
"$rb" history trend "$energy" >"$tmp/energy.txt"
is "$(grep -c 'none   run 16 (2026-01-01, rev-16): [12].[09][0-9]x more energy$' "$tmp/energy.txt")" 4 \
  "... the table: no step in time, the energy's step at run 16"
"$rb" history trend "$energy" --format md >"$tmp/energy.md"
is "$(grep -c '| none | run 16 (2026-01-01, rev-16): [12].[09][0-9]x more energy |$' "$tmp/energy.md")" 4 "... the Markdown too"
ok "... the CSV's last column, energy_steps" \
  bash -c "'$rb' history trend '$energy' --format csv | head -n 1 | grep -q ',steps,energy_steps\$'"
"$rb" history trend "$energy" -o "$tmp/energy.html"
is "$(grep -c '<title>energy step at run 16 ' "$tmp/energy.html"):$(grep -c '<title>step at run ' "$tmp/energy.html")" "4:0" \
  "... the page marks the energy's step in each energy figure, and no step of time"
failing=
for k in $(seq 12 22); do
  "$rb" history check "$energy" --run "$k" >/dev/null 2>&1 || failing="$failing $k"
done
is "$failing" "" "history check (time alone) passes at every run around the energy's step"
is "$("$JQ" '[.configurations[] | select(has("energy_steps"))] | length' "$tmp/trend.json")" 0 \
  "a history without energy has no energy_steps in its trend's JSON"
done_testing
