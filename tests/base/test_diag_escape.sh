#!/bin/sh
# tests/base/test_diag_escape.sh: an experiment file's words reach the terminal
# escaped: a run name or a value with an escape sequence in an error
# message shows as \x1b, never as the byte itself; so does a file name.
. "$top_srcdir/tests/lib.sh"
plan 4

esc=$(printf '\033')
printf '[run a%s[31mred]\nplugin = cpu/serial\n' "$esc" >"$tmp/name.ini"
"$rb" -c "$tmp/name.ini" >"$tmp/name.out" 2>"$tmp/name.err"
is "$?" 2 "a run name with an escape sequence is an error"
ok "the message shows it as \\x1b" grep -q 'a\\x1b\[31mred' "$tmp/name.err"
ok "... and the byte itself never reaches the terminal" sh -c "! grep -q '$esc' '$tmp/name.err'"
printf '[experiment]\nwarmup = 1%s]0;title%s\\\n' "$esc" "$esc" >"$tmp/value.ini"
"$rb" -c "$tmp/value.ini" >"$tmp/value.out" 2>"$tmp/value.err"
ok "a value with an escape sequence is quoted escaped" sh -c "! grep -q '$esc' '$tmp/value.err' && grep -q 'x1b' '$tmp/value.err'"
