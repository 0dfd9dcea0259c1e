#!/bin/sh
# tests/run/test_shaped.sh: shaped reductions on the cpu backend
# (redbench/plugin.h, "Shapes"; run/shape.c). The cpu pack's serial and
# threads reduce every row (fixed and ragged lengths, empty rows among
# them) and every column, sum, min, max and argmax of every numeric dtype:
# every row ok and proven by the shape's probes. Each planted bug of
# tests/plugins/shaped-twin.c is judged wrong, its reason naming the row or
# column; a plugin older than ABI 1.6 is not offered a shape. The keys are
# checked (file and line), sweep from the command line, and show in
# --dry-run, the table, JSON (read back), CSV and Markdown; a run of one
# reduction writes no shape field. GB/s counts rows x n elements.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
twins=$top_builddir/tests/plugins/shaped-dir
plan 37

# run_json NAME [OPTIONS]: runs $tmp/NAME.ini into $tmp/NAME.json; $status.
run_json() {
  _name=$1; shift
  "$rb" -q --plugin-path "$twins" -c "$tmp/$_name.ini" "$@" -o "$tmp/$_name.json" \
    >"$tmp/$_name.out" 2>"$tmp/$_name.err"
  status=$?
}
# count FILE FILTER: how many rows of FILE match the jq FILTER.
count() { "$JQ" "[.results[] | select($2)] | length" "$1"; }

# 1. The cpu pack's strategies over a small grid.
{ experiment_header shapes seed=20261207
  printf '[data]\nop = sum, min, max, argmax\ndtype = i32, i64, f32, f64, f16, bf16\n'
  printf 'n = 1, 1000\nrows = 1, 7\n'
  printf '[run serial]\nplugin = cpu/serial\naxis = row, column\n'
  printf '[run threads]\nplugin = cpu/threads\naxis = row, column\nthreads = 3\n'
  printf '[run ragged]\nplugin = cpu/serial\nlengths = ragged\n'
  printf '[run ragged-threads]\nplugin = cpu/threads\nlengths = ragged\nthreads = 2\n'
} >"$tmp/grid.ini"
run_json grid
is "$status" 0 "serial and threads over rows, columns and ragged rows: exit 0"
is "$(count "$tmp/grid.json" 'true')" $((4 * 6 * 2 * 2 * 6)) "... 576 rows"
is "$(count "$tmp/grid.json" '.status != "ok" or .probes != "passed"')" 0 \
  "... every row ok and proven by the shape's probes" ||
  "$JQ" -r '.results[] | select(.status != "ok") | "#   \(.run) \(.op) \(.dtype) n=\(.n) rows=\(.rows): \(.reason)"' \
    "$tmp/grid.json" | head -n 5
is "$(count "$tmp/grid.json" '.rows == 7 and .axis == "column" and .lengths == "fixed"')" \
  $((4 * 6 * 2 * 2)) "... JSON names each row's rows, axis and lengths"
is "$(count "$tmp/grid.json" '.rows == null')" $((4 * 6 * 2 * 2)) \
  "... and a row of one reduction (rows 1 along rows) has no shape fields"

# 2. The planted bugs, each on the shape it breaks.
{ experiment_header twins seed=20261207
  printf '[data]\nop = sum\ndtype = f32, i32\nn = 31\nrows = 7\n'
  printf '[run right]\nplugin = shaped-right\nop = sum, min, max, argmax\naxis = row, column\n'
  printf '[run right-ragged]\nplugin = shaped-right\nop = sum, min, max, argmax\nlengths = ragged\n'
  printf '[run next-row]\nplugin = shaped-next-row\nn = 1000\n'
  printf '[run last-row]\nplugin = shaped-last-row\naxis = row, column\n'
  printf '[run fixed-len]\nplugin = shaped-fixed-len\nlengths = fixed, ragged\n'
  printf '[run empty]\nplugin = shaped-empty\nop = max\nlengths = ragged\n'
  printf '[run swapped]\nplugin = shaped-swapped\n'
  printf '[run remembered]\nplugin = shaped-remembered\n'
} >"$tmp/twins.ini"
run_json twins
is "$status" 1 "a run of the planted bugs exits 1"
# reason RUN FILTER: the reasons of RUN's rows that match FILTER, one per line.
reason() { "$JQ" -r ".results[] | select(.run == \"$1\" and ($2)) | .reason" "$tmp/twins.json"; }
is "$(count "$tmp/twins.json" '(.run | startswith("right")) and .status == "ok" and .probes == "passed"')" \
  24 "shaped-right (the control): every row ok and proven"
is "$(count "$tmp/twins.json" '.run == "next-row" and .status == "wrong"')" 2 \
  "shaped-next-row (a row counts the next row's first element): wrong"
