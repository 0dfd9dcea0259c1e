#!/bin/bash
# tests/cli/test_cli_select.sh: choosing on the command line what an experiment
# file runs: -r PATTERN (runs by glob), -D KEY=VALUE (any key, as if written
# in the file, checked like it, errors naming the option; a parameter in the
# runs whose plugin has it), -D RUN.KEY=VALUE and GLOB.KEY (chosen runs),
# ranges of sizes (n = 1K..1G, 1K..1G:x4), --dry-run marking what will be
# unsupported, --device N; and
# several outputs from one run (-o repeated, each format from its extension),
# every output path checked before anything runs; redbench report converts
# saved results to json, csv, md and html.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 92

small="$fixtures/small.ini"
dry() { "$rb" --dry-run -c "$small" "$@"; }

# -r
dry -r 'pl*' >"$tmp/dry" 2>"$tmp/err"; is "$?" 0 "-r 'pl*' exits 0"
is "$(grep -cE '^ +[0-9]+  plain ' "$tmp/dry")" 4 "... and keeps the 4 configurations of run plain"
is "$(grep -cE '^ +[0-9]+  fast ' "$tmp/dry")" 0 "... and none of run fast"
dry -r plain -r 'f?st' >"$tmp/dry" 2>&1; is "$?" 0 "-r repeated exits 0"
is "$(grep -cE '^ +[0-9]+  (plain|fast) ' "$tmp/dry")" 8 "... and keeps a run any pattern matches"
dry -r plain -r 'nothing*' >/dev/null 2>"$tmp/err"; is "$?" 2 "a pattern that matches no run exits 2"
ok "... naming it and the runs there are" grep -q "error: -r nothing\* matches no run of .*small.ini; its runs: plain, fast" "$tmp/err"

# -D
dry -D n=1M,1G -D dtype=f32 -D warmup=2 >"$tmp/dry" 2>"$tmp/err"; is "$?" 0 "-D n=1M,1G -D dtype=f32 -D warmup=2 exits 0"
is "$(grep -cE '^ +[0-9]+  (plain|fast) .* f32  n=(1M|1G) ' "$tmp/dry")" 4 "... 2 runs x 2 sizes, all f32"
is "$(grep -c ' i32 \| n=1K ' "$tmp/dry")" 0 "... replacing the file's dtype and n"
printf '[data]\nop = sum\ndtype = f32\nn = 1K\n[run a]\nplugin = serial\nn = 4K\n[run b]\nplugin = unrolled\nlanes = 4\n' >"$tmp/runs.ini"
"$rb" --dry-run -c "$tmp/runs.ini" -D n=2K >"$tmp/dry" 2>&1; is "$?" 0 "-D of a data key set in a run section exits 0"
is "$(grep -c 'n=2K' "$tmp/dry")" 2 "... and applies to every run, overriding the run's own"
"$rb" --dry-run -c "$tmp/runs.ini" -D lanes=8,16 -r b >"$tmp/dry" 2>&1; is "$?" 0 "-D of a plugin parameter sweeps it"
is "$(grep -cE 'lanes=(8|16) ' "$tmp/dry")" 2 "... replacing the file's value"
dry -D n=3X >/dev/null 2>"$tmp/err"; is "$?" 2 "-D n=3X exits 2"
ok "... naming the option, with the file's message" grep -q "^-D n=3X: error: n = 3X: .*valid: 1 to 1T" "$tmp/err"
dry -D dtype=f33 >/dev/null 2>"$tmp/err"; is "$?" 2 "-D dtype=f33 exits 2"
ok "... naming the option and the valid dtypes" grep -q "^-D dtype=f33: error: unknown dtype 'f33'; valid: .*f32" "$tmp/err"
dry -D warmup=-1 >/dev/null 2>"$tmp/err"; is "$?" 2 "-D warmup=-1 exits 2"
ok "... naming the option and the range" grep -q "^-D warmup=-1: error: warmup = -1 is out of range; valid: 0 to" "$tmp/err"
dry -D nosuch=1 >/dev/null 2>"$tmp/err"; is "$?" 2 "-D of a key no plugin has exits 2"
ok "... naming the option and each run's plugin's parameters" grep -q "^-D nosuch=1: error: no run's plugin has a parameter 'nosuch' (serial: acc; unrolled: lanes, acc; " "$tmp/err"
"$rb" --dry-run -c "$tmp/runs.ini" -r a -D nosuch=1 >/dev/null 2>"$tmp/err"
ok "... with one plugin, naming it and its parameters" grep -q "^-D nosuch=1: error: plugin 'serial' has no parameter 'nosuch'; its parameters: acc" "$tmp/err"

