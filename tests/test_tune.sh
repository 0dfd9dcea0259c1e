#!/bin/bash
# tests/test_tune.sh: `redbench tune` on the cpu pack: it measures fewer
# configurations than brute force for the large space, writes an experiment
# that re-runs exactly the winners, and a JSON winner map.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 13
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"

"$rb" tune -q -c "$fixtures/tune/cpu.ini" -o "$tmp/tuned.ini" >"$tmp/out" 2>&1; is "$?" 0 "tune exits 0"
ok "it prints what it tried" grep -qE '^\[threads\] threads sum f32 n=1M: [0-9]+ of 28 configurations tried' "$tmp/out"
tried=$(sed -n 's/^\[threads\] threads sum f32 n=1M: \([0-9]*\) of 28.*/\1/p' "$tmp/out")
ok "coordinate descent tries fewer than all 28 ($tried)" test "$tried" -lt 28
ok "the small space is searched whole" grep -qE '^\[unrolled\] unrolled sum f32 n=64K: 14 of 14' "$tmp/out"
is "$(grep -c '^  \* ' "$tmp/out")" 4 "one winner per run and size, marked"
"$rb" --dry-run -c "$tmp/tuned.ini" >"$tmp/dry" 2>&1; is "$?" 0 "the tuned experiment is valid"
is "$(grep -cE '^ +[0-9]+  ' "$tmp/dry")" 4 "it holds exactly the 4 winners"
winner=$(grep '^  \* ' "$tmp/out" | head -n 1 | awk '{print $2}')
ok "the first winner's parameters are in the tuned file" grep -qx "${winner%% *}" <(sed -n '/^\[run unrolled-sum-f32-64K\]/,/^$/p' "$tmp/tuned.ini" | tr -d ' ')
ok "the tuned file measures as the search did (timing, determinism runs)" \
  test "$(grep -cxE 'timing = launch|determinism_runs = 2' "$tmp/tuned.ini")" = 2
ok "the winner map parses" $JQ -e '.winners|length>=1' "$tmp/tuned.json"
ok "each winner has a size range, plugin and params" $JQ -e '[.winners[]|has("n_min") and has("n_max") and has("plugin") and has("params")]|all' "$tmp/tuned.json"
ok "the map names the device" $JQ -e '.device.backend=="cpu"' "$tmp/tuned.json"
"$rb" tune -c "$fixtures/cli/unknown-param.ini" -o "$tmp/x.ini" >/dev/null 2>&1; is "$?" 2 "a bad experiment exits 2"
done_testing
