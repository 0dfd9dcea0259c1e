#!/bin/bash
# tests/history/test_history_report.sh: the HTML report of a history's run
# (redbench report DB@WHICH -o page.html) has a Trends section: for each
# configuration of the run, its figures over the history's runs (the
# median, and the energy where measured), the steps marked, each point's
# run, date and revision in its tooltip, the run's own point drawn apart;
# linked from under the heading and from each row of the results table.
# The same run's JSON file reports the page it always did: the report of
# the history's run is it, plus the link line, the link column and the
# section. A real run's history (-o H.db) too; a report in another format
# has no trends. Pages well-formed and inert (tests/report/html_check.py).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
gen=$top_builddir/tests/history/make-history
[ -x "$gen" ] || skip_all "make-history not built"
plan 22
check_html() { if command -v python3 >/dev/null; then
    ok "$1" python3 "$top_srcdir/tests/report/html_check.py" "$2"
  else skip "python3 not found"; fi; }

db=$tmp/h.db
"$gen" "$db" 30 4 noise=1 step=16:2 energy=0.001 seed=7 || bail "make-history failed"
"$rb" report "$db@latest" -o "$tmp/page.html" 2>"$tmp/err"
is "$?" 0 "report H.db@latest -o page.html"
ok "... has a Trends section" grep -q '^<h2 id="trends">Trends</h2>$' "$tmp/page.html"
ok "... linked from under the heading" grep -q '<p class="meta">See <a href="#trends">Trends</a>' "$tmp/page.html"
is "$(grep -c '<div class="trend" id="trend-[0-9]*">' "$tmp/page.html")" 4 "... one block for each of the run's 4 configurations"
is "$(grep -o '<td class="extra"><a href="#trend-[0-9]*">trend</a></td>' "$tmp/page.html" | sort -u | wc -l)" 4 \
  "... each row of the results table linked to its own"
is "$(grep -c '<title>median time</title>' "$tmp/page.html"):$(grep -c '<title>energy per call</title>' "$tmp/page.html")" "4:4" \
  "... a figure of the median and one of the energy for each"
is "$(grep -c '<title>step at run 16 ' "$tmp/page.html")" 4 "... the step at run 16 marked in each median's figure"
ok "... each point's run, date and revision in its tooltip" \
  grep -q '<title>run 9, 2026-01-01T08:00:00Z, revision rev-9: ' "$tmp/page.html"
is "$(grep -c "<title>run 30, [^<]* (this report's run)</title>" "$tmp/page.html")" 8 \
  "... the run reported (30) drawn apart in each figure"
check_html "... a well-formed, inert page" "$tmp/page.html"

"$rb" report "$db@-10" -o "$tmp/back.html" 2>"$tmp/err"
is "$(grep -c "<title>run 20, [^<]* (this report's run)</title>" "$tmp/back.html")" 8 \
  "report H.db@-10: run 20 is drawn apart"
ok "... over every run of the history (30)" grep -q 'over the 30 runs of the history' "$tmp/back.html"
"$rb" report "$db" --format html >"$tmp/stdout.html" 2>"$tmp/err"
ok "report H.db --format html (standard output) is the page -o writes" cmp "$tmp/page.html" "$tmp/stdout.html"

# A history without energy: the median's figures alone.
"$gen" "$tmp/plain.db" 5 2 seed=3 || bail "make-history failed"
"$rb" report "$tmp/plain.db" -o "$tmp/plain.html" 2>"$tmp/err"
is "$(grep -c '<title>median time</title>' "$tmp/plain.html"):$(grep -c '<title>energy per call</title>' "$tmp/plain.html")" "2:0" \
  "a history without energy: a figure of the median alone for each configuration"

# A real run's history: ok rows linked, the others not.
experiment_header small >"$tmp/small.ini"
cat >>"$tmp/small.ini" <<'INI'
[data]
op = sum
dtype = f32
n = 1K, 4K
[run serial]
plugin = serial
[run kahan]
plugin = kahan
op = argmax
INI
for k in 1 2 3; do
  "$rb" -q -c "$tmp/small.ini" -o "$tmp/run.json" -o "$tmp/real.db" >/dev/null 2>&1
done
"$rb" report "$tmp/real.db" -o "$tmp/real.html" 2>"$tmp/err"
is "$?" 0 "report of a real run's history (3 runs)"
ok "... its trends over the 3 runs" grep -q 'over the 3 runs of the history' "$tmp/real.html"
is "$(grep -c '<td class="extra"><a href="#trend-' "$tmp/real.html")" 2 "... its 2 ok rows linked to their trends"
ok "... the unsupported ones (kahan's argmax) folded, with no trend" \
  bash -c "grep -q '<summary><b>2</b> <span class=\"status unsupported\">unsupported</span>' '$tmp/real.html' && test \"\$(grep -c '<div class=\"trend\"' '$tmp/real.html')\" -eq 2"
check_html "... a well-formed, inert page" "$tmp/real.html"

# The JSON file of the same run: the page it always was.
"$rb" report "$tmp/run.json" -o "$tmp/file.html" 2>"$tmp/err"
ok "report RUN.json -o file.html (the newest run's file) has no trends" bash -c "! grep -q 'trend' '$tmp/file.html'"
strip() { sed -e '/^<p class="meta">See <a href="#trends">/d' -e '/^<section class="extra">$/,/^<\/section>$/d' \
  -e 's|<th class="extra">trend</th>||' -e 's|<td class="extra">\(<a href="#trend-[0-9]*">trend</a>\)\{0,1\}</td>||g' "$1"; }
strip "$tmp/real.html" >"$tmp/stripped.html"
ok "... and the history's page is it, plus the link line, the link column and the section" \
  cmp "$tmp/file.html" "$tmp/stripped.html"
"$rb" report "$tmp/real.db" -o "$tmp/real.md" 2>"$tmp/err"
"$rb" report "$tmp/run.json" -o "$tmp/file.md" 2>"$tmp/err"
ok "report H.db -o run.md: the Markdown of the JSON file, byte for byte" cmp "$tmp/file.md" "$tmp/real.md"
done_testing
