#!/bin/bash
# tests/run/test_rounds.sh: rounds. Every configuration is measured `rounds`
# times, each round in an order of its own shuffled from the seed and
# recorded in the settings; a row keeps each round's median and samples, its
# median is the median of the rounds' medians; a configuration that fails in
# a round is not measured again; rounds = auto gives 3, or 1 with a warning
# for a long sweep; -D rounds=K and --rounds K set it; bad values name the
# file and line or the option. The HTML report lists each round's order
# (escaped, bounded); a run interrupted in a later round keeps the rounds
# that finished.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
dir=$top_builddir/tests/run/timing/dir
crashers=$top_builddir/tests/run/crashers/dir
[ -d "$dir" ] || skip_all "timing test plugins not built"
plan 49

cat >"$tmp/six.ini" <<'INI'
[experiment]
rounds = 3
warmup = 1
min_time = 0
min_reps = 5
max_reps = 9
probes = off
determinism_runs = 0
[data]
op = sum
dtype = i32
n = 1K, 2K, 4K
[run a]
plugin = delay-sum
delay = 0, 50
INI
"$rb" -q -c "$tmp/six.ini" --plugin-path "$dir" -o "$tmp/six.json" -o "$tmp/six.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "rounds = 3: the run succeeds"
is "$("$JQ" -r '.experiment.settings | [.rounds, .rounds_run] | map(tostring) | join(" ")' "$tmp/six.json")" "3 3" \
   "... the settings say 3 rounds asked for and run"
is "$("$JQ" -r '[.results[] | .rounds | length] | map(tostring) | join(" ")' "$tmp/six.json")" "3 3 3 3 3 3" \
   "... every row has 3 rounds"
is "$("$JQ" -r '[.results[] | ((.rounds | map(.reps) | add) == (.samples_ns | length))] | all' "$tmp/six.json")" true \
   "... whose reps add up to the row's samples"
is "$("$JQ" -r '[.results[] | .median_ns == (.rounds | map(.median_ns) | sort | .[1])] | all' "$tmp/six.json")" true \
   "... and the row's median is the median of the rounds' medians"
is "$("$JQ" -r '[.results[] | .rounds[] | (.reps >= 5 and .reps <= 9)] | all' "$tmp/six.json")" true \
   "... each round stopped by the rule (5 to 9 repetitions)"
is "$("$JQ" -r '[.experiment.settings.round_order[] | sort == [0,1,2,3,4,5]] | all' "$tmp/six.json")" true \
   "each round's order holds every configuration once"
is "$("$JQ" -r '.experiment.settings.round_order | unique | length' "$tmp/six.json")" 3 \
   "... and the three orders differ (shuffled)"
is "$("$JQ" -r '[.experiment.settings.round_order as $o | .results[] | .index as $i | .rounds
      | to_entries[] | $o[.key][.value.position] == $i] | all' "$tmp/six.json")" true \
   "... each round's position in the row matches the recorded order"
is "$("$JQ" -r '[.experiment.settings.round_order[] | map(if . < 2 or (. >= 2 and . < 4) then 0 else 1 end)]
      | map(. == (. | sort) or . == (. | sort | reverse)) | all' "$tmp/six.json")" true \
   "... keeping each data group together"
"$rb" -q -c "$tmp/six.ini" --plugin-path "$dir" --format json >"$tmp/again.json" 2>/dev/null
is "$("$JQ" -c .experiment.settings.round_order "$tmp/again.json")" "$("$JQ" -c .experiment.settings.round_order "$tmp/six.json")" \
   "the same seed gives the same orders"
"$rb" -q -c "$tmp/six.ini" -D seed=7 --plugin-path "$dir" --format json >"$tmp/seed7.json" 2>/dev/null
ok "another seed gives other orders" test "$("$JQ" -c .experiment.settings.round_order "$tmp/seed7.json")" != \
   "$("$JQ" -c .experiment.settings.round_order "$tmp/six.json")"

"$rb" report "$tmp/six.json" -o "$tmp/rewritten.json" 2>/dev/null
is "$("$JQ" -cS '[.experiment.settings, [.results[] | .rounds]]' "$tmp/rewritten.json")" \
   "$("$JQ" -cS '[.experiment.settings, [.results[] | .rounds]]' "$tmp/six.json")" \
   "redbench report reads the rounds and their orders back and writes them the same"

