#!/bin/bash
# tests/report/test_report_hostile.sh: `redbench report` of a results file
# written by a stranger. CSV cells that a spreadsheet would run as
# formulas start with a quote inside their quotes, numbers stay numbers;
# Markdown shows strangers' links, images, raw HTML and autolinks as text,
# and the experiment text's control characters (ESC, BEL, 8-bit CSI, DEL)
# as escapes inside a fence that its backticks cannot close; no report for
# a terminal holds a raw control byte, nor a Unicode direction control
# (U+202E shows "gnp.exe" as "exe.png": each one as escapes in the table,
# the Markdown and the CSV); a row that measured 1 of 3 rounds
# before an interruption is marked in every report; a timing nobody asked
# for is not called asked; Ctrl-C (SIGINT, SIGTERM) during a large report
# leaves no temporary file behind.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 31

# a real run's results, then a stranger's words in them
{ experiment_header hostile
  printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run a]\nplugin = serial\n[run b]\nplugin = serial\n'; } >"$tmp/run.ini"
"$rb" -q -c "$tmp/run.ini" -o "$tmp/run.json" >/dev/null 2>&1
is "$?" 0 "a run of two rows for the results to edit"
"$JQ" '.results[0].run = "=HYPERLINK(\"http://evil/\",\"x\")" |
       .results[0].params_text = "evil\u202egnp.exe \u2066x\u2069 \u200e\u200f\u061c\u202a\u202b\u202c\u202d \u2067\u2068" |
       .results[1].run = "@SUM(1+1)" |
       .results[1].params_text = "-2+3 [x](http://evil/) ![i](http://evil/i.png) <img src=x onerror=alert(1)> <http://evil/> www.evil.com \u001b[2J\u0007" |
       .devices[0].name = "dev\u001b]0;owned\u0007 <b>x</b>" |
       .experiment.text = "[experiment]\nname = x\u001b[31m\u0007\u009b2J\u007f\n; ``````` a run of backticks\n```\n</details>\n"' \
  "$tmp/run.json" >"$tmp/hostile.json"
"$rb" report "$tmp/hostile.json" -o "$tmp/h.csv" -o "$tmp/h.md" -o "$tmp/h.txt" -o "$tmp/h.html" 2>"$tmp/err"
is "$?" 0 "the stranger's results are reported"

# CSV
ok "csv: a run name that is a formula starts with a quote, inside its quotes" \
  grep -qF '"'"'"'=HYPERLINK(""http://evil/"",""x"")"' "$tmp/h.csv"
ok "csv: an @ formula too" grep -qF '"'"'"'@SUM(1+1)"' "$tmp/h.csv"
ok "csv: a - formula in the params too" grep -qF '"'"'"'-2+3 [x]' "$tmp/h.csv"
ok "csv: no cell starts with = + - @ unquoted" bash -c "! tail -n +2 '$tmp/h.csv' | tr ',' '\n' | grep -qE '^[-=+@]'"
median=$("$JQ" -r '.results[0].median_ns' "$tmp/hostile.json")
ok "csv: numbers are written as numbers ($median)" grep -qE "^\"'=HYPERLINK[^,]*,[^,]*,serial,.*,$median," "$tmp/h.csv"
ok "csv: no raw control byte" bash -c "! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$tmp/h.csv'"

# the direction controls in UTF-8: U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, U+061C
bidi='\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c'
ok "csv: no raw direction control, shown as escapes" \
  bash -c "! LC_ALL=C grep -qP '$bidi' '$tmp/h.csv' && grep -qF 'evil\xe2\x80\xaegnp.exe' '$tmp/h.csv'"

# Markdown
ok "md: a stranger's link is text" bash -c "grep -qF '\\[x\\](http\\://evil/)' '$tmp/h.md' && ! grep -qF '[x](http' '$tmp/h.md'"
ok "md: an image is text" bash -c "grep -qF '\\!\\[i\\]' '$tmp/h.md' && ! grep -qF '![i]' '$tmp/h.md'"
ok "md: raw HTML is text" bash -c "grep -qF '\\<img src=x onerror=alert(1)>' '$tmp/h.md' && ! grep -qP '(?<!\\\\)<img' '$tmp/h.md'"
ok "md: an <autolink> is text" bash -c "! grep -qF '<http://evil' '$tmp/h.md'"
ok "md: a bare www. autolink is broken" grep -qF 'www\.evil.com' "$tmp/h.md"
ok "md: a device name's HTML is text" bash -c "grep -qF '\\<b>x\\</b>' '$tmp/h.md'"
ok "md: no raw control byte anywhere (ESC, BEL, CSI, DEL)" \
  bash -c "! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]|\\x9b|\\xc2[\\x80-\\x9f]' '$tmp/h.md'"
ok "md: no raw direction control, each shown as escapes (their backslashes escaped)" \
  bash -c "! LC_ALL=C grep -qP '$bidi' '$tmp/h.md' &&
    grep -qF 'evil\\\\xe2\\\\x80\\\\xaegnp.exe \\\\xe2\\\\x81\\\\xa6x\\\\xe2\\\\x81\\\\xa9 \\\\xe2\\\\x80\\\\x8e' '$tmp/h.md'"
