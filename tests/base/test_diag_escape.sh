#!/bin/sh
# tests/base/test_diag_escape.sh: an experiment file's words reach the terminal
# escaped: a run name or a value with an escape sequence in an error
# message shows as \x1b, never as the byte itself; so does a file name; and
# a run name with a Unicode direction control (U+202E, which shows the text
# after it right to left) shows it as \xe2\x80\xae.
. "$top_srcdir/tests/lib.sh"
plan 6

esc=$(printf '\033')
printf '[run a%s[31mred]\nplugin = cpu/serial\n' "$esc" >"$tmp/name.ini"
"$rb" -c "$tmp/name.ini" >"$tmp/name.out" 2>"$tmp/name.err"
is "$?" 2 "a run name with an escape sequence is an error"
ok "the message shows it as \\x1b" grep -q 'a\\x1b\[31mred' "$tmp/name.err"
ok "... and the byte itself never reaches the terminal" sh -c "! grep -q '$esc' '$tmp/name.err'"
printf '[experiment]\nwarmup = 1%s]0;title%s\\\n' "$esc" "$esc" >"$tmp/value.ini"
"$rb" -c "$tmp/value.ini" >"$tmp/value.out" 2>"$tmp/value.err"
ok "a value with an escape sequence is quoted escaped" sh -c "! grep -q '$esc' '$tmp/value.err' && grep -q 'x1b' '$tmp/value.err'"
printf '[run a\342\200\256der]\nplugin = cpu/serial\n' >"$tmp/bidi.ini"
"$rb" -c "$tmp/bidi.ini" >"$tmp/bidi.out" 2>"$tmp/bidi.err"
is "$?" 2 "a run name with U+202E (right-to-left override) is an error"
ok "the message shows it as \\xe2\\x80\\xae, never the character itself" \
  sh -c "grep -qF 'a\\xe2\\x80\\xaeder' '$tmp/bidi.err' && ! grep -qF \"\$(printf '\\342\\200\\256')\" '$tmp/bidi.err'"
