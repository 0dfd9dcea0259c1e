#!/bin/sh
# tests/packs/p2p/test_p2p.sh: the p2p pack on the GPUs of one machine.
# oneshot (its input copied to a stage, and read in place) and twoshot, at
# 2 ranks and at every GPU of the machine (when more than 2), must be `ok`
# with every probe passed for sum, min and max of i32 and f64 (f32 under
# graph timing) at n = 1, 1001 and 2^20 + 3 per rank (not multiples
# of the ranks, the blocks or the vector width), both as the one value and
# as the n-element vector judged element by element, and under
# `timing = graph`. The planted-bug twins in tests/run/judge/ must be
# caught: p2p-skip-peer (one rank's input left out) `wrong` on every row,
# p2p-stale (a barrier that only waits the first time) `wrong` on at least
# one row; p2p-no-fence (the closing flags set with no system fence) is
# run and what the judge saw is reported (a missing fence need not show),
# as is p2p-one-stage's (oneshot's input copy not double-buffered).
# compute-sanitizer's memcheck and racecheck, over every rank, find
# nothing in oneshot and twoshot on 2 ranks. Skips without nvcc, jq, the
# cuda pack, or two GPUs; NCCL_NVLS_ENABLE=0 as everywhere.
. "$top_srcdir/tests/lib.sh"
export NCCL_NVLS_ENABLE=0

[ -n "${JQ:-}" ] || skip_all "jq not found"
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || skip_all "nvcc not found"
cuda_probe
[ "$probe_status" = ok ] || skip_all "the cuda probe row is $probe_status: $probe_reason"
gpus=$(gpu_count)
[ "${gpus:-0}" -ge 2 ] || skip_all "the p2p pack needs two GPUs; this machine has ${gpus:-0}"
ranks=2
[ "$gpus" -gt 2 ] && ranks="2, $gpus"
[ "$gpus" -gt 8 ] && ranks="2, 8"

mkdir -p "$tmp/plugins"
for twin in p2p-skip-peer p2p-stale p2p-no-fence p2p-one-stage; do
  "$nvcc" -std=c++20 -O2 -shared -Xcompiler -fPIC -cudart static \
    -gencode arch=compute_90,code=sm_90 \
    -I"$top_srcdir/sdk" "$top_srcdir/tests/run/judge/$twin.cu" -o "$tmp/plugins/$twin.so" \
    >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build $twin"; }
done

sanitizer=${COMPUTE_SANITIZER:-}
if [ -z "$sanitizer" ]; then
  for c in compute-sanitizer /usr/local/cuda/bin/compute-sanitizer; do
    command -v "$c" >/dev/null 2>&1 && { sanitizer=$c; break; }
  done
fi

plan 9
header() { _h=$1; shift; experiment_header "$_h" timeout=300 seed=20261128 "$@"; }
rows() { "$JQ" -r ".results[] | select($2) | \"\(.plugin) \(.params) \(.op) \(.dtype) n=\(.n) ranks=\(.ranks): \(.status) \(.probes): \(.reason)\"" "$1"; }
none() { out=$(rows "$1" "$2"); [ -z "$out" ] && [ -s "$1" ] && return 0; echo "$out" | head -n 20; return 1; }

{ header strategies
  printf '[data]\nop = sum, min, max\ndtype = i32, f64\nn = 1, 1001, 1048579\n'
  printf 'ranks = %s\ndistribution = signed\n' "$ranks"
  printf '[run oneshot]\nplugin = p2p/oneshot\nresult = value, vector\nstage = copy, direct\n'
  printf '[run twoshot]\nplugin = p2p/twoshot\nresult = value, vector\n'
} >"$tmp/strategies.ini"
"$rb" -q -c "$tmp/strategies.ini" --format json -o "$tmp/strategies.json" >"$tmp/out" 2>"$tmp/err"
st=$?; [ $st -eq 0 ] || sed 's/^/# /' "$tmp/err" | tail -n 20
ok "oneshot and twoshot ran and exited 0" test $st -eq 0
ok "every row is ok with every probe passed" none "$tmp/strategies.json" '.status != "ok" or .probes != "passed"'
is "$("$JQ" '.results | length' "$tmp/strategies.json")" "$((3 * 2 * 3 * 2 * 3 * $(echo "$ranks" | tr ',' '\n' | wc -l)))" \
  "every configuration has a row"

