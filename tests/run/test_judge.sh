#!/bin/sh
# tests/run/test_judge.sh: no strategy can make a wrong, partial, stale or
# remembered answer look right. tests/run/judge/buggy.c plants one bug per value
# of its `bug` parameter; every configuration with a bug must be `wrong`,
# and the correct one `ok` with every probe passed. Where the random-input
# check cannot see the bug (f32 sums of signed data at 4M elements, whose
# tolerance exceeds the sum) the reason must say what the probes found.
# Also: `probes = off` and --no-probes make rows unproven, and the in-tree
# cpu strategies pass every probe. Half precision (f16, bf16): the three
# planted bugs of such code (an f16 accumulator, bf16 read as f16, the
# last odd half left out) are `wrong`, and the correct sum and the in-tree
# cpu strategies `ok` and proven.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
plugins=$top_builddir/tests/run/judge/dir

header() { experiment_header "$1" determinism_runs=0 seed=20261124; }

# run NAME [OPTIONS]: runs $tmp/NAME.ini into $tmp/NAME.json.
run() {
  name=$1; shift
  "$rb" -q --plugin-path "$plugins" -c "$tmp/$name.ini" --format json -o "$tmp/$name.json" "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err"
}

# rows NAME FILTER: the rows of NAME.json that FILTER selects, one line each.
rows() {
  "$JQ" -r ".results[] | select($2) | \"\(.run) \(.op) \(.dtype) n=\(.n): \(.status): \(.reason)\"" \
    "$tmp/$1.json"
}

# none_of NAME FILTER: no row is selected by FILTER (prints those that are).
none_of() {
  bad=$(rows "$1" "$2")
  [ -z "$bad" ] && [ -s "$tmp/$1.json" ] && return 0
  echo "$bad" | head -n 20
  return 1
}

# reason_is NAME RUN N PATTERN: the row of run RUN at n = N is wrong, and
# its reason matches PATTERN (an extended regular expression).
reason_is() {
  got=$("$JQ" -r --arg r "$2" --argjson n "$3" \
    '.results[] | select(.run == $r and .n == $n) | "\(.status): \(.reason)"' "$tmp/$1.json")
  echo "$got" | grep -qE "^wrong: $4" && return 0
  echo "got: $got"
  echo "want: wrong: $4"
  return 1
}

plan 32

# --- every planted bug is caught, at small, odd and large n --------------
{ header gallery
  cat <<EOF
[data]
distribution = signed
[run none]
plugin = buggy
bug = none
op = sum, min, max, argmax
dtype = i32, i64, f32, f64, u8
n = 1, 2, 1001, 1000001
[run none-hist]
plugin = buggy
bug = none
op = histogram
dtype = u8
n = 1, 1001, 1000001
[run sums]
plugin = buggy
bug = drop-last, drop-boundary, lose-block, tail-twice, first-answer, accumulate, constant
op = sum
dtype = i32, i64, f32, f64, u8
n = 1001, 1000001
[run extremes]
plugin = buggy
bug = drop-last, drop-boundary, tail-twice, first-answer, accumulate, half, constant
op = min, max, argmax
dtype = i32, i64, f32, f64, u8
n = 1001, 1000001
[run hist]
plugin = buggy
bug = drop-last, lose-block, tail-twice, first-answer, accumulate, half, constant, hist-last
op = histogram
dtype = u8
n = 1001, 1000001
EOF
} >"$tmp/gallery.ini"
run gallery
ok "the gallery ran and exited 1 (wrong rows)" test $? -eq 1
ok "the correct strategy is ok with every probe passed" \
  none_of gallery '(.run | startswith("none")) and (.status != "ok" or .probes != "passed")'
ok "every planted bug is wrong (tail-twice of extremes aside: a repeated element changes no min or max)" \
  none_of gallery '(.run | startswith("none") | not) and .status != "wrong"
    and (((.run == "extremes") and (.params.bug == "tail-twice")) | not)'
ok "a repeated element is harmless to min, max and argmax" \
  none_of gallery '.run == "extremes" and .params.bug == "tail-twice" and .status != "ok"'
ok "planted bugs are caught at every size and dtype (rows counted)" \
  test "$("$JQ" '[.results[] | select(.status == "wrong")] | length' "$tmp/gallery.json")" -eq \
       $(( 7*5*2 + 6*3*5*2 + 8*2 ))

