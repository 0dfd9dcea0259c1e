#!/bin/bash
# tests/report/test_labels.sh: every report says how the rows were timed as
# the run's own table does. The cpu backend times launches whatever the
# experiment asks for: with `timing = device`, the table, the Markdown and
# the HTML (also when made again from the JSON by `redbench report`) say
# launch, and the Markdown and HTML say what the experiment asked for.
# An experiment that sets no timing (as conf/default.ini) asked for none:
# neither report says it asked for device, the default.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 11
{ experiment_header labels timing=device
  printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run a]\nplugin = serial\n'; } >"$tmp/asked.ini"
"$rb" -q -c "$tmp/asked.ini" -o "$tmp/r.json" -o "$tmp/r.md" -o "$tmp/r.html" -o "$tmp/r.txt" >/dev/null 2>&1
is "$?" 0 "a run asking for device timing on the cpu pack exits 0"
is "$("$JQ" -r '[.results[].timing]|unique|join(",")' "$tmp/r.json")" launch "... its rows were timed by launch"
ok "the table says timing: launch" grep -qx 'timing: launch' "$tmp/r.txt"
ok "the Markdown says launch, and what was asked" grep -qx -- '- timing: launch (the experiment asked for device)' "$tmp/r.md"
ok "the HTML says the rows were timed with launch" grep -q 'rows timed with</th><td>launch<' "$tmp/r.html"
"$rb" report "$tmp/r.json" -o "$tmp/again.md" >/dev/null 2>&1
ok "... and so does the Markdown made again from the JSON" grep -qx -- '- timing: launch (the experiment asked for device)' "$tmp/again.md"
sed 's/^timing = device$/timing = launch/' "$tmp/asked.ini" >"$tmp/launch.ini"
"$rb" -q -c "$tmp/launch.ini" -o "$tmp/l.md" >/dev/null 2>&1
ok "asked for launch, the Markdown says timing: launch alone" grep -qx -- '- timing: launch' "$tmp/l.md"
ok "the HTML's settings say device was asked and launch was used" \
  grep -qF '<tr><th>timing</th><td>device asked (the rows were timed with launch)</td></tr>' "$tmp/r.html"
grep -v '^timing = ' "$tmp/asked.ini" >"$tmp/none.ini"
"$rb" -q -c "$tmp/none.ini" -o "$tmp/n.md" -o "$tmp/n.html" >/dev/null 2>&1
ok "no timing set: the Markdown says timing: launch alone" grep -qx -- '- timing: launch' "$tmp/n.md"
ok "... and the HTML's settings name no timing nobody asked for" \
  bash -c "grep -q 'rows timed with</th><td>launch<' '$tmp/n.html' && ! grep -q '<th>timing</th>' '$tmp/n.html'"
"$rb" -q -c "$tmp/none.ini" -D timing=device -o "$tmp/d.md" >/dev/null 2>&1
ok "-D timing=device is asking: the Markdown says so" grep -qx -- '- timing: launch (the experiment asked for device)' "$tmp/d.md"
done_testing