# The HTML report's rounds: one line per round, each configuration by its
# number in the results table, its run, parameters and data, in the order
# the JSON records.
size() { echo 'def size: if . % 1048576 == 0 then "\(. / 1048576)M" elif . % 1024 == 0 then "\(. / 1024)K" else tostring end;'; }
want_rounds() { # want_rounds RESULTS.json: the rounds' lines the page should hold
  "$JQ" -r "$(size)"' .results as $r | .experiment.settings.round_order | to_entries[]
    | "<tr class=\"round\"><td class=\"num\">\(.key + 1)</td><td class=\"order\">"
      + (.value | map($r[.] | "<b>#\(.index + 1)</b> \(.run) \(.params_text) \(.op) \(.dtype) \(.n | size)")
         | join(", ")) + "</td></tr>"' "$1"
}
ok "the HTML report has a section of the rounds" grep -q '<h2 id="rounds">Rounds</h2>' "$tmp/six.html"
is "$(grep -c '^<tr class="round">' "$tmp/six.html")" 3 "... with one line per round"
is "$(grep '^<tr class="round">' "$tmp/six.html")" "$(want_rounds "$tmp/six.json")" \
   "... each listing the round's configurations in the recorded order, by number, run, parameters and data"
ok "... and the order of round 2 is not the sweep's" bash -c "grep '^<tr class=\"round\"><td class=\"num\">2<' '$tmp/six.html' | grep -vq '#1</b>.*#2</b>.*#3</b>.*#4</b>.*#5</b>.*#6</b>'"
"$JQ" '.results[0].run = "<i>&run" | .results[0].params_text = "x=\"<b>\""' "$tmp/six.json" >"$tmp/hostile.json"
"$rb" report "$tmp/hostile.json" -o "$tmp/hostile.html" 2>/dev/null
ok "names read back from a file are escaped in the rounds' lines" \
   bash -c "grep '^<tr class=\"round\">' '$tmp/hostile.html' | grep -qF '&lt;i&gt;&amp;run x=&quot;&lt;b&gt;&quot;'"
ok "... never written raw" bash -c "! grep '^<tr class=\"round\">' '$tmp/hostile.html' | grep -qF -e '<i>' -e '\"<b>'"
"$top_srcdir/tests/report/gen_results.sh" 300 3 |
  "$JQ" -c '.experiment = {settings: {rounds: 2, rounds_run: 2, round_order: [[range(300)], [range(299; -1; -1)]]}}' >"$tmp/big.json"
"$rb" report "$tmp/big.json" -o "$tmp/big.html" 2>/dev/null
is "$(grep '^<tr class="round">' "$tmp/big.html" | sed 's|</b>|\n|g' | grep -c '<b>#')" 400 \
   "a large set: at most 200 configurations a round are listed"
is "$(grep '^<tr class="round">' "$tmp/big.html" | grep -o '<b>#[0-9]*</b>[^,]*, \.\.\. and [0-9]* more</td>' | sed 's/ r[0-9].*,//')" \
   "$(printf '<b>#200</b> ... and 100 more</td>\n<b>#101</b> ... and 100 more</td>')" "... then how many more"
"$top_srcdir/tests/report/gen_results.sh" 3 1 |
  "$JQ" -c '.experiment = {settings: {rounds: 102, rounds_run: 102, round_order: [range(102) | [0, 1, 2]]}}' >"$tmp/many.json"
"$rb" report "$tmp/many.json" -o "$tmp/many.html" 2>/dev/null
is "$(grep -c '^<tr class="round">' "$tmp/many.html")" 100 "... and at most 100 rounds"
ok "... then how many more rounds" grep -q '<td>... and 2 more rounds</td>' "$tmp/many.html"

"$rb" -q -c "$tmp/six.ini" -D rounds=2 --plugin-path "$dir" --format json >"$tmp/two.json" 2>/dev/null
is "$("$JQ" -r '[.experiment.settings.rounds] + [.results[] | .rounds | length] | map(tostring) | join(" ")' "$tmp/two.json")" \
   "2 2 2 2 2 2 2" "-D rounds=2: two rounds for every row"
