#!/bin/bash
# tests/report/test_results_untrusted.sh: results files are untrusted input to
# `redbench plot` and `redbench compare`. Hostile names (backquotes, $(...),
# quotes, line breaks, system(...), macros) run nothing in gnuplot and stay
# out of the scripts' commands, the winner maps' of shaped rows too (their
# strategies, the baseline); non-finite numbers refuse the file, absurd ones are left out
# with a warning; runs named a/b and a_b draw two heat maps; devices, huge
# files and other tools' JSON are refused naming the file; terminal escapes
# (ESC, DEL, 0x9b) and Unicode's direction controls (U+202E, which shows
# "gnp.exe" as "exe.png", U+2066, U+200F) from a file reach no terminal,
# HTML, CSV or Markdown raw.
# A history whose revisions, runs and plugins are markup: the trends of its
# run's HTML report, and its trend page, are well-formed and inert
# (html_check.py; each figure's SVG well-formed XML), the names escaped.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 56

gnuplot=$(command -v gnuplot || true)
m=$tmp/marker
# row RUN PARAMS N MEDIAN GBS [EXTRA]: one ok row
row() { printf '{"run": %s, "plugin": "serial", "params": %s, "params_text": "", "op": "sum", "dtype": "f32", "n": %s, "status": "ok", "reason": "", "device": 0, "median_ns": %s, "bandwidth_gbs": %s, "samples_ns": [%s, %s]%s}' \
  "$1" "$2" "$3" "$4" "$5" "$4" "$4" "${6:-}"; }
# results FILE ROWS...: a results file with those rows
results() { local f=$1; shift; local sep=""
  { printf '{"tool": "redbench", "version": "0.1.0", "host": {"name": "h"},\n "devices": [{"backend": "cpu", "device": 0, "name": "cpu", "peak_gbs": 100}],\n "results": ['
    for r in "$@"; do printf '%s\n  %s' "$sep" "$r"; sep=","; done; printf '\n]}\n'; } >"$f"; }