ok "... the reason names the row and both values" \
  sh -c "'$JQ' -r '.results[] | select(.run == \"next-row\") | .reason' '$tmp/twins.json' |
         grep -q '^row 0 of 7 (n = 1000): sum .*, expected .*; 6 of 7 answers wrong'"
is "$(count "$tmp/twins.json" '.run == "last-row" and .status == "wrong"')" 4 \
  "shaped-last-row (the last row or column never reduced): wrong"
ok "... naming row 6 of 7 along rows" sh -c "'$JQ' -r '.results[] | select(.run == \"last-row\" and .axis == \"row\") | .reason' '$tmp/twins.json' | grep -q '^row 6 of 7 (n = 31): .* 1 of 7 answers wrong'"
ok "... and column 30 of 31 along columns" sh -c "'$JQ' -r '.results[] | select(.run == \"last-row\" and .axis == \"column\") | .reason' '$tmp/twins.json' | grep -q '^column 30 of 31 (7 rows): .* 1 of 31 answers wrong'"
is "$(reason fixed-len '.lengths == "fixed"' | grep -c .)" 0 \
  "shaped-fixed-len (ragged lengths ignored): ok on fixed rows"
is "$(count "$tmp/twins.json" '.run == "fixed-len" and .lengths == "ragged" and .status == "wrong"')" 2 \
  "... wrong on ragged rows"
ok "... naming a row with its length and elements" \
  sh -c "'$JQ' -r '.results[] | select(.run == \"fixed-len\" and .lengths == \"ragged\") | .reason' '$tmp/twins.json' | grep -qE '^row [0-9]+ of 7 \\(length [0-9]+(, elements [0-9]+ to [0-9]+\\)|, empty\\))'"
is "$(count "$tmp/twins.json" '.run == "empty" and .status == "wrong"')" 2 \
  "shaped-empty (an empty row's max is 0): wrong"
ok "... the reason says an empty row's answer is the identity" \
  sh -c "'$JQ' -r '.results[] | select(.run == \"empty\") | .reason' '$tmp/twins.json' | grep -q 'empty).*an empty row.s answer is the identity'"
ok "shaped-swapped (rows 0 and 1 swapped): wrong, naming row 0" \
  sh -c "test \"\$('$JQ' -r '[.results[] | select(.run == \"swapped\") | .status] | unique | join(\" \")' '$tmp/twins.json')\" = wrong && '$JQ' -r '.results[] | select(.run == \"swapped\") | .reason' '$tmp/twins.json' | grep -q '^row 0 of 7 (n = 31): .* 2 of 7 answers wrong'"
ok "shaped-remembered (answers computed in init): wrong on the probe written in place" \
  sh -c "'$JQ' -r '.results[] | select(.run == \"remembered\") | .reason' '$tmp/twins.json' | grep -q '^probe 1 (zeros, each row.s first and last element planted): row 0 of 7'"

# 3. A plugin older than ABI 1.6 (old-minor: 1.4), or one that declares no
# shape (tiny-sum), is not offered one; its plain row runs.
{ experiment_header old
  printf '[data]\nop = sum\ndtype = i32\nn = 100\nrows = 1, 8\n'
  printf '[run old]\nplugin = old-minor\n[run tiny]\nplugin = tiny-sum\n'
} >"$tmp/old.ini"
"$rb" -q --plugin-path "$top_builddir/tests/plugins/dir" -c "$tmp/old.ini" -o "$tmp/old.json" \
  >/dev/null 2>&1
