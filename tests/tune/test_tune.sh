#!/bin/bash
# tests/tune/test_tune.sh: `redbench tune` on the cpu pack: it measures fewer
# configurations than brute force for the large space, writes an experiment
# that re-runs exactly the winners, and a JSON winner map; interrupted, it
# writes the winners of the data sets it finished and exits 130. What it
# prints labels each time with the stage it comes from, the winner first
# with its final time.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 23
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"

"$rb" tune -q -c "$fixtures/cpu.ini" -o "$tmp/tuned.ini" >"$tmp/out" 2>&1; is "$?" 0 "tune exits 0"
ok "it prints what it tried" grep -qE '^\[threads\] threads sum f32 n=1M: [0-9]+ of 28 configurations tried' "$tmp/out"
tried=$(sed -n 's/^\[threads\] threads sum f32 n=1M: \([0-9]*\) of 28.*/\1/p' "$tmp/out")
ok "coordinate descent tries fewer than all 28 ($tried)" test "$tried" -lt 28
ok "the small space is searched whole" grep -qE '^\[unrolled\] unrolled sum f32 n=64K: 14 of 14' "$tmp/out"
is "$(grep -c '^  \* ' "$tmp/out")" 4 "one winner per run and size, marked"
ok "one line says how the search works" grep -q '^How the search works: .*stage 1.*final' "$tmp/out"
# each group's first line is its winner, at its final measurement
is "$(awk '/^\[/ {getline; print}' "$tmp/out" | grep -vc '^  \* .* final (full time)$')" 0 \
  "each group lists its winner first, labelled final"
is "$(grep -E '^    [^ ].* ok ' "$tmp/out" | grep -vcE ' stage [1-9] \(([0-9/]+|full) time\)$')" 0 \
  "every other time is labelled with its stage"
# within a group the stages go down (later stages first)
ok "the others are grouped by stage, later stages first" awk '
  /^\[/ { last = 99; next }
  / stage [0-9]/ { s = $0; sub(/.* stage /, "", s); s += 0
                   if (s > last) { print "stage " s " after " last ": " $0; bad = 1 }; last = s }
  END { exit bad }' "$tmp/out"
"$rb" --dry-run -c "$tmp/tuned.ini" >"$tmp/dry" 2>&1; is "$?" 0 "the tuned experiment is valid"
is "$(grep -cE '^ +[0-9]+  ' "$tmp/dry")" 4 "it holds exactly the 4 winners"
winner=$(grep '^  \* ' "$tmp/out" | head -n 1 | awk '{print $2}')
ok "the first winner's parameters are in the tuned file" grep -qx "${winner%% *}" <(sed -n '/^\[run unrolled-sum-f32-64K\]/,/^$/p' "$tmp/tuned.ini" | tr -d ' ')
ok "the tuned file measures as the search did (timing, determinism runs)" \
  test "$(grep -cxE 'timing = launch|determinism_runs = 2' "$tmp/tuned.ini")" = 2
ok "the winner map parses" $JQ -e '.winners|length>=1' "$tmp/tuned.json"
ok "each winner has a size range, plugin and params" $JQ -e '[.winners[]|has("n_min") and has("n_max") and has("plugin") and has("params")]|all' "$tmp/tuned.json"
ok "the map names the device" $JQ -e '.device.backend=="cpu"' "$tmp/tuned.json"
"$rb" tune -c "$top_srcdir/tests/cli/fixtures/unknown-param.ini" -o "$tmp/x.ini" >/dev/null 2>&1; is "$?" 2 "a bad experiment exits 2"

# Interrupted while it searches its second data set (a slow one), it writes
# the first one's winner, says the second was interrupted, and exits 130.
cat >"$tmp/slow.ini" <<'EOF'
[experiment]
min_time = 0.5
max_reps = 100
rounds = 1
[data]
op = sum
dtype = i32
[run quick]
plugin = delay-sum
n = 16K
delay = 0, 10
[run slow]
plugin = delay-sum
n = 16M
delay = 200, 400, 600, 800, 1000
EOF
"$rb" tune -p tests/run/timing/dir -c "$tmp/slow.ini" -o "$tmp/slow-tuned.ini" >"$tmp/slow.out" 2>"$tmp/slow.err" &
pid=$!
for _ in $(seq 1 600); do
  grep -q 'tune: 1/2 data sets done' "$tmp/slow.err" && break
  sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"; is "$?" 130 "tune interrupted exits 130"
ok "it says so" grep -q '^interrupted: 1 of 2 data sets searched' "$tmp/slow.out"
ok "the data set in progress has no winner, named as interrupted" \
  grep -q 'no winner: interrupted while it was searched' "$tmp/slow.out"
is "$(grep -c '^\[run ' "$tmp/slow-tuned.ini")" 1 "the tuned file holds the finished data set's winner"
ok "... which is the quick run's" grep -q '^\[run quick-sum-i32-16K\]' "$tmp/slow-tuned.ini"
ok "the winner map holds it" $JQ -e '[.winners[] | select(.n_min == 16384)] | length == 1' "$tmp/slow-tuned.json"
done_testing