# -D of a parameter some runs' plugins lack; -D RUN.KEY=VALUE and GLOB.KEY
"$rb" --dry-run -c "$tmp/runs.ini" -D lanes=8 >"$tmp/dry" 2>"$tmp/err"; is "$?" 0 "-D lanes=8, which serial lacks: exits 0"
ok "... set where the plugin has it" grep -qE '^ +2  b +unrolled .* lanes=8 ' "$tmp/dry"
ok "... and a warning names the run left out" grep -q "^redbench: warning: -D lanes=8: applies to b; left out of a (serial), whose plugin has no parameter 'lanes'" "$tmp/err"
"$rb" --dry-run -c "$tmp/runs.ini" -D b.n=8K -D 'b*.lanes=16' -D a.acc=f64 >"$tmp/dry" 2>"$tmp/err"; is "$?" 0 "-D b.n=8K -D 'b*.lanes=16' -D a.acc=f64: exits 0"
ok "... each in its run only" bash -c "grep -qE '^ +1  a +serial .* n=4K .* acc=f64\$' '$tmp/dry' && grep -qE '^ +2  b +unrolled .* n=8K .* lanes=16 acc=native\$' '$tmp/dry'"
ok "... with no warning" test ! -s "$tmp/err"
"$rb" --dry-run -c "$tmp/runs.ini" -D 'z*.lanes=4' >/dev/null 2>"$tmp/err"; is "$?" 2 "-D GLOB.KEY of a glob that matches no run: exit 2"
ok "... naming it and the runs" grep -q "^-D z\*.lanes=4: error: 'z\*' matches no run of .*runs.ini; its runs: a, b" "$tmp/err"
"$rb" --dry-run -c "$tmp/runs.ini" -D a.lanes=4 >/dev/null 2>"$tmp/err"; is "$?" 2 "-D RUN.KEY of a parameter the run's plugin lacks: exit 2"
ok "... naming the option and the plugin's parameters" grep -q "^-D a.lanes=4: error: plugin 'serial' has no parameter 'lanes'" "$tmp/err"
"$rb" --dry-run -c "$tmp/runs.ini" -D a.warmup=4 >/dev/null 2>"$tmp/err"; is "$?" 2 "-D RUN.KEY of an [experiment] key: exit 2"
ok "... saying it is the same for every run" grep -q "^-D a.warmup=4: error: warmup is an \[experiment\] setting, the same for every run; write -D warmup=4" "$tmp/err"

# ranges of sizes
"$rb" --dry-run -c "$tmp/runs.ini" -r a -D a.n=1K..8K >"$tmp/dry" 2>&1; is "$?" 0 "-D n=1K..8K: exits 0"
is "$(grep -oE 'n=[0-9]+[KMG]? ' "$tmp/dry" | tr -d ' ' | tr '\n' ' ')" "n=1K n=2K n=4K n=8K " "... every power of two from 1K to 8K"
"$rb" --dry-run -c "$tmp/runs.ini" -r a -D n=1K..1M:x4,3M >"$tmp/dry" 2>&1; is "$?" 0 "-D n=1K..1M:x4,3M: exits 0"
is "$(grep -oE 'n=[0-9]+[KMG]? ' "$tmp/dry" | tr -d ' ' | tr '\n' ' ')" "n=1K n=4K n=16K n=64K n=256K n=1M n=3M " "... each 4 times the one before, then 3M"
printf '[data]\nn = 16..100:x3\n[run a]\nplugin = serial\n' >"$tmp/range.ini"
"$rb" --dry-run -c "$tmp/range.ini" >"$tmp/dry" 2>&1; is "$?" 0 "n = 16..100:x3 in a file: exits 0"
is "$(grep -oE 'n=[0-9]+[KMG]? ' "$tmp/dry" | tr -d ' ' | tr '\n' ' ')" "n=16 n=48 " "... up to at most the last"
for bad in "1M..1K:the range runs down" "1K..1M:x1:the step 'x1' is not valid" "1K..2X:'2X'"; do
  "$rb" --dry-run -c "$tmp/runs.ini" -D "n=${bad%:*}" >/dev/null 2>"$tmp/err"
  is "$?" 2 "-D n=${bad%:*}: exit 2"
  ok "... saying why" grep -qF -- "-D n=${bad%:*}: error: n = ${bad%:*}: ${bad##*:}" "$tmp/err"
