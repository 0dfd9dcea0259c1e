#!/bin/bash
# tests/report/test_html_layout.sh: the HTML report of a results file
# (fixtures/html-wide.json, made by `redbench -c fixtures/html-wide.ini
# --format json`: 4 strategies in 9 configurations at 4 sizes, 4 rows
# skipped and 2 unsupported), of a sweep at a single n and of a run of 3
# rounds, each fits a 1400- and a 1280-pixel window without sideways
# scrolling, folded or unfolded. The skipped and unsupported rows fold
# under their count, then one line per reason; the rounds' orders fold
# away; numbers carry units in headers and tooltips, times in settings.
# The plots lead with a map of each strategy's best GB/s at each n (cells
# of a readable aspect, a scale in GB/s), which a single size does not get;
# there the bandwidth figure is bars, not points; no figure's label falls
# outside its figure. The layout is measured by headless Chromium (skipped
# without it).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 54

"$rb" report "$fixtures/html-wide.json" -o "$tmp/wide.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "report of the fixture to HTML: exit 0"
ok "the skipped and unsupported rows are folded under their count and number of reasons" \
  grep -qF '<details class="folded"><summary>6 rows skipped or unsupported (not run), for 2 reasons</summary>' "$tmp/wide.html"
folded=$(sed -n '/<details class="folded">/,/<h2 /p' "$tmp/wide.html")
is "$(grep -c '<details class="reason">' <<<"$folded")" 2 "... one line for each distinct reason"
ok "... each with its count, status and runs, the reason said once" \
  grep -qF "<details class=\"reason\"><summary><b>4</b> <span class=\"status skipped\">skipped</span> (run absent-optional-strategy): plugin 'no-such-strategy' not found" <<<"$folded"
is "$(grep -o 'not found (searched' <<<"$folded" | wc -l)" 1 "... not once per row"
ok "... all 6 rows under their reasons, and none in the main table" \
  test "$(grep -cE '<tr class="(skipped|unsupported)">' <<<"$folded")" = 6 -a \
       "$(grep -cE '<tr class="(skipped|unsupported)">' "$tmp/wide.html")" = 6
is "$(grep -c '<tr class="ok">' "$tmp/wide.html")" 40 "the main table has the 40 ok rows"
ok "headers carry units" grep -qF '<th>n (elements)</th><th>status</th><th>median time</th><th>bandwidth (GB/s)</th>' "$tmp/wide.html"
ok "number cells have tooltips with units" \
  bash -c "grep -qE '<td class=\"num\" title=\"bandwidth: [0-9.]+ GB/s\">' '$tmp/wide.html' &&
           grep -qE '<td class=\"num\" title=\"median: [0-9.]+ us \\([0-9.]+ ns\\)\">' '$tmp/wide.html' &&
           grep -qF '<td class=\"num\" title=\"n: 256K (262144 elements)\">256K</td>' '$tmp/wide.html'"
ok "times have units: the wall time, min_time and timeout" \
  bash -c "grep -qE '<tr><th>wall time</th><td>[0-9.]+ s</td></tr>' '$tmp/wide.html' &&
           grep -qF '<tr><th>min_time</th><td>0 s</td></tr>' '$tmp/wide.html' &&
           grep -qF '<tr><th>timeout</th><td>60.0 s</td></tr>' '$tmp/wide.html'"
ok "no bare number with more than 6 digits after a point" bash -c "! grep -qE '>[0-9]+\\.[0-9]{7,}<' '$tmp/wide.html'"
ok "the strategy map leads the plots" \
  bash -c "sed -n '/<h2 id=\"plots\">/,/<\/figure>/p' '$tmp/wide.html' | grep -q '<figure class=\"strategy-map\">'"
map=$(sed -n '/<figure class="strategy-map">/,/<\/figure>/p' "$tmp/wide.html")
is "$(grep -c 'class="rb-cell"' <<<"$map")" 16 "... one cell per strategy and size (4 x 4)"
ok "... its cells name the strategy, n and GB/s" \
  grep -qE '<title>n = 256K, strategy = unrolled-lanes: [0-9.]+ GB/s</title>' <<<"$map"
# The single-size and rounds pages are made with the plugins copied under
# a deep folder (three 40-character names, as a CI system unpacks a tree
# under its commit), so that their paths are long wherever the tree lies.
deep=$tmp/0123456789abcdef0123456789abcdef01234567/89abcdef0123456789abcdef0123456789abcdef/0123456789abcdef0123456789abcdef01234567/plugins
mkdir -p "$deep/cpu" && cp plugins/cpu/.libs/*.so "$deep/cpu/"
"$rb" -q -c "$fixtures/html-wide.ini" --plugin-path "$deep" -r unrolled-lanes -D n=4K --format html -o "$tmp/one.html" >/dev/null 2>&1
ok "one size: no strategy map" bash -c "grep -q '<h2 id=\"plots\">' '$tmp/one.html' && ! grep -q 'strategy-map' '$tmp/one.html'"
ok "still self-contained: no script, link, src or href" bash -c "! grep -qiE '<script|<link|src=|href=' '$tmp/wide.html'"
# aspect SVG: the width / height of an <svg> element's viewBox, x1000
aspect() { sed -n 's/.*viewBox="0 0 \([0-9]*\) \([0-9]*\)".*/\1 \2/p' | head -1 | awk '{ printf "%d", $1 * 1000 / $2 }'; }
a=$(aspect <<<"$map")
ok "the map's aspect is between 1:2 and 5:2 (width/height x1000: $a)" test "$a" -ge 500 -a "$a" -le 2500
cells_readable() { # no cell of the map more than twice as wide as high
  grep -o 'class="rb-cell"[^>]*' <<<"$map" | sed 's/.*width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2/' |
    awk '$1 > 2 * $2 + 0.01 { bad++ } END { exit bad > 0 || NR == 0 }'
}
ok "... its cells at most twice as wide as high" cells_readable
ok "... its colour scale says GB/s" grep -qE '<text class="rb-scale-tick"[^>]*>[0-9.]+ GB/s</text>' <<<"$map"
bw=$(sed -n '/<svg [^>]*id="plot-bandwidth"/,/<\/svg>/p' "$tmp/one.html")
is "$(grep -c 'class="rb-bar"' <<<"$bw")" 6 "one size, 6 configurations: the bandwidth figure has a bar each"
ok "... and no points" bash -c "! grep -q '<circle' <<<'$bw'"
a=$(aspect <<<"$bw")
ok "... its aspect between 1:1 and 3:1 ($a)" test "$a" -ge 1000 -a "$a" -le 3000
"$rb" -q -c "$fixtures/html-wide.ini" --plugin-path "$deep" -r serial-native-accumulator -D n=4K,16K -D rounds=3 \
  --format html -o "$tmp/rounds.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "a run of 3 rounds to HTML"
