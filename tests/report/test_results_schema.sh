#!/bin/bash
# tests/report/test_results_schema.sh: the results document against its description,
# docs/results-schema.md. A real cpu-pack run (a sum, a histogram and a shape,
# so that every row member appears) must write exactly the top-level, device and row
# members the document's tables list; schema_version is written; the seeds
# are strings of digits; parameters are typed alike in rows, configurations
# and tune's winner map; and compare and plot read integers in the number
# form (older files) and in the string form.
. "$top_srcdir/tests/lib.sh"
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
plan 15
doc="$top_srcdir/docs/results-schema.md"

# The names in the first column of the table under the heading that starts
# with "## $1".
documented() {
  awk -v head="## $1" '
    index($0, head) == 1 { on = 1; next }
    /^## / { on = 0 }
    on && /^\| `[a-z_0-9]+`/ { split($0, f, "`"); print f[2] }' "$doc" | sort
}

cat >"$tmp/s.ini" <<'INI'
[experiment]
min_time = 0.001
max_reps = 5
seed = 9007199254740993
[data]
op = sum, histogram
dtype = i32
n = 1K, 4K
[run t]
plugin = threads
lanes = 4, 8
[run shaped]
plugin = threads
op = sum
rows = 4
INI
cd "$top_builddir" || exit 1
"$rb" -q -c "$tmp/s.ini" -o "$tmp/r.json" --format json >/dev/null 2>"$tmp/err"
is "$?" 0 "the run succeeds"
j() { "$JQ" -r "$@" "$tmp/r.json"; }

j 'keys_unsorted[]' | sort >"$tmp/top"
documented "Top-level members" >"$tmp/top.doc"
ok "the document lists every top-level member written, and no other" diff "$tmp/top.doc" "$tmp/top"
j '[.devices[]|keys_unsorted[]]|unique[]' | sort >"$tmp/dev"
documented "Device members" >"$tmp/dev.doc"
ok "the document lists every device member written, and no other" diff "$tmp/dev.doc" "$tmp/dev"
j '[.results[]|keys_unsorted[]]|unique[]' | sort >"$tmp/row"
documented "Row members" >"$tmp/row.doc"
ok "the document lists every row member written, and no other" diff "$tmp/row.doc" "$tmp/row"
ok "... and the lists are not empty" test "$(wc -l <"$tmp/row.doc")" -gt 40

version=$(sed -n 's/^#define RB_RESULTS_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$top_srcdir/src/results/fields.h")
is "$(j '.schema_version|tostring + " " + type')" "$version number" "schema_version is the number $version"
is "$(j .experiment.settings.seed)" 9007199254740993 "the experiment's seed (2^53 + 1) is written whole ..."
is "$(j '.experiment.settings.seed|type')" string "... as a string"
ok "every row's seed is a string of digits" "$JQ" -e '[.results[]|.seed|type=="string" and test("^[0-9]+$")]|all' "$tmp/r.json"
ok "integer parameters are numbers in rows and configurations" "$JQ" -e \
  '([.results[].params.lanes]+[.experiment.configurations[].params.lanes]|map(type=="number")|all) and ([.results[].params.acc]|map(type=="string")|all)' "$tmp/r.json"

# Older files wrote the seed as a number; a file may write n as a string.
"$JQ" '.results |= map(.seed = 123 | .n = (.n|tostring) | if .bins then .bins = (.bins|tostring) else . end)' \
  "$tmp/r.json" >"$tmp/strings.json"
"$JQ" '.results |= map(.seed = 123)' "$tmp/r.json" >"$tmp/numbers.json"
"$rb" compare "$tmp/numbers.json" "$tmp/strings.json" >"$tmp/cmp" 2>"$tmp/err"
ok "compare reads n as a number and as a string" test "$?" -le 1
ok "... and matches every configuration" grep -q 'sum' "$tmp/cmp"
"$rb" plot "$tmp/strings.json" -o "$tmp/plot" >/dev/null 2>"$tmp/err"
is "$?" 0 "plot reads n written as a string"

# tune's winner map
cat >"$tmp/t.ini" <<'INI'
[experiment]
min_time = 0.001
max_reps = 5
[data]
op = sum
dtype = i32
n = 4K
[run t]
plugin = unrolled
lanes = 4, 8
acc = native, f64
INI
"$rb" tune -q -c "$tmp/t.ini" -o "$tmp/tuned.ini" >/dev/null 2>&1
is "$("$JQ" -r '.schema_version' "$tmp/tuned.json")" "$version" "the winner map has schema_version"
ok "its parameters are typed as in results" "$JQ" -e \
  '[.winners[]|(.params.lanes|type=="number") and (.params.acc|type=="string")]|all' "$tmp/tuned.json"
done_testing
