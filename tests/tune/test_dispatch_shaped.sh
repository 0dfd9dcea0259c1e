#!/bin/sh
# tests/tune/test_dispatch_shaped.sh: winner maps and dispatch headers of
# shaped reductions (rows x n, along rows or columns, fixed or ragged).
# From a map with shapes (fixtures/shaped-map.json: its unshaped entries
# have no shape members, as maps written before shapes) the header's find()
# takes rows, axis and lengths and picks the cell that holds the shape or
# the nearest one on log scales of rows and n (fixtures/shaped-check.c
# asks it); members of the wrong kind are refused naming file and line.
# From a results file whose medians are set by hand (a quick cpu run of
# serial against threads over rows 1, 64 x n 32, 512, its times replaced,
# so that the verdicts do not depend on the machine), each cell's fastest
# row wins and a range of n never spans two rows. `tune` over the same
# grid keeps each cell's shape in its map (rows 1 without one) and tuned
# experiment, and its map makes a header whose find() returns each cell's
# winner.
. "$top_srcdir/tests/lib.sh"
cc=${CC:-cc}
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
plan 18

# header MAP: the header of MAP (prefix shaped_map) as $tmp/dispatch.h and
# fixtures/shaped-check.c built against it as $tmp/check; $status.
header() {
  rm -f "$tmp/dispatch.h" "$tmp/check"
  "$rb" dispatch "$1" --prefix shaped_map -o "$tmp/dispatch.h" 2>"$tmp/err" &&
    $cc -std=c99 -Wall -Wextra -Werror -I"$tmp" -o "$tmp/check" "$fixtures/shaped-check.c" \
      >"$tmp/cc.log" 2>&1
  status=$?
}

# ---- a map with shapes ----
header "$fixtures/shaped-map.json"
ok "a map with shapes makes a header that compiles as C99 with -Wall -Wextra -Werror" \
  test "$status" -eq 0
ok "... its entries hold rows, axis and lengths (an entry without them: rows 1, row, fixed)" \
  sh -c "grep -q '\"uniform\", 1u, 1u, \"row\", \"fixed\", 32u, 512u' '$tmp/dispatch.h' &&
         grep -q '\"uniform\", 1u, 64u, \"column\", \"fixed\", 32u, 4096u' '$tmp/dispatch.h'"
"$tmp/check" sum:f32:1:1:row:fixed:100 sum:f32:1:1:-:-:4096 sum:f32:1:64:row:fixed:32 \
  sum:f32:1:64:-:-:1024 sum:f32:1:100:row:fixed:32 sum:f32:1:2048:row:fixed:32 \
  sum:f32:1:2:row:fixed:300 sum:f32:1:64:column:fixed:100 sum:f32:1:4096:column:-:100 \
  sum:f32:1:64:row:ragged:32 sum:f32:1:64:column:ragged:32 max:f32:1:64:row:fixed:32 \
  sum:f32:2:64:row:fixed:32 >"$tmp/asked.txt" 2>&1
cat >"$tmp/want.txt" <<'WANT'
sum f32 1 1 row fixed 100: serial
sum f32 1 1 - - 4096: threads
sum f32 1 64 row fixed 32: serial
sum f32 1 64 - - 1024: threads
sum f32 1 100 row fixed 32: serial
sum f32 1 2048 row fixed 32: threads
sum f32 1 2 row fixed 300: serial
sum f32 1 64 column fixed 100: columns
sum f32 1 4096 column - 100: columns
sum f32 1 64 row ragged 32: ragged
sum f32 1 64 column ragged 32: none
max f32 1 64 row fixed 32: none
sum f32 2 64 row fixed 32: none
7 entries from conf/shaped-cpu.ini
WANT
ok "find() picks the cell of rows x n, else the nearest (rows 100 -> 64, 2048 -> 4096), by axis and lengths" \
  diff "$tmp/want.txt" "$tmp/asked.txt"

# members of a shape that a map cannot hold
refused() { # refused NAME SED LINE TEXT: the map edited by SED is refused, exit 2, naming LINE and TEXT
  sed "$2" "$fixtures/shaped-map.json" >"$tmp/bad.json"
  "$rb" dispatch "$tmp/bad.json" -o "$tmp/bad.h" >/dev/null 2>"$tmp/err"
  st=$?
  ok "$1" sh -c "[ $st -eq 2 ] && grep -qF 'bad.json:$3: error: ' '$tmp/err' && grep -qF \"$4\" '$tmp/err' && [ ! -e '$tmp/bad.h' ]"
}
refused "an axis that is not row or column: exit 2 naming file, line and the axes" \
  's/"axis": "column"/"axis": "diagonal"/' 30 "winners[5]: 'axis' must be one of row, column"
refused "lengths that are not fixed or ragged: exit 2" \
  's/"lengths": "ragged"/"lengths": 3/' 34 "winners[6]: 'lengths' must be one of fixed, ragged"
refused "rows 0: exit 2" 's/"rows": 4096/"rows": 0/' 26 "winners[4]: 'rows' must be 1 to"
refused "rows that are not a number: exit 2" 's/"rows": 4096/"rows": "many"/' 26 \
  "winners[4]: 'rows' must be a whole number"

