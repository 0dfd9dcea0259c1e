#!/bin/bash
# tests/base/test_output.sh: the files redbench writes (src/base/safe_file.c). A
# regular file is replaced whole through a temporary that follows no link
# (a link planted where the temporary used to be is left alone, and the file
# it points to untouched); a link to a regular file updates that file and
# stays a link; the mode of a replaced file is kept. A device, a pipe or a
# link to one is written in place and never replaced; a write error
# (/dev/full) is an error naming the path. A missing folder, a directory or
# a folder without write permission is found before anything runs (exit 2).
# Standard output that cannot be written is an error too. Devices are only
# reached through links inside the test's own folder, so that a failing
# run (as root) replaces a link, never a device.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 43

printf '[experiment]\nwarmup = 0\nmin_time = 0\nmin_reps = 1\nmax_reps = 2\n[data]\nn = 1K\n[run a]\nplugin = serial\n' >"$tmp/x.ini"
# a run that takes 5 s at least: found quick means nothing ran
printf '[experiment]\nwarmup = 0\nmin_time = 5\nmin_reps = 1\nmax_reps = 1000000000\n[data]\nn = 1K\n[run slow]\nplugin = serial\n' >"$tmp/slow.ini"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# A regular file: written whole, its mode kept, no temporary left behind.
"$rb" -q -c "$tmp/x.ini" -o "$tmp/r.json" >/dev/null 2>"$tmp/err"; is "$?" 0 "-o a new file: exit 0"
ok "... it holds the results" grep -q '"results"' "$tmp/r.json"
printf 'old\n' >"$tmp/kept.csv"; chmod 640 "$tmp/kept.csv"
"$rb" -q -c "$tmp/x.ini" -o "$tmp/kept.csv" >/dev/null 2>"$tmp/err"; is "$?" 0 "-o an existing file: exit 0"
is "$(stat -c %a "$tmp/kept.csv")" 640 "... its mode (640) is kept"
ok "... it is replaced by the results" grep -q '^run,plugin,' "$tmp/kept.csv"
is "$(ls -A "$tmp" | grep -c 'tmp\|redbench-')" 0 "... no temporary file is left in the folder"

# A link where the old temporary name was: never followed.
mkdir "$tmp/shared" "$tmp/elsewhere"
printf 'precious\n' >"$tmp/elsewhere/victim"
( ln -s "$tmp/elsewhere/victim" "$tmp/shared/out.json.tmp.$BASHPID"
  exec "$rb" -q -c "$tmp/x.ini" -o "$tmp/shared/out.json" ) >/dev/null 2>"$tmp/err"
is "$?" 0 "-o with a link planted in the folder: exit 0"
is "$(cat "$tmp/elsewhere/victim")" precious "... the file the planted link points to is untouched"
ok "... the results are in place" grep -q '"results"' "$tmp/shared/out.json"
ok "... and the planted link is left as it was" test -L "$(ls -d "$tmp"/shared/out.json.tmp.* | head -n 1)"

# A link to a regular file: the file is updated, the link stays.
printf 'old\n' >"$tmp/elsewhere/real.json"
ln -s "$tmp/elsewhere/real.json" "$tmp/link.json"
"$rb" -q -c "$tmp/x.ini" -o "$tmp/link.json" >/dev/null 2>"$tmp/err"; is "$?" 0 "-o a link to a regular file: exit 0"
ok "... the link is still a link" test -L "$tmp/link.json"
ok "... and the file it points to holds the results" grep -q '"results"' "$tmp/elsewhere/real.json"

# Devices and pipes: written in place, never replaced.
ln -s /dev/null "$tmp/null"
"$rb" -q -c "$tmp/x.ini" -o "$tmp/null" --format json >/dev/null 2>"$tmp/err"; is "$?" 0 "-o a link to /dev/null: exit 0"
ok "... the link still points to /dev/null" test "$(readlink "$tmp/null")" = /dev/null
ok "... which is still a character device" test -c /dev/null
ln -s /dev/full "$tmp/full"
"$rb" -q -c "$tmp/x.ini" -o "$tmp/full" --format json >/dev/null 2>"$tmp/err"; r=$?
ok "-o a link to /dev/full: a non-zero exit ($r)" test "$r" -ne 0
ok "... with an error naming the path and the reason" grep -q "error: cannot write $tmp/full: No space left on device" "$tmp/err"
ok "... the link still points to /dev/full" test -L "$tmp/full"
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
timeout 20 "$rb" -q -c "$tmp/x.ini" -o "$tmp/fifo" --format csv >/dev/null 2>"$tmp/err"; is "$?" 0 "-o a named pipe: exit 0"
wait "$reader"; is "$?" 0 "... its reader gets an end of file"
ok "... and the results" grep -q '^a,serial,' "$tmp/from-fifo"
ok "... the pipe is still a pipe" test -p "$tmp/fifo"

