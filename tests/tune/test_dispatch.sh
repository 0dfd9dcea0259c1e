#!/bin/sh
# tests/tune/test_dispatch.sh: `redbench dispatch` writes the crossover map
# as a C header an application dispatches from. From a winner map with two
# and four ranks (fixtures/crossover-map.json, its texts hostile: quotes,
# a comment's end, a newline, a trigraph) the header compiles cleanly with
# -Wall -Wextra -Werror as C99, its find() picks the range that holds n or
# the nearest one and nothing for an op or rank count it lacks, and every
# text comes back byte for byte. From a results file, the best ok row of
# each data set (its ranks a part of it) wins, with the best row of another
# plugin as runner-up. A map without shapes makes, byte for byte, the
# header such maps made before shapes came (fixtures/crossover-map.h).
# `tune` over 1 and 2 ranks writes a winner for each
# in its map and its tuned experiment, and its map makes a header.
# Bad input: a file that is neither a map nor results, a map whose member
# has the wrong type or whose range is upside down, a bad --prefix: exit 2
# naming the file and line; nothing is written.
. "$top_srcdir/tests/lib.sh"
cc=${CC:-cc}
plan 17

"$rb" dispatch "$fixtures/crossover-map.json" --prefix my_map -o "$tmp/dispatch.h" 2>"$tmp/err"
ok "a header is written from a winner map" test $? -eq 0 -a -s "$tmp/dispatch.h"
$cc -std=c99 -Wall -Wextra -Werror -I"$tmp" -o "$tmp/check" "$fixtures/dispatch-check.c" \
  >"$tmp/cc.log" 2>&1
ok "it compiles as C99 with -Wall -Wextra -Werror" test $? -eq 0
"$tmp/check" >"$tmp/asked.txt" 2>&1
cat >"$tmp/want.txt" <<'WANT'
sum f32 2 1024: oneshot
sum f32 2 300000: oneshot
sum f32 2 900000: twoshot
sum f32 2 1073741824: twoshot
sum f32 4 65536: oneshot
sum f32 4 16777216: allreduce
sum f32 8 1024: none
max f32 2 1024: none
4 NVIDIA H200|scheme=all"reduce*/
??/|p2p/twoshot block=512
WANT
ok "find() dispatches by op, dtype, ranks and n, and texts come back whole" \
  diff "$tmp/want.txt" "$tmp/asked.txt"
ok "no text from the map reaches a comment of the header" \
  sh -c "! grep -E '^(/\\*| \\*)' '$tmp/dispatch.h' | grep -q -e reduce -e H200"
grep -q 'margin' "$tmp/dispatch.h" && grep -q '0.14299999999999999' "$tmp/dispatch.h"
ok "the header keeps each winner's margin" test $? -eq 0
ok "a map without shapes: the header such maps have always made, byte for byte" \
  cmp "$fixtures/crossover-map.h" "$tmp/dispatch.h"

# from a results file: a quick cpu run at three sizes
{ experiment_header dispatch
  printf '[data]\nop = sum\ndtype = f32\nn = 1K, 64K\n'
  printf '[run serial]\nplugin = serial\n[run unrolled]\nplugin = unrolled\nlanes = 4, 16\n'
} >"$tmp/run.ini"
"$rb" -q -c "$tmp/run.ini" --format json -o "$tmp/run.json" >/dev/null 2>&1
"$rb" dispatch "$tmp/run.json" >"$tmp/from-results.h" 2>"$tmp/err"
ok "a header is written from a results file, to standard output" test $? -eq 0 -a -s "$tmp/from-results.h"
best=$("$JQ" -r '[.results[] | select(.n == 1024 and .status == "ok")] | min_by(.median_ns) | .plugin' "$tmp/run.json")
ok "its first entry is the fastest ok row at the smallest n ($best)" \
  grep -q "^     \"cpu\", \"$best\"" "$tmp/from-results.h"