"$rb" -q -c "$tmp/six.ini" --rounds 1 --plugin-path "$dir" --format json >"$tmp/one.json" 2>/dev/null
is "$("$JQ" -c '.experiment.settings.round_order' "$tmp/one.json")" "[[0,1,2,3,4,5]]" \
   "--rounds 1: one round, in the sweep's order"
"$rb" report "$tmp/one.json" -o "$tmp/one.html" 2>/dev/null
ok "... and its HTML report has no section of the rounds" bash -c "! grep -q 'id=\"rounds\"' '$tmp/one.html'"
"$rb" -q -c "$tmp/six.ini" --rounds 0 --plugin-path "$dir" >/dev/null 2>"$tmp/err"
ok "--rounds 0 is refused, naming the option" grep -q "^--rounds 0: error: rounds = 0 is not valid" "$tmp/err"

sed '/^rounds = 3$/d' "$tmp/six.ini" >"$tmp/auto.ini"
"$rb" -q -c "$tmp/auto.ini" --plugin-path "$dir" --format json >"$tmp/auto.json" 2>"$tmp/err"
is "$("$JQ" -r '.experiment.settings.rounds' "$tmp/auto.json")" 3 "rounds = auto (the default): 3 for a short sweep"
"$rb" -q -c "$tmp/auto.ini" -D min_time=400 -D n=1K --plugin-path "$dir" --format json >"$tmp/long.json" 2>"$tmp/err"
is "$("$JQ" -r '.experiment.settings.rounds' "$tmp/long.json")" 1 "... 1 when the sweep is estimated at more than 10 minutes"
ok "... and a warning says so and how to ask for more" grep -q "rounds = auto: one round.*rounds = 3" "$tmp/err"

printf '[experiment]\nrounds = 0\n[run a]\nplugin = delay-sum\n' >"$tmp/zero.ini"
"$rb" -q -c "$tmp/zero.ini" --plugin-path "$dir" >/dev/null 2>"$tmp/err"
is "$?" 2 "rounds = 0 is refused (exit 2)"
ok "... naming the file, the line and what is valid" \
   grep -q "zero.ini:2: error: rounds = 0 is not valid; valid: auto .* or a whole number from 1 to 1000" "$tmp/err"
"$rb" -q -c "$tmp/six.ini" -D rounds=many --plugin-path "$dir" >/dev/null 2>"$tmp/err"
ok "-D rounds=many is refused, naming the option" grep -q "^-D rounds=many: error: rounds = many is not valid" "$tmp/err"

# A configuration that fails in a later round takes that round's status, and
# its reason says which round; the rounds before it are kept.
printf '[experiment]\nrounds = 3\nmin_time = 0\nmax_reps = 5\nprobes = off\ndeterminism_runs = 0\n[data]\ndtype = i32\nn = 1K, 2K\n[run a]\nplugin = delay-sum\n' >"$tmp/again.ini"
rm -f "$tmp/mark".*
touch "$tmp/mark.2048"
DELAY_SUM_FAIL_AGAIN=$tmp/mark "$rb" -q -c "$tmp/again.ini" --plugin-path "$dir" --format json >"$tmp/again.json" 2>/dev/null
is "$(statuses "$tmp/again.json")" "failed failed" \
   "a configuration failing in its first round, another in a later one: both failed"
is "$("$JQ" -r '.results[0].reason' "$tmp/again.json")" \
   "round 2 of 3: init failed: failing again, as DELAY_SUM_FAIL_AGAIN asks" \
   "... the later one names its round"
is "$("$JQ" -r '[.results[] | .rounds | length] | map(tostring) | join(" ")' "$tmp/again.json")" "1 0" \
   "... and keeps the round before it; the first has none"

# A configuration that fails in a round is final: later rounds leave it out.
if [ -d "$crashers" ]; then
  cat >"$tmp/crash.ini" <<'INI'
[experiment]
rounds = 3
min_time = 0
max_reps = 3
[data]
dtype = i32
n = 1K
[run run]
plugin = crash-run
fault = none, yes
INI
  "$rb" -q -c "$tmp/crash.ini" --plugin-path "$crashers" --format json >"$tmp/crash.json" 2>/dev/null
  is "$("$JQ" -r '[.results[] | .status + ":" + (.rounds | length | tostring)] | join(" ")' "$tmp/crash.json")" \
     "ok:3 failed:0" "a crash in the first round fails the row, with no rounds"
  is "$("$JQ" -c '.experiment.settings.round_order | map(length)' "$tmp/crash.json")" "[2,1,1]" \
     "... and the later rounds measure only the other configuration"
