#!/bin/bash
# tests/history/test_history.sh: a history written and read back. A run
# with -o RUN.json -o H.db appends itself, and its run read back (H.db,
# H.db@latest, H.db@1) reports byte for byte as RUN.json does, in JSON and
# in the table; compare, dispatch and plot take DB@WHICH too. history add
# brings the JSON in; the listing's filters; a sqlite3 query of the rows.
# 8 processes appending to one new history at once lose nothing and leave
# it whole. A run killed mid-way (SIGKILL), or interrupted (SIGINT: its
# other outputs hold what finished), leaves the history as it was.
# README's commands for a CI job and its sqlite3 query run as pasted.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/run/crashers/dir
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 44
have_sqlite3() { command -v sqlite3 >/dev/null; }
digest() { sha256sum "$1" | cut -d' ' -f1; }

experiment_header small >"$tmp/small.ini"
cat >>"$tmp/small.ini" <<'INI'
[data]
op = sum
dtype = f32
n = 1K, 4K
[run serial]
plugin = serial
[run unrolled]
plugin = unrolled
INI
db=$tmp/h.db
"$rb" -q -c "$tmp/small.ini" -o "$tmp/run.json" -o "$db" >/dev/null 2>"$tmp/err"
is "$?" 0 "a run with -o RUN.json -o H.db"
ok "... makes the history" test -s "$db"
"$rb" history "$db" >"$tmp/list"
is "$(head -n 1 "$tmp/list")" "$db: 1 run" "history H.db lists one run"
ok "... with its experiment and counts (4 rows, 4 ok)" grep -Eq '^ *1  .*  small +4 +4 +0 +0 +0 +0$' "$tmp/list"

# Read back byte for byte.
for spec in "$db" "$db@latest" "$db@1" "$db@-0"; do
  "$rb" report "$spec" -o "$tmp/back.json" 2>"$tmp/err"
  ok "report ${spec#$tmp/} -o back.json: byte for byte RUN.json" cmp "$tmp/run.json" "$tmp/back.json"
done
"$rb" report "$tmp/run.json" >"$tmp/table.json.txt"
"$rb" report "$db@latest" >"$tmp/table.db.txt"
ok "... and its table is the JSON file's" cmp "$tmp/table.json.txt" "$tmp/table.db.txt"

"$rb" history add "$db" "$tmp/run.json" >"$tmp/out"
is "$?" 0 "history add H.db RUN.json"
is "$(cat "$tmp/out")" "$db: run 2 added from $tmp/run.json (4 rows)" "... says which run it added"
"$rb" report "$db@2" -o "$tmp/back2.json"
ok "... and it reads back as the file" cmp "$tmp/run.json" "$tmp/back2.json"
"$rb" compare "$db@-1" "$db@latest" >"$tmp/cmp" 2>"$tmp/err"
ok "compare H.db@-1 H.db@latest judges the two runs" grep -q '4 configurations in both files' "$tmp/cmp"
"$rb" dispatch "$db" -o "$tmp/map.h" 2>"$tmp/err"
ok "dispatch H.db writes the crossover header" grep -q 'rb_dispatch_find' "$tmp/map.h"
"$rb" plot "$db@1" -o "$tmp/plots" >/dev/null 2>"$tmp/err"
ok "plot H.db@1 draws the report" test -s "$tmp/plots/report.html"
"$rb" report "$db@7" >/dev/null 2>"$tmp/err"
is "$?" 2 "H.db@7, no such run: exit 2"
ok "... saying which runs there are" grep -q "no run of id 7" "$tmp/err"
"$rb" report "$db@-2" >/dev/null 2>"$tmp/err"
ok "H.db@-2 of 2 runs: an error naming the valid range" grep -q "@-0 to @-1" "$tmp/err"
"$rb" report "$db@yesterday" >/dev/null 2>"$tmp/err"
ok "H.db@yesterday: an error saying what is valid" grep -q "valid after '@': latest, -N" "$tmp/err"

# Filters.
count() { "$rb" history "$db" "$@" --format json | "$JQ" '.runs | length'; }
is "$(count --experiment 'sm*')" 2 "--experiment 'sm*': both runs"
is "$(count --experiment other)" 0 "--experiment other: none"
is "$(count --plugin unrolled)" 2 "--plugin unrolled: both"
is "$(count --plugin nope)" 0 "--plugin nope: none"
is "$(count --device CPU)" 2 "--device CPU (any case): both"
is "$(count --since 2000-01-01 --until 2999-12-31)" 2 "--since and --until around them: both"
is "$(count --until 2000-01-01)" 0 "--until 2000-01-01: none"
if have_sqlite3; then
  is "$(sqlite3 "$db" "SELECT count(*) FROM rows JOIN runs ON runs.id = rows.run_id WHERE rows.status = 'ok' AND runs.experiment = 'small'")" 8 \
    "sqlite3: the rows are there to query (8 ok)"
