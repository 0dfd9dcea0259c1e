#!/bin/sh
# tests/plugins/test_repro.sh: the host judges each row's reproducibility,
# whatever the plugin says. On the cpu backend: chunk-fixed (the same bits
# for every `chunk`) is layout-independent on f32; its planted twin
# chunk-twin (the bits follow `chunk`), which calls itself reproducible as
# well, is only run-to-run; chunk-varies (other bits every run) varies; a
# plugin with one layout is run-to-run; i32 rows are exact, and so are f32
# sums of ones too few to round; rows with no repeated runs have no level.
# Shapes are judged at their longest answer, not at n: a column of 4M
# small f32 elements, ragged rows around 1M and an f16 column of 4K ones
# (found exactly) are not exact, nor rows whose sums pass a step away from
# the exact answer (shaped-near); 2K ones in f16 and rows of 1000 ones
# found exactly are. The level is in the JSON report (read back), the
# table, CSV, Markdown and HTML reports, plot's report.html and the
# comparison of two files (table, CSV, JSON).
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
plugins=$top_builddir/tests/plugins/repro-dir
twins=$top_builddir/tests/plugins/shaped-dir
cd "$top_builddir" # the cpu pack, found in plugins/ here

{ experiment_header repro determinism_runs=2 seed=20261206
  printf '[data]\nop = sum\nn = 100003\n'
  printf '[run fixed]\nplugin = chunk-fixed\ndtype = f32, i32\nchunk = 16, 1000, 4096\n'
  printf '[run twin]\nplugin = chunk-twin\ndtype = f32, i32\nchunk = 16, 1000, 4096\n'
  printf '[run ones]\nplugin = chunk-twin\ndtype = f32\ndistribution = ones\nchunk = 16, 1000\n'
  printf '[run alone]\nplugin = chunk-fixed\ndtype = f32\nn = 5001\n'
  printf '[run varies]\nplugin = chunk-varies\ndtype = f32\nchunk = 16, 1000\n'
} >"$tmp/repro.ini"
sed 's/^determinism_runs = 2/determinism_runs = 0/' "$tmp/repro.ini" >"$tmp/none.ini"
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" --format json -o "$tmp/repro.json" \
  >"$tmp/repro.out" 2>&1
status=$?
plan 31
ok "the run exited 0" test "$status" -eq 0

