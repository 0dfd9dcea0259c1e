#!/bin/bash
# tests/history/test_history_migrate.sh: a history of schema version 1,
# made by hand as that version wrote it (make-v1-history, sqlite3's C API),
# read and upgraded. Read, it is read as it is (nothing of versions 2 and
# 3 is needed to read it), its runs byte for byte the files they came
# from, and left as it was, a read-only copy too. Written (history add,
# -o), it is upgraded to version 3 in one transaction: user_version,
# schema_version and the upgrade's date, the index of version 2, the
# columns of version 3 (NULL for the rows from before, filled for the run
# added), the runs read back the same. An upgrade that cannot be made (a table of the index's name is in
# the way) is refused naming the file and both versions, before a run
# runs anything, and leaves the file byte for byte as it was. Four
# processes adding to one version-1 history at once upgrade it once and
# lose no run.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
v1=$top_builddir/tests/history/make-v1-history
[ -x "$v1" ] || skip_all "make-v1-history not built"
plan 34
digest() { sha256sum "$1" | cut -d' ' -f1; }
q() { "$v1" --query "$@"; }

experiment_header small >"$tmp/small.ini"
printf '[data]\nop = sum\ndtype = f32\nn = 1K, 4K\n[run serial]\nplugin = serial\n' >>"$tmp/small.ini"
for k in 1 2 3; do
  "$rb" -q -c "$tmp/small.ini" -o "$tmp/run$k.json" >/dev/null 2>&1 || bail "run $k failed"
done

db=$tmp/v1.db
"$v1" "$db" "$tmp/run1.json" "$tmp/run2.json"
is "$?" 0 "a version-1 history of 2 runs is made by hand"
is "$(q "$db" 'PRAGMA user_version'):$(q "$db" "SELECT value FROM redbench_history WHERE key = 'schema_version'")" "1:1" \
  "... user_version 1, schema_version 1"

# Read: as it is, nothing changed.
cp "$db" "$tmp/ro.db"; chmod 444 "$tmp/ro.db"
before=$(digest "$tmp/ro.db")
"$rb" history "$tmp/ro.db" >"$tmp/list" 2>"$tmp/err"
is "$?" 0 "history of a read-only version-1 history"
is "$(head -n 1 "$tmp/list")" "$tmp/ro.db: 2 runs" "... lists its 2 runs"
"$rb" report "$tmp/ro.db@1" -o "$tmp/back1.json" 2>"$tmp/err"
ok "... its run 1 reads back byte for byte" cmp "$tmp/run1.json" "$tmp/back1.json"
"$rb" report "$tmp/ro.db@latest" -o "$tmp/back2.json" 2>"$tmp/err"
ok "... its newest, run 2, too" cmp "$tmp/run2.json" "$tmp/back2.json"
is "$(digest "$tmp/ro.db")" "$before" "... and the file is as it was"
before=$(digest "$db")
"$rb" history "$db" >/dev/null 2>&1
"$rb" history trend "$db" --format json >"$tmp/trend.json" 2>"$tmp/err"
is "$?" 0 "history trend of a writable version-1 history"
is "$(grep -c '"config": "serial | serial | .* sum f32 n=[14][0-9]* uniform' "$tmp/trend.json")" 2 \
  "... follows its 2 configurations"
"$rb" history check "$db" >/dev/null 2>&1
"$rb" compare "$db@-1" "$db" >/dev/null 2>&1
is "$(digest "$db")" "$before" "... reading it (history, trend, check, compare) changes nothing"
is "$(q "$db" 'PRAGMA user_version')" 1 "... it is still version 1"

# Written: upgraded in one transaction.
"$rb" history add "$db" "$tmp/run3.json" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "history add to a version-1 history"
is "$(q "$db" 'PRAGMA user_version')" 3 "... upgrades it: user_version 3"
is "$(q "$db" "SELECT value FROM redbench_history WHERE key = 'schema_version'")" 3 "... schema_version 3"
ok "... the upgrade's date and the version it came from" \
  grep -Eq '^20[0-9-]+T[0-9:]+Z from version 1$' <(q "$db" "SELECT value FROM redbench_history WHERE key = 'upgraded'")
