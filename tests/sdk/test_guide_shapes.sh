#!/bin/bash
# tests/sdk/test_guide_shapes.sh: docs/writing-a-plugin.md's shapes example
# (the block between its shapes-example markers, read from the guide, not
# copied) compiles against the SDK's headers and runs the guide's grid of
# fixed and ragged rows `ok`, every answer judged and proven by the
# shape's probes; asked for columns, which it does not declare, its rows
# are unsupported.
. "$top_srcdir/tests/lib.sh"
[ -n "${JQ:-}" ] || skip_all "jq not found"
command -v "${CC:-cc}" >/dev/null 2>&1 || skip_all "no C compiler"
plan 4
guide=$top_srcdir/docs/writing-a-plugin.md
sed -n '/^<!-- shapes-example: begin -->$/,/^<!-- shapes-example: end -->$/p' "$guide" |
  sed -n 's/^    //p' >"$tmp/rowsum.c"
mkdir -p "$tmp/plugins"
ok "the guide's shapes example compiles" \
  "${CC:-cc}" -std=c11 -Wall -Werror -O2 -fPIC -shared -I"$top_srcdir/sdk" \
    -o "$tmp/plugins/rowsum.so" "$tmp/rowsum.c"
# the grid below the example, with the experiment's brief settings
{ experiment_header guide-shapes
  sed -n '/^<!-- shapes-grid: begin -->$/,/^<!-- shapes-grid: end -->$/p' "$guide" |
    sed -n 's/^    //p'
} >"$tmp/rowsum.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/rowsum.ini" -o "$tmp/rowsum.json" \
  >/dev/null 2>"$tmp/rowsum.err"
is "$?" 0 "the guide's grid runs: exit 0"
is "$("$JQ" -r '[.results[] | "\(.status) \(.probes)"] | unique | join(",")' "$tmp/rowsum.json"):$("$JQ" '.results | length' "$tmp/rowsum.json")" \
  "ok passed:12" "... its 12 rows ok and proven"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/rowsum.ini" -D axis=column -D lengths=fixed \
  -D rows=7 -o "$tmp/columns.json" >/dev/null 2>&1
is "$("$JQ" -r '[.results[] | .reason] | unique | join(",")' "$tmp/columns.json")" \
  "rowsum does not reduce columns (its shapes: rows, ragged)" \
  "asked for columns, its rows are unsupported, saying why"
done_testing
