#!/bin/sh
# tests/compare/test_compare_shaped.sh: `redbench compare` of shaped
# results (a quick cpu run over rows 1, 64 x n 32, along rows, columns and
# ragged rows, against itself): its table and Markdown have the columns
# rows, axis and lengths (axis where some pair reduces columns, lengths
# where one is ragged, as the run's table), a pair of one reduction among
# them reading 1, row, fixed; its CSV ends with rows, axis and lengths,
# then each side's reproducibility level.
# Results of one reduction give the table and CSV they always gave.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 7

{ experiment_header compare-shaped
  printf '[data]\nop = sum\ndtype = f32\nrows = 1, 64\nn = 32\n'
  printf '[run serial]\nplugin = cpu/serial\n[run columns]\nplugin = cpu/serial\naxis = column\n'
  printf '[run ragged]\nplugin = cpu/threads\nlengths = ragged\n'
} >"$tmp/shaped.ini"
"$rb" -q -c "$tmp/shaped.ini" -o "$tmp/shaped.json" >/dev/null 2>&1
"$rb" compare "$tmp/shaped.json" "$tmp/shaped.json" >"$tmp/table" 2>"$tmp/err"
ok "compare's table of shaped results has rows, axis and lengths after n" \
  grep -qE '^ *#  run +plugin +params +op +dtype +n +rows +axis +lengths +old +new ' "$tmp/table"
ok "... a shaped pair's: 64, column, fixed" grep -qE '^ *[0-9]+ +columns +serial .* 32 +64 +column +fixed ' "$tmp/table"
ok "... a pair of one reduction among them: 1, row, fixed" \
  grep -qE '^ *[0-9]+ +serial +serial .* 32 +1 +row +fixed ' "$tmp/table"
"$rb" compare --format md "$tmp/shaped.json" "$tmp/shaped.json" >"$tmp/md" 2>/dev/null
ok "its Markdown too" grep -q '^| # | run | plugin | params | op | dtype | n | rows | axis | lengths | old |' "$tmp/md"
"$rb" compare --format csv "$tmp/shaped.json" "$tmp/shaped.json" >"$tmp/csv" 2>/dev/null
ok "its CSV ends with rows, axis and lengths, then the levels" \
  sh -c "head -n 1 '$tmp/csv' | grep -q ',measured_differently,rows,axis,lengths,old_repro,new_repro\$' &&
         grep -q '^both,ragged,threads,.*,64,row,ragged,[a-z-]*,[a-z-]*\$' '$tmp/csv'"

{ experiment_header compare-flat
  printf '[data]\nop = sum\ndtype = f32\nn = 32\n[run serial]\nplugin = cpu/serial\n'
} >"$tmp/flat.ini"
"$rb" -q -c "$tmp/flat.ini" -o "$tmp/flat.json" >/dev/null 2>&1
"$rb" compare "$tmp/flat.json" "$tmp/flat.json" >"$tmp/flat-table" 2>/dev/null
ok "results of one reduction: the table has no shape column" \
  grep -qE '^ *#  run +plugin +params +op +dtype +n +old +new ' "$tmp/flat-table"
"$rb" compare --format csv "$tmp/flat.json" "$tmp/flat.json" >"$tmp/flat-csv" 2>/dev/null
ok "... nor the CSV" sh -c "head -n 1 '$tmp/flat-csv' | grep -q ',measured_differently,old_repro,new_repro\$'"
done_testing