ok "... each round's order is folded in a details section" \
  grep -qF "<details class=\"folded rounds\"><summary>Each round's order (3 rounds)</summary>" "$tmp/rounds.html"
ok "... holding the 3 rounds" \
  test "$(sed -n '/<details class="folded rounds">/,/<\/details>/p' "$tmp/rounds.html" | grep -c '<tr class="round">')" = 3

ok "the deep plugin paths are in the provenance, in cells that wrap" \
  bash -c "grep -qF '<td class=\"path\">$deep/cpu/' '$tmp/one.html' && grep -qF '<td class=\"path\">$deep/cpu/' '$tmp/rounds.html'"
ok "... long paths and the command line may break anywhere" \
  grep -qF 'table.provenance td,td.path,.meta code{overflow-wrap:anywhere' "$tmp/one.html"

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
# Under the sanitizers the page is the same and Chromium is not what they
# check: its layout is measured in the plain suite.
if sanitized; then
  for k in $(seq 27); do skip "the layout is measured in the plain suite, not under the sanitizers"; done
  done_testing; exit
elif [ -z "$chromium" ]; then
  for k in $(seq 27); do skip "chromium not found (apt-get install chromium)"; done
  done_testing; exit
fi
browse() { # browse URL ARGS...: headless Chromium with a fresh profile
  local url=$1; shift
  rm -rf "$tmp/profile"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" "$@" "$url" 2>/dev/null
}
# measure PAGE WIDTH OPEN: PAGE in a WIDTH-pixel window, its <details>
# opened when OPEN is true: the page's width against the window's, and how
# many boxes (tables, figures) are wider than the space they have.
measure() {
  sed "s|</body>|<script>\\
if ($3) document.querySelectorAll(\"details\").forEach(function (d) { d.open = true; });\\
var root = document.documentElement, over = 0;\\
document.querySelectorAll(\".wide, figure, table\").forEach(function (b) {\\
  if (b.getClientRects().length \\&\\& b.scrollWidth > b.clientWidth + 1) over++; });\\
var clipped = 0;\\
document.querySelectorAll(\"svg\").forEach(function (g) { var v = g.getBoundingClientRect();\\
  g.querySelectorAll(\"text\").forEach(function (t) { var b = t.getBoundingClientRect();\\
    if (b.left < v.left - 1 \\|\\| b.top < v.top - 1 \\|\\| b.right > v.right + 1 \\|\\| b.bottom > v.bottom + 1) clipped++; }); });\\
var pre = document.createElement(\"pre\"); pre.id = \"layout\";\\
pre.textContent = \"page=\" + root.scrollWidth + \" window=\" + root.clientWidth + \" clipped=\" + clipped + \" over=\" + over;\\
document.body.appendChild(pre);\\
</script></body>|" "$1" >"$tmp/check.html"
  browse "file://$tmp/check.html" --window-size="$2",900 --dump-dom >"$tmp/dom.html"
  sed -n 's/.*id="layout">\([^<]*\)<.*/\1/p' "$tmp/dom.html"
}
fits() { # fits LAYOUT: the page no wider than the window, no box scrolled
  local page window
  page=$(sed -n 's/^page=\([0-9]*\) .*/\1/p' <<<"$1"); window=$(sed -n 's/.* window=\([0-9]*\) .*/\1/p' <<<"$1")
  [ -n "$page" ] && [ "$page" -le "$window" ] && grep -q ' over=0$' <<<"$1"
}
for page in wide one rounds; do
  for width in 1400 1280; do
    closed=$(measure "$tmp/$page.html" $width false)
    ok "$page.html: Chromium lays the page out at $width pixels ($closed)" test -n "$closed"
    ok "... no sideways scrolling, nothing wider than its box" fits "$closed"
    opened=$(measure "$tmp/$page.html" $width true)
    ok "... every <details> opened: still laid out ($opened)" test -n "$opened"
    ok "... and still no sideways scrolling" fits "$opened"
  done
done
clipped() { grep -q ' clipped=0 ' <<<"$1"; }
ok "wide.html: every label of every figure inside its figure ($(measure "$tmp/wide.html" 1280 false))" \
  clipped "$(measure "$tmp/wide.html" 1280 false)"
ok "one.html: every label of every figure inside its figure ($(measure "$tmp/one.html" 1280 false))" \
  clipped "$(measure "$tmp/one.html" 1280 false)"
browse "file://$tmp/one.html" --window-size=1280,900 --screenshot="$tmp/one.png" >/dev/null
ok "a screenshot of the single-n page at 1280 pixels" test -s "$tmp/one.png"
done_testing