# --- where only the probes can see it: f32 sums of signed data at 4M ------
{ header blind | sed 's/^warmup = 1$/warmup = 0/; s/^max_reps = 2$/max_reps = 1/'
  cat <<EOF
[data]
op = sum
dtype = f32
distribution = signed
n = 4194303
EOF
  # one run a bug, named after it, and the correct one
  for bug in drop-last drop-boundary lose-block tail-twice first-answer accumulate constant; do
    printf '[run %s]\nplugin = buggy\nbug = %s\n' "$bug" "$bug"
  done
  printf '[run none]\nplugin = buggy\n'
} >"$tmp/blind.ini"
run blind
ok "at 4M the random-input check alone passes a sum of 0 (why the probes exist)" \
  "$JQ" -e '.results[] | select(.run == "constant") | .reason | test("^probe 1: the sum is 0")' \
  "$tmp/blind.json"
ok "... and the table's notes say a probe found it (its err/tol on the row's input passes)" \
  grep -qE '^ *[0-9]+ +constant .* probe(,[a-z_]+)* +wrong *$' "$tmp/blind.out"
ok "the last element left out is named" \
  reason_is blind drop-last 4194303 'probe 1: the element at index 4194302 \(the last\) was not counted'
ok "the element at a 2^k boundary left out is named" \
  reason_is blind drop-boundary 4194303 'probe 1: the element at index 2097152 \(2\^21\) was not counted'
ok "a lost block is found" \
  reason_is blind lose-block 4194303 'probe 1: the element at index 2097151 \(just below 2\^21\) was not counted'
ok "the tail counted twice is found" \
  reason_is blind tail-twice 4194303 'probe 1: the elements? at index .*4194302 \(the last\).* counted twice'
ok "the first call's answer returned ever after is found" \
  reason_is blind first-answer 4194303 'probe 1: the answer of an earlier call was returned'
ok "accumulating across calls is found" \
  reason_is blind accumulate 4194303 'probe 1: the sum .* plus an earlier call.s answer: the plugin accumulates across calls'
ok "the correct f32 sum at 4M is proven" \
  "$JQ" -e '.results[] | select(.run == "none") | .status == "ok" and .probes == "passed" and .probes_passed == 3' \
  "$tmp/blind.json"

# --- min, max, argmax over half the input; a histogram without its last byte
{ header half
  cat <<EOF
[data]
distribution = small
n = 1000001
[run half]
plugin = buggy
bug = half
op = min, max, argmax
dtype = i32, f64
[run hist-last]
plugin = buggy
bug = hist-last
op = histogram
dtype = u8
distribution = float-bytes
EOF
} >"$tmp/half.ini"
run half
ok "a max over half the input misses the planted maximum at the last element" \
  "$JQ" -e '[.results[] | select(.run == "half" and .op == "max")
    | .reason | test("^probe 1: the one maximum, -99 at index 1000000 \\(the last\\), was not seen")] | all and length == 2' \
  "$tmp/half.json"
ok "a min over half the input misses the planted minimum" \
  "$JQ" -e '[.results[] | select(.run == "half" and .op == "min") | .reason | test("^probe 1: the one minimum, 99 at index 1000000")] | all and length == 2' \
  "$tmp/half.json"
ok "argmax over half the input is wrong" \
  "$JQ" -e '[.results[] | select(.run == "half" and .op == "argmax") | .status == "wrong"] | all and length == 2' \
  "$tmp/half.json"
ok "a histogram that ignores the last byte is wrong" \
  "$JQ" -e '.results[] | select(.run == "hist-last") | .status == "wrong"' "$tmp/half.json"

# --- half precision: f16 and bf16, the three bugs of half-precision code ----
{ header halves
  cat <<EOF
[data]
distribution = uniform
[run none]
plugin = buggy
bug = none
op = sum, min, max, argmax
dtype = f16, bf16
n = 1, 2, 1001, 1000001
[run none-signed]
plugin = buggy
op = sum
dtype = f16, bf16
distribution = signed
n = 1001, 1000001
[run half-acc]
plugin = buggy
bug = half-acc
op = sum
dtype = f16, bf16
n = 1001, 1000001
[run bf16-as-f16]
plugin = buggy
bug = bf16-as-f16
op = sum, min, max, argmax
dtype = bf16
n = 1001, 1000001
[run drop-odd]
plugin = buggy
bug = drop-odd
op = sum, min, max, argmax
dtype = f16, bf16
n = 1001, 1000001
EOF
} >"$tmp/halves.ini"
run halves
ok "halves: the gallery ran and exited 1 (wrong rows)" test $? -eq 1
ok "halves: the correct strategy is ok with every probe passed" \
  none_of halves '(.run | startswith("none")) and (.status != "ok" or .probes != "passed")'