# ---- hostile names in every text plot draws ----
evil=(
  "\"\`touch $m.bq\`\""
  "\"\$(touch $m.dollar)\""
  "\"q'\\\" \`touch $m.quote\` '\""
  "\"line\\n\`touch $m.nl\`\\nset output '$m.out'\""
  "\"x\\\" . system('touch $m.system') . \\\"\""
  "\"@evil \`touch $m.macro\`\""
)
rows=()
for k in "${!evil[@]}"; do
  for b in 1 2; do for v in 1 2; do
    rows+=("$(row "${evil[$k]}" "{\"b\": $b, \"v\": \"\`touch $m.param\` $v\"}" $((1024 << k)) $((100 + k + b)) $((4 + v)))")
  done; done
done
results "$tmp/evil.json" "${rows[@]}"
if [ -n "$gnuplot" ]; then
  printf 'evil = "`touch %s.macrovar`"\n' "$m" >"$tmp/ignored"
  "$rb" plot "$tmp/evil.json" -o "$tmp/evil" --baseline "${evil[0]//\"/}" >"$tmp/out" 2>"$tmp/err"
  is "$?" 0 "plot draws a file whose names are shell and gnuplot commands"
  is "$(ls "$tmp" | grep '^marker' | tr '\n' ' ')" "" "... and runs none of them (no marker file)"
  ok "... heat maps drawn for the hostile runs" test "$(ls "$tmp/evil"/heatmap-*.gp | wc -l)" -ge 6
  # Outside data blocks and single-quoted strings (a quote inside a name is
  # written as the string "'" between them) no command text is left.
  # shellcheck disable=SC2016
  awk '/<< EOD$/ { data = 1; next } data && /^EOD$/ { data = 0; next } data { next }
       /^#/ { next }
       { line = $0; gsub(/"'"'"'"/, "", line)
         gsub(/'"'"'([^'"'"']|'"'"''"'"')*'"'"'/, "", line)
         if (line ~ /touch|system|`|\$\(/) { print FILENAME ": " $0; bad = 1 } }
       END { exit bad }' "$tmp/evil"/*.gp >"$tmp/exposed"
  ok "... the .gp scripts hold the names only as data or single-quoted strings" test ! -s "$tmp/exposed"
  ok "... every name is there, quoted" grep -qF "title '\`touch $m.bq\` b=1 v=" "$tmp/evil/bandwidth.gp"
  ok "... a line break in a name does not end a command" bash -c "! grep -q '^set output' '$tmp/evil/bandwidth.gp'"
  (cd "$tmp/evil" && for f in *.gp; do gnuplot -e "set terminal svg; set output '/dev/null'" "$f" || exit 1; done) >/dev/null 2>&1
  is "$?" 0 "each kept script redraws"
  is "$(ls "$tmp" | grep -c '^marker')" 0 "... and redrawing runs nothing either"
else
  for k in $(seq 1 8); do skip "gnuplot not found"; done
fi

# ---- hostile names in the winner maps of shaped rows ----
# srow PLUGIN PARAMS ROWS N MEDIAN: one ok row of ROWS x N along rows
srow() { printf '{"run": "r", "plugin": %s, "pack": "p", "params": %s, "params_text": "", "op": "sum", "dtype": "f32", "n": %s, "rows": %s, "axis": "row", "lengths": "fixed", "status": "ok", "reason": "", "device": 0, "median_ns": %s, "bandwidth_gbs": 1, "samples_ns": [%s, %s]}' \
  "$1" "$2" "$4" "$3" "$5" "$5" "$5"; }
if [ -n "$gnuplot" ] && [ -n "${JQ:-}" ]; then
  # the baseline: markup, quotes, a backslash, a line break, ESC, DEL, a backquote
  bname=$(printf '<b>&amp; " \\ '"'"'\n\033\177 `touch %s.wbase`' "$m")
  bjson=$("$JQ" -n --arg s "$bname" '$s')
  srows=()
  for n in 1024 2048; do for rows in 8 64; do
    srows+=("$(srow "$bjson" '{}' $rows $n 300)")
    srows+=("$(srow "\"x' . system('touch $m.wsys') . '\"" "{\"v\": \"\$(touch $m.wparam) $n\"}" $rows $n $((100 + rows)))")
  done; done
  results "$tmp/wevil.json" "${srows[@]}"
  "$rb" plot "$tmp/wevil.json" -o "$tmp/wevil" --baseline "p/$bname" >"$tmp/out" 2>"$tmp/err"
  ok "winner maps: plot draws strategies and a baseline named as commands, running none" \
    bash -c "grep -q \"title 'x' . \\\"'\\\" . ' . system(\" '$tmp/wevil/winners-sum-f32-row-fixed.gp' && ! ls '$tmp' | grep -q '^marker'"
  # shellcheck disable=SC2016
  awk '/<< EOD$/ { data = 1; next } data && /^EOD$/ { data = 0; next } data { next }
       /^#/ { next }
       { line = $0; gsub(/"'"'"'"/, "", line)
         gsub(/'"'"'([^'"'"']|'"'"''"'"')*'"'"'/, "", line)
         if (line ~ /touch|system|`|\$\(/) { print FILENAME ": " $0; bad = 1 } }
       END { exit bad }' "$tmp/wevil"/winners-*.gp >"$tmp/exposed"
  ok "... its script holds them only as data or single-quoted strings" test ! -s "$tmp/exposed"
  (cd "$tmp/wevil" && gnuplot -e "set terminal svg; set output '/dev/null'" winners-sum-f32-row-fixed.gp) >/dev/null 2>&1
  redrawn=$?
  ok "... which redraws, running nothing" bash -c "[ $redrawn -eq 0 ] && ! ls '$tmp' | grep -q '^marker'"
  env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/wevil.json" -o "$tmp/wown" --baseline "p/$bname" >/dev/null 2>&1
  if command -v xmllint >/dev/null; then
    ok "... the SVG of both drawers well-formed" \
      xmllint --noout "$tmp/wevil/winners-sum-f32-row-fixed.svg" "$tmp/wown/winners-sum-f32-row-fixed.svg"
  else
    skip "xmllint not found"
  fi
  ok "... the names escaped in the SVG (subtitle, tooltips), no control byte" \
    bash -c "grep -q 'speedup over p/&lt;b&gt;&amp;amp; &quot;' '$tmp/wown/winners-sum-f32-row-fixed.svg' &&
             ! LC_ALL=C grep -qP '[\x01-\x08\x0b-\x1f\x7f]' '$tmp/wown/winners-sum-f32-row-fixed.svg'"
else
  for k in $(seq 1 5); do skip "gnuplot or jq not found"; done
fi

# ---- numbers that cannot be drawn ----
# A time or peak that is infinite (too large for a double), or an n past
# what an experiment allows, is not what a run writes: the file is refused.
results "$tmp/inf.json" \
  "$(row '"good"' '{}' 1024 100 10)" "$(row '"good"' '{}' 2048 150 13)" \
  "$(row '"inf-time"' '{}' 1024 1e999 10)"
sed -i 's/"samples_ns": \[1e999, 1e999\]/"samples_ns": [100, 100]/' "$tmp/inf.json"
"$rb" plot "$tmp/inf.json" -o "$tmp/inf" >/dev/null 2>"$tmp/err"
is "$?" 2 "plot refuses an infinite median (exit 2)"
ok "... naming the row, its line and what is valid" grep -q "inf.json:6: error: results\[2\]: \"median_ns\": is too large for a double; valid: nanoseconds" "$tmp/err"
results "$tmp/inf.json" "$(row '"good"' '{}' 1024 100 10)"
sed -i 's/"peak_gbs": 100/"peak_gbs": 1e999/' "$tmp/inf.json"
"$rb" plot "$tmp/inf.json" -o "$tmp/inf" >/dev/null 2>"$tmp/err"
ok "... and an infinite peak" grep -q 'inf.json:2: error: devices\[0\]: "peak_gbs": is too large for a double' "$tmp/err"
# Finite but absurd numbers are read, and plot leaves their rows out.
results "$tmp/absurd.json" \
  "$(row '"good"' '{}' 1024 100 10)" "$(row '"good"' '{}' 2048 150 13)" \
  "$(row '"huge-bw"' '{}' 4096 100 1e308)" "$(row '"tiny-time"' '{}' 4096 1e-300 10)"
if [ -n "$gnuplot" ]; then
  "$rb" plot "$tmp/absurd.json" -o "$tmp/absurd" >/dev/null 2>"$tmp/err"
  is "$?" 0 "plot draws the rows it can among absurd numbers"
  ok "... saying 2 rows were left out, naming the first" grep -q "absurd.json: 2 ok rows left out .*results\[2\]" "$tmp/err"
  ok "... no infinite or absurd number in a script" bash -c "! cat '$tmp'/absurd/*.gp | grep -v '^#' | grep -qiE '(^|[^a-z])[-+]?inf([^a-z]|$)|e\+(30[0-9]|400)'"
  ok "... nor in a drawing" bash -c "! grep -qiE '[ \">(,][-+]?(inf|nan)([^a-z]|$)|e\+(30[0-9]|400)' '$tmp'/absurd/*.svg"
  ok "... nor in the report's cells" bash -c "! grep -qiE '>[-+]?(inf|nan)( s)?<' '$tmp/absurd/report.html'"
else
  for k in $(seq 1 5); do skip "gnuplot not found"; done
fi

# An n that is not a whole number of elements is not a results row.
results "$tmp/badn.json" "$(row '"good"' '{}' 1024 100 10)" "$(row '"bad-n"' '{}' 1e400 100 10)"
"$rb" report "$tmp/badn.json" --format csv >/dev/null 2>"$tmp/err"
is "$?" 2 "n = 1e400: the file is refused (exit 2)"
ok "... naming the file, the row, its line and what n must be" grep -q "badn.json:5: error: results\[1\]: \"n\": is 1e400; valid: a whole number" "$tmp/err"

# ---- heat-map names ----
results "$tmp/names.json" \
  "$(row '"a/b"' '{"x": 1, "y": 1}' 1024 100 1)" "$(row '"a/b"' '{"x": 2, "y": 2}' 1024 100 2)" \
  "$(row '"a_b"' '{"x": 1, "y": 1}' 1024 100 3)" "$(row '"a_b"' '{"x": 2, "y": 2}' 1024 100 4)"
if [ -n "$gnuplot" ]; then
  "$rb" plot "$tmp/names.json" -o "$tmp/names" >/dev/null 2>&1
  is "$(ls "$tmp/names"/heatmap-*.svg | wc -l)" 2 "runs a/b and a_b: two heat-map files"
  ok "... one for each run" bash -c "grep -l 'a/b: bandwidth' '$tmp'/names/heatmap-*.gp && grep -l 'a_b: bandwidth' '$tmp'/names/heatmap-*.gp"
else
  for k in 1 2; do skip "gnuplot not found"; done
fi

# ---- what is not a results file ----
for cmd in compare plot; do
  args=("$tmp/names.json"); [ $cmd = compare ] && args=(/dev/zero "$tmp/names.json")
  [ $cmd = plot ] && args=(/dev/zero)
  timeout 20 "$rb" $cmd "${args[@]}" >/dev/null 2>"$tmp/err"
  is "$?" 2 "$cmd /dev/zero: exit 2 at once"
  ok "... naming it and saying why" grep -q "^/dev/zero: error: .*character device" "$tmp/err"
done
truncate -s 1100M "$tmp/huge.json"
timeout 20 "$rb" compare "$tmp/names.json" "$tmp/huge.json" >/dev/null 2>"$tmp/err"
is "$?" 2 "a results file over 1 GiB: exit 2"
ok "... naming the file and the limit" grep -q "huge.json: error: larger than 1 GiB" "$tmp/err"
rm -f "$tmp/huge.json"
mkfifo "$tmp/fifo"
timeout 20 "$rb" compare "$tmp/names.json" "$tmp/fifo" >/dev/null 2>"$tmp/err"
is "$?" 2 "a named pipe no one writes to: exit 2, not waited for"
"$rb" compare --format json "$tmp/names.json" "$tmp/names.json" >"$tmp/cmp.json" 2>/dev/null
"$rb" compare "$tmp/cmp.json" "$tmp/names.json" >/dev/null 2>"$tmp/err"
is "$?" 2 "compare's own output is not a results file: exit 2"
ok "... naming it and saying what was expected" grep -q "cmp.json:1: error: not a redbench results file: expected .*\"tool\": \"redbench\".*its tool is \"redbench compare\"" "$tmp/err"
sed 's/"tool": "redbench", //' "$tmp/names.json" >"$tmp/notool.json"
"$rb" plot "$tmp/notool.json" -o "$tmp/x" >/dev/null 2>"$tmp/err"
is "$?" 2 "plot: JSON without the redbench marker: exit 2"
ok "... saying so" grep -q "notool.json:1: error: not a redbench results file.*no \"tool\"" "$tmp/err"

# ---- terminal escapes ----
esc='"run\u001b[31mred\u007f\u009b2J\u202egnp.exe\u2066"'
raw=$(printf '"raw\x7f\x9b"')
results "$tmp/esc-old.json" "$(row "$esc" '{"k": "v\u001b]0;t\u0007"}' 1024 100 4 ', "timing": "launch\u001b[1m"')" \
  "$(row "$raw" '{}' 1024 100 4)"
sed 's/"launch\\u001b\[1m"/"graph\\u001b[2m"/; s/"name": "cpu"/"name": "cpu\\u001b[5m\\u009b\\u200f"/; s/"name": "h"/"name": "h\\u001b[6m"/' \
  "$tmp/esc-old.json" >"$tmp/esc-new.json"
# the direction controls in UTF-8: U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, U+061C
bidi='\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c'
clean() { ! LC_ALL=C grep -qP "[\\x01-\\x08\\x0b-\\x1f\\x7f]|\\xc2[\\x80-\\x9f]|(?<![\\xc0-\\xf4])[\\x80-\\x9f]|$bidi" "$1"; }
"$rb" compare --allow-device-change "$tmp/esc-old.json" "$tmp/esc-new.json" >"$tmp/out" 2>"$tmp/err"
ok "compare's table: no control byte from the files" clean "$tmp/out"
ok "... the run shown with escapes" grep -qF 'run\x1b[31mred\x7f\xc2\x9b2J' "$tmp/out"
ok "... its direction controls too (U+202E, U+2066)" grep -qF '2J\xe2\x80\xaegnp.exe\xe2\x81\xa6' "$tmp/out"
ok "... and the raw bytes too" grep -qF 'raw\x7f\x9b' "$tmp/out"
ok "compare's warnings: no control byte" clean "$tmp/err"
ok "... the timing shown with escapes" grep -qF 'old: launch\x1b[1m, new: graph\x1b[2m' "$tmp/err"
for format in csv md; do
  "$rb" compare --allow-device-change --format $format "$tmp/esc-old.json" "$tmp/esc-new.json" >"$tmp/out.$format" 2>/dev/null
  ok "compare --format $format: no control byte" clean "$tmp/out.$format"
done
"$rb" compare "$tmp/esc-old.json" "$tmp/esc-new.json" >/dev/null 2>"$tmp/err"
ok "compare's device error: no control byte" clean "$tmp/err"
if [ -n "$gnuplot" ]; then
  "$rb" plot "$tmp/esc-new.json" -o "$tmp/esc" --baseline nothing >/dev/null 2>"$tmp/err"
  ok "plot's error listing the runs: no control byte" bash -c "grep -q 'runs:' '$tmp/err' && ! LC_ALL=C grep -qP '[\x1b\x7f]|\xc2[\x80-\x9f]|$bidi' '$tmp/err'"
  "$rb" plot "$tmp/esc-new.json" -o "$tmp/esc" >/dev/null 2>&1
  ok "plot's report.html and drawings: no control byte" bash -c "cat '$tmp'/esc/*.html '$tmp'/esc/*.svg '$tmp'/esc/*.gp >'$tmp/all' && ! LC_ALL=C grep -qP '[\x01-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|$bidi' '$tmp/all'"
else
  for k in 1 2; do skip "gnuplot not found"; done
fi

# ---- a history of hostile names: the trends of its run's HTML report ----
hrev='"</title><script>alert(1)</script>\" onmouseover=\"alert(2)\u001b[31m"'
hrow() { printf '{"run": "</svg><script>alert(4)</script>", "plugin": "<img src=x onerror=alert(3)>", "params": {}, "params_text": "<b>p</b>", "op": "sum", "dtype": "f32", "n": 1024, "status": "ok", "reason": "", "device": 0, "median_ns": %s, "bandwidth_gbs": 4, "samples_ns": [%s, %s]}' "$1" "$1" "$1"; }
for k in 1 2 3 4; do
  printf '{"tool": "redbench", "version": "0.1.0", "git_revision": %s, "started": "2026-01-0%dT00:00:00Z", "host": {"name": "h"},\n "devices": [{"backend": "cpu", "device": 0, "name": "cpu<i>"}],\n "results": [%s]}\n' \
    "$hrev" "$k" "$(hrow $((100 * k)))" >"$tmp/hostile$k.json"
done
"$rb" history add "$tmp/hostile.db" "$tmp"/hostile[1-4].json >/dev/null 2>"$tmp/err"
is "$?" 0 "a history of runs whose revision, run and plugin names are markup"
"$rb" report "$tmp/hostile.db@latest" -o "$tmp/hostile.html" 2>"$tmp/err"
ok "... its run's HTML report has the trends" grep -q '^<h2 id="trends">Trends</h2>$' "$tmp/hostile.html"
"$rb" history trend "$tmp/hostile.db" -o "$tmp/hostile-trend.html" 2>"$tmp/err"
is "$?" 0 "... and its trend page is drawn"
for page in hostile.html hostile-trend.html; do
  if command -v python3 >/dev/null; then
    ok "... $page: well-formed, nothing live" python3 "$top_srcdir/tests/report/html_check.py" "$tmp/$page"
  else
    skip "python3 not found"
  fi
done
ok "... no script or image element in either" bash -c "! grep -qiE '<script|<img' '$tmp/hostile.html' '$tmp/hostile-trend.html'"
ok "... the revision in the points' tooltips, escaped" \
  grep -qF 'revision &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;alert(2)' "$tmp/hostile.html"
ok "... no control byte in either" bash -c "cat '$tmp/hostile.html' '$tmp/hostile-trend.html' >'$tmp/hall' && ! LC_ALL=C grep -qP '[\x01-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' '$tmp/hall'"
if command -v xmllint >/dev/null; then
  awk -v dir="$tmp" '/^<svg /{ n++; on = 1 } on { print > (dir "/trend-" n ".svg") } /^<\/svg>$/{ on = 0 }' "$tmp/hostile.html"
  ok "... each figure's SVG is well-formed XML" bash -c "ls '$tmp'/trend-*.svg >/dev/null && xmllint --noout '$tmp'/trend-*.svg"
else
  skip "xmllint not found"
fi
done_testing
