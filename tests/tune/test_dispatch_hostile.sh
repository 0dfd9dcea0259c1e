#!/bin/sh
# tests/tune/test_dispatch_hostile.sh: `redbench dispatch` writes finite
# numbers only, and reads no number of the wrong type as 0. A winner map
# whose median or margin no double holds (1e999), or is of the wrong type
# or missing, and a results file whose margin worked out from two finite
# medians overflows, are refused (exit 2) naming the file and line, and no
# header is written; a header made from hostile but valid input (texts
# that end comments, trigraphs, line breaks; the largest and smallest
# doubles, the largest counts) compiles.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
cc=${CC:-cc}
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
plan 12

map() { # map MEDIAN MARGIN CONFIDENCE: one winner with a runner-up
  cat <<JSON
{"tool": "redbench", "experiment": "e.ini", "device": {"name": "d"},
 "winners": [
  {"op": "sum", "dtype": "f32", "distribution": "uniform", "ranks": 1,
   "n_min": 1024, "n_max": 4096, "plugin": "p", "pack": "k", "params": {},
   "median_ns": $1,
   "runner_up": {"pack": "k", "plugin": "q", "params": {}, "median_ns": 2},
   "margin": $2,
   "confidence": $3}
 ]}
JSON
}
refused() { # refused NAME FILE LINE TEXT: exit 2, FILE:LINE and TEXT named, no header
  "$rb" dispatch "$tmp/$2" -o "$tmp/$2.h" >/dev/null 2>"$tmp/err"
  st=$?
  ok "$1" sh -c "[ $st -eq 2 ] && grep -qF '$2:$3: error: ' '$tmp/err' && grep -qF \"$4\" '$tmp/err' && [ ! -e '$tmp/$2.h' ]"
}

map 1e999 0.5 1 >"$tmp/median-inf.json"
refused "a median no double holds is refused naming file and line" median-inf.json 5 "'median_ns' is 1e999"
map 1 -1e400 1 >"$tmp/margin-inf.json"
refused "a margin no double holds is refused" margin-inf.json 7 "'margin' is -1e400"
map 1 0.5 1e309 >"$tmp/confidence-inf.json"
refused "a confidence no double holds is refused" confidence-inf.json 8 "'confidence' is 1e309"
map '"fast"' 0.5 1 >"$tmp/median-text.json"
refused "a median of the wrong type is refused, not read as 0" median-text.json 5 "'median_ns' must be a number"
map 1 '[1]' 1 >"$tmp/margin-array.json"
refused "a margin of the wrong type is refused" margin-array.json 7 "'margin' must be a number"
map 1 0.5 true >"$tmp/confidence-bool.json"
refused "a confidence of the wrong type is refused" confidence-bool.json 8 "'confidence' must be a number or null"
map -3 0.5 1 >"$tmp/median-negative.json"
refused "a negative median is refused" median-negative.json 5 "'median_ns' is -3"

# a results file whose two finite medians make a margin beyond a double
{ experiment_header dispatch
  printf '[data]\nop = sum\ndtype = f32\nn = 1K\n[run serial]\nplugin = serial\n[run unrolled]\nplugin = unrolled\nlanes = 4\n'
} >"$tmp/run.ini"
"$rb" -q -c "$tmp/run.ini" --format json -o "$tmp/run.json" >/dev/null 2>&1
"$JQ" '.results[0].median_ns = 1e-300 | .results[1].median_ns = 1e300' "$tmp/run.json" >"$tmp/far.json"
line=$(($(grep -n '^  "results": \[' "$tmp/far.json" | cut -d: -f1) + 1)) # the first row's
"$rb" dispatch "$tmp/far.json" -o "$tmp/far.h" >/dev/null 2>"$tmp/err"
st=$?
ok "a margin that overflows from two finite medians is refused naming file and line" \
  sh -c "[ $st -eq 2 ] && grep -q 'far.json:$line: error: the margin over the runner-up' '$tmp/err' && [ ! -e '$tmp/far.h' ]"
"$JQ" '.results[0].median_ns = 12345.678' "$tmp/run.json" | sed 's/12345.678/1e999/' >"$tmp/huge.json"
"$rb" dispatch "$tmp/huge.json" >"$tmp/huge.h" 2>"$tmp/err"
st=$?
ok "a results file's median no double holds: refused, no header" \
  sh -c "[ $st -ne 0 ] && ! grep -q inf '$tmp/huge.h' && grep -q 'huge.json:[0-9]' '$tmp/err'"

# hostile but valid: every number and text a header must hold
cat >"$tmp/edge.json" <<'JSON'
{"tool": "redbench", "experiment": "e.ini */ #error x\n??/", "device": {"name": "\\\"\u0001"},
 "winners": [
  {"op": "sum */", "dtype": "f32\n#error", "distribution": "??=", "ranks": 4294967295,
   "n_min": 0, "n_max": 18446744073709551615, "plugin": "\"", "pack": "\\", "params": {"a": "*/\u00e9"},
   "median_ns": 1.7976931348623157e308,
   "runner_up": {"pack": "k", "plugin": "q", "params": {"b": 1e999}, "median_ns": 5e-324},
   "margin": -0.9999999999999999, "confidence": 4.9e-324},
  {"op": "max", "dtype": "f32", "distribution": "uniform", "n_min": 1, "n_max": 1,
   "plugin": "p", "pack": "k", "params": {}, "median_ns": 0, "runner_up": null}
 ]}
JSON
"$rb" dispatch "$tmp/edge.json" --prefix edge -o "$tmp/edge.h" 2>"$tmp/err"
ok "a header is written from the edge of what a map holds" test $? -eq 0 -a -s "$tmp/edge.h"
printf '#include "edge.h"\nint main(void) { return edge_find("sum", "f32", 1, 1) != 0; }\n' >"$tmp/use.c"
$cc -std=c99 -Wall -Wextra -Werror -fsyntax-only -I"$tmp" "$tmp/use.c" >"$tmp/cc.log" 2>&1
ok "it compiles (cc -fsyntax-only -std=c99 -Wall -Wextra -Werror)" test $? -eq 0
{ sed -n '/_table\[\] = {/,/^};/p' "$tmp/edge.h" | grep -qiE '(^|[^a-z_])(inf|nan)([^a-z_]|$)'; } 
ok "no number of it is written as inf or nan" test $? -ne 0
done_testing
