#!/bin/bash
# tests/report/test_html.sh: `--format html`: one self-contained page (no scripts,
# links or external files) with the status counts, the devices, the plots as
# inline SVG, the results table (with how each row was measured: timing
# mode, what stopped it, err/tol, determinism, the reproducibility level,
# throttling, in each row's
# details) and the
# provenance; drawn without gnuplot;
# a note where there is nothing to plot. Then headless Chromium loads the
# page: a script appended to a copy measures every plot's marks after
# layout, and a screenshot must differ from a blank page's; a page of 16
# rows skipped with a long reason fits a 1400-pixel window once unfolded,
# its reason column readable. Without Chromium those checks are skipped.
# A shaped sweep (rows 1 and 64, two sizes each) gets one strategy map for
# each shape, the shaped one titled with its shape.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 32
f=$top_srcdir/tests/plot/fixtures

# small.ini: plain and fast x 2 dtypes x 2 sizes, grid 6 x 2 sizes: 20 rows;
# figures: bandwidth, time, speedup and a heat map per size: 5.
"$rb" -q -c "$f/small.ini" --format html -o "$tmp/r.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "--format html -o r.html exits 0"
ok "one whole HTML document" bash -c "head -n 1 '$tmp/r.html' | grep -q '<!DOCTYPE html>' && tail -n 1 '$tmp/r.html' | grep -q '</html>'"
is "$(grep -c '<svg xmlns' "$tmp/r.html")" 6 "six plots inline as SVG (five figures and the strategy map)"
ok "the status summary counts 20 ok" grep -q 'class="count ok"><b>20</b>ok' "$tmp/r.html"
for s in wrong failed unsupported skipped; do
  ok "... and 0 $s" grep -q "class=\"count $s\"><b>0</b>$s" "$tmp/r.html"
done
is "$(grep -c '<tr class="ok">' "$tmp/r.html")" 20 "the results table has the 20 rows"
ok "... with units in its headers, how each row was measured last, and no reason column where no row has a reason" grep -qF '<th>median time</th><th>bandwidth (GB/s)</th><th>noise (% of median)</th><th>how measured</th></tr>' "$tmp/r.html"
# The cpu backend times each call (launch); a cap or the noise target stops
# the repetitions; serial, unrolled and threaded sums give the same bits.
is "$(grep -cE '<span>timing: launch</span>; <span( class="caution")?>stopped by: (noise|max_reps)</span>; <span>error / tolerance: [0-9.e+-]+</span>; <span>deterministic: yes</span>; <span>repro: (run-to-run|layout-independent|exact)</span>; <span( class="caution")?>throttled: (yes[^<]*|no)</span></details></td></tr>' "$tmp/r.html")" 20 \
   "... and every row's details say launch, what stopped it, err/tol, deterministic, repro and throttled"
ok "the devices table names the cpu backend" grep -q '<td>cpu</td><td>0</td>' "$tmp/r.html"
ok "the provenance holds the experiment file" grep -q 'name = plot-test' "$tmp/r.html"
ok "self-contained: no script, link, src or href" bash -c "! grep -qiE '<script|<link|src=|href=' '$tmp/r.html'"

PATH=/nonexistent REDBENCH_GNUPLOT=/nonexistent "$rb" -q -c "$f/small.ini" --format html -o "$tmp/nognuplot.html" >/dev/null 2>&1
is "$(grep -c '<svg xmlns' "$tmp/nognuplot.html")" 6 "the plots are drawn without gnuplot"

"$rb" -q -c "$f/none-ok.ini" --format html >"$tmp/none.html" 2>/dev/null
is "$?" 3 "nothing to plot: exit 3 (nothing was measured), the page on standard output"
ok "... with a note where the plots would be" grep -q 'No plots: none of the 2 rows is ok' "$tmp/none.html"
ok "... and the unsupported and skipped rows counted" bash -c "grep -q 'class=\"count unsupported\"><b>1</b>' '$tmp/none.html' && grep -q 'class=\"count skipped\"><b>1</b>' '$tmp/none.html'"

"$rb" -q -c "$f/small.ini" --format nope >/dev/null 2>"$tmp/err"
ok "an unknown format lists html among the valid ones" grep -q 'valid: .*html' "$tmp/err"

# -o FILE.html with no --format: the extension names the format, as .json,
# .csv and .md do; `format = html` in the experiment file is taken too.
"$rb" -q -c "$f/small.ini" -o "$tmp/by-extension.html" >/dev/null 2>&1
ok "-o report.html writes the HTML page" bash -c "head -n 1 '$tmp/by-extension.html' | grep -q '<!DOCTYPE html>'"
{ sed 's/^\[experiment\]$/[experiment]\nformat = html/' "$f/small.ini"; } >"$tmp/html-format.ini"
"$rb" -q -c "$tmp/html-format.ini" --plugin-path "$top_builddir/plugins" >"$tmp/by-key.html" 2>"$tmp/err"
ok "format = html in the experiment file writes the HTML page" bash -c "head -n 1 '$tmp/by-key.html' | grep -q '<!DOCTYPE html>'"

