#!/bin/bash
# tests/plot/test_plot_hostile.sh: `redbench plot` on results files made to
# break it (tests/plot/make_results.py from a quick run): names with quotes,
# markup, "]]>", backslashes, control bytes and Unicode noncharacters give
# well-formed SVG (checked with an XML parser) from gnuplot and from
# redbench itself, and gnuplot parses every script; a single denormal
# bandwidth gives finite axes; links planted in the output folder are
# replaced, never followed, and a folder that is a link is refused; a
# missing parent folder is refused; a full disk (a small tmpfs, where it
# can be mounted) or a failing gnuplot leaves the previous figures whole
# and names the file; the list of files shows control bytes as escapes.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 24
gen=$top_srcdir/tests/plot/make_results.py
command -v python3 >/dev/null || skip_all "python3 not found"

# well_formed FILE...: every file parses as XML.
well_formed() {
  python3 -c 'import sys, xml.etree.ElementTree as E
for p in sys.argv[1:]: E.parse(p)' "$@"
}

{ experiment_header hostile
  printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run t]\nplugin = threads\nthreads = 1\nlanes = 4\n'
} >"$tmp/t.ini"
"$rb" -q -c "$tmp/t.ini" -o "$tmp/t.json" >/dev/null 2>&1; is "$?" 0 "the template run is ok"

# Hostile names: run names, parameter values and plugin names.
cat >"$tmp/names" <<'EOF'
"'quote first"
"\"double quote first"
"a & b <c> d"
"nonchar \ufffe \uffff \ufdd0 \udbff\udfff"
"back\\slash ` $(id) @x@"
"esc \u001b[31m red \u0007"
"tab\there\nnewline"
"cdata ]]> end"
"trailing backslash \\"
EOF
python3 "$gen" "$tmp/t.json" 486 "$tmp/h.json" --names "$tmp/names" --sizes 2 --plugin-names
gnuplot=$(command -v gnuplot || true)
if [ -n "$gnuplot" ]; then
  "$rb" plot "$tmp/h.json" -o "$tmp/h" >"$tmp/list" 2>"$tmp/err"
  is "$?" 0 "hostile names: gnuplot draws every figure (exit 0)"
  ok "... gnuplot complains of nothing" test ! -s "$tmp/err"
  ok "... heat maps of the hostile values among them" bash -c "ls '$tmp/h' | grep -q '^heatmap-_quote_first-1.svg\$'"
  ok "... and every SVG is well-formed XML" bash -c "$(declare -f well_formed); well_formed '$tmp'/h/*.svg"
  ok "... the names' quote, markup and backslash kept" bash -c "grep -qF \"'quote first\" '$tmp/h/bandwidth.svg' && grep -qF 'a &amp; b &lt;c' '$tmp/h/bandwidth.svg' && grep -qF 'back\\slash' '$tmp/h/bandwidth.svg'"
else
  for k in 1 2 3 4 5; do skip "gnuplot not found (apt-get install gnuplot-nox)"; done
fi
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/h.json" -o "$tmp/hs" >/dev/null 2>&1
is "$?" 0 "hostile names without gnuplot: exit 0"
ok "... every SVG redbench draws is well-formed XML" bash -c "$(declare -f well_formed); well_formed '$tmp'/hs/*.svg"
ok "... noncharacters replaced by U+FFFD" bash -c "grep -q \$'nonchar \\xef\\xbf\\xbd \\xef\\xbf\\xbd \\xef\\xbf\\xbd \\xef\\xbf\\xbd' '$tmp/hs/bandwidth.svg'"

# One row whose bandwidth is a denormal number.
python3 "$gen" "$tmp/t.json" 1 "$tmp/d.json" --gbs 5e-324 --runs 1
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/d.json" -o "$tmp/d" >/dev/null 2>&1
is "$?" 0 "a single denormal bandwidth: exit 0"
ok "... and no axis or point at NaN or infinity" bash -c "! grep -qiE 'nan|inf' '$tmp/d/bandwidth.svg' && grep -q '<circle' '$tmp/d/bandwidth.svg'"
if [ -n "$gnuplot" ]; then
  "$rb" plot "$tmp/d.json" -o "$tmp/dg" >/dev/null 2>"$tmp/err"
  is "$?" 0 "... gnuplot draws it too"
else
  skip "gnuplot not found"