else
  skip "sqlite3 not installed"
fi

# 8 processes appending to one new history at once.
con=$tmp/con.db
pids=()
for k in 1 2 3 4 5 6 7 8; do
  "$rb" history add "$con" "$tmp/run.json" "$tmp/run.json" "$tmp/run.json" >"$tmp/con.$k" 2>&1 &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
is "$failed" 0 "8 processes adding 3 runs each to one new history at once: all succeed"
is "$("$rb" history "$con" --format json | "$JQ" -c '[.runs | length, (map(.id) | unique | length), (map(.rows) | add)]')" "[24,24,96]" \
  "... 24 runs, 24 ids, 96 rows: nothing lost"
if have_sqlite3; then
  is "$(sqlite3 "$con" 'PRAGMA integrity_check')" ok "... and the database is whole (integrity_check)"
else
  skip "sqlite3 not installed"
fi

# README's "A history of runs": its commands, as pasted (the run made
# small with -D; the files in $tmp), and its sqlite3 query.
readme=$top_srcdir/README.md
section() { awk '/^## A history of runs/ { on = 1; next } /^## / { on = 0 } on' "$readme"; }
mapfile -t commands < <(section | sed -n 's/^    redbench //p' | sed 's/ *#.*//')
is "${#commands[@]}" 4 "README shows the four commands of a CI job"
small=(-D n=1K -D warmup=1 -D min_time=0.01 -D max_reps=20 -D min_reps=5 -D rounds=1)
for command in "${commands[@]}"; do
  command=${command//conf\//$top_srcdir/conf/}
  command=${command//results.db/$tmp/readme.db}
  command=${command//trend.html/$tmp/trend.html}
  command=${command//report.html/$tmp/report.html}
  extra=(); case $command in -c*) extra=(-q "${small[@]}");; esac
  eval "set -- $command"
  "$rb" "$@" "${extra[@]}" >"$tmp/out" 2>"$tmp/err"
  is "$?" 0 "README: redbench ${command//$tmp\//}"
done
ok "... its report of the newest run has the trends" grep -q '^<h2 id="trends">Trends</h2>$' "$tmp/report.html"
query=$(section | sed -n '/^    sqlite3 /,/^$/p' | sed 's/^    //' | tr '\n' ' ')
query=${query//results.db/$tmp/readme.db}
if have_sqlite3; then
  eval "$query" >"$tmp/query" 2>"$tmp/err"
  ok "README's sqlite3 query gives cpu-serial's medians" test -s "$tmp/query"
else
  skip "sqlite3 not installed"
fi

# A run killed mid-way, or interrupted, leaves the history as it was.
if [ -d "$dir" ]; then
  export SLOW_SUM_MARK=$tmp/started
  cat >"$tmp/slow.ini" <<'INI'
[experiment]
warmup = 0
min_time = 1
max_reps = 60
[data]
dtype = i32
[run slow]
plugin = slow-sum
n = 1K, 2K, 4K
INI
  before=$(digest "$db")
  start_slow --plugin-path "$dir" -c "$tmp/slow.ini" -o "$db"
  kill -KILL "$pid"; wait "$pid"; st=$?
  is "$st" 137 "a run appending to H.db, killed mid-way (SIGKILL)"
  is "$(digest "$db")" "$before" "... leaves the history as it was"
  ok "... and no journal behind" test ! -e "$db-journal"
  start_slow --plugin-path "$dir" -c "$tmp/slow.ini" -o "$db" -o "$tmp/int.json"
  kill -INT "$pid"; wait "$pid"; st=$?
  is "$st" 130 "a run interrupted (SIGINT)"
  is "$(digest "$db")" "$before" "... adds nothing to the history"
  ok "... and says so" grep -q "the interrupted run is not added to the history" "$tmp/stderr"
  ok "... while its JSON output holds what finished" "$JQ" -e .results "$tmp/int.json"
else
  for k in 1 2 3 4 5 6 7; do skip "test plugins not built"; done
fi
done_testing