# the ranks of a results file's rows are part of each data set
{ experiment_header dispatch-ranks
  printf '[data]\nop = sum\ndtype = i32\nn = 1K\nranks = 1, 2\n[run exchange]\nplugin = exchange-sum\n'
} >"$tmp/ranks.ini"
"$rb" -q --plugin-path "$top_builddir/tests/procs/ranks/dir" -c "$tmp/ranks.ini" --format json \
  -o "$tmp/ranks.json" >/dev/null 2>&1
"$rb" dispatch "$tmp/ranks.json" >"$tmp/ranks.h" 2>"$tmp/err"
ok "rows of 1 and 2 ranks give an entry each" \
  sh -c "grep -q '\"i32\", \"uniform\", 1u, 1024u' '$tmp/ranks.h' && grep -q '\"i32\", \"uniform\", 2u, 1024u' '$tmp/ranks.h'"

# tune keeps the ranks in each data set: its map and tuned experiment
"$rb" tune -p "$top_builddir/tests/procs/ranks/dir" -c "$tmp/ranks.ini" -m "$tmp/tuned-map.json" \
  -o "$tmp/tuned.ini" >"$tmp/tune.out" 2>&1
is "$("$JQ" -c '[.winners[] | .ranks]' "$tmp/tuned-map.json")" "[1,2]" \
  "tune: a winner for 1 and for 2 ranks in the map"
ok "  the tuned experiment runs the 2-rank winner on 2 ranks" \
  sh -c "grep -q '^ranks = 2\$' '$tmp/tuned.ini' && '$rb' -p '$top_builddir/tests/procs/ranks/dir' -c '$tmp/tuned.ini' --dry-run >/dev/null 2>&1"
"$rb" dispatch "$tmp/tuned-map.json" >"$tmp/tuned.h" 2>"$tmp/err"
ok "  and its map makes a header with both" \
  sh -c "grep -q '\"i32\", \"uniform\", 1u, 1024u' '$tmp/tuned.h' && grep -q '\"i32\", \"uniform\", 2u, 1024u' '$tmp/tuned.h'"

# bad input
printf '{"tool": "other", "rows": []}\n' >"$tmp/neither.json"
"$rb" dispatch "$tmp/neither.json" -o "$tmp/out.h" 2>"$tmp/err"
st=$?
ok "neither a map nor results: exit 2, naming the file and line" \
  sh -c "[ $st -eq 2 ] && grep -q 'neither.json:1: error: neither a winner map' '$tmp/err' && [ ! -e '$tmp/out.h' ]"
sed 's/"n_min": 1048576/"n_min": "big"/' "$fixtures/crossover-map.json" >"$tmp/bad-n.json"
"$rb" dispatch "$tmp/bad-n.json" -o "$tmp/out.h" 2>"$tmp/err"
st=$?
ok "a member of the wrong type: exit 2 naming the file, line and member" \
  sh -c "[ $st -eq 2 ] && grep -q \"bad-n.json:15: error: winners\\[1\\]: 'n_min' must be a whole number\" '$tmp/err' && [ ! -e '$tmp/out.h' ]"
sed 's/"n_max": 16384/"n_max": 16/' "$fixtures/crossover-map.json" >"$tmp/upside.json"
"$rb" dispatch "$tmp/upside.json" 2>"$tmp/err" >/dev/null
st=$?
ok "a range upside down: exit 2" sh -c "[ $st -eq 2 ] && grep -q \"'n_min' is above 'n_max'\" '$tmp/err'"
"$rb" dispatch "$fixtures/crossover-map.json" --prefix '9bad;x' 2>"$tmp/err" >/dev/null
st=$?
ok "a prefix that is not a C identifier: exit 2" sh -c "[ $st -eq 2 ] && grep -q 'a C identifier' '$tmp/err'"
printf '{"winners": []}\n' >"$tmp/empty.json"
"$rb" dispatch "$tmp/empty.json" 2>"$tmp/err" >/dev/null
st=$?
ok "a map without winners: exit 2" sh -c "[ $st -eq 2 ] && grep -q 'no winners' '$tmp/err'"
done_testing
