#!/bin/bash
# tests/plot/test_plot_energy.sh: the energy figure of `redbench plot`
# (src/plot/energy.c): J/GB against n, one figure per op and dtype, drawn
# from rows with energy measured on the `standin` backend through the
# stand-in NVML (tests/run/energy/, as tests/run/test_energy_rows.sh runs it),
# by redbench itself (SVG) and by gnuplot where it is installed; no energy
# figure from rows without energy.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
energy_standin
plan 10
printf 'power_w = 300\nenergy_period_ms = 0\n' >"$tmp/script"
write() { # write NAME ENERGY DTYPES
  { experiment_header "$1" energy="$2" energy_min_time=0.05 timing=graph graph_calls=100
    printf '[data]\nop = sum\ndtype = %s\nn = 4K, 64K, 256K\n[run s]\nplugin = standin-sum\n' "$3"
  } >"$tmp/$1.ini"
  "$rb" -q -p "$dir" -c "$tmp/$1.ini" -o "$tmp/$1.json" 2>"$tmp/err" || cat "$tmp/err"; }
write on on i32
write off off i32
write two on "i32, f32"

svg() { env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$1" -o "$2" >/dev/null 2>&1; }
svg "$tmp/on.json" "$tmp/on"
ok "rows with energy: an energy figure" grep -q '<svg' "$tmp/on/energy.svg"
ok "... of J/GB against n, for the op and dtype" bash -c \
  "grep -q 'Energy per GB read against n (sum i32)' '$tmp/on/energy.svg' && grep -q 'energy (J/GB' '$tmp/on/energy.svg'"
ok "... with one line of the 3 sizes" grep -q '>s</text>' "$tmp/on/energy.svg"
ok "... whose points say their unit" grep -q 'J/GB</title>' "$tmp/on/energy.svg"
ok "... and in the HTML report" grep -q 'Energy per GB read against n' "$tmp/on/report.html"
svg "$tmp/off.json" "$tmp/off"
ok "rows without energy: the other figures, no energy figure" bash -c \
  "test -e '$tmp/off/bandwidth.svg' && ! ls '$tmp/off' | grep -q '^energy'"
ok "... nor a word of it in the report" bash -c "! grep -q 'Energy per GB' '$tmp/off/report.html'"
svg "$tmp/two.json" "$tmp/two"
is "$(ls "$tmp/two" | grep '^energy' | sort | tr '\n' ' ')" "energy-sum-f32.svg energy-sum-i32.svg " \
   "two dtypes: one energy figure each"
if command -v gnuplot >/dev/null 2>&1; then
  env -u REDBENCH_GNUPLOT "$rb" plot "$tmp/on.json" -o "$tmp/gp" >/dev/null 2>&1
  ok "gnuplot: the energy figure's script" grep -q 'J/GB' "$tmp/gp/energy.gp"
  ok "... drawn into SVG" grep -q '<svg' "$tmp/gp/energy.svg"
else
  skip "gnuplot not installed"
  skip "gnuplot not installed"
fi
