#!/bin/bash
# tests/report/test_html_layout.sh: the HTML report of a results file
# (fixtures/html-wide.json, made by `redbench -c fixtures/html-wide.ini
# --format json`: 4 strategies in 9 configurations at 4 sizes, 4 rows
# skipped and 2 unsupported) fits a 1400-pixel window without sideways
# scrolling, folded or unfolded; its skipped and unsupported rows are
# folded under their count; its headers carry units; it leads its plots
# with a map of each strategy's best GB/s at each n, which a single size
# does not get. The layout is measured by headless Chromium (skipped
# without it).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 14

"$rb" report "$fixtures/html-wide.json" -o "$tmp/wide.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "report of the fixture to HTML: exit 0"
ok "the skipped and unsupported rows are folded under their count" \
  grep -qF '<details class="folded"><summary>6 rows skipped or unsupported (not run)</summary>' "$tmp/wide.html"
ok "... all 6 of them, and none in the main table" \
  test "$(sed -n '/<details class="folded">/,/<\/details>/p' "$tmp/wide.html" | grep -cE '<tr class="(skipped|unsupported)">')" = 6 -a \
       "$(grep -cE '<tr class="(skipped|unsupported)">' "$tmp/wide.html")" = 6
is "$(grep -c '<tr class="ok">' "$tmp/wide.html")" 40 "the main table has the 40 ok rows"
ok "headers carry units" grep -qF '<th>n (elements)</th><th>status</th><th>median time</th><th>bandwidth (GB/s)</th>' "$tmp/wide.html"
ok "the strategy map leads the plots" \
  bash -c "sed -n '/<h2 id=\"plots\">/,/<\/figure>/p' '$tmp/wide.html' | grep -q '<figure class=\"strategy-map\">'"
map=$(sed -n '/<figure class="strategy-map">/,/<\/figure>/p' "$tmp/wide.html")
is "$(grep -c 'class="rb-cell"' <<<"$map")" 16 "... one cell per strategy and size (4 x 4)"
ok "... its cells name the strategy, n and GB/s" \
  grep -qE '<title>n = 256K, strategy = unrolled-lanes: [0-9.]+ GB/s</title>' <<<"$map"
"$rb" -q -c "$fixtures/html-wide.ini" -r threads -D n=4K --format html -o "$tmp/one.html" >/dev/null 2>&1
ok "one size: no strategy map" bash -c "grep -q '<h2 id=\"plots\">' '$tmp/one.html' && ! grep -q 'strategy-map' '$tmp/one.html'"
ok "still self-contained: no script, link, src or href" bash -c "! grep -qiE '<script|<link|src=|href=' '$tmp/wide.html'"

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  for k in 1 2 3 4; do skip "chromium not found (apt-get install chromium)"; done
  done_testing; exit
fi
browse() { # browse URL ARGS...: headless Chromium with a fresh profile
  local url=$1; shift
  rm -rf "$tmp/profile"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" "$@" "$url" 2>/dev/null
}
# measure OPEN: the page in a 1400-pixel window, its <details> opened when
# OPEN is true: the page's width against the window's, and how many boxes
# (tables, figures) are wider than the space they have.
measure() {
  sed "s|</body>|<script>\\
if ($1) document.querySelectorAll(\"details\").forEach(function (d) { d.open = true; });\\
var root = document.documentElement, over = 0;\\
document.querySelectorAll(\".wide, figure\").forEach(function (b) {\\
  if (b.getClientRects().length \\&\\& b.scrollWidth > b.clientWidth + 1) over++; });\\
var pre = document.createElement(\"pre\"); pre.id = \"layout\";\\
pre.textContent = \"page=\" + root.scrollWidth + \" window=\" + root.clientWidth + \" over=\" + over;\\
document.body.appendChild(pre);\\
</script></body>|" "$tmp/wide.html" >"$tmp/check.html"
  browse "file://$tmp/check.html" --window-size=1400,900 --dump-dom >"$tmp/dom.html"
  sed -n 's/.*id="layout">\([^<]*\)<.*/\1/p' "$tmp/dom.html"
}
fits() { # fits LAYOUT: the page no wider than the window, no box scrolled
  local page window
  page=$(sed -n 's/^page=\([0-9]*\) .*/\1/p' <<<"$1"); window=$(sed -n 's/.* window=\([0-9]*\) .*/\1/p' <<<"$1")
  [ -n "$page" ] && [ "$page" -le "$window" ] && grep -q ' over=0$' <<<"$1"
}
closed=$(measure false)
ok "Chromium lays the page out ($closed)" test -n "$closed"
ok "... in 1400 pixels, no sideways scrolling, nothing wider than its box" fits "$closed"
opened=$(measure true)
ok "every <details> opened: still laid out ($opened)" test -n "$opened"
ok "... and still no sideways scrolling" fits "$opened"
done_testing