is "$("$JQ" -r '[.results[] | "\(.rows // 1) \(.status)"] | join(", ")' "$tmp/old.json")" \
  "1 ok, 8 unsupported, 1 ok, 8 unsupported" \
  "plugins without shapes run rows = 1 and are not offered rows = 8"
is "$("$JQ" -r '.results[1].reason, .results[3].reason' "$tmp/old.json")" \
  "old-minor reduces one array at a time (plugin ABI 1.4; shapes, rows > 1, columns and ragged rows, came in 1.6)
tiny-sum reduces one array at a time (it declares no shapes)" "... the reasons say why"

# 4. Bad shapes: one error per mistake, naming the file and the line.
bad() { # NAME DATA-LINES: the error of an experiment with those [data] lines
  { experiment_header bad; printf '[data]\n%s\n[run r]\nplugin = cpu/serial\n' "$2"; } >"$tmp/$1.ini"
  "$rb" -c "$tmp/$1.ini" >/dev/null 2>"$tmp/$1.err"
  echo "$? $(head -n 1 "$tmp/$1.err")"
}
is "$(bad rows0 'rows = 0')" "2 $tmp/rows0.ini:9: error: rows = 0: out of range; valid: 1 to 2G (2^31 rows)" \
  "rows = 0 is refused at its line, naming what is valid"
is "$(bad axis 'axis = diagonal')" "2 $tmp/axis.ini:9: error: unknown axis 'diagonal'; valid: row, column" \
  "an unknown axis is refused with the valid words"
is "$(bad lengths 'lengths = uneven')" "2 $tmp/lengths.ini:9: error: unknown lengths 'uneven'; valid: fixed, ragged" \
  "unknown lengths are refused with the valid words"
is "$(bad ragcol 'axis = column
lengths = ragged')" "2 $tmp/ragcol.ini:9: error: lengths = ragged takes axis = row (ragged rows have no columns), but [run r] has axis = column" \
  "ragged columns are refused"
is "$(bad histogram 'op = histogram
dtype = u8
rows = 4')" "2 $tmp/histogram.ini:11: error: rows = 4: a shape's answers are sums, minima, maxima or argmax, but [run r] has op histogram; use rows = 1 for it" \
  "rows with op = histogram are refused"
is "$(bad bad-n 'n = many
rows = 4')" "2 $tmp/bad-n.ini:9: error: n = many: not a size; expected a whole number with an optional suffix K, M, G or T (powers of two), e.g. 1000 or 4M; valid: 1 to 1T (2^40 elements)" \
  "a shape with a bad n: the n is reported, nothing else"
is "$(bad huge 'n = 1G
rows = 2K')" "2 $tmp/huge.ini:10: error: rows = 2K with n up to 1073741824: rows x n is past 2^40 elements, the most an input holds" \
  "rows x n past 2^40 elements is refused"

# 5. From the command line, in --dry-run, the table, CSV, Markdown, read back.
{ experiment_header cli
  printf '[data]\nop = sum\ndtype = f32\nn = 4K\n[run serial]\nplugin = cpu/serial\n'
} >"$tmp/cli.ini"
"$rb" -c "$tmp/cli.ini" -D rows=1,64 -D axis=column --dry-run >"$tmp/dry.out" 2>&1
ok "-D rows=1,64 -D axis=column: --dry-run lists the shapes" \
  grep -qE ' n=4K +rows=64 axis=column ' "$tmp/dry.out"
"$rb" -q -c "$tmp/cli.ini" -D rows=64 -D lengths=ragged -o "$tmp/cli.json" >"$tmp/cli.table" 2>&1
ok "... the table has a rows and a lengths column" \
  sh -c "head -n 1 '$tmp/cli.table' | grep -qE ' n +rows +lengths +dtype '"
"$rb" report "$tmp/cli.json" --format csv >"$tmp/cli.csv" 2>&1
is "$(head -n 1 "$tmp/cli.csv" | tr ',' '\n' | tail -n 4 | paste -sd' ')" "rows axis lengths repro" \
  "... read back, the CSV ends with rows, axis and lengths, then repro"
is "$(tail -n 1 "$tmp/cli.csv" | tr ',' '\n' | tail -n 4 | head -n 3 | paste -sd' ')" "64 row ragged" \
  "... with the row's values"
"$rb" report "$tmp/cli.json" --format md >"$tmp/cli.md" 2>&1
ok "... Markdown has the rows, axis and lengths columns" \
  grep -qF '| run | plugin | params | n | rows | axis | lengths | dtype |' "$tmp/cli.md"
bw=$("$JQ" -r '.results[0] | (.bandwidth_gbs / (64 * 4096 * 4 / .median_ns)) * 1000 | round' "$tmp/cli.json")
is "$bw" 1000 "GB/s counts rows x n elements (64 x 4K f32 over the median)"

# 6. compare pairs the same shape only; tune writes each winner's shape.
"$rb" -q -c "$tmp/cli.ini" -D rows=1,64 -o "$tmp/old.json" >/dev/null 2>&1
"$rb" -q -c "$tmp/cli.ini" -D rows=1,64 -o "$tmp/new.json" >/dev/null 2>&1
"$rb" compare "$tmp/old.json" "$tmp/new.json" --format json >"$tmp/cmp.json" 2>/dev/null
is "$("$JQ" -r '[.comparisons[] | .shape // "-"] | join(", ")' "$tmp/cmp.json")" \
  "-, rows=64" "compare pairs rows = 1 with rows = 1 and rows = 64 with rows = 64, naming the shape"
{ experiment_header tune
  printf '[data]\nop = sum\ndtype = f32\nn = 1K\nrows = 64\naxis = column\n'
  printf '[run t]\nplugin = cpu/threads\nthreads = 1, 2\n'
} >"$tmp/tune.ini"
"$rb" tune -q -c "$tmp/tune.ini" -o "$tmp/tuned.ini" -m "$tmp/map.json" >"$tmp/tune.out" 2>&1
ok "tune: the search names the shape" grep -q '^\[t\] threads sum f32 n=1K rows=64 axis=column: ' "$tmp/tune.out"
"$rb" -c "$tmp/tuned.ini" --dry-run >"$tmp/tuned.dry" 2>&1
ok "... and the tuned experiment keeps it" grep -qE ' n=1K +rows=64 axis=column ' "$tmp/tuned.dry"

done_testing
