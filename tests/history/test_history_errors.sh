#!/bin/bash
# tests/history/test_history_errors.sh: histories that cannot be used get a
# clear error naming the file, exit 2, and are left as they were: a
# malformed one (an SQLite header over garbage; a history cut short), a
# file that is no database, another program's database, a history of a
# newer schema, a read-only one (to add; reading it works) and one locked
# by another process; on a full disk (a small tmpfs, where one can be
# mounted) a run that cannot be added loses no earlier run. A run given such a history as -o runs nothing;
# standard output cannot take the sqlite format; a missing history is not
# made by reading it.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
gen=$top_builddir/tests/history/make-history
[ -x "$gen" ] || skip_all "make-history not built"
command -v sqlite3 >/dev/null || skip_all "sqlite3 not installed"
plan 41
digest() { sha256sum "$1" | cut -d' ' -f1; }

experiment_header small >"$tmp/small.ini"
printf '[data]\nop = sum\ndtype = f32\nn = 1K\n[run serial]\nplugin = serial\n' >>"$tmp/small.ini"
"$rb" -q -c "$tmp/small.ini" -o "$tmp/run.json" >/dev/null 2>&1 || bail "the small run failed"
"$gen" "$tmp/good.db" 3 2 || bail "make-history failed"

# refused WHAT DB WORDS COMMAND...: COMMAND exits 2 with an error naming DB
# and holding WORDS, and DB is as it was (3 tests).
refused() {
  local what=$1 db=$2 words=$3; shift 3
  local before; before=$(digest "$db")
  "$@" >"$tmp/out" 2>"$tmp/err"
  is "$?" 2 "$what: exit 2"
  ok "... an error naming the file: $words" grep -Fq "$db: $words" "$tmp/err"
  is "$(digest "$db")" "$before" "... the file is as it was"
}

printf 'SQLite format 3\0' >"$tmp/bad.db"; head -c 8192 /dev/urandom >>"$tmp/bad.db"
refused "history add to a malformed database" "$tmp/bad.db" "not a valid SQLite database" \
  "$rb" history add "$tmp/bad.db" "$tmp/run.json"
head -c 3000 "$tmp/good.db" >"$tmp/cut.db"
refused "history of a history cut short" "$tmp/cut.db" "not a valid SQLite database" \
  "$rb" history "$tmp/cut.db"
refused "history of a JSON file" "$tmp/run.json" "not a redbench history: not an SQLite database" \
  "$rb" history "$tmp/run.json"

sqlite3 "$tmp/foreign.db" "CREATE TABLE photos (id INTEGER, name TEXT); INSERT INTO photos VALUES (1, 'a');"
refused "history add to another program's database" "$tmp/foreign.db" "not a redbench history: an SQLite database of another program" \
  "$rb" history add "$tmp/foreign.db" "$tmp/run.json"
refused "a run with -o another program's database" "$tmp/foreign.db" "not a redbench history" \
  "$rb" -q -c "$tmp/small.ini" -o "$tmp/foreign.db"
ok "... which ran nothing" grep -q "nothing was run" "$tmp/err"

cp "$tmp/good.db" "$tmp/newer.db"
sqlite3 "$tmp/newer.db" "PRAGMA user_version = 99"
refused "history add to a newer schema" "$tmp/newer.db" "a history of schema version 99, newer than this redbench's (3)" \
  "$rb" history add "$tmp/newer.db" "$tmp/run.json"
refused "report of a newer schema's run" "$tmp/newer.db" "a history of schema version 99" \
  "$rb" report "$tmp/newer.db@latest"

cp "$tmp/good.db" "$tmp/ro.db"; chmod 444 "$tmp/ro.db"
refused "history add to a read-only history" "$tmp/ro.db" "cannot add to the history: the file is read-only" \
  "$rb" history add "$tmp/ro.db" "$tmp/run.json"
"$rb" history "$tmp/ro.db" >"$tmp/out" 2>&1
is "$?" 0 "... reading it works"

# A history locked by another process (an open exclusive transaction).
cp "$tmp/good.db" "$tmp/locked.db"
rm -f "$tmp/locked"
{ echo "BEGIN EXCLUSIVE;"; echo "INSERT INTO redbench_history VALUES ('lock', 'held');"
  echo ".shell touch '$tmp/locked'"
  for _ in $(seq 600); do [ -e "$tmp/release" ] && break; sleep 0.05; done
  echo "ROLLBACK;"; } 2>/dev/null | sqlite3 "$tmp/locked.db" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 600); do [ -e "$tmp/locked" ] && break; sleep 0.05; done
REDBENCH_HISTORY_WAIT=0.2 "$rb" history add "$tmp/locked.db" "$tmp/run.json" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "history add to a locked history: exit 2 after the wait"
ok "... an error naming the file: locked by another process" grep -Fq "$tmp/locked.db: the history is locked by another process" "$tmp/err"
touch "$tmp/release"; wait "$holder"
is "$("$rb" history "$tmp/locked.db" --format json | "$JQ" '.runs | length')" 3 "... and once the lock is gone, it holds its 3 runs"

"$rb" -q -c "$tmp/small.ini" --format sqlite >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "--format sqlite to standard output: exit 2"
ok "... saying a history is a database file, nothing run" grep -q "give -o FILE.db; nothing was run" "$tmp/err"

"$rb" history "$tmp/missing.db" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "history of a missing file: exit 2"
ok "... no such history" grep -Fq "$tmp/missing.db: no such history" "$tmp/err"
ok "... and it is not made" test ! -e "$tmp/missing.db"
"$rb" history add "$tmp/new.db" "$tmp/small.ini" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "history add of a file that is not results: exit 2"
ok "... and no history is made" test ! -e "$tmp/new.db"
"$rb" report "$tmp/run.json@latest" >"$tmp/out" 2>"$tmp/err"
ok "RUN.json@latest: the file is not a history, so it names no run" grep -Fq "$tmp/run.json: not a history" "$tmp/err"
# A full disk: the run that does not fit is not added, and every earlier
# run is still there, whole.
mkdir -p "$tmp/small-disk"
if mount -t tmpfs -o size=512k tmpfs "$tmp/small-disk" 2>/dev/null; then
  trap 'umount "$tmp/small-disk" 2>/dev/null; rm -rf "$tmp"' EXIT
  "$gen" "$tmp/small-disk/h.db" 3 2 || bail "make-history failed"
  "$rb" history "$tmp/small-disk/h.db" >"$tmp/before" 2>&1
  dd if=/dev/zero of="$tmp/small-disk/fill" bs=4k 2>/dev/null
  "$rb" history add "$tmp/small-disk/h.db" "$tmp/run.json" >"$tmp/out" 2>"$tmp/err"
  status=$?
  ok "a full disk: history add fails (exit $status)" test "$status" -ne 0
  ok "... naming the history" grep -Fq "$tmp/small-disk/h.db" "$tmp/err"
  rm -f "$tmp/small-disk/fill"
  "$rb" history "$tmp/small-disk/h.db" >"$tmp/after" 2>&1
  ok "... and every earlier run is listed as before" cmp -s "$tmp/before" "$tmp/after"
  is "$(sqlite3 "$tmp/small-disk/h.db" 'PRAGMA integrity_check')" "ok" "... in a database that is whole"
else
  for k in 1 2 3 4; do skip "cannot mount a small tmpfs here"; done
fi
done_testing