{ experiment_header shapes
  printf '[data]\nop = sum\ndtype = i32\nrows = 1, 64\nn = 1K, 4K\n[run serial]\nplugin = serial\n'
  printf '[run threads]\nplugin = threads\n'
} >"$tmp/shapes.ini"
"$rb" -q -c "$tmp/shapes.ini" --format html -o "$tmp/shapes.html" >/dev/null 2>&1
is "$(grep -c '<figure class="strategy-map">' "$tmp/shapes.html")" 2 "a sweep of two shapes: a strategy map for each"
ok "... the one reduction's titled as before" \
  grep -qF '>Best bandwidth of each strategy at each n</text>' "$tmp/shapes.html"
ok "... the other titled with its shape, its axis n of each row" bash -c \
  "grep -qF '>Best bandwidth of each strategy at each n (rows=64)</text>' '$tmp/shapes.html' &&
   grep -qF '>n (elements of each row)</text>' '$tmp/shapes.html'"

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
# Under the sanitizers the page is the same and Chromium is not what they
# check: its layout is measured in the plain suite.
if sanitized; then
  for k in 1 2 3 4 5 6 7 8; do skip "the layout is measured in the plain suite, not under the sanitizers"; done
  done_testing; exit
elif [ -z "$chromium" ]; then
  for k in 1 2 3 4 5 6 7 8; do skip "chromium not found (apt-get install chromium)"; done
  done_testing; exit
fi
browse() { # browse URL ARGS...: headless Chromium with a fresh profile
  local url=$1; shift
  rm -rf "$tmp/profile"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" "$@" "$url" 2>/dev/null
}
# After layout: each plot's size and how many of its marks (lines, bars,
# cells) have a non-empty box.
sed 's|</body>|<script>\
var plots = document.querySelectorAll("svg.rb-plot"), drawn = 0;\
plots.forEach(function (svg) {\
  var box = svg.getBoundingClientRect(), marks = 0;\
  svg.querySelectorAll(".rb-series path, rect.rb-bar, rect.rb-cell").forEach(function (m) {\
    var b = m.getBBox(); if (b.width > 0 \&\& b.height >= 0) marks++; });\
  if (box.width > 300 \&\& box.height > 200 \&\& marks > 0) drawn++;\
});\
var pre = document.createElement("pre"); pre.id = "render-check";\
pre.textContent = "plots=" + plots.length + " drawn=" + drawn;\
document.body.appendChild(pre);\
</script></body>|' "$tmp/r.html" >"$tmp/check.html"
browse "file://$tmp/check.html" --dump-dom >"$tmp/dom.html"
ok "Chromium loads the page" grep -q 'id="render-check"' "$tmp/dom.html"
ok "... and lays out all 6 plots with their marks" grep -q 'plots=6 drawn=6' "$tmp/dom.html"
echo '<!DOCTYPE html><html><body></body></html>' >"$tmp/blank.html"
browse "file://$tmp/blank.html" --window-size=1280,2000 --screenshot="$tmp/blank.png" >/dev/null
browse "file://$tmp/r.html" --window-size=1280,2000 --screenshot="$tmp/shot.png" >/dev/null
ok "a screenshot of the page is a PNG" bash -c "head -c 8 '$tmp/shot.png' | od -An -c | grep -q 'P   N   G'"
blank=$(stat -c %s "$tmp/blank.png" 2>/dev/null || echo 0)
shot=$(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0)
ok "... and not blank ($shot bytes against a blank page's $blank)" test "$shot" -gt $((blank * 5))

# 16 rows skipped with a long reason (an optional plugin absent): in a
# 1400-pixel window they fold under one line for their reason, whose
# table fits, the reason is readable (at least 200 pixels wide) and the
# page is not thousands of pixels tall.
"$rb" -q -c "$top_srcdir/tests/cli/fixtures/skips.ini" -r absent \
  -D n=1K,2K,4K,8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,8M,16M,32M --format html -o "$tmp/skips.html" >/dev/null 2>&1
sed 's|</body>|<script>\
document.querySelectorAll("details").forEach(function (d) { d.open = true; });\
var t = document.querySelector("table.results"), r = document.querySelector("details.reason > summary");\
var pre = document.createElement("pre"); pre.id = "layout";\
pre.textContent = "rows=" + (t.rows.length - 1) + " fits=" + (t.getBoundingClientRect().right <= document.documentElement.clientWidth) +\
  " reason=" + Math.round(r.getBoundingClientRect().width) + " height=" + document.documentElement.scrollHeight;\
document.body.appendChild(pre);\
</script></body>|' "$tmp/skips.html" >"$tmp/skips-check.html"
browse "file://$tmp/skips-check.html" --window-size=1400,2000 --dump-dom >"$tmp/skips-dom.html"
layout=$(sed -n 's/.*id="layout">\([^<]*\)<.*/\1/p' "$tmp/skips-dom.html")
ok "16 skipped rows in a 1400-pixel window: the table fits ($layout)" bash -c "echo '$layout' | grep -q '^rows=16 fits=true '"
is "$(grep -c '<details class="reason">' "$tmp/skips.html")" 1 "... folded under one line for their one reason"
ok "... the reason is at least 200 pixels wide" test "$(echo "$layout" | sed -n 's/.* reason=\([0-9]*\).*/\1/p')" -ge 200
ok "... and the page under 2500 pixels tall" test "$(echo "$layout" | sed -n 's/.* height=\([0-9]*\).*/\1/p')" -lt 2500
done_testing
