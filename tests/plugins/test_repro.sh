#!/bin/sh
# tests/plugins/test_repro.sh: the host judges each row's reproducibility,
# whatever the plugin says. On the cpu backend: chunk-fixed (the same bits
# for every `chunk`) is layout-independent on f32; its planted twin
# chunk-twin (the bits follow `chunk`), which calls itself reproducible as
# well, is only run-to-run; a plugin with one layout is run-to-run; i32
# rows are exact, and so are f32 sums of ones too few to round; rows with
# no repeated runs have no level. The level is in the JSON report, the
# table's repro column and the comparison of two files, and is read back.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
plugins=$top_builddir/tests/plugins/repro-dir

{ experiment_header repro determinism_runs=2 seed=20261206
  printf '[data]\nop = sum\nn = 100003\n'
  printf '[run fixed]\nplugin = chunk-fixed\ndtype = f32, i32\nchunk = 16, 1000, 4096\n'
  printf '[run twin]\nplugin = chunk-twin\ndtype = f32, i32\nchunk = 16, 1000, 4096\n'
  printf '[run ones]\nplugin = chunk-twin\ndtype = f32\ndistribution = ones\nchunk = 16, 1000\n'
  printf '[run alone]\nplugin = chunk-fixed\ndtype = f32\nn = 5001\n'
} >"$tmp/repro.ini"
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" --format json -o "$tmp/repro.json" \
  >"$tmp/repro.out" 2>&1
status=$?
plan 11
ok "the run exited 0" test "$status" -eq 0

# level RUN DTYPE: the levels of RUN's rows of DTYPE, sorted and unique.
level() {
  "$JQ" -r "[.results[] | select(.run == \"$1\" and .dtype == \"$2\") | .repro // \"null\"]
    | unique | join(\",\")" "$3"
}
is() { got=$(level "$1" "$2" "${4:-$tmp/repro.json}"); [ "$got" = "$3" ] && return 0
  echo "# $1 $2: $got, not $3"; return 1; }
ok "chunk-fixed f32: layout-independent" is fixed f32 layout-independent
ok "chunk-twin f32: run-to-run, not layout-independent" is twin f32 run-to-run
ok "i32: exact, both plugins" sh -c "$(command -v "$JQ") -e '[.results[] | select(.dtype == \"i32\") | .repro]
  | length == 6 and all(. == \"exact\")' '$tmp/repro.json' >/dev/null"
ok "f32 sums of 100003 ones: exact" is ones f32 exact
ok "one layout alone on its data: run-to-run" is alone f32 run-to-run

# the table shows it
"$rb" -q --plugin-path "$plugins" -c "$tmp/repro.ini" >"$tmp/table.txt" 2>&1
ok "the table has a repro column" grep -q ' repro' "$tmp/table.txt"
ok "the table names layout-independent" grep -q 'layout-independent' "$tmp/table.txt"

# without repeated runs there is nothing to judge
sed 's/^determinism_runs = 2/determinism_runs = 0/' "$tmp/repro.ini" >"$tmp/none.ini"
"$rb" -q --plugin-path "$plugins" -c "$tmp/none.ini" --format json -o "$tmp/none.json" \
  >"$tmp/none.out" 2>&1
ok "determinism_runs = 0: no level" is fixed f32 null "$tmp/none.json"

# compare reads the levels back and shows both sides'
"$rb" compare "$tmp/repro.json" "$tmp/none.json" >"$tmp/compare.txt" 2>&1
ok "compare shows the level changing" grep -q 'layout-independent -> -' "$tmp/compare.txt"
"$rb" compare "$tmp/repro.json" "$tmp/repro.json" --format json >"$tmp/compare.json" \
  2>"$tmp/compare.err"
ok "compare's JSON has old_repro and new_repro" "$JQ" -e \
  '[.comparisons[] | select(.old_repro == "layout-independent" and .new_repro == "layout-independent")]
   | length == 3' "$tmp/compare.json"
done_testing
