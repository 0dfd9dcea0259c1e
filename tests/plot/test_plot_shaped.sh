#!/bin/bash
# tests/plot/test_plot_shaped.sh: the winner maps of shaped results
# (plot/winners.c). A quick cpu run of serial against threads over rows 1,
# 64, 4K x n 32, 512 (along rows, fixed and ragged, and along columns) has
# its times replaced by known ones (serial rows x n ns, threads 3000 +
# rows x n / 8), so that the winners do not depend on the machine: one map
# per axis and lengths, each cell in its winner's colour and labelled with
# its GB/s, or its speedup over --baseline (a run, a plugin or
# PACK/PLUGIN) or over cuda/segmented where it ran; drawn by redbench
# (without gnuplot) and by gnuplot (script and SVG, and PNG where this
# gnuplot has a PNG terminal), and in report.html.
# Results without a shape have none; the other figures split their lines
# by shape.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
plan 21

{ experiment_header shaped-plot
  printf '[data]\nop = sum\ndtype = f32\nrows = 1, 64, 4K\nn = 32, 512\n'
  printf '[run serial]\nplugin = cpu/serial\n[run threads]\nplugin = cpu/threads\nthreads = 2\n'
  printf '[run ragged]\nplugin = cpu/serial\nlengths = ragged\n'
  printf '[run ragged-threads]\nplugin = cpu/threads\nlengths = ragged\nthreads = 2\n'
  printf '[run columns]\nplugin = cpu/serial\naxis = column\n'
  printf '[run columns-threads]\nplugin = cpu/threads\naxis = column\nthreads = 2\n'
} >"$tmp/grid.ini"
"$rb" -q -c "$tmp/grid.ini" -o "$tmp/run.json" >/dev/null 2>"$tmp/run.err"
is "$("$JQ" '[.results[] | select(.status == "ok")] | length' "$tmp/run.json")" 36 \
  "the quick run: 36 ok rows"