{ header graph timing=graph
  printf '[data]\nop = sum\ndtype = f32\nn = 1001, 1048579\nranks = %s\n' "$ranks"
  printf '[run oneshot]\nplugin = p2p/oneshot\nresult = vector\nstage = copy, direct\n'
  printf '[run twoshot]\nplugin = p2p/twoshot\nresult = vector\n'
} >"$tmp/graph.ini"
"$rb" -q -c "$tmp/graph.ini" --format json -o "$tmp/graph.json" >"$tmp/out" 2>"$tmp/err" ||
  sed 's/^/# /' "$tmp/err" | tail -n 20
ok "under timing = graph every row is ok, timed by graph" \
  none "$tmp/graph.json" '.status != "ok" or .probes != "passed" or .timing != "graph"'

{ header twins
  printf '[data]\nop = sum\ndtype = i32, f32\nn = 1001, 1048579\nranks = 2\n'
  printf '[run skip]\nplugin = p2p-skip-peer\nresult = value, vector\n'
  printf '[run stale]\nplugin = p2p-stale\nresult = value, vector\n'
  printf '[run no-fence]\nplugin = p2p-no-fence\nresult = value, vector\n'
  printf '[run one-stage]\nplugin = p2p-one-stage\nresult = value, vector\nstage = copy\n'
} >"$tmp/twins.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/twins.ini" --format json -o "$tmp/twins.json" \
  >"$tmp/out" 2>"$tmp/err"
ok "the twins' run exited 1 (wrong answers found)" test $? -eq 1
ok "p2p-skip-peer is wrong on every row" none "$tmp/twins.json" '.plugin == "p2p-skip-peer" and .status != "wrong"'
stale=$("$JQ" '[.results[] | select(.plugin == "p2p-stale" and .status == "wrong")] | length' "$tmp/twins.json")
ok "p2p-stale is wrong on at least one row ($stale of 8)" test "${stale:-0}" -ge 1
fence=$("$JQ" -r '[.results[] | select(.plugin == "p2p-no-fence") | .status] | join(" ")' "$tmp/twins.json")
echo "# p2p-no-fence: $fence"
echo "# p2p-one-stage: $("$JQ" -r '[.results[] | select(.plugin == "p2p-one-stage") | .status] | join(" ")' "$tmp/twins.json")"
rows "$tmp/twins.json" 'true' | sed 's/^/# /'

if [ -z "$sanitizer" ]; then
  skip "compute-sanitizer not found"
else
  { header sanitize
    printf '[data]\nop = sum\ndtype = f32\nn = 1001, 65539\nranks = 2\n'
    printf '[run oneshot]\nplugin = p2p/oneshot\nresult = value, vector\nstage = copy, direct\n'
    printf '[run twoshot]\nplugin = p2p/twoshot\nresult = value, vector\n'
  } >"$tmp/sanitize.ini"
  fails=""
  for tool in memcheck racecheck; do
    "$sanitizer" --tool "$tool" --target-processes all --error-exitcode 9 \
      "$rb" -q -c "$tmp/sanitize.ini" --format json -o "$tmp/san-$tool.json" \
      >"$tmp/san-$tool.out" 2>&1
    st=$?
    errs=$(grep -c 'ERROR SUMMARY: [1-9]' "$tmp/san-$tool.out")
    bad=$("$JQ" '[.results[] | select(.status != "ok")] | length' "$tmp/san-$tool.json" 2>/dev/null)
    [ "$st" -eq 0 ] && [ "$errs" -eq 0 ] && [ "${bad:-1}" -eq 0 ] || {
      fails="$fails $tool(exit $st, $errs reports, ${bad:-?} rows not ok)"
      grep -m 20 -E 'ERROR|Invalid|hazard|error' "$tmp/san-$tool.out" | sed 's/^/# /'; }
  done
  ok "compute-sanitizer memcheck and racecheck find nothing on 2 ranks${fails:+:$fails}" test -z "$fails"
fi
done_testing