is "$(q "$db" "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'runs_by_revision'")" runs_by_revision \
  "... version 2's index of the runs by revision"
is "$(q "$db" 'SELECT count(*) FROM runs'):$(q "$db" 'SELECT count(*) FROM rows')" "3:6" "... 3 runs of 2 rows each"
is "$(q "$db" "SELECT count(*) FROM rows WHERE run_id < 3 AND deterministic IS NULL AND repro IS NULL")" 4 \
  "... version 3's columns: NULL for the 4 rows from before the upgrade"
is "$(q "$db" "SELECT group_concat(coalesce(deterministic, '-') || ' ' || coalesce(repro, '-'), ',') FROM rows WHERE run_id = 3")" \
  "$("$JQ" -r '[.results[] | "\(if .deterministic == null then "-" elif .deterministic then 1 else 0 end) \(.repro // "-")"] | join(",")' "$tmp/run3.json")" \
  "... and the run added after it: each row's determinism and level, as its file has them"
for k in 1 2 3; do
  "$rb" report "$db@$k" -o "$tmp/up$k.json" 2>"$tmp/err"
  ok "... run $k reads back byte for byte" cmp "$tmp/run$k.json" "$tmp/up$k.json"
done
is "$(q "$db" 'PRAGMA integrity_check')" ok "... in a database that is whole"
"$rb" history trend "$db" --by revision --format json >"$tmp/trend.json" 2>"$tmp/err"
is "$?" 0 "history trend --by revision of the upgraded history"

"$v1" "$tmp/run.db" "$tmp/run1.json"
"$rb" -q -c "$tmp/small.ini" -o "$tmp/run.db" >/dev/null 2>"$tmp/err"
is "$?:$(q "$tmp/run.db" 'PRAGMA user_version'):$(q "$tmp/run.db" 'SELECT count(*) FROM runs')" "0:3:2" \
  "a run with -o a version-1 history upgrades it and appends (2 runs)"

# An upgrade that cannot be made: refused, nothing changed.
"$v1" --sql 'CREATE TABLE runs_by_revision (x)' "$tmp/stuck.db" "$tmp/run1.json"
before=$(digest "$tmp/stuck.db")
"$rb" history add "$tmp/stuck.db" "$tmp/run2.json" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "history add to a version-1 history that cannot be upgraded: exit 2"
ok "... an error naming the file and both versions" \
  grep -Fq "$tmp/stuck.db: cannot upgrade the history from schema version 1 to 3: " "$tmp/err"
ok "... saying nothing was changed" grep -q "nothing was changed" "$tmp/err"
is "$(digest "$tmp/stuck.db")" "$before" "... and the file is byte for byte as it was"
"$rb" -q -c "$tmp/small.ini" -o "$tmp/stuck.db" -o "$tmp/not-made.json" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "a run with -o such a history: exit 2"
ok "... before it runs anything" bash -c "grep -q 'nothing was run' '$tmp/err' && test ! -e '$tmp/not-made.json'"
is "$(digest "$tmp/stuck.db")" "$before" "... and the file is as it was"

# Four processes at once.
"$v1" "$tmp/busy.db" "$tmp/run1.json"
pids=
for k in 1 2 3 4; do
  "$rb" history add "$tmp/busy.db" "$tmp/run2.json" >"$tmp/busy.$k" 2>&1 & pids="$pids $!"
done
failed=0
for p in $pids; do wait "$p" || failed=$((failed + 1)); done
is "$failed" 0 "4 processes adding to one version-1 history at once all succeed"
is "$(q "$tmp/busy.db" 'PRAGMA user_version'):$(q "$tmp/busy.db" 'SELECT count(*) FROM runs')" "3:5" \
  "... it is upgraded once and holds every run (5)"
done_testing
