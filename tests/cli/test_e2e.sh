#!/bin/bash
# tests/cli/test_e2e.sh: whole runs on the cpu pack: statuses in the JSON, exit
# statuses, wrong results, skipped and unsupported rows, a plugin dropped
# into ./plugins, and the float-accumulator stall judged wrong.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 24
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
testplugins=$top_builddir/tests/plugins/dir
e=$fixtures

"$rb" -q -c "$e/all-ok.ini" -o "$tmp/ok.json" >/dev/null 2>"$tmp/err"; is "$?" 0 "every cpu strategy, op and dtype runs and verifies (exit 0)"
is "$($JQ '.results|length' "$tmp/ok.json")" 148 "148 rows"
is "$($JQ '[.results[]|select(.status!="ok")]|length' "$tmp/ok.json")" 0 "all rows ok"
is "$($JQ '[.results[]|select(.op=="histogram")]|length' "$tmp/ok.json")" 4 "4 histogram rows"
is "$($JQ '[.results[]|select(.median_ns>0 and .bandwidth_gbs>0)]|length' "$tmp/ok.json")" 148 "every row has a time and a bandwidth"
is "$($JQ '[.results[]|select((.samples_ns|length)==.reps)]|length' "$tmp/ok.json")" 148 "every row keeps its samples"
is "$($JQ -r '[.results[]|.seed]|unique|length' "$tmp/ok.json")" 4 "each plugin gets its own seed"
ok "no temporary file is left beside the output" bash -c "! ls '$tmp'/ok.json.tmp* 2>/dev/null"

"$rb" -q -c "$e/wrong.ini" --plugin-path "$testplugins" -o "$tmp/wrong.json" >/dev/null 2>&1; is "$?" 1 "a wrong result exits 1"
is "$($JQ -r '[.results[]|select(.run=="bad")|.status]|unique|join(",")' "$tmp/wrong.json")" wrong "the wrong-answer plugin's rows are wrong"
is "$($JQ -r '[.results[]|select(.run=="good")|.status]|unique|join(",")' "$tmp/wrong.json")" ok "the good plugin's rows are ok"
ok "a wrong row says what differed" bash -c "$JQ -e '[.results[]|select(.status==\"wrong\")|.reason|length>0]|all' '$tmp/wrong.json'"

"$rb" -q -c "$e/skips.ini" -o "$tmp/skips.json" >/dev/null 2>&1; is "$?" 0 "skipped and unsupported rows do not fail the run"
is "$($JQ -r '[.results[]|select(.run=="absent")|.status]|join(",")' "$tmp/skips.json")" skipped "an absent optional plugin gives one skipped row per data set"
is "$($JQ -r '.results[]|select(.run=="argmax")|.status' "$tmp/skips.json")" unsupported "an op the plugin lacks is unsupported"
ok "... with the reason" bash -c "$JQ -e '.results[]|select(.run==\"argmax\")|.reason|test(\"argmax\")' '$tmp/skips.json'"

for f in csv md table; do
  "$rb" -q -c "$e/skips.ini" -o "$tmp/r.$f" --format $f >/dev/null 2>&1
done
is "$(grep -c . "$tmp/r.csv")" 4 "CSV: a header and 3 rows"
# The table gives rows skipped for one reason one line, naming their numbers.
"$rb" -q -c "$e/skips.ini" -D n=1K,4K,16K -r present -r absent >"$tmp/grouped.txt" 2>&1
is "$(grep -c "no-such-strategy' not found" "$tmp/grouped.txt")" 1 "three rows skipped for one reason: one line"
ok "... saying how many and which" grep -q "^3 configurations skipped (#4-6): plugin 'no-such-strategy' not found" "$tmp/grouped.txt"
ok "Markdown has a table" grep -q '^| run' "$tmp/r.md"

# A plugin dropped into ./plugins of the current folder is found.
so=$(ls "$testplugins"/tiny*sum*.so 2>/dev/null | head -n 1)
mkdir -p "$tmp/drop/plugins"
if [ -n "$so" ]; then
  cp "$so" "$tmp/drop/plugins/"
  (cd "$tmp/drop" && REDBENCH_PLUGIN_PATH= "$rb" -q -c "$e/dropin.ini" -o "$tmp/drop.json" >/dev/null 2>&1); is "$?" 0 "a plugin dropped into ./plugins runs"
  is "$($JQ -r '[.results[]|.status]|unique|join(",")' "$tmp/drop.json")" ok "... and verifies"
else
  skip "no tiny-sum test plugin built"; skip "no tiny-sum test plugin built"
fi

# The float accumulator stall (256 MiB of input).
"$rb" -q -c "$e/stall.ini" -o "$tmp/stall.json" >/dev/null 2>&1; is "$?" 1 "64M floats in one f32 accumulator: exit 1"
is "$($JQ -r '[.results[]|.run+"="+.status]|join(",")' "$tmp/stall.json")" "stalled=wrong,blocked=ok" "the stalled sum is wrong, the blocked sum ok"
done_testing
