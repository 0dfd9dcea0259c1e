#!/bin/sh
# tests/run/test_shaped.sh: shaped reductions on the cpu backend
# (redbench/plugin.h, "Shapes"; run/shape.c). The cpu pack's serial and
# threads reduce every row (fixed and ragged lengths, empty rows among
# them) and every column, sum, min, max and argmax of every numeric dtype:
# every row ok and proven by the shape's probes. Each planted bug of
# tests/plugins/shaped-twin.c is judged wrong, its reason naming the row or
# column; a plugin older than ABI 1.6 is not offered a shape. The keys are
# checked (file and line: a ragged column at the axis or lengths line
# that makes it), rows take sizes, lists and ranges as n does, sweep from
# the command line, and show in --dry-run, the table, JSON (read back),
# CSV and Markdown; a run of one reduction writes no shape field. GB/s and
# n_total count rows x n elements, also read back from a file written
# before n_total counted them. conf/shaped-cpu.ini runs, every row ok, and
# each command its header suggests is accepted.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
twins=$top_builddir/tests/plugins/shaped-dir
plan 54

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
is "$(count "$tmp/twins.json" '.run == "fixed-len" and .lengths == "fixed" and .status == "ok" and .probes == "passed"')" 2 \
  "shaped-fixed-len (ragged lengths ignored): ok and proven on its 2 fixed rows (f32, i32)"
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
is "$(bad ragcol-rows 'rows = 4
axis = column
lengths = ragged')" "2 $tmp/ragcol-rows.ini:10: error: lengths = ragged takes axis = row (ragged rows have no columns), but [run r] has axis = column" \
  "... at the axis line, not at the rows line before it"
{ experiment_header ragrun; printf '[data]\nrows = 4\naxis = column\n[run r]\nplugin = cpu/serial\nlengths = ragged\n'; } >"$tmp/ragrun.ini"
"$rb" -c "$tmp/ragrun.ini" --dry-run >/dev/null 2>"$tmp/ragrun.err"
is "$(head -n 1 "$tmp/ragrun.err")" "$tmp/ragrun.ini:13: error: lengths = ragged takes axis = row (ragged rows have no columns), but [run r] has axis = column" \
  "... at the run's lengths line where the run makes [data]'s columns ragged"
{ experiment_header ragcli; printf '[data]\naxis = column\nlengths = ragged\n[run r]\nplugin = cpu/serial\n'; } >"$tmp/ragcli.ini"
"$rb" -c "$tmp/ragcli.ini" -D rows=4 --dry-run >/dev/null 2>"$tmp/ragcli.err"
is "$(head -n 1 "$tmp/ragcli.err")" "$tmp/ragcli.ini:9: error: lengths = ragged takes axis = row (ragged rows have no columns), but [run r] has axis = column" \
  "... with -D rows=4: at the file's axis line, not at -D rows=4"
"$rb" -c "$top_srcdir/conf/shaped-cpu.ini" -D axis=column --dry-run >/dev/null 2>"$tmp/ragconf.err"
is "$(head -n 1 "$tmp/ragconf.err")" "-D axis=column: error: lengths = ragged takes axis = row (ragged rows have no columns), but [run ragged] has axis = column" \
  "... -D axis=column over a run of ragged rows: at the option"
is "$(bad rows-high 'rows = 1..4G')" "2 $tmp/rows-high.ini:9: error: rows = 1..4G: '4G' is out of range; valid: 1 to 2G (2^31 rows)" \
  "rows = 1..4G: a range past the most rows, refused naming what is valid"
is "$(bad rows-down 'rows = 64..4')" "2 $tmp/rows-down.ini:9: error: rows = 64..4: the range runs down; write the smaller size first (4..64)" \
  "rows = 64..4: a range that runs down is refused"
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
"$rb" -c "$tmp/cli.ini" -D rows=1..4K:x4 --dry-run >"$tmp/range.out" 2>&1
is "$(sed -n 's/.* rows=\([0-9K]*\) .*/\1/p' "$tmp/range.out" | paste -sd' ')" "4 16 64 256 1K 4K" \
  "-D rows=1..4K:x4: rows take a range as n does (rows 1 has no shape to show)"
{ experiment_header range; printf '[data]\nop = sum\ndtype = f32\nn = 4K\nrows = 1, 2K..8K\n[run serial]\nplugin = cpu/serial\n'; } >"$tmp/range.ini"
"$rb" -c "$tmp/range.ini" --dry-run >"$tmp/range2.out" 2>&1
is "$(head -n 1 "$tmp/range2.out")" "$tmp/range.ini: 4 configurations" "rows = 1, 2K..8K in a file: a list with a range"
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
is "$("$JQ" -r '.results[0] | "\(.n) \(.rows) \(.n_total)"' "$tmp/cli.json")" "4096 64 262144" \
  "n_total counts the whole input: 64 ragged rows around 4K, 262144 elements in all"
# csv_field FILE NAME: the field NAME of FILE's last row
csv_field() { _col=$(head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1)
  tail -n 1 "$1" | cut -d, -f"$_col"; }
is "$(csv_field "$tmp/cli.csv" n_total)" 262144 "... and so does the CSV"
"$rb" -q -c "$tmp/cli.ini" -D rows=64 -D n=32 -o "$tmp/m64.json" >/dev/null 2>&1
is "$("$JQ" -r '.results[0] | "\(.n) \(.rows) \(.n_total)"' "$tmp/m64.json")" "32 64 2048" \
  "a 64 x 32 matrix: n 32 (each row), n_total 2048"
"$JQ" '.results |= map(.n_total = .n)' "$tmp/m64.json" >"$tmp/m64-old.json"
"$rb" report "$tmp/m64-old.json" --format csv >"$tmp/m64-old.csv" 2>&1
is "$(csv_field "$tmp/m64-old.csv" n_total)" 2048 \
  "a file written before n_total counted rows x n (n_total = n) still reads, as 2048"

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

# 7. conf/shaped-cpu.ini: a real run (a second or two here), rows, columns
# and ragged rows, every row ok and proven; each command its header
# suggests is accepted.
conf=$top_srcdir/conf/shaped-cpu.ini
"$rb" -q -c "$conf" -o "$tmp/conf.json" >"$tmp/conf.out" 2>&1
is "$?" 0 "conf/shaped-cpu.ini runs: exit 0"
is "$(count "$tmp/conf.json" '.status == "ok" and .probes == "passed"')" "$(count "$tmp/conf.json" 'true')" \
  "... every row ok and proven"
is "$("$JQ" -r '[.results[] | select(.rows != null) | "\(.axis) \(.lengths)"] | unique | join(", ")' "$tmp/conf.json")" \
  "column fixed, row fixed, row ragged" "... over rows, columns and ragged rows"
sed -n 's/^;   redbench \(.*[^ ]\)  *(.*)$/\1/p' "$conf" >"$tmp/conf.commands"
is "$(grep -c . "$tmp/conf.commands")" 3 "its header suggests 3 commands"
bad_commands=
while read -r args; do
  # shellcheck disable=SC2086 # the words as the header writes them
  set -- $args
  [ "$1" = -c ] && [ "$2" = conf/shaped-cpu.ini ] && shift 2
  "$rb" -c "$conf" "$@" --dry-run >/dev/null 2>"$tmp/conf.err" ||
    bad_commands="$bad_commands [$args: $(head -n 1 "$tmp/conf.err")]"
done <"$tmp/conf.commands"
is "$bad_commands" "" "... each of them accepted (--dry-run exits 0)"

done_testing
