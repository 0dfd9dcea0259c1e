#!/bin/bash
# tests/plot/test_plot.sh: `redbench plot` on results of the cpu pack: the SVG
# (and PNG) files gnuplot draws, their lines and labels, the heat maps of a
# run sweeping two parameters, the baseline, the default folder, and the
# errors (not JSON, not a results file, nothing to draw, unknown baseline,
# bad options); report.html with each row's reproducibility level;
# without gnuplot (PATH lacking it), the figures redbench
# draws itself, their heat-map labels in black or white by the cell's
# luminance, error bars for the spread of the samples and a log axis for
# bandwidths spanning decades. Without gnuplot
# installed only those and the errors are checked.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 46
f=$top_srcdir/tests/plot/fixtures

# Without gnuplot, the figures are drawn by redbench itself, with a note.
"$rb" -q -c "$f/small.ini" -D n=1K,64K,4M -o "$tmp/wide.json" >/dev/null 2>&1; is "$?" 0 "the test run is ok"
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/wide.json" -o "$tmp/svg" >"$tmp/list" 2>"$tmp/err"
is "$?" 0 "gnuplot absent from PATH: plot exits 0"
ok "... with a note naming the Debian package to install" grep -q 'warning: plot: gnuplot.*drawn by redbench itself.*gnuplot-nox' "$tmp/err"
ok "... and the figures drawn as SVG, the report beside them" bash -c "grep -q '<svg' '$tmp/svg/bandwidth.svg' && grep -q '<svg' '$tmp/svg/heatmap-grid-1.svg' && grep -q '<svg' '$tmp/svg/report.html' && grep -q '/svg/time.svg\$' '$tmp/list'"
ok "... but no gnuplot script" test ! -e "$tmp/svg/time.gp"
ok "the report's rows give their reproducibility level" \
  grep -qE '<span>repro: (run-to-run|layout-independent|exact)</span>' "$tmp/svg/report.html"