done

# --dry-run marks what will be unsupported
sed 's/plugin = serial/plugin = kahan/' "$tmp/runs.ini" >"$tmp/ops.ini" # kahan has no argmax
"$rb" --dry-run -c "$tmp/ops.ini" -D op=argmax,histogram -D dtype=u8,f32 >"$tmp/dry" 2>&1; is "$?" 0 "--dry-run of ops and dtypes some plugins decline: exits 0"
ok "... an op the plugin does not offer, marked" grep -qE '^ +[0-9]+  a +kahan +argmax .*\(unsupported: kahan does not offer op argmax; its ops: sum, min, max, histogram\)$' "$tmp/dry"
ok "... a histogram of f32, marked" grep -qE '^ +[0-9]+  b +unrolled +histogram f32 .*\(unsupported: a histogram counts u8 values, not f32\)$' "$tmp/dry"
ok "... a histogram of u8, not" bash -c "grep -E '^ +[0-9]+  b +unrolled +histogram u8 ' '$tmp/dry' | grep -vq unsupported"
ok "... and counted" grep -q '^6 configurations will be unsupported, as marked' "$tmp/dry"
dry -D cache=warm >/dev/null 2>"$tmp/err"; is "$?" 2 "-D cache=warm exits 2"
ok "... naming the option and the valid words" grep -q "^-D cache=warm: error: cache = warm is not valid; valid: hot, cold" "$tmp/err"
dry -D n >/dev/null 2>"$tmp/err"; is "$?" 2 "-D without = exits 2"
ok "... saying what -D takes" grep -q "error: -D takes KEY=VALUE" "$tmp/err"
dry -D dtype= >/dev/null 2>"$tmp/err"; is "$?" 2 "-D with an empty value exits 2"
ok "... naming the option" grep -q "^-D dtype=: error: empty value for 'dtype'" "$tmp/err"

# --device
dry --device 1024 >/dev/null 2>"$tmp/err"; is "$?" 2 "--device 1024 exits 2"
ok "... naming the option, as -D device=1024 would" grep -q "^--device 1024: error: device = 1024 is out of range; valid: 0 to 1023" "$tmp/err"
dry --device 1 >/dev/null 2>&1; is "$?" 0 "--device 1 is valid"

# several outputs
one=(-q -c "$small" -r plain -D n=1K -D dtype=f32 -D min_time=0 -D max_reps=5 -D determinism_runs=0)
"$rb" "${one[@]}" -o "$tmp/r.json" -o "$tmp/r.csv" -o "$tmp/r.md" -o "$tmp/r.html" -o "$tmp/r.txt" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "five -o of one run: exit 0"
ok "... the .json is JSON" grep -q '"results"' "$tmp/r.json"
ok "... the .csv is CSV" grep -q '^plain,serial,' "$tmp/r.csv"
ok "... the .md is Markdown" grep -q '^| ' "$tmp/r.md"
ok "... the .html is HTML" grep -qi '<html' "$tmp/r.html"
ok "... the .txt is the table" grep -qE '^1 +plain +serial ' "$tmp/r.txt"
"$rb" "${one[@]}" -o "$tmp/s.json" -o "$tmp/s.dat" >/dev/null 2>"$tmp/err"; is "$?" 2 "an -o of unknown extension among several exits 2"
ok "... naming it, nothing written" bash -c "grep -q 'cannot tell the format of -o $tmp/s.dat' '$tmp/err' && ! test -e '$tmp/s.json'"
"$rb" "${one[@]}" -o "$tmp/t.json" -o "$tmp/missing/t.csv" >/dev/null 2>"$tmp/err"; is "$?" 2 "a second -o in a missing folder exits 2"
ok "... before anything ran" bash -c "grep -q 'the folder $tmp/missing does not exist; nothing was run' '$tmp/err' && ! test -e '$tmp/t.json'"
"$rb" "${one[@]}" -o "$tmp/u.dat" >/dev/null 2>"$tmp/err"; is "$?" 2 "a single -o of unknown extension exits 2"
ok "... saying --format would tell" grep -q "cannot tell the format of -o $tmp/u.dat from its extension; .*or give --format" "$tmp/err"
"$rb" "${one[@]}" -o "$tmp/u.dat" --format csv >/dev/null 2>&1; is "$?" 0 "... with --format: exit 0"
"$rb" --help >"$tmp/help"; ok "--help names -r, -D, --device and several -o" \
  bash -c "grep -q -- '-r, --run PATTERN' '$tmp/help' && grep -q -- '-D KEY=VALUE' '$tmp/help' && grep -q -- '--device N' '$tmp/help' && grep -q -- 'repeatable, each in the format' '$tmp/help'"

