#!/bin/sh
# tests/tune/test_dispatch_recorded.sh: the dispatch header of a measured
# shaped grid (conf/shaped.ini on an H100, docs/results/shaped-h100.md:
# docs/results/shaped/grid-h100-1207.json.xz, CUB's segmented reduce
# beside every strategy along rows and columns) compiles as C99 with
# -Wall -Wextra -Werror, names the device it was measured on, and its
# find() returns, for every cell of rows x n of either axis, the plugin of
# that cell's fastest ok row in the results (computed here from the file
# by jq, not written down).
. "$top_srcdir/tests/lib.sh"
cc=${CC:-cc}
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
command -v xz >/dev/null 2>&1 || skip_all "xz not found (apt-get install xz-utils)"
record=$top_srcdir/docs/results/shaped/grid-h100-1207.json.xz
plan 4

xz -dc "$record" >"$tmp/grid.json"
"$rb" dispatch "$tmp/grid.json" --prefix shaped_map -o "$tmp/dispatch.h" 2>"$tmp/err" &&
  $cc -std=c99 -Wall -Wextra -Werror -I"$tmp" -o "$tmp/check" "$fixtures/shaped-check.c" \
    >"$tmp/cc.log" 2>&1
status=$?
ok "the recorded grid's header compiles as C99 with -Wall -Wextra -Werror" test "$status" -eq 0
ok "... and names the device it was measured on" \
  grep -q 'shaped_map_device\[\] = "NVIDIA H100 80GB HBM3"' "$tmp/dispatch.h"

# each cell's fastest ok row, as find()'s question and as its expected line
cells='[.results[] | select(.status == "ok")] | group_by([.axis // "row", .rows // 1, .n])
       | .[] | min_by(.median_ns)'
"$JQ" -r "$cells | \"sum:f32:1:\(.rows // 1):\(.axis // \"row\"):fixed:\(.n)\"" "$tmp/grid.json" \
  >"$tmp/asks.txt"
"$JQ" -r "$cells | \"sum f32 1 \(.rows // 1) \(.axis // \"row\") fixed \(.n): \(.plugin)\"" \
  "$tmp/grid.json" >"$tmp/want.txt"
is "$(wc -l <"$tmp/asks.txt")" 88 "the record holds 88 cells (44 along rows, 44 along columns)"
"$tmp/check" $(cat "$tmp/asks.txt") 2>&1 | sed '$d' >"$tmp/got.txt"
ok "find() returns each cell's fastest plugin (rows, columns or CUB's segmented)" \
  diff "$tmp/want.txt" "$tmp/got.txt"