else
  skip "broken test plugins not built"
  skip "broken test plugins not built"
fi

# SIGINT in a later round. The slow configuration reads 16M elements 11
# times a repetition, 80 repetitions: seconds a round on any machine. The
# signal comes once the progress says that round 2 runs it; with seed 2,
# round 2 measures the 1K configuration first, then the slow one, and never
# reaches the 2K one. The rounds that finished are kept: a row measured in
# round 2 has two rounds, the others one; the slow one, abandoned, keeps
# the status of its first round; round 2's recorded order ends with it,
# the one in progress.
cat >"$tmp/late.ini" <<'INI'
[experiment]
rounds = 3
seed = 2
warmup = 1
min_time = 0
min_reps = 80
max_reps = 80
timeout = 600
probes = off
determinism_runs = 0
[data]
op = sum
dtype = i32
[run quick]
plugin = delay-sum
n = 1K, 2K
[run slow]
plugin = delay-sum
n = 16M
delay = 1000
INI
REDBENCH_PROGRESS_SECONDS=0.1 "$rb" -c "$tmp/late.ini" --plugin-path "$dir" -o "$tmp/late.json" \
  >/dev/null 2>"$tmp/late.err" &
pid=$!
started=$(date +%s)
until grep -q '^redbench: round 2/3 \[[0-9]*/9\] slow ' "$tmp/late.err"; do
  kill -0 "$pid" 2>/dev/null && [ $(($(date +%s) - started)) -lt 300 ] || break
  sleep 0.05
done
ok "the slow configuration runs in round 2" grep -q '^redbench: round 2/3 \[[0-9]*/9\] slow ' "$tmp/late.err"
kill -INT "$pid" 2>/dev/null; wait "$pid"
is "$?" 130 "SIGINT in round 2: exit status 130"
ok "... the results are valid JSON" "$JQ" -e '.results | length == 3' "$tmp/late.json"
is "$("$JQ" -r '.experiment.settings | [.rounds, .rounds_run] | map(tostring) | join(" ")' "$tmp/late.json")" "3 2" \
   "... 3 rounds asked for, 2 begun"
is "$("$JQ" -c '.experiment.settings.round_order | [(.[0] | sort), .[1][-1], (.[1] | length > 1)]' "$tmp/late.json")" \
   "[[0,1,2],2,true]" "... round 1's order holds every configuration, round 2's ends with the abandoned one, after another"
is "$("$JQ" -r '[.results[] | .status + ":" + .reason] | join(" ")' "$tmp/late.json")" "ok: ok: ok:" \
   "... every row keeps the status of its finished rounds, the abandoned one too"
is "$("$JQ" -r '[.experiment.settings.round_order[1][:-1] as $done | .results[]
      | .index as $i | (.rounds | length) == (if any($done[]; . == $i) then 2 else 1 end)] | all' \
      "$tmp/late.json")" true \
   "... a row measured in round 2 has two rounds, the others one"
is "$("$JQ" -r '[.results[] | (.rounds | map(.reps) | add) == (.samples_ns | length)
      and all(.rounds[]; .reps == 80)] | all' "$tmp/late.json")" true \
   "... each kept round whole, none of the abandoned one's samples"
is "$("$JQ" -r '[.experiment.settings.round_order as $o | .results[] | .index as $i | .rounds
      | to_entries[] | $o[.key][.value.position] == $i] | all' "$tmp/late.json")" true \
   "... each round's position matches the recorded order"
ok "... nothing crashed: the interruption was answered" \
   bash -c "grep -q 'interrupted: the configuration in progress is abandoned' '$tmp/late.err' &&
            ! grep -qiE 'sanitizer|segmentation|abort' '$tmp/late.err'"
"$rb" report "$tmp/late.json" -o "$tmp/late.html" 2>/dev/null
is "$(grep '^<tr class="round">' "$tmp/late.html")" "$(want_rounds "$tmp/late.json")" \
   "... and the HTML report lists round 1 whole and round 2 up to the abandoned configuration"
done_testing