# redbench report
"$rb" report "$tmp/r.json" -o "$tmp/c.json" -o "$tmp/c.csv" -o "$tmp/c.md" -o "$tmp/c.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "report RESULTS.json to four formats: exit 0"
ok "... the JSON is a results file with the same rows" bash -c "cmp <('$rb' report '$tmp/r.json' --format csv) <('$rb' report '$tmp/c.json' --format csv)"
ok "... the CSV is the run's, a header and the row" bash -c "cmp '$tmp/c.csv' <('$rb' report '$tmp/r.json' --format csv) && head -n 1 '$tmp/c.csv' | grep -q '^run,plugin,params,' && grep -q '^plain,serial,acc=native,sum,f32,1024,' '$tmp/c.csv' && test \$(wc -l <'$tmp/c.csv') = 2"
ok "... the Markdown has the run's table" grep -qE '^\| plain \| serial \| acc=native \| 1K \| f32 \| sum \| ' "$tmp/c.md"
ok "... the JSON is the results file again, member for member" bash -c "cmp <('${JQ:-jq}' -S . '$tmp/r.json') <('${JQ:-jq}' -S . '$tmp/c.json')"
ok "... the HTML is the page of --format html" bash -c "grep -q '<!DOCTYPE html>' '$tmp/c.html' && grep -q '<svg xmlns' '$tmp/c.html' && grep -q '<tr class=\"ok\">' '$tmp/c.html'"
is "$("$rb" report "$tmp/r.json" --format csv | wc -l)" 2 "report --format csv alone writes to standard output"
"$rb" report "$tmp/r.json" -o "$tmp/d.csv" -o "$tmp/missing/d.md" >/dev/null 2>"$tmp/err"; is "$?" 2 "report -o in a missing folder: exit 2"
ok "... before anything was written" bash -c "grep -q 'the folder $tmp/missing does not exist' '$tmp/err' && ! test -e '$tmp/d.csv'"
"$rb" report "$tmp/r.json" -o "$tmp/d.dat" >/dev/null 2>"$tmp/err"; is "$?" 2 "report -o of an extension it does not write: exit 2"
"$rb" report "$tmp/r.json" -o "$tmp/d.txt" >/dev/null 2>"$tmp/err"; is "$?" 0 "report -o FILE.txt: exit 0"
ok "... the table, as the run writes it" bash -c "grep -qE '^1 +plain +serial ' '$tmp/d.txt' && grep -q '^1 configuration: 1 ok' '$tmp/d.txt'"
"$rb" report "$tmp/r.json" >"$tmp/stdout.txt" 2>"$tmp/err"; is "$?" 0 "report RESULTS.json with no -o: exit 0"
ok "... the table on standard output, as -o FILE.txt writes it" cmp "$tmp/stdout.txt" "$tmp/d.txt"
"$rb" report "$small" -o "$tmp/e.csv" >/dev/null 2>"$tmp/err"; is "$?" 2 "report of a file that is not results: exit 2"
ok "... naming it, nothing written" bash -c "grep -q 'small.ini' '$tmp/err' && ! test -e '$tmp/e.csv'"
ok "--help names report" grep -q '^  report RESULTS.json ' "$tmp/help"
done_testing