fi

# Links planted in the output folder are replaced, not written through.
python3 "$gen" "$tmp/t.json" 40 "$tmp/s.json" --runs 4 --sizes 4
echo victim >"$tmp/victim"; echo victim >"$tmp/victim2"
mkdir "$tmp/planted"
ln -s "$tmp/victim" "$tmp/planted/bandwidth.svg"
ln -s "$tmp/victim2" "$tmp/planted/report.html"
ln -s "$tmp/victim2" "$tmp/planted/time.gp"
"$rb" plot "$tmp/s.json" -o "$tmp/planted" >/dev/null 2>&1
is "$?" 0 "links planted in the folder: plot exits 0"
is "$(cat "$tmp/victim" "$tmp/victim2")" "victim
victim" "... the files they point to are untouched"
ok "... the figures are files of the folder in their place" bash -c "test -f '$tmp/planted/bandwidth.svg' -a ! -L '$tmp/planted/bandwidth.svg' -a ! -L '$tmp/planted/report.html' && grep -q '<svg' '$tmp/planted/bandwidth.svg'"
mkdir "$tmp/elsewhere"; ln -s "$tmp/elsewhere" "$tmp/s-plots"
"$rb" plot "$tmp/s.json" >/dev/null 2>"$tmp/err"
is "$?:$(ls "$tmp/elsewhere" | wc -l)" "2:0" "a default folder that is a link: refused, nothing written where it points"
ok "... saying so" grep -q 'it is a symbolic link' "$tmp/err"

# A missing parent folder is refused, as the run and tune refuse it.
"$rb" plot "$tmp/s.json" -o "$tmp/no/such/dir" >/dev/null 2>"$tmp/err"
is "$?" 2 "-o under a missing folder: exit 2"
ok "... naming the missing folder, creating nothing" bash -c "grep -q 'the folder .*/no/such does not exist' '$tmp/err' && test ! -e '$tmp/no'"

# gnuplot failing mid-plot, or a disk filling: the previous figures stay whole.
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/s.json" -o "$tmp/keep" >/dev/null 2>&1
sum_before=$(cat "$tmp"/keep/*.svg | cksum)
printf '#!/bin/sh\nprintf "<svg half"\nexit 1\n' >"$tmp/bad-gnuplot"; chmod +x "$tmp/bad-gnuplot"
REDBENCH_GNUPLOT=$tmp/bad-gnuplot "$rb" plot "$tmp/h.json" -o "$tmp/keep" >/dev/null 2>"$tmp/err"
is "$?:$(cat "$tmp"/keep/*.svg | cksum)" "1:$sum_before" "a gnuplot that fails: exit 1, the previous figures as they were"
ok "... no temporary left behind, the error naming the figure" bash -c "! ls -a '$tmp/keep' | grep -q '^\\.redbench-' && grep -q 'drawing $tmp/keep/bandwidth.svg' '$tmp/err'"
mkdir "$tmp/small"
if mount -t tmpfs -o size=256k tmpfs "$tmp/small" 2>/dev/null; then
  trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
  env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/s.json" -o "$tmp/small/p" >/dev/null 2>&1
  sum_before=$(cat "$tmp"/small/p/*.svg | cksum)
  dd if=/dev/zero of="$tmp/small/fill" bs=4k 2>/dev/null
  env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/h.json" -o "$tmp/small/p" >/dev/null 2>"$tmp/err"
  is "$?:$(cat "$tmp"/small/p/*.svg | cksum)" "1:$sum_before" "a full disk: exit 1, the previous figures whole"
  ok "... the error naming a file of the folder and why" grep -q "cannot write $tmp/small/p/.*: No space left on device" "$tmp/err"
else
  skip "cannot mount a small tmpfs here"; skip "cannot mount a small tmpfs here"
fi

# The list of files written shows a control byte as an escape.
cp "$tmp/s.json" "$tmp/a"$'\e'"b.json"
env -u REDBENCH_GNUPLOT PATH=/nonexistent "$rb" plot "$tmp/a"$'\e'"b.json" >"$tmp/list" 2>&1
ok "a file name with ESC: listed as \\x1b, never raw" bash -c "grep -qF 'a\\x1bb-plots/report.html' '$tmp/list' && ! grep -q \$'\\e' '$tmp/list'"
done_testing
