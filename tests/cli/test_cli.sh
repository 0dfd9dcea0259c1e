#!/bin/bash
# tests/cli/test_cli.sh: the command line: help, version, list, describe,
# dry-run, formats and the exit statuses 0 and 2; experiment files read up
# to 16 MiB (-c /dev/zero is refused, naming it).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 37

ok "--help exits 0" "$rb" --help
ok "--help shows the usage" bash -c "'$rb' --help | grep -q 'redbench -c FILE'"
ok "--version names the ABI" bash -c "'$rb' --version | grep -qE '^redbench [0-9.]+ \\(plugin ABI 1\\.[0-9]+\\)'"
"$rb" --no-such-option >/dev/null 2>"$tmp/err"; is "$?" 2 "an unknown option exits 2"
ok "an unknown option is named" grep -q -- '--no-such-option' "$tmp/err"
"$rb" >/dev/null 2>&1; is "$?" 2 "no command exits 2"
"$rb" -c >/dev/null 2>&1; is "$?" 2 "-c without a value exits 2"
"$rb" -c "$tmp/none.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "a missing experiment file exits 2"
ok "a missing experiment file is named" grep -q "$tmp/none.ini" "$tmp/err"
# bounded: an unbounded read fails under 2 GB rather than taking the machine's memory
# (left to plain builds: sanitizers reserve terabytes of address space)
bounded() { if sanitized; then "$@"; else (ulimit -v 2000000; "$@"); fi; }
bounded "$rb" -c /dev/zero >/dev/null 2>"$tmp/err"; is "$?" 2 "-c /dev/zero exits 2"
ok "... naming it and the 16 MiB bound" grep -q "^/dev/zero: error: the experiment file is larger than 16 MiB" "$tmp/err"
bounded "$rb" tune -c /dev/zero -o "$tmp/t.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "tune -c /dev/zero exits 2"
ok "... naming it and the 16 MiB bound" grep -q "^/dev/zero: error: the experiment file is larger than 16 MiB" "$tmp/err"

"$rb" --list >"$tmp/list" 2>&1; is "$?" 0 "--list exits 0"
for p in serial unrolled threads kahan; do
  ok "--list shows the cpu plugin $p" grep -qE "^  $p +cpu +cpu " "$tmp/list"
done
ok "--describe serial lists its parameters" bash -c "'$rb' --describe serial | grep -qE '^  acc +choice'"
"$rb" --describe no-such-plugin >/dev/null 2>"$tmp/err"; is "$?" 2 "--describe of an unknown plugin exits 2"
ok "... and lists the plugins there are" grep -q 'available:.*serial' "$tmp/err"

"$rb" --dry-run -c "$fixtures/small.ini" >"$tmp/dry" 2>&1; is "$?" 0 "--dry-run exits 0"
is "$(grep -cE '^ +[0-9]+  (plain|fast) ' "$tmp/dry")" 8 "--dry-run prints the 8 configurations"
"$rb" -c "$fixtures/unknown-param.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "an unknown parameter exits 2"
ok "... naming the file and line 3" grep -q 'unknown-param.ini:3:' "$tmp/err"
"$rb" -c "$fixtures/unknown-plugin.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "an unknown plugin exits 2"
ok "... naming the line and the plugins there are" grep -qE 'unknown-plugin.ini:5:.*serial' "$tmp/err"
"$rb" -c "$fixtures/small.ini" --format xml >/dev/null 2>&1; is "$?" 2 "an unknown format exits 2"

# warmup = 0 is allowed, with a warning naming where it was set
printf '[experiment]\nmin_time = 0\nmax_reps = 2\nwarmup = 0\n[data]\nn = 1K\n[run a]\nplugin = serial\n' >"$tmp/w0.ini"
"$rb" -q -c "$tmp/w0.ini" >/dev/null 2>"$tmp/err"; is "$?" 0 "warmup = 0 runs"
ok "... with a warning naming the file and line 4" grep -q 'warning: .*w0.ini:4: warmup = 0: the first timed call' "$tmp/err"
sed '/warmup/d' "$tmp/w0.ini" >"$tmp/w1.ini"
"$rb" -q -c "$tmp/w1.ini" -D warmup=0 >/dev/null 2>"$tmp/err"; is "$?" 0 "-D warmup=0 runs"
ok "... with a warning naming the option" grep -q 'warning: -D warmup=0: warmup = 0' "$tmp/err"

# output = naming a missing folder: refused before the run, naming the file
# and the line that set it (or the option)
printf '[experiment]\nmin_time = 0\noutput = %s/no-such-folder/r.json\n[data]\nn = 1K\n[run a]\nplugin = serial\n' "$tmp" >"$tmp/out.ini"
"$rb" -q -c "$tmp/out.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "output = in a missing folder exits 2"
ok "... naming the file and line 3" grep -q "^$tmp/out.ini:3: error: output = $tmp/no-such-folder/r.json: .*does not exist; nothing was run" "$tmp/err"
"$rb" -q -c "$tmp/w1.ini" -D output="$tmp/nowhere/r.json" >/dev/null 2>"$tmp/err"
ok "... or the option that set it" grep -q "^-D output=$tmp/nowhere/r.json: error: output = " "$tmp/err"
# A usage error quotes the command line; a control byte in it is shown, never sent.
"$rb" report x --format "$(printf 'x\033]0;owned\007')" 2>"$tmp/usage.err"
is "$?" 2 "a usage error quoting an escape sequence: exit 2"
ok "... shows the escape as \\x1b, and no ESC or BEL reaches the terminal" \
  bash -c "grep -q 'x1b]0;owned' '$tmp/usage.err' && ! LC_ALL=C grep -q \$'[\\x1b\\x07]' '$tmp/usage.err'"
done_testing
