#!/bin/sh
# tests/report/test_html_shaped.sh: the HTML report of shaped results (a
# quick cpu run over rows 1, 64 x n 32, along rows, columns and ragged
# rows) has the columns rows, axis and lengths, a row of one reduction
# among them reading 1, row, fixed; axis only where some row reduces
# columns and lengths only where some row is ragged, as the run's table;
# the folded rows that did not run (a plugin that takes no shape) name
# their shape too. n is headed as the elements of each row, and its
# tooltip gives the elements in all (rows x n). A report of one reduction
# has none of them.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 9

# headers FILE: the results table's column headers, on one line
headers() { sed -n '/<table class="results">/{n;p;q}' "$1" | grep -o '<th>[^<]*</th>' |
  sed 's/<[^>]*>//g' | tr '\n' ' '; }

{ experiment_header html-shaped
  printf '[data]\nop = sum\ndtype = f32\nrows = 1, 64\nn = 32\n'
  printf '[run serial]\nplugin = cpu/serial\n[run columns]\nplugin = cpu/serial\naxis = column\n'
  printf '[run ragged]\nplugin = cpu/threads\nlengths = ragged\n'
  printf '[run flat]\nplugin = cpu/unrolled\n'
} >"$tmp/shaped.ini"
"$rb" -q -c "$tmp/shaped.ini" -o "$tmp/shaped.json" -o "$tmp/shaped.html" >/dev/null 2>&1
ok "a shaped run writes its HTML report" test -s "$tmp/shaped.html"
is "$(headers "$tmp/shaped.html")" \
  "# run plugin params op dtype n (elements of each row) rows axis lengths status median time bandwidth (GB/s) noise (% of median) how measured reason " \
  "the results table has rows, axis and lengths after n, the elements of each row"
ok "... a shaped row's: 64, column" \
  grep -q '<td class="num" title="rows: 64 ">64</td><td>column</td><td>fixed</td>' "$tmp/shaped.html"
ok "... n's tooltip: the elements of each row, and in all (64 x 32)" \
  grep -q 'title="n: 32 (32 elements of each row, 2048 in all)">32</td><td class="num" title="rows: 64 ">64</td>' "$tmp/shaped.html"
ok "... a row of one reduction among them: 1, row, fixed" \
  grep -q '<td class="num" title="rows: 1 (one reduction of n)">1</td><td>row</td><td>fixed</td>' "$tmp/shaped.html"
ok "the rows that did not run (unrolled takes no shape) name their shape" \
  sh -c "sed -n '/<table class=\"results folded\">/{n;p;q}' '$tmp/shaped.html' |
         grep -q '<th>n (elements of each row)</th><th>rows</th><th>axis</th><th>lengths</th></tr>'"

# only rows: lengths fixed and along rows everywhere
{ experiment_header html-rows
  printf '[data]\nop = sum\ndtype = f32\nrows = 1, 64\nn = 32\n[run serial]\nplugin = cpu/serial\n'
} >"$tmp/rows.ini"
"$rb" -q -c "$tmp/rows.ini" -o "$tmp/rows.html" >/dev/null 2>&1
is "$(headers "$tmp/rows.html")" \
  "# run plugin params op dtype n (elements of each row) rows status median time bandwidth (GB/s) noise (% of median) how measured " \
  "rows along rows of fixed lengths: the rows column alone"

# one reduction: nothing new
{ experiment_header html-flat
  printf '[data]\nop = sum\ndtype = f32\nn = 32, 64\n[run serial]\nplugin = cpu/serial\n'
} >"$tmp/flat.ini"
"$rb" -q -c "$tmp/flat.ini" -o "$tmp/flat.html" >/dev/null 2>&1
is "$(headers "$tmp/flat.html")" \
  "# run plugin params op dtype n (elements) status median time bandwidth (GB/s) noise (% of median) how measured " \
  "results of one reduction: no shape column"
ok "... and no winner map" sh -c "! grep -q 'plot-winners' '$tmp/flat.html'"
done_testing