REDBENCH_GNUPLOT=/nonexistent/gnuplot "$rb" plot "$tmp/wide.json" -o "$tmp/svg2" >/dev/null 2>"$tmp/err"
is "$?" 0 "REDBENCH_GNUPLOT naming nothing: the same, with a note"
ok "... that says to unset it" grep -q 'unset REDBENCH_GNUPLOT' "$tmp/err"
# Heat map labels: white on the darkest cell (viridis' violet), black on the
# brightest (its yellow).
ok "heat map: white text on the darkest cell" bash -c "grep -A1 'fill=\"#440154\" stroke' '$tmp/svg/heatmap-grid-1.svg' | grep -q 'fill=\"#ffffff\">[0-9]'"
ok "heat map: black text on the brightest cell" bash -c "grep -A1 'fill=\"#fde725\" stroke' '$tmp/svg/heatmap-grid-1.svg' | grep -q 'fill=\"#000000\">[0-9]'"
# Spread: each point's interquartile range as an error bar, said in the subtitle.
ok "time: error bars from the samples' interquartile range" bash -c "grep -q 'class=\"rb-spread\" d=\"M' '$tmp/svg/time.svg' && grep -q 'interquartile range)' '$tmp/svg/time.svg' && grep -q 'middle half of the samples: ' '$tmp/svg/time.svg'"
ok "bandwidth: the same" grep -q 'class="rb-spread"' "$tmp/svg/bandwidth.svg"
# 1K to 4M: bandwidths spanning decades are on a log axis. The run's own
# times depend on the machine (under sanitizers 1K and 4M may lie within a
# decade), so the same rows are given one time per call, 1 us: their
# bandwidths then span 1K to 4M, three and a half decades.
if [ -n "${JQ:-}" ]; then
  "$JQ" '.results |= map(if .median_ns then .median_ns = 1000 | .bandwidth_gbs = (.n * 4 / 1000)
      | .samples_ns = [(.samples_ns // [])[] | 1000]
      | .rounds = [(.rounds // [])[] | .median_ns = 1000] else . end)' "$tmp/wide.json" \
    >"$tmp/decades.json"
  env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/decades.json" -o "$tmp/svg3" \
    >/dev/null 2>&1
  ok "bandwidth from 1K to 4M: GB/s on a log axis" bash -c "grep -q 'data-x-scale=\"log2\" data-y-scale=\"log10\"' '$tmp/svg3/bandwidth.svg' && grep -q 'GB/s, log scale' '$tmp/svg3/bandwidth.svg'"
else
  skip "jq not found"
fi

# Errors that need no gnuplot.
"$rb" plot >/dev/null 2>"$tmp/err"; is "$?" 2 "no results file: exit 2"
"$rb" plot "$tmp/a.json" --no-such-option >/dev/null 2>"$tmp/err"; is "$?" 2 "an unknown option: exit 2"
ok "... naming it and the valid ones" grep -q -- '--no-such-option.*valid: --output, --baseline, --help' "$tmp/err"
"$rb" plot -o >/dev/null 2>&1; is "$?" 2 "-o without a folder: exit 2"
ok "plot --help exits 0 and describes the figures" bash -c "'$rb' plot --help | grep -q heatmap"

gnuplot=$(command -v gnuplot || true)
if [ -z "$gnuplot" ]; then
  for k in $(seq 18 44); do skip "gnuplot not found (apt-get install gnuplot-nox)"; done
  done_testing; exit
fi

printf '{"results": [\n  {"run": "a",, }\n]}\n' >"$tmp/broken.json"
"$rb" plot "$tmp/broken.json" >/dev/null 2>"$tmp/err"; is "$?" 2 "a file that is not JSON: exit 2"
ok "... naming the file, line 2 and column" grep -q "broken.json:2: error: column 15" "$tmp/err"
echo '{"tool": "redbench"}' >"$tmp/other.json"
"$rb" plot "$tmp/other.json" >/dev/null 2>"$tmp/err"; is "$?" 2 "JSON without results: exit 2"
ok "... saying it is not a results file" grep -q 'not a redbench results file' "$tmp/err"

"$rb" -q -c "$f/none-ok.ini" -o "$tmp/none.json" >/dev/null 2>&1
"$rb" plot "$tmp/none.json" -o "$tmp/none" >/dev/null 2>"$tmp/err"; is "$?" 2 "no ok rows: bad input, exit 2"
ok "... saying it cannot be plotted, with the rows counted by status" grep -q 'none.json cannot be plotted: it has no row that is ok with a time ([0-9]* rows: [0-9]* [a-z]*' "$tmp/err"
ok "... and writing no folder" test ! -e "$tmp/none"

"$rb" -q -c "$f/small.ini" -o "$tmp/r.json" >/dev/null 2>&1; is "$?" 0 "the test run is ok"
"$rb" plot "$tmp/r.json" -o "$tmp/out" >"$tmp/list" 2>"$tmp/err"; is "$?" 0 "plot exits 0"
for fig in bandwidth time speedup heatmap-grid-1 heatmap-grid-2; do
  ok "$fig.svg is an SVG drawing" bash -c "grep -q '<svg' '$tmp/out/$fig.svg' && grep -q '<path' '$tmp/out/$fig.svg'"
done
ok "no more heat maps than sizes" test ! -e "$tmp/out/heatmap-grid-3.svg"
# gnuplot writes each key entry as text; one per configuration: plain and
# fast x f32, i32 and grid's 6 (threads x lanes), and the measured peak.
is "$(grep -c -E '>(plain|fast|grid)[^<]*</text>' "$tmp/out/bandwidth.svg")" 10 "bandwidth: one line per configuration (10)"
ok "... labelled with what varies" grep -q '>grid threads=2 lanes=16 i32</text>' "$tmp/out/bandwidth.svg"
ok "... with the measured peak" grep -q '>measured peak [0-9.]* GB/s</text>' "$tmp/out/bandwidth.svg"
ok "gnuplot draws the spread as error bars" grep -q 'using 1:2:3:4 with yerrorlines' "$tmp/out/time.gp"
ok "gnuplot's heat map labels take their colour from the data (black or white)" grep -q 'with labels tc rgb variable' "$tmp/out/heatmap-grid-1.gp"
ok "the heat map's axes are lanes and threads" bash -c "grep -q '>lanes</text>' '$tmp/out/heatmap-grid-1.svg' && grep -q '>threads</text>' '$tmp/out/heatmap-grid-1.svg'"
ok "each figure keeps its gnuplot script, which redraws it" bash -c "cd '$tmp/out' && gnuplot -e \"set terminal svg; set output 're.svg'\" time.gp && grep -q '<svg' re.svg"
ok "report.html is written beside them, with the plots inline" grep -q '<svg' "$tmp/out/report.html"
if gnuplot -e 'set terminal pngcairo' </dev/null >/dev/null 2>&1 || gnuplot -e 'set terminal png' </dev/null >/dev/null 2>&1; then
  ok "a PNG too, where gnuplot has a PNG terminal" bash -c "head -c 8 '$tmp/out/bandwidth.png' | od -An -c | grep -q 'P   N   G'"
else
  skip "this gnuplot has no PNG terminal"
fi

"$rb" plot "$tmp/r.json" --baseline unrolled >/dev/null 2>&1; is "$?" 0 "--baseline takes a plugin name"
ok "... and the default folder is RESULTS-plots" grep -q 'Speedup against unrolled' "$tmp/r-plots/speedup.svg"
"$rb" plot "$tmp/r.json" --baseline cub -o "$tmp/cub" >/dev/null 2>"$tmp/err"; is "$?" 2 "an unknown baseline: exit 2"
ok "... listing the runs" grep -q 'runs: plain, fast, grid' "$tmp/err"
done_testing
