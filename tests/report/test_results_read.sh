#!/bin/bash
# tests/report/test_results_read.sh: the results reader (results/read.c), through
# `redbench report`. A run's results file read back is the run's result set
# again: written as JSON it is the same document, and its table, CSV,
# Markdown and HTML are the run's own, byte for byte. A malformed file
# (tests/report/fixtures/) is refused with exit 2 and one error naming the
# file, the line, the member and what is valid.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 23
JQ=${JQ:-jq}
fx=$top_srcdir/tests
rd=$fx/report/fixtures

# plot/small.ini at one size: integer and word parameters, a run sweeping
# two; skips.ini: a skipped and an unsupported row; a histogram row.
"$rb" -q -c "$fx/plot/fixtures/small.ini" -D n=1K -o "$tmp/a.json" -o "$tmp/a.txt" -o "$tmp/a.csv" \
  -o "$tmp/a.md" -o "$tmp/a.html" >/dev/null 2>&1
is "$?" 0 "a run of plot/small.ini at 1K, in every format"
"$rb" report "$tmp/a.json" -o "$tmp/b.json" -o "$tmp/b.txt" -o "$tmp/b.csv" -o "$tmp/b.md" \
  -o "$tmp/b.html" >/dev/null 2>"$tmp/err"
is "$?" 0 "report reads its results file back and writes every format"
ok "... the JSON is the same document" bash -c "cmp <('$JQ' -S . '$tmp/a.json') <('$JQ' -S . '$tmp/b.json')"
for f in txt csv md html; do
  ok "... the $f is the run's own, byte for byte" cmp "$tmp/a.$f" "$tmp/b.$f"
done
"$rb" -q -c "$fx/cli/fixtures/skips.ini" -D op=sum,histogram -o "$tmp/s.json" -o "$tmp/s.txt" >/dev/null 2>&1
"$rb" report "$tmp/s.json" -o "$tmp/t.json" -o "$tmp/t.txt" >/dev/null 2>&1
is "$?" 0 "skipped, unsupported and histogram rows read back"
ok "... the same document" bash -c "cmp <('$JQ' -S . '$tmp/s.json') <('$JQ' -S . '$tmp/t.json')"
ok "... and the same table" cmp "$tmp/s.txt" "$tmp/t.txt"

# bad FILE MESSAGE: report refuses FILE with exit 2, saying MESSAGE.
bad() { "$rb" report "$rd/$1" --format csv >"$tmp/out" 2>"$tmp/err"; local s=$?
  if [ $s = 2 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$2" "$tmp/err"; then echo "ok"; else
  echo "exit $s: $(cat "$tmp/err")"; fi; }
is "$(bad unknown-op.json "unknown-op.json:3: error: results[0]: \"op\": is 'product'; valid: sum, min, max, argmax, histogram")" ok "an unknown op: the valid ones"
is "$(bad unknown-status.json "results[0]: \"status\": is 'fine'; valid: ok, wrong, failed, unsupported, skipped")" ok "an unknown status: the valid ones"
is "$(bad n-text.json "n-text.json:3: error: results[0]: \"n\": is \"1K\"; valid: a whole number")" ok "n written as a size: a whole number is wanted"
is "$(bad median-text.json "results[0]: \"median_ns\": is \"fast\"; valid: a number, or null")" ok "a median that is a word"
is "$(bad deterministic-text.json "results[0]: \"deterministic\": is \"yes\"; valid: true or false, or null")" ok "a flag that is a word"
is "$(bad no-plugin.json "results[0]: \"plugin\": is missing; every row of a redbench results file has run, plugin, op, dtype, n and status")" ok "a row without its plugin"
is "$(bad device-out-of-range.json "results[0]: \"device\": is 3, but the file lists 1 device")" ok "a device the file does not list"
is "$(bad samples-not-reps.json "results[0]: \"samples_ns\": holds 2 samples, but reps is 5")" ok "samples that do not match reps"
is "$(bad params-array.json "results[0]: \"params\": is not an object")" ok "parameters that are not an object"
is "$(bad param-object.json "results[0]: \"params\": has the parameter 'variant' as an object; valid: a number or a word")" ok "a parameter that is an object"
is "$(bad too-many-devices.json "too-many-devices.json:1: error: \"devices\" lists 9 devices; a run records at most 8")" ok "more devices than a run records"
is "$(bad experiment-cache.json "experiment.settings: \"cache\" is not one of hot, cold")" ok "an experiment's unknown cache regime"
is "$(bad host-text.json "host-text.json:1: error: \"host\": is not an object")" ok "a host that is not an object"
done_testing
