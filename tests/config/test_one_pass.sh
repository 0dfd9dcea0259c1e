#!/bin/bash
# tests/config/test_one_pass.sh: an experiment file's errors come in one
# pass: its misspelt keys of every section and its misspelt plugin
# parameters together, sorted by line, then the closing "redbench: FILE has
# errors; nothing was run" (the file's name made printable). A -D parameter
# no run's plugin has lists each plugin's parameters once; an [experiment]
# key in a [run] section is said to belong in [experiment].
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 16

# Three misspelt keys: one in [experiment], one in [data], one a plugin
# parameter of a run; and an unknown plugin value found by the expansion
# (line 9) before a key error of the reading (line 12).
cat >"$tmp/three.ini" <<'INI'
[experiment]
min_tme = 0.1

[data]
dtyp = f32
n = 1K

[run fast]
plugin = unrolled
lanse = 8

[run slow]
plugin = serial
acc = nativ
INI
sed -i 's/^plugin = serial$/plugin = serial\nbogus_key_here/' "$tmp/three.ini"
"$rb" -q -c "$tmp/three.ini" >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "exit status 2"
ok "line 2: min_tme in [experiment]" grep -q "^$tmp/three.ini:2: error: unknown key 'min_tme' in \[experiment\]" "$tmp/err"
ok "line 5: dtyp in [data]" grep -q "^$tmp/three.ini:5: error: unknown key 'dtyp' in \[data\]" "$tmp/err"
ok "line 10: lanse, the plugin's, in the same pass" grep -q "^$tmp/three.ini:10: error: plugin 'unrolled' has no parameter 'lanse'" "$tmp/err"
ok "line 15: acc's bad value, in the same pass" grep -q "^$tmp/three.ini:15: error: .*nativ" "$tmp/err"
is "$(grep -o "^$tmp/three.ini:[0-9]*:" "$tmp/err" | cut -d: -f2 | tr '\n' ' ')" \
   "$(grep -o "^$tmp/three.ini:[0-9]*:" "$tmp/err" | cut -d: -f2 | sort -n | tr '\n' ' ')" \
   "the errors come sorted by line"
is "$(tail -n 1 "$tmp/err")" "redbench: $tmp/three.ini has errors; nothing was run" \
   "the closing line comes last"

# A structural error of the file alone (no run section) has the closing too.
printf '[experiment]\nwarmup = 1\n' >"$tmp/norun.ini"
"$rb" -q -c "$tmp/norun.ini" >"$tmp/out" 2>"$tmp/err"
is "$(tail -n 1 "$tmp/err")" "redbench: $tmp/norun.ini has errors; nothing was run" \
   "a file with no run section: the closing line"

# The closing line names the file printably.
odd=$tmp/$'odd\e[31m.ini'
printf '[experiment]\nwarmup = x\n[run a]\nplugin = serial\n' >"$odd"
"$rb" -q -c "$odd" >"$tmp/out" 2>"$tmp/err"
is "$(tail -n 1 "$tmp/err")" "redbench: $tmp/odd\\x1b[31m.ini has errors; nothing was run" \
   "the closing line shows an escape in the file's name as \\x1b"
is "$(grep -c $'\e' "$tmp/err")" 0 "... and no escape reaches the terminal"

# -D of a parameter no run's plugin has: each plugin's parameters once,
# though two runs share a plugin.
printf '[data]\nn = 1K\n[run a]\nplugin = threads\n[run b]\nplugin = threads\n[run c]\nplugin = serial\n' >"$tmp/shared.ini"
"$rb" -q -c "$tmp/shared.ini" -D lanse=8 >"$tmp/out" 2>"$tmp/err"
is "$?" 2 "-D lanse=8: exit status 2"
is "$(grep -o 'threads: [a-z, ]*' "$tmp/err" | wc -l)" 1 "-D lanse=8: threads's parameters are listed once"

# A -r that matches no run does not hide the options' errors.
"$rb" -q -c "$tmp/shared.ini" -r nosuch -D n=5Q >"$tmp/out" 2>"$tmp/err"
ok "-r nosuch: said" grep -q "^redbench: error: -r nosuch matches no run" "$tmp/err"
ok "... and -D n=5Q's error in the same pass" grep -q "^-D n=5Q: error: n = 5Q" "$tmp/err"

# An [experiment] key in a [run] section.
printf '[data]\nn = 1K\n[run a]\nplugin = serial\nmin_time = 0.1\n' >"$tmp/misplaced.ini"
"$rb" -q -c "$tmp/misplaced.ini" >"$tmp/out" 2>"$tmp/err"
ok "min_time in [run a]: said to be an [experiment] key" \
  grep -q "^$tmp/misplaced.ini:5: error: 'min_time' is an \[experiment\] key.*move it to the \[experiment\] section" "$tmp/err"
ok "... not an unknown plugin parameter" bash -c "! grep -q 'has no parameter' '$tmp/err'"
done_testing