# ---- from a results file whose medians are known ----
{ experiment_header shaped-dispatch
  printf '[data]\nop = sum\ndtype = f32\nrows = 1, 64\nn = 32, 512\n'
  printf '[run serial]\nplugin = cpu/serial\n[run threads]\nplugin = cpu/threads\nthreads = 2\n'
} >"$tmp/grid.ini"
"$rb" -q -c "$tmp/grid.ini" -o "$tmp/run.json" >/dev/null 2>"$tmp/run.err"
is "$("$JQ" '[.results[] | select(.status == "ok")] | length' "$tmp/run.json")" 8 \
  "a quick run of serial and threads over rows 1, 64 x n 32, 512: 8 ok rows"
# serial takes rows x n ns, threads 3000 + rows x n / 8: serial wins every
# cell but rows 64 x n 512
"$JQ" '.results |= map((if .plugin == "serial" then (.rows // 1) * .n
                        else 3000 + (.rows // 1) * .n / 8 end) as $t
        | .median_ns = $t | .samples_ns |= map($t) | .rounds |= map(.median_ns = $t)
        | .bandwidth_gbs = (.n * (.rows // 1) * 4 / $t))' "$tmp/run.json" >"$tmp/known.json"
header "$tmp/known.json"
ok "its header compiles" test "$status" -eq 0
"$tmp/check" sum:f32:1:1:-:-:32 sum:f32:1:1:-:-:512 sum:f32:1:64:-:-:32 sum:f32:1:64:-:-:512 \
  sum:f32:1:64:-:-:4096 sum:f32:1:32:-:-:512 sum:f32:1:64:column:-:512 >"$tmp/asked.txt" 2>&1
cat >"$tmp/want.txt" <<WANT
sum f32 1 1 - - 32: serial
sum f32 1 1 - - 512: serial
sum f32 1 64 - - 32: serial
sum f32 1 64 - - 512: threads
sum f32 1 64 - - 4096: threads
sum f32 1 32 - - 512: threads
sum f32 1 64 column - 512: none
3 entries from $tmp/known.json
WANT
ok "each cell's fastest row wins: serial but at rows 64 x n 512; rows 32 x n 512 is nearer 64 than 1" \
  diff "$tmp/want.txt" "$tmp/asked.txt"
ok "... a range of n does not span two rows (serial: rows 1 n 32-512, then rows 64 n 32)" \
  sh -c "grep -q '1u, 1u, \"row\", \"fixed\", 32u, 512u' '$tmp/dispatch.h' && grep -q '1u, 64u, \"row\", \"fixed\", 32u, 32u' '$tmp/dispatch.h'"
# the same results without a shape: rows 64 dropped, the header of unshaped maps
"$JQ" '.results |= map(select(.rows == null)) | .experiment.settings.round_order = [[range(.results | length)]]' \
  "$tmp/known.json" >"$tmp/flat.json"
"$rb" dispatch "$tmp/flat.json" -o "$tmp/flat.h" 2>"$tmp/err"
ok "results without a shape: the header of unshaped maps (find(op, dtype, ranks, n))" \
  sh -c "grep -q 'uint32_t ranks, uint64_t n)' '$tmp/flat.h' && ! grep -q 'rows' '$tmp/flat.h'"

# ---- tune over the same grid ----
"$rb" tune -c "$tmp/grid.ini" -o "$tmp/tuned.ini" -m "$tmp/map.json" >"$tmp/tune.out" 2>&1
is "$?" 0 "tune over rows 1, 64 x n 32, 512: exit 0"
is "$("$JQ" -c '[.winners[] | select(.rows == null and (has("axis") or has("lengths")))] | length' "$tmp/map.json")" 0 \
  "... its map's rows-1 entries have no shape members"
is "$("$JQ" -c '[.winners[] | select(.rows == 64) | [.axis, .lengths]] | unique' "$tmp/map.json")" '[["row","fixed"]]' \
  "... its rows-64 entries name rows, axis and lengths"
# every cell of the grid in exactly one entry
cells=$("$JQ" -r '[(1, 64) as $r | (32, 512) as $n
  | [.winners[] | select((.rows // 1) == $r and .n_min <= $n and $n <= .n_max)] | length] | map(tostring) | join(" ")' "$tmp/map.json")
is "$cells" "1 1 1 1" "... each of the four cells in exactly one entry"
ok "... the tuned experiment runs the rows-64 winners on 64 rows" \
  sh -c "grep -q '^rows = 64\$' '$tmp/tuned.ini' && '$rb' -c '$tmp/tuned.ini' --dry-run >/dev/null 2>&1"
header "$tmp/map.json"
want=$("$JQ" -r '(1, 64) as $r | (32, 512) as $n
  | [.winners[] | select((.rows // 1) == $r and .n_min <= $n and $n <= .n_max)][0]
  | "sum f32 1 \($r) - - \($n): \(.plugin)"' "$tmp/map.json")
"$tmp/check" sum:f32:1:1:-:-:32 sum:f32:1:1:-:-:512 sum:f32:1:64:-:-:32 sum:f32:1:64:-:-:512 \
  2>&1 | sed '$d' >"$tmp/asked.txt"
ok "... its map makes a header whose find() returns each cell's winner" \
  sh -c "[ $status -eq 0 ] && [ \"\$(cat '$tmp/asked.txt')\" = '$want' ]"
done_testing
