#!/bin/sh
# tests/run/test_gpu_judge.sh: the judge on a GPU. tests/run/judge/buggy.cu, the
# cuda twin of tests/run/judge/buggy.c, is built here with nvcc (as a plugin
# author builds one: the SDK headers, the runtime linked statically) and
# every planted bug must be reported `wrong` at small, odd and large n (up
# to 2^30 + 1, odd so that a missing tail shows; RB_GPU_TEST_LARGE=0 stops
# at 2^24 + 1), the correct kernel `ok` with every probe passed at up to
# 2^30. tests/run/judge/onepass-tail.cu, the cuda pack's onepass with its grid
# rounded down (the last partial block never launched), must be `wrong`
# at n = 2^20 + 3 and 2^26 + 7, where the real onepass is `ok` with every
# probe passed, in either order and with every finish;
# tests/run/judge/onepass-reverse.cu, whose reversed calls skip slice 0, must
# be `wrong` there too. The cuda pack's pattern (the published one-pass sum)
# must be `ok` with every probe passed at those sizes and at n = 1, 3 and
# 1001, where tests/run/judge/pattern-tail.cu (the n % 4 elements after its last
# vector left out) and pattern-no-reset.cu (no memset of its result: each
# call adds onto the one before) must be `wrong`. Half precision: buggy.cu's
# three bugs of f16 and bf16 code (half-acc, bf16-as-f16, drop-odd) are
# `wrong` and its correct f16 and bf16 kernel `ok`, as are cub's. Skips
# without nvcc, jq or a device.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || skip_all "nvcc not found"
large=${RB_GPU_TEST_LARGE:-1}
# a device first (the cuda pack's cub): the three nvcc builds below take
# minutes for nothing where there is none
cuda_probe
[ "$probe_status" = ok ] || skip_all "the cuda probe row is $probe_status: $probe_reason"
mkdir -p "$tmp/plugins"
"$nvcc" -std=c++20 -O2 -shared -Xcompiler -fPIC -cudart static \
  -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 \
  -I"$top_srcdir/sdk" "$top_srcdir/tests/run/judge/buggy.cu" -o "$tmp/plugins/buggy-cuda.so" \
  >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build the test plugin"; }
"$nvcc" -std=c++20 -O2 -shared -Xcompiler -fPIC -cudart static \
  -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 \
  -I"$top_srcdir/sdk" "$top_srcdir/tests/run/judge/onepass-tail.cu" -o "$tmp/plugins/onepass-tail.so" \
  >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build the test plugin"; }
for twin in onepass-reverse pattern-tail pattern-no-reset; do
  "$nvcc" -std=c++20 -O2 -shared -Xcompiler -fPIC -cudart static \
    -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 \
    -I"$top_srcdir/sdk" "$top_srcdir/tests/run/judge/$twin.cu" -o "$tmp/plugins/$twin.so" \
    >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build $twin"; }
done

header() { experiment_header "$1" determinism_runs=0 timeout=600 seed=20261124; }

# Is there a device?
{ header probe; printf '[run probe]\nplugin = buggy-cuda\nop = sum\ndtype = i32\nn = 1\n'; } >"$tmp/probe.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/probe.ini" --format json -o "$tmp/probe.json" >/dev/null 2>&1
status=$("$JQ" -r '.results[0].status' "$tmp/probe.json" 2>/dev/null)
[ "$status" = ok ] || skip_all "the buggy-cuda probe row is ${status:-missing}: $("$JQ" -r '.results[0].reason' "$tmp/probe.json" 2>/dev/null)"

big=1G odd=1073741825
[ "$large" = 0 ] && big=16777217 odd=16777217
plan 19
{ header gallery
  printf '[data]\ndistribution = signed\n'
  printf '[run none]\nplugin = buggy-cuda\nbug = none\nop = sum, min, max\n'
  printf 'dtype = i32, i64, f32, f64\nn = 1, 1001, 1000001, %s\n' "$big"
  printf '[run none-hist]\nplugin = buggy-cuda\nbug = none\nop = histogram\ndtype = u8\n'
  printf 'n = 1, 1000001, %s\n' "$big"
  printf '[run sums]\nplugin = buggy-cuda\n'
  printf 'bug = drop-last, drop-boundary, lose-block, tail-twice, first-answer, accumulate, constant\n'
  printf 'op = sum\ndtype = i32, i64, f32, f64\nn = 1001, 1000001, %s\n' "$odd"
  printf '[run extremes]\nplugin = buggy-cuda\n'
  printf 'bug = drop-last, drop-boundary, first-answer, accumulate, half, constant\n'
  printf 'op = min, max\ndtype = i32, f32, f64\nn = 1001, 1000001, %s\n' "$odd"
  printf '[run hist]\nplugin = buggy-cuda\n'
  printf 'bug = drop-last, lose-block, tail-twice, first-answer, accumulate, half, constant, hist-last\n'
  printf 'op = histogram\ndtype = u8\nn = 1001, 1000001, %s\n' "$odd"
} >"$tmp/gallery.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/gallery.ini" --format json -o "$tmp/gallery.json" \
  >"$tmp/gallery.out" 2>"$tmp/gallery.err"
