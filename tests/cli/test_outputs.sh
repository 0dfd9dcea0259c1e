#!/bin/bash
# tests/cli/test_outputs.sh: what a run writes never destroys what it reads
# (-o or `output =` naming the experiment file, through a link or a hard
# link, a plugin the run loads, or another -o of the same file: refused
# before anything runs, naming both); the exit status of a run that
# measured nothing (3) and --require-ok (1 unless every row is ok); -q
# changes standard error only; names printed by --dry-run made printable;
# an experiment file given without -c is shown -c.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 34

{ experiment_header outputs; printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run a]\nplugin = serial\n'; } >"$tmp/e.ini"
cp "$tmp/e.ini" "$tmp/e.orig"
ln -s e.ini "$tmp/link.ini"
ln "$tmp/e.ini" "$tmp/hard.ini"
unchanged() { cmp -s "$tmp/e.ini" "$tmp/e.orig"; }

"$rb" -q -c "$tmp/e.ini" -o "$tmp/e.ini" >/dev/null 2>"$tmp/err"
is "$?" 2 "-o naming the experiment file: exit 2"
ok "... naming both, before anything ran" \
  grep -q "^redbench: error: -o $tmp/e.ini is the experiment file $tmp/e.ini: the results would replace it; nothing was run" "$tmp/err"
ok "... the experiment file unchanged" unchanged
"$rb" -q -c "$tmp/e.ini" -o "$tmp/./e.ini" >/dev/null 2>&1
is "$?" 2 "-o naming it by another path: exit 2"
"$rb" -q -c "$tmp/e.ini" -o "$tmp/link.ini" >/dev/null 2>"$tmp/err"
is "$?" 2 "-o naming a link to it: exit 2"
ok "... naming the link and the file" grep -q -- "-o $tmp/link.ini is the experiment file $tmp/e.ini" "$tmp/err"
"$rb" -q -c "$tmp/link.ini" -o "$tmp/hard.ini" >/dev/null 2>&1
is "$?" 2 "-c through a link, -o a hard link of the same file: exit 2"
ok "... the experiment file unchanged" unchanged
"$rb" -q -c "$tmp/e.ini" -o "$tmp/r.json" -o "$tmp/e.ini" >/dev/null 2>&1
is "$?" 2 "the experiment file as the second of two -o: exit 2"
ok "... and nothing written" test ! -e "$tmp/r.json"

# output = in the file itself, at the line that set it
{ experiment_header self "output=$tmp/self.ini" format=json
  printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run a]\nplugin = serial\n'; } >"$tmp/self.ini"
cp "$tmp/self.ini" "$tmp/self.orig"
"$rb" -q -c "$tmp/self.ini" >/dev/null 2>"$tmp/err"
is "$?" 2 "output = naming its own experiment file: exit 2"
ok "... at the line that set it" \
  grep -q "^$tmp/self.ini:8: error: output = $tmp/self.ini is the experiment file $tmp/self.ini" "$tmp/err"
ok "... the file unchanged" cmp -s "$tmp/self.ini" "$tmp/self.orig"

# two names of one output
"$rb" -q -c "$tmp/e.ini" -o "$tmp/r.json" -o "$tmp/./r.json" >/dev/null 2>"$tmp/err"
is "$?" 2 "two -o naming one new file: exit 2"
ok "... naming both" grep -q -- "-o $tmp/r.json and -o $tmp/./r.json are the same file" "$tmp/err"
echo '{}' >"$tmp/old.json"; ln -s old.json "$tmp/old-link.json"
"$rb" -q -c "$tmp/e.ini" -o "$tmp/old.json" -o "$tmp/old-link.json" >/dev/null 2>&1
is "$?" 2 "two -o naming one file through a link: exit 2"
"$rb" -q -c "$tmp/e.ini" -o "$tmp/r.json" -o "$tmp/old-link.csv" >/dev/null 2>&1
is "$?" 0 "two files of the same name but their extension are not the same: exit 0"