ok "halves: every planted bug is wrong" \
  none_of halves '(.run | startswith("none") | not) and .status != "wrong"'
ok "halves: the planted bugs' rows ran (28 wrong)" \
  test "$("$JQ" '[.results[] | select(.status == "wrong")] | length' "$tmp/halves.json")" -eq 28
ok "halves: an f16 accumulator stalls at 2048 on a sum of 1M values below 1" \
  "$JQ" -e '.results[] | select(.run == "half-acc" and .dtype == "f16" and .n == 1000001)
    | .result == "2048" and (.expected | tonumber) > 400000' "$tmp/halves.json"
ok "halves: the last odd half left out is named by a probe (f16 and bf16)" \
  "$JQ" -e '[.results[] | select(.run == "drop-odd" and .op == "sum" and .n == 1000001)
    | .reason | test("index 1000000 \\(the last\\) was not counted")] | all and length == 2' "$tmp/halves.json"

# --- probes = off and --no-probes: unproven rows ---------------------------
{ header off
  cat <<EOF
probes = off
[data]
op = sum
dtype = f32
distribution = signed
n = 4194303
[run constant]
plugin = buggy
bug = constant
EOF
} >"$tmp/off.ini"
run off
ok "probes = off: a sum of 0 passes the random-input check alone" \
  "$JQ" -e '.results[0].status == "ok" and .results[0].probes == "off"' "$tmp/off.json"
ok "probes = off: the JSON records it" "$JQ" -e '.experiment.probes == false or .settings.probes == false or ([.. | objects | select(has("probes")) | .probes] | index(false) != null)' "$tmp/off.json"
sed '/probes = off/d' "$tmp/off.ini" >"$tmp/flag.ini"
run flag --no-probes
ok "--no-probes: the row is ok and unproven" \
  "$JQ" -e '.results[0].status == "ok" and .results[0].probes == "off"' "$tmp/flag.json"
run flag
ok "without --no-probes the same row is wrong" \
  "$JQ" -e '.results[0].status == "wrong"' "$tmp/flag.json"
printf '[experiment]\nprobes = maybe\n[run a]\nplugin = buggy\n' >"$tmp/bad.ini"
"$rb" --plugin-path "$plugins" --dry-run -c "$tmp/bad.ini" >"$tmp/bad.out" 2>&1
ok "probes = maybe is refused with the valid words" \
  sh -c "test $? -eq 2 && grep -q 'bad.ini:2' '$tmp/bad.out' && grep -q 'valid: on' '$tmp/bad.out'"

# --- the in-tree cpu strategies pass every probe ------------------------------
{ header intree
  cat <<EOF
[data]
distribution = uniform
[run serial]
plugin = serial
op = sum, min, max, argmax
dtype = i32, i64, f32, f64
n = 1, 3, 1000001
[run threads]
plugin = threads
op = sum, min, max, histogram
dtype = i32, f64, u8
n = 1, 1000001, 4194305
[run unrolled]
plugin = unrolled
op = sum, max
dtype = i32, f32
n = 7, 1000001
[run kahan]
plugin = kahan
op = sum
dtype = f32, f64
n = 1, 1000001, 4194305
[run serial-halves]
plugin = serial
acc = native, f64
op = sum, min, max
dtype = f16, bf16
distribution = signed
n = 1, 1001, 1000001
[run unrolled-halves]
plugin = unrolled
op = sum, min, max
dtype = f16, bf16
distribution = signed
n = 1, 1001, 1000001
[run threads-halves]
plugin = threads
op = sum, min, max
dtype = f16, bf16
n = 1, 1001, 4194305
[run kahan-halves]
plugin = kahan
op = sum
dtype = f16, bf16
n = 3, 1000001
EOF
} >"$tmp/intree.ini"
"$rb" -q -c "$tmp/intree.ini" --format json -o "$tmp/intree.json" >/dev/null 2>"$tmp/intree.err"
ok "every in-tree cpu row that ran is ok and proven" \
  none_of intree '.status != "unsupported" and (.status != "ok" or .probes != "passed")'
ok "the in-tree cpu rows ran (more than 20 proven)" \
  test "$("$JQ" '[.results[] | select(.probes == "passed")] | length' "$tmp/intree.json")" -gt 20
# serial: 18 native rows and 6 f64 sums; unrolled, threads: 18 each; kahan: 4
ok "every in-tree cpu strategy sums f16 and bf16 and finds their min and max, proven (64 rows)" \
  test "$("$JQ" '[.results[] | select((.dtype == "f16" or .dtype == "bf16") and .probes == "passed")] | length' "$tmp/intree.json")" -eq 64

done_testing