"$JQ" '.results |= map((if .plugin == "serial" then (.rows // 1) * .n
                        else 3000 + (.rows // 1) * .n / 8 end) as $t
        | .median_ns = $t | .samples_ns |= map($t) | .rounds |= map(.median_ns = $t)
        | .bandwidth_gbs = (.n * (.rows // 1) * 4 / $t))' "$tmp/run.json" >"$tmp/known.json"

# own_svg DIR [OPTIONS]: the figures redbench draws itself, into DIR
own_svg() { _dir=$1; shift
  env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/known.json" -o "$tmp/$_dir" "$@" \
    >/dev/null 2>"$tmp/$_dir.err"; }
# cells FILE: each cell's winner, as its tooltip names it, on one line
cells() { grep -o 'rows = [^,]*, n = [^:]*: [a-z]*' "$1" | sed 's/.*: //' | tr '\n' ' '; }
# texts FILE: the text on each cell, on one line
texts() { grep -oE 'text-anchor="middle" fill="#(000000|ffffff|767676)">[^<]*<' "$1" |
  sed 's/.*>//; s/<$//' | tr '\n' ' '; }

own_svg own
ls "$tmp/own"/winners-*.svg 2>/dev/null | sed 's|.*/||' | tr '\n' ' ' >"$tmp/maps"
is "$(cat "$tmp/maps")" "winners-sum-f32-column-fixed.svg winners-sum-f32-row-fixed.svg winners-sum-f32-row-ragged.svg " \
  "one winner map per axis and lengths"
m=$tmp/own/winners-sum-f32-row-fixed.svg
is "$(cells "$m")" "serial serial serial threads threads threads " \
  "each cell's winner is its fastest strategy (threads from rows 64 x n 512 on)"
is "$(texts "$m")" "4 4 4 18.5 27 31.6 " "... labelled with its GB/s where there is no baseline"
ok "... coloured by strategy: serial and threads in the legend, in their colours" \
  bash -c "grep -q 'fill=\"#4e79a7\"/>' '$m' && grep -q '<title>serial</title>serial</text>' '$m' &&
           grep -q 'fill=\"#f28e2b\"/>' '$m' && grep -q '<title>threads</title>threads</text>' '$m'"
ok "... which the subtitle says" grep -q "each cell: the winner's GB/s" "$m"
is "$(cells "$tmp/own/winners-sum-f32-row-ragged.svg")" "serial serial serial threads threads threads " \
  "the ragged rows' map: the same winners"

# the crossovers (cells 144 x 72 from 84, 72): under rows 1 at n 512, between
# n 32 and 512 at rows 64, under rows 64 at n 32
is "$(sed -n '/class="rb-crossovers"/,/<\/g>/p' "$m" | grep -o '<line [^>]*>' | tr '\n' ' ')" \
  '<line x1="228.0" y1="144.0" x2="372.0" y2="144.0"/> <line x1="228.0" y1="144.0" x2="228.0" y2="216.0"/> <line x1="84.0" y1="216.0" x2="228.0" y2="216.0"/> ' \
  "... a line wherever the winner changes from a cell to the next: the three edges of serial's cells that touch threads'"
own_svg base --baseline serial
is "$(texts "$tmp/base/winners-sum-f32-row-fixed.svg")" "1x 1x 1x 4.62x 6.76x 7.91x " \
  "--baseline serial: each cell labelled with its speedup over serial"
ok "... named in the subtitle and in each cell's tooltip" \
  bash -c "grep -q 'speedup over serial' '$tmp/base/winners-sum-f32-row-fixed.svg' &&
           grep -q 'rows = 64, n = 512: threads, 7.1 us, 18.5 GB/s; serial: 32.8 us, 4.62x faster' '$tmp/base/winners-sum-f32-row-fixed.svg'"
own_svg pack --baseline cpu/serial
is "$(texts "$tmp/pack/winners-sum-f32-row-fixed.svg")" "1x 1x 1x 4.62x 6.76x 7.91x " \
  "--baseline cpu/serial (PACK/PLUGIN): the same"
# CUB's segmented reduce is the baseline wherever it ran
"$JQ" '.results |= map(if .plugin == "serial" then .plugin = "segmented" | .pack = "cuda" else . end)' \
  "$tmp/known.json" >"$tmp/cub.json"
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/cub.json" -o "$tmp/cub" >/dev/null 2>&1
ok "without --baseline, cuda/segmented where it ran: speedups over it" \
  bash -c "grep -q 'speedup over cuda/segmented' '$tmp/cub/winners-sum-f32-row-fixed.svg' &&
           [ \"\$(grep -c '>6.76x<' '$tmp/cub/winners-sum-f32-row-fixed.svg')\" = 1 ]"
ok "the HTML report holds the winner maps" \
  bash -c "grep -q 'id=\"plot-winners-sum-f32-row-fixed\"' '$tmp/own/report.html' &&
           grep -q 'id=\"plot-winners-sum-f32-column-fixed\"' '$tmp/own/report.html'"
ok "the bandwidth figure draws a line per shape" grep -q '<title>serial rows=64 ' "$tmp/own/bandwidth.svg"

# results of one reduction only: no winner map
"$JQ" '.results |= map(select(.rows == null)) | .experiment.settings.round_order = [[range(.results | length)]]' \
  "$tmp/known.json" >"$tmp/flat.json"
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/flat.json" -o "$tmp/flat" >/dev/null 2>&1
ok "results without a shape: no winner map" bash -c "[ -e '$tmp/flat/bandwidth.svg' ] && ! ls '$tmp/flat' | grep -q winners"

gnuplot=$(command -v gnuplot || true)
if [ -z "$gnuplot" ]; then
  for k in 1 2 3 4 5 6; do skip "gnuplot not found (apt-get install gnuplot-nox)"; done
  done_testing; exit
fi
"$rb" plot "$tmp/known.json" -o "$tmp/gp" --baseline serial >/dev/null 2>"$tmp/gp.err"
is "$?" 0 "with gnuplot: plot exits 0"
ok "... the winner maps as script and SVG beside the others" \
  bash -c "for f in winners-sum-f32-row-fixed winners-sum-f32-row-ragged winners-sum-f32-column-fixed; do
             [ -s '$tmp/gp/'\$f.gp ] && grep -q '<svg' '$tmp/gp/'\$f.svg || exit 1; done"
# a PNG where this gnuplot has a PNG terminal (plot/gnuplot.c asks the same)
if "$gnuplot" -e 'set terminal pngcairo' </dev/null >/dev/null 2>&1 ||
   "$gnuplot" -e 'set terminal png' </dev/null >/dev/null 2>&1; then
  ok "... and as PNG" \
    bash -c "for f in winners-sum-f32-row-fixed winners-sum-f32-row-ragged winners-sum-f32-column-fixed; do
               head -c 8 '$tmp/gp/'\$f.png | od -An -c | grep -q 'P   N   G' || exit 1; done"
else
  skip "... and as PNG: this gnuplot has no PNG terminal"
fi
ok "... each cell's text and colour as data, the strategies in the key" \
  bash -c "grep -q '^1 1 \"4.62x\" 15896107 0\$' '$tmp/gp/winners-sum-f32-row-fixed.gp' &&
           grep -q \"lc rgb word(colors, 2) title 'threads'\" '$tmp/gp/winners-sum-f32-row-fixed.gp'"
is "$(grep -c 'nohead front lw 3' "$tmp/gp/winners-sum-f32-row-fixed.gp")" 3 \
  "... the crossover lines as arrows without heads, the same three"
ok "... and the script redraws" \
  bash -c "cd '$tmp/gp' && gnuplot -e \"set terminal svg; set output 're.svg'\" winners-sum-f32-row-fixed.gp && grep -q '4.62x' re.svg"
done_testing