ok "md: the experiment text's controls shown as escapes in its fence" \
  grep -qF 'name = x\x1b[31m\x07\xc2\x9b2J\x7f' "$tmp/h.md"
fence=$(grep -m1 -oE '^`{3,}ini$' "$tmp/h.md" | tr -d 'ini')
is "${#fence}" 8 "md: the fence is longer than the text's longest run of backticks (7)"
ok "md: ... and closes after the text, before </details>" \
  bash -c "awk -v f='$fence' '\$0 == f { closed = NR } END { exit !closed }' '$tmp/h.md' &&
           test \"\$(grep -c '^</details>\$' '$tmp/h.md')\" = 2"

# the terminal
"$rb" report "$tmp/hostile.json" >"$tmp/stdout.txt" 2>&1
ok "table: no raw control byte on the terminal" \
  bash -c "! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$tmp/stdout.txt' '$tmp/h.txt'"
ok "table: no raw direction control on the terminal, shown as escapes" \
  bash -c "! LC_ALL=C grep -qP '$bidi' '$tmp/stdout.txt' '$tmp/h.txt' &&
    grep -qF 'evil\xe2\x80\xaegnp.exe' '$tmp/stdout.txt'"
"$rb" report $'no\x1b[2Jsuch.json' $'second\x07.json' >/dev/null 2>"$tmp/usage"
ok "report's usage error shows typed names escaped" \
  bash -c "grep -qF 'no\\x1b[2Jsuch.json' '$tmp/usage' && ! grep -qP '\\x1b|\\x07' '$tmp/usage'"

# a row that measured 1 of 3 rounds
{ experiment_header rounds | sed 's/^rounds = 1$/rounds = 3/'
  printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run a]\nplugin = serial\n'; } >"$tmp/rounds.ini"
"$rb" -q -c "$tmp/rounds.ini" -o "$tmp/rounds.json" >/dev/null 2>&1
"$JQ" '(.results[0].rounds[0].reps) as $r | .results[0].rounds |= .[0:1] |
       .results[0].samples_ns |= .[0:$r] | .results[0].reps = $r |
       .experiment.settings.rounds_run = 2 | .experiment.settings.round_order |= .[0:2]' \
  "$tmp/rounds.json" >"$tmp/short.json"
"$rb" report "$tmp/short.json" -o "$tmp/s.txt" -o "$tmp/s.md" -o "$tmp/s.html" -o "$tmp/s.csv" 2>"$tmp/err"
is "$?" 0 "results whose row measured 1 of 3 rounds are reported"
ok "... the table says 1 of 3 rounds" grep -q '1 of 3 rounds' "$tmp/s.txt"
ok "... the Markdown too" grep -q '1 of 3 rounds (interrupted)' "$tmp/s.md"
ok "... the HTML by its status and repetitions" \
  bash -c "grep -qF 'ok (1 of 3 rounds)' '$tmp/s.html' && grep -qF '1 of 3 rounds (interrupted)' '$tmp/s.html'"
ok "... the CSV's rounds columns, before repro: 1 round measured of 3" bash -c "tail -n 1 '$tmp/s.csv' | grep -qE ',1,3,[a-z-]*\$'"
"$rb" report "$tmp/rounds.json" -o "$tmp/full.html" 2>/dev/null
ok "the HTML's repetitions of 3 rounds say each round's" \
  grep -qE 'repetitions \(all rounds\): [0-9]+ in 3 rounds \([0-9]+, [0-9]+, [0-9]+ a round\)' "$tmp/full.html"

# Ctrl-C (SIGINT) and SIGTERM while a large report is written. A shell
# starts a background job with SIGINT ignored; python puts it back.
bash "$top_srcdir/tests/report/gen_results.sh" 40000 10 >"$tmp/large.json"
interrupt() { # interrupt SIGNAL: the report stopped by SIGNAL once its temporary is there
  rm -rf "$tmp/out"; mkdir "$tmp/out"
  if command -v python3 >/dev/null; then
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
      "$rb" report "$tmp/large.json" -o "$tmp/out/large.csv" 2>/dev/null &
  else
    "$rb" report "$tmp/large.json" -o "$tmp/out/large.csv" 2>/dev/null &
  fi
  local pid=$! k
  for k in $(seq 6000); do
    ls -A "$tmp/out" | grep -q '^\.redbench-' && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  if ! ls -A "$tmp/out" | grep -q '^\.redbench-'; then
    wait "$pid"
    skip "the report ended before its temporary was seen"
    return
  fi
  kill -"$1" "$pid"; wait "$pid"; local status=$?
  ok "$1 while the report is written: no temporary left, no file made (status $status)" \
    test -z "$(ls -A "$tmp/out")" -a "$status" -gt 128
}
interrupt TERM
if command -v python3 >/dev/null; then interrupt INT; else skip "python3 not found"; fi
done_testing
