#!/bin/bash
# tests/report/test_read_strict.sh: the results reader is strict where a CI
# gate needs it to be: a member name given twice (redbench, jq and Python
# would otherwise each take a different one) is refused at its line; a
# schema_version newer than this redbench reads is refused naming both
# versions; every number is held to what a run can write (times and rates
# finite and not negative; n, rows, bins and ranks within an experiment
# file's limits, and a value that is not a whole number told those limits,
# not "0 or more"). Each hostile file is made here; each error names the file, the
# line and what is valid, and report, compare and plot all refuse it.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 29

# row JSON...: a results file whose one row is a valid row with the given
# members put after its own (a repeated name replaces nothing: it repeats).
head='{"tool": "redbench", "schema_version": 2,
 "devices": [{"backend": "cpu", "device": 0, "name": "CPU", "peak_gbs": 10}],
 "results": [
  {"run": "a", "plugin": "p", "op": "sum", "dtype": "f32", "n": 1024, "status": "ok",
   "median_ns": 100, "device": 0'
row() { printf '%s%s}\n]}\n' "$head" "${1:+,
   $1}" >"$tmp/f.json"; }

# refused MESSAGE NAME: report refuses f.json with exit 2 and no output,
# its error at f.json:LINE and holding MESSAGE.
refused() { "$rb" report "$tmp/f.json" --format csv >"$tmp/out" 2>"$tmp/err"; local s=$?
  if [ $s = 2 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$1" "$tmp/err"; then echo ok; else
    echo "exit $s: $(cat "$tmp/err")"; fi; }

row ""
"$rb" report "$tmp/f.json" --format csv >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "the valid row is read"
cp "$tmp/f.json" "$tmp/good.json"

# A name twice: in a row, at the top, in a nested object.
row '"median_ns": 1'
is "$(refused 'f.json:6: error: the member "median_ns" is given twice in one object (first at line 5); give each name once')" ok "a row's median given twice: refused at the second's line"
printf '{"tool": "redbench",\n "results": [],\n "results": [{"run": "a"}]}\n' >"$tmp/f.json"
is "$(refused 'f.json:3: error: the member "results" is given twice')" ok "the results array given twice"
row '"params": {"block": 1, "block": 2}'
is "$(refused 'f.json:6: error: the member "block" is given twice')" ok "a parameter given twice"
row '"status": "ok"'
"$rb" compare "$tmp/good.json" "$tmp/f.json" >"$tmp/out" 2>"$tmp/err"
ok "compare refuses it too (exit 2, the file and line named)" \
  bash -c "[ $? = 2 ] && grep -qF 'f.json:6: error: the member \"status\" is given twice' '$tmp/err'"
"$rb" plot "$tmp/f.json" -o "$tmp/plots" >"$tmp/out" 2>"$tmp/err"
ok "plot refuses it too" bash -c "[ $? = 2 ] && grep -qF 'f.json:6: error: the member \"status\"' '$tmp/err'"

# schema_version.
sed 's/"schema_version": 2/"schema_version": 3/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused 'f.json:1: error: "schema_version" is 3, newer than this redbench reads (2, redbench')" ok "a newer schema_version: both versions named"
sed 's/"schema_version": 2/"schema_version": 99999999999999999999999/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused '"schema_version": is 99999999999999999999999; valid: a whole number from 1 to 2')" ok "a schema_version beyond 64 bits"
for v in 0 -1 '"2"' 2.5 null; do
  sed "s/\"schema_version\": 2/\"schema_version\": $v/" "$tmp/good.json" >"$tmp/f.json"
  is "$(refused 'valid: a whole number from 1 to 2')" ok "schema_version $v is refused"
done
sed 's/"schema_version": 2, *//; s/"schema_version": 2//' "$tmp/good.json" >"$tmp/f.json"
"$rb" report "$tmp/f.json" --format csv >/dev/null 2>"$tmp/err"
is "$?" 0 "a file without schema_version (version 1) is read"

# Numbers within what a run writes.
sed 's/"median_ns": 100/"median_ns": -5/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused 'f.json:5: error: results[0]: "median_ns": is negative; valid: nanoseconds, a finite number 0 or more')" ok "a negative median"
sed 's/"median_ns": 100/"median_ns": 1e999/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused '"median_ns": is too large for a double; valid: nanoseconds')" ok "a median that overflows a double (infinite)"
row '"stddev_ns": -1e-300'
is "$(refused '"stddev_ns": is negative')" ok "a negative standard deviation"
row '"bandwidth_gbs": 1e400'
is "$(refused '"bandwidth_gbs": is too large for a double; valid: GB/s')" ok "an infinite bandwidth"
row '"error_ratio": -2'
is "$(refused '"error_ratio": is negative')" ok "a negative error ratio"
sed 's/"n": 1024/"n": 0/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused 'f.json:4: error: results[0]: "n": is 0; valid: elements from 1 to 1099511627776, as an experiment file allows')" ok "n = 0, which an experiment file refuses"
sed 's/"n": 1024/"n": 1099511627777/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused '"n": is 1099511627777; valid: elements from 1 to 1099511627776')" ok "n beyond 2^40"
row '"bins": 0'
is "$(refused '"bins": is 0; valid: histogram bins from 1 to 256, as an experiment file allows')" ok "bins = 0"
row '"ranks": 0'
is "$(refused '"ranks": is 0; valid: ranks from 1 to 4096')" ok "ranks = 0"
row '"rows": 0'
is "$(refused 'f.json:6: error: results[0]: "rows": is 0; valid: rows from 1 to 2147483648, as an experiment file allows')" ok "rows = 0"
for v in -1 '"x"' 2.5; do
  row "\"rows\": $v"
  is "$(refused "\"rows\": is $v; valid: a whole number (or a string of its digits), rows from 1 to 2147483648, as an experiment file allows; or null")" ok \
    "rows = $v: the message names the rows that are valid (not 0 or more)"
done
sed 's/"n": 1024/"n": -1/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused '"n": is -1; valid: a whole number (or a string of its digits), elements from 1 to 1099511627776')" ok \
  "n = -1: the elements that are valid"
sed 's/"peak_gbs": 10/"peak_gbs": -10/' "$tmp/good.json" >"$tmp/f.json"
is "$(refused 'f.json:2: error: devices[0]: "peak_gbs": is negative')" ok "a device's negative peak"
done_testing
