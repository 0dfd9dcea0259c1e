#!/bin/bash
# tests/test_cli_select.sh: choosing on the command line what an experiment
# file runs: -r PATTERN (runs by glob), -D KEY=VALUE (any key, as if written
# in the file, checked like it, errors naming the option), --device N; and
# several outputs from one run (-o repeated, each format from its extension),
# every output path checked before anything runs; redbench report converts
# saved results to json, csv, md and html.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 62

small="$fixtures/cli/small.ini"
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
ok "... naming the option and the plugin's parameters" grep -q "^-D nosuch=1: error: plugin 'serial' has no parameter 'nosuch'; its parameters: acc" "$tmp/err"
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