ok "the gallery ran and exited 1" test $? -eq 1
rows() {
  "$JQ" -r ".results[] | select($1) | \"\(.run) \(.params) \(.op) \(.dtype) n=\(.n): \(.status): \(.reason)\"" \
    "$tmp/gallery.json"
}
none() { out=$(rows "$1"); [ -z "$out" ] && [ -s "$tmp/gallery.json" ] && return 0; echo "$out" | head -n 20; return 1; }
ok "the correct kernel is ok with every probe passed at every size" \
  none '(.run | startswith("none")) and (.status != "ok" or .probes != "passed")'
ok "every planted bug is wrong at every size" \
  none '(.run | startswith("none") | not) and .status != "wrong"'
ok "f32 sums: the last element left out is named at n = 1000001" \
  "$JQ" -e '[.results[] | select(.run == "sums" and .params.bug == "drop-last" and .dtype == "f32" and .n == 1000001)
    | .reason | test("the element at index 1000000 \\(the last\\) was not counted")] | all and length == 1' \
  "$tmp/gallery.json"
ok "f32 sums at the largest size: a lost block is found by a probe" \
  "$JQ" -e '[.results[] | select(.run == "sums" and .params.bug == "lose-block" and .dtype == "f32" and .n > 2000000)
    | .reason | test("^probe")] | all and length == 1' "$tmp/gallery.json"
ok "remembered answers are found" \
  "$JQ" -e '[.results[] | select(.run == "sums" and .params.bug == "first-answer") | .reason | test("earlier call")] | all and length == 12' \
  "$tmp/gallery.json"
# onepass with the grid rounded down: the last partial block (and the
# scalars after the last whole vector, which it reads) is lost. Its f32
# sums pass the random input's check (a few values in [-1, 1) are within
# the bound) and a probe finds them; its i32 sums are wrong by the exact
# check. The real onepass (from the build tree's plugins/) is proven.
{ header onepass
  printf '[data]\ndistribution = signed\nop = sum\ndtype = f32, i32\n'
  printf 'n = 1048579, 67108871\n' # 2^20 + 3, 2^26 + 7
  printf '[run tail]\nplugin = onepass-tail\nfinish = atomic, last-block\n'
  printf '[run onepass]\nplugin = onepass\nfinish = atomic, last-block, tagged\n'
  printf 'order = forward, alternate\n'
  printf '[run reverse]\nplugin = onepass-reverse\nfinish = atomic\norder = alternate\n'
} >"$tmp/onepass.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/onepass.ini" --format json -o "$tmp/onepass.json" \
  >"$tmp/onepass.out" 2>"$tmp/onepass.err"
status=$?
ran() { [ "$status" -eq 1 ] && "$JQ" -e '.results | length == 36' "$tmp/onepass.json" >/dev/null && return 0
  echo "exit status $status"; tail -n 5 "$tmp/onepass.err"; return 1; }
ok "onepass, onepass-tail and onepass-reverse: 36 rows, exit status 1" ran
onepass_rows() {
  out=$("$JQ" -r ".results[] | select($1) | \"\(.run) \(.params) \(.dtype) n=\(.n): \(.status) (probes \(.probes)): \(.reason)\"" \
    "$tmp/onepass.json")
  [ -z "$out" ] && [ -s "$tmp/onepass.json" ] && return 0; echo "$out" | head -n 16; return 1
}
ok "onepass (every finish, both orders) is ok with every probe passed at n = 2^20 + 3 and 2^26 + 7" \
  onepass_rows '.run == "onepass" and (.status != "ok" or .probes != "passed")'
ok "onepass-tail: every sum is wrong at n = 2^20 + 3 and 2^26 + 7" \
  onepass_rows '.run == "tail" and .status != "wrong"'
ok "onepass-tail: f32 sums are found by a probe (elements not counted)" \
  "$JQ" -e '[.results[] | select(.run == "tail" and .dtype == "f32")
    | .reason | test("^probe [0-9]+.*not counted")] | all and length == 4' "$tmp/onepass.json"
ok "onepass-reverse: every sum is wrong at n = 2^20 + 3 and 2^26 + 7" \
  onepass_rows '.run == "reverse" and .status != "wrong"'