# level RUN DTYPE: the levels of RUN's rows of DTYPE, sorted and unique.
level() {
  "$JQ" -r "[.results[] | select(.run == \"$1\" and .dtype == \"$2\") | .repro // \"null\"]
    | unique | join(\",\")" "$3"
}
level_is() { got=$(level "$1" "$2" "${4:-$tmp/repro.json}"); [ "$got" = "$3" ] && return 0
  echo "# $1 $2: $got, not $3"; return 1; }
ok "chunk-fixed f32: layout-independent" level_is fixed f32 layout-independent
ok "chunk-twin f32: run-to-run, not layout-independent" level_is twin f32 run-to-run
ok "i32: exact, both plugins" sh -c "$(command -v "$JQ") -e '[.results[] | select(.dtype == \"i32\") | .repro]
  | length == 6 and all(. == \"exact\")' '$tmp/repro.json' >/dev/null"
ok "f32 sums of 100003 ones: exact" level_is ones f32 exact
ok "one layout alone on its data: run-to-run" level_is alone f32 run-to-run
ok "chunk-varies f32 (other bits every run): varies" level_is varies f32 varies

# the table shows it
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" >"$tmp/table.txt" 2>&1
ok "the table has a repro column" grep -q ' repro' "$tmp/table.txt"
ok "the table names layout-independent" grep -q 'layout-independent' "$tmp/table.txt"
ok "... and varies" grep -q ' varies ' "$tmp/table.txt"

# CSV: the last column, named as in JSON; Markdown: a repro cell; HTML: in
# each row's details, varies marked
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" --format csv -o "$tmp/repro.csv" \
  >/dev/null 2>&1
# csv_levels RUN: the levels of RUN's rows in the CSV's repro column.
csv_levels() { awk -F, -v run="$1" 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "repro") at = c }
  NR > 1 && $1 == run { print $at }' "$tmp/repro.csv" | sort -u | paste -sd, -; }
ok "CSV: repro is the last column" sh -c "head -n 1 '$tmp/repro.csv' | grep -q ',rounds_asked,repro\$'"
is "$(csv_levels fixed)" "exact,layout-independent" "CSV: chunk-fixed's rows say exact (i32) and layout-independent (f32)"
is "$(csv_levels varies)" "varies" "CSV: chunk-varies's rows say varies"
"$rb" -q --plugin-path "$plugins" -c "$tmp/none.ini" --format csv -o "$tmp/none.csv" \
  >/dev/null 2>&1
is "$(awk -F, 'NR > 1 { print $NF }' "$tmp/none.csv" | sort -u | paste -sd, -)" "" \
  "CSV: no level without repeated runs: an empty field"
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" --format md -o "$tmp/repro.md" \
  >/dev/null 2>&1
ok "Markdown: a repro column after det" grep -q '| err/tol | det | repro | notes |' "$tmp/repro.md"
ok "Markdown: a row that varies says so" grep -q '^| varies | chunk-varies | .* | no | varies |' "$tmp/repro.md"
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" --format html -o "$tmp/repro.html" \
  >/dev/null 2>&1
ok "HTML: the level in a row's details" grep -q '<span>repro: layout-independent</span>' "$tmp/repro.html"
ok "HTML: varies marked" grep -q '<span class="caution">repro: varies</span>' "$tmp/repro.html"
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/repro.json" -o "$tmp/plots" \
  >/dev/null 2>&1
ok "plot's report.html: the levels read back" sh -c "grep -q '<span>repro: exact</span>' '$tmp/plots/report.html' && grep -q '<span class=\"caution\">repro: varies</span>' '$tmp/plots/report.html'"

# without repeated runs there is nothing to judge
"$rb" -q --plugin-path "$plugins" -c "$tmp/none.ini" --format json -o "$tmp/none.json" \
  >"$tmp/none.out" 2>&1
ok "determinism_runs = 0: no level" level_is fixed f32 null "$tmp/none.json"

# compare reads the levels back and shows both sides'
"$rb" compare "$tmp/repro.json" "$tmp/none.json" >"$tmp/compare.txt" 2>&1
ok "compare shows the level changing" grep -q 'layout-independent -> -' "$tmp/compare.txt"
"$rb" compare "$tmp/repro.json" "$tmp/repro.json" --format json >"$tmp/compare.json" \
  2>"$tmp/compare.err"
ok "compare's JSON has old_repro and new_repro" "$JQ" -e \
  '[.comparisons[] | select(.old_repro == "layout-independent" and .new_repro == "layout-independent")]
   | length == 3' "$tmp/compare.json"
"$rb" compare "$tmp/repro.json" "$tmp/none.json" --format csv >"$tmp/compare.csv" \
  2>"$tmp/compare.err"
ok "compare's CSV ends with old_repro and new_repro" sh -c "head -n 1 '$tmp/compare.csv' | grep -q ',old_repro,new_repro\$'"
is "$(grep -c ',layout-independent,$' "$tmp/compare.csv")" 3 \
  "... each pair's levels, empty where a side has none"

# Shapes: the exactness judged at the longest answer.
{ experiment_header shaped determinism_runs=2 seed=20261208
  printf '[data]\nop = sum\ndtype = f32\ndistribution = small\n'
  printf '[run column]\nplugin = cpu/serial\naxis = column\nrows = 4M\nn = 1\n'
  printf '[run ragged]\nplugin = cpu/serial\nrows = 4\nn = 1M\nlengths = ragged\n'
  printf '[run f16-column]\nplugin = cpu/serial\ndtype = f16\ndistribution = ones\n'
  printf 'axis = column\nrows = 2K, 4K\nn = 1\n'
  printf '[run near]\nplugin = shaped-near\ndistribution = ones\nrows = 7\nn = 1000\n'
  printf '[run right]\nplugin = shaped-right\ndistribution = ones\nrows = 7\nn = 1000\n'
} >"$tmp/shaped.ini"
"$rb" -q --plugin-path "$twins" -c "$tmp/shaped.ini" -o "$tmp/shaped.json" \
  >"$tmp/shaped.out" 2>&1
is "$?" 0 "shaped rows: the run exited 0"
# shaped RUN [ROWS]: RUN's rows (of ROWS rows) as "status repro error".
shaped() { "$JQ" -r "[.results[] | select(.run == \"$1\" and (\"${2:-}\" == \"\" or .rows == (\"${2:-0}\" | tonumber)))
  | \"\\(.status) \\(.repro) \\(if .error == 0 then \"error 0\" else \"error > 0\" end)\"] | unique | join(\",\")" "$tmp/shaped.json"; }
is "$(shaped column)" "ok run-to-run error > 0" \
  "a column of 4M small f32 elements (n = 1): not exact"
is "$(shaped ragged)" "ok run-to-run error > 0" \
  "4 ragged rows around 1M small f32 elements: not exact"
is "$(shaped f16-column 4096)" "ok run-to-run error 0" \
  "an f16 column of 4K ones, found exactly: not exact (an f16 accumulator would stop at 2048)"
is "$(shaped f16-column 2048)" "ok exact error 0" "an f16 column of 2K ones: exact"
is "$(shaped near)" "ok run-to-run error > 0" \
  "rows of 1000 ones whose sums pass a step from the answer: not exact"
is "$(shaped right)" "ok exact error 0" "rows of 1000 ones found exactly: exact"
done_testing