# a plugin the run loads
mkdir "$tmp/plugins"; cp "$top_builddir/tests/plugins/dir/tiny-sum.so" "$tmp/plugins/"
cp "$tmp/plugins/tiny-sum.so" "$tmp/tiny.orig"
sed 's/plugin = serial/plugin = tiny-sum/' "$tmp/e.ini" >"$tmp/tiny.ini"
"$rb" -q -p "$tmp/plugins" -c "$tmp/tiny.ini" -o "$tmp/plugins/tiny-sum.so" --format json >/dev/null 2>"$tmp/err"
is "$?" 2 "-o naming the plugin the run loads: exit 2"
ok "... naming it, the plugin unchanged" bash -c "grep -q 'is the plugin file $tmp/plugins/tiny-sum.so' '$tmp/err' && cmp -s '$tmp/plugins/tiny-sum.so' '$tmp/tiny.orig'"

# A run that measures nothing exits 3; --require-ok wants every row ok.
sed 's/op = sum/op = argmax/; s/plugin = serial/plugin = kahan/' "$tmp/e.ini" >"$tmp/unsupported.ini"
"$rb" -q -c "$tmp/unsupported.ini" -o "$tmp/u.json" >/dev/null 2>&1
is "$?" 3 "every row unsupported: exit 3 (nothing was measured)"
is "$(statuses "$tmp/u.json")" unsupported "... its row unsupported, the results written"
{ experiment_header absent; printf '[data]\nn = 1K\n[run gone]\nplugin = no-such-strategy\noptional = true\n'; } >"$tmp/absent.ini"
"$rb" -q -c "$tmp/absent.ini" >/dev/null 2>&1
is "$?" 3 "every row skipped: exit 3"
"$rb" -q -c "$fixtures/skips.ini" >/dev/null 2>&1
is "$?" 0 "ok rows beside skipped and unsupported ones: exit 0"
"$rb" -q --require-ok -c "$fixtures/skips.ini" >/dev/null 2>&1
is "$?" 1 "... with --require-ok: exit 1"
"$rb" -q --require-ok -c "$tmp/e.ini" >/dev/null 2>&1
is "$?" 0 "--require-ok with every row ok: exit 0"
ok "--help names --require-ok and exit status 3" \
  bash -c "'$rb' --help | tr -s ' \\n' ' ' | grep -q -- '--require-ok .*3 nothing was measured'"

# -q hides progress only: the table still reaches standard output with -o
"$rb" -q -c "$tmp/e.ini" -o "$tmp/q.json" >"$tmp/q.out" 2>"$tmp/q.err"
is "$?" 0 "-q -o FILE.json: exit 0"
ok "... the table on standard output" grep -qE '^1 +a +serial ' "$tmp/q.out"
is "$(wc -c <"$tmp/q.err")" 0 "... nothing on standard error"
"$rb" -q -c "$tmp/e.ini" -o "$tmp/q1.json" -o "$tmp/q2.csv" >"$tmp/q.out" 2>/dev/null
ok "... and with two -o" grep -qE '^1 +a +serial ' "$tmp/q.out"

# --dry-run prints names made printable: no control byte reaches the terminal
bad=$tmp/$'x\e[31my.ini'
{ experiment_header dry; printf '[data]\nn = 1K\n[run a]\nplugin = serial\n[run b]\nplugin = no\asuch\noptional = true\n'; } >"$bad"
"$rb" --dry-run -c "$bad" >"$tmp/dry" 2>&1
ok "--dry-run shows the file's ESC as \\x1b" grep -qF 'x\x1b[31my.ini: 2 configurations' "$tmp/dry"
ok "... and the plugin's BEL as \\x07, no control byte printed" \
  bash -c "grep -qF 'no\\x07such' '$tmp/dry' && ! LC_ALL=C grep -q '[[:cntrl:]]' '$tmp/dry'"

# an experiment file given without -c
"$rb" conf/default.ini >/dev/null 2>"$tmp/err"
is "$?" 2 "an experiment file without -c: exit 2"
ok "... suggesting -c" grep -q 'unexpected argument: conf/default.ini; an experiment file is given with -c: redbench -c conf/default.ini' "$tmp/err"
done_testing