ok "onepass-reverse: 4 rows" \
  "$JQ" -e '[.results[] | select(.run == "reverse")] | length == 4' "$tmp/onepass.json"
# the pattern and its twins: every sum of the twins wrong, the pattern
# itself proven, at sizes that are not multiples of 4 (and one that is)
{ header pattern
  printf '[data]\ndistribution = signed\nop = sum\ndtype = f32, i32\n'
  printf 'n = 3, 1001, 1048579, 67108871\n' # 2^20 + 3, 2^26 + 7
  printf '[run pattern]\nplugin = pattern\ndtype = f32, i32, f64, i64\nn = 1, 3, 1001, 1048576, 1048579, 67108871\n'
  printf '[run tail]\nplugin = pattern-tail\n'
  printf '[run no-reset]\nplugin = pattern-no-reset\n'
} >"$tmp/pattern.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/pattern.ini" --format json -o "$tmp/pattern.json" \
  >"$tmp/pattern.out" 2>"$tmp/pattern.err"
status=$?
pattern_rows() {
  out=$("$JQ" -r ".results[] | select($1) | \"\(.run) \(.dtype) n=\(.n): \(.status) (probes \(.probes)): \(.reason)\"" \
    "$tmp/pattern.json")
  [ -z "$out" ] && [ -s "$tmp/pattern.json" ] && return 0; echo "$out" | head -n 16; return 1
}
ok "pattern, pattern-tail and pattern-no-reset: 40 rows, exit status 1" \
  sh -c '[ "$1" -eq 1 ] && "$2" -e ".results | length == 40" "$3" >/dev/null' - "$status" "$JQ" "$tmp/pattern.json"
ok "pattern is ok with every probe passed at n = 1 .. 2^26 + 7, every dtype" \
  pattern_rows '.run == "pattern" and (.status != "ok" or .probes != "passed")'
ok "pattern-tail: every sum is wrong at n = 3, 1001, 2^20 + 3 and 2^26 + 7" \
  pattern_rows '.run == "tail" and .status != "wrong"'
ok "pattern-no-reset: every sum is wrong (a call adds onto the one before)" \
  pattern_rows '.run == "no-reset" and .status != "wrong"'
# half precision: the twins of buggy.c's three bugs of f16 and bf16 code
{ header halves
  printf '[data]\ndistribution = uniform\n'
  printf '[run none]\nplugin = buggy-cuda\nop = sum, min, max\ndtype = f16, bf16\n'
  printf 'n = 1, 1001, 1000001, %s\n' "$odd"
  printf '[run cub]\nplugin = cub\nop = sum, min, max, argmax\ndtype = f16, bf16\n'
  printf 'n = 1, 1001, 1000001, %s\n' "$odd"
  printf '[run half-acc]\nplugin = buggy-cuda\nbug = half-acc\nop = sum\ndtype = f16, bf16\n'
  printf 'n = 1001, 1000001\n'
  printf '[run bf16-as-f16]\nplugin = buggy-cuda\nbug = bf16-as-f16\nop = sum, min, max\n'
  printf 'dtype = bf16\nn = 1001, 1000001\n'
  printf '[run drop-odd]\nplugin = buggy-cuda\nbug = drop-odd\nop = sum, min, max\n'
  printf 'dtype = f16, bf16\nn = 1001, 1000001, %s\n' "$odd"
} >"$tmp/halves.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/halves.ini" --format json -o "$tmp/halves.json" \
  >"$tmp/halves.out" 2>"$tmp/halves.err"
status=$?
half_rows() {
  out=$("$JQ" -r ".results[] | select($1) | \"\(.run) \(.op) \(.dtype) n=\(.n): \(.status) (probes \(.probes)): \(.reason)\"" \
    "$tmp/halves.json")
  [ -z "$out" ] && [ -s "$tmp/halves.json" ] && return 0; echo "$out" | head -n 16; return 1
}
# wrong rows: half-acc 4, bf16-as-f16 6, drop-odd 18
ok "halves: 28 planted bugs wrong, exit status 1" \
  sh -c '[ "$1" -eq 1 ] && "$2" -e "[.results[] | select(.status == \"wrong\")] | length == 28" "$3" >/dev/null' \
  - "$status" "$JQ" "$tmp/halves.json"
ok "halves: the correct kernel and cub are ok with every probe passed" \
  half_rows '(.run == "none" or .run == "cub") and (.status != "ok" or .probes != "passed")'
ok "halves: every planted bug of f16 and bf16 code is wrong" \
  half_rows '.run != "none" and .run != "cub" and .status != "wrong"'
done_testing
