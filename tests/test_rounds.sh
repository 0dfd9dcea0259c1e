#!/bin/bash
# tests/test_rounds.sh: rounds. Every configuration is measured `rounds`
# times, each round in an order of its own shuffled from the seed and
# recorded in the settings; a row keeps each round's median and samples, its
# median is the median of the rounds' medians; a configuration that fails in
# a round is not measured again; rounds = auto gives 3, or 1 with a warning
# for a long sweep; -D rounds=K and --rounds K set it; bad values name the
# file and line or the option.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
dir=$top_builddir/tests/timing/dir
crashers=$top_builddir/tests/crashers/dir
[ -d "$dir" ] || skip_all "timing test plugins not built"
plan 27

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
"$rb" -q -c "$tmp/six.ini" --plugin-path "$dir" --format json >"$tmp/six.json" 2>"$tmp/err"
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

"$rb" -q -c "$tmp/six.ini" -D rounds=2 --plugin-path "$dir" --format json >"$tmp/two.json" 2>/dev/null
is "$("$JQ" -r '[.experiment.settings.rounds] + [.results[] | .rounds | length] | map(tostring) | join(" ")' "$tmp/two.json")" \
   "2 2 2 2 2 2 2" "-D rounds=2: two rounds for every row"
"$rb" -q -c "$tmp/six.ini" --rounds 1 --plugin-path "$dir" --format json >"$tmp/one.json" 2>/dev/null
is "$("$JQ" -c '.experiment.settings.round_order' "$tmp/one.json")" "[[0,1,2,3,4,5]]" \
   "--rounds 1: one round, in the sweep's order"
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
is "$("$JQ" -r '[.results[] | .status] | join(" ")' "$tmp/again.json")" "failed failed" \
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
done_testing