# Output paths are checked before anything runs.
t0=$(now_ms)
"$rb" -q -c "$tmp/slow.ini" -o "$tmp/missing/r.json" >/dev/null 2>"$tmp/err"; r=$?; t1=$(now_ms)
is "$r" 2 "-o in a missing folder: exit 2"
ok "... naming the path and the folder" grep -q "error: cannot write $tmp/missing/r.json: the folder $tmp/missing does not exist; nothing was run" "$tmp/err"
ok "... before anything ran ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 3000
t0=$(now_ms)
"$rb" -q -c "$tmp/slow.ini" -o "$tmp/shared" >/dev/null 2>"$tmp/err"; r=$?; t1=$(now_ms)
is "$r" 2 "-o a directory: exit 2"
ok "... naming it, before anything ran ($((t1 - t0)) ms)" \
  bash -c "grep -q 'cannot write $tmp/shared: it is a directory' '$tmp/err' && test $((t1 - t0)) -lt 3000"
sed "s|^min_time = .*|&\noutput = $tmp/missing/from-file.json|" "$tmp/slow.ini" >"$tmp/slow-out.ini"
"$rb" -q -c "$tmp/slow-out.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "output = a missing folder (in the experiment file): exit 2"
"$rb" --dry-run -c "$tmp/x.ini" -o "$tmp/missing/r.json" >/dev/null 2>"$tmp/err"; is "$?" 2 "--dry-run checks -o too: exit 2"
if [ "$(id -u)" = 0 ]; then
  skip "a folder without write permission: root may write anywhere"
  skip "a folder without write permission: root may write anywhere"
else
  mkdir "$tmp/locked"; chmod 555 "$tmp/locked"
  "$rb" -q -c "$tmp/slow.ini" -o "$tmp/locked/r.json" >/dev/null 2>"$tmp/err"; is "$?" 2 "-o in a folder without write permission: exit 2"
  ok "... naming the folder" grep -q "no permission to write in the folder $tmp/locked" "$tmp/err"
fi

# Standard output.
"$rb" -q -c "$tmp/x.ini" >/dev/full 2>"$tmp/err"; is "$?" 1 "results to a full standard output: exit 1"
ok "... with an error saying so" grep -q "error: cannot write the results to standard output: No space left on device" "$tmp/err"
"$rb" --list >/dev/full 2>"$tmp/err"; is "$?" 1 "--list to a full standard output: exit 1"
ok "... with an error saying so" grep -q "error: cannot write standard output" "$tmp/err"

# redbench tune: both outputs checked before the search, both written safely.
printf '[experiment]\nwarmup = 0\nmin_time = 0\nmin_reps = 1\nmax_reps = 2\n[data]\nn = 1K\n[run a]\nplugin = unrolled\nlanes = 1, 2\n' >"$tmp/tune.ini"
"$rb" tune -q -c "$tmp/tune.ini" -o "$tmp/missing/t.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "tune -o in a missing folder: exit 2"
ok "... naming it, and nothing was run" grep -q "cannot write $tmp/missing/t.ini: the folder $tmp/missing does not exist; nothing was run" "$tmp/err"
"$rb" tune -q -c "$tmp/tune.ini" -o "$tmp/t.ini" --map "$tmp/shared" >"$tmp/out" 2>"$tmp/err"; is "$?" 2 "tune --map a directory: exit 2"
ok "... and nothing was tried" test ! -s "$tmp/out"
"$rb" tune -q -c "$tmp/tune.ini" -o "$tmp/t.ini" --map "$tmp/full" >/dev/null 2>"$tmp/err"; r=$?
ok "tune --map to a link to /dev/full: a non-zero exit ($r), naming it" \
  bash -c "test $r -ne 0 && grep -q 'cannot write $tmp/full: No space left on device' '$tmp/err'"
"$rb" tune -q -c "$tmp/tune.ini" -o "$tmp/null" --map "$tmp/t.json" >/dev/null 2>"$tmp/err"; is "$?" 0 "tune -o a link to /dev/null: exit 0"
ok "... the link is kept and the map written" bash -c "test -L '$tmp/null' && grep -q winners '$tmp/t.json'"
done_testing
