#!/bin/sh
# tests/packs/nccl/test_nccl_faults.sh: a rank killed inside an NCCL
# collective, on two GPUs. tests/packs/nccl/nccl-crash.cu (ncclAllReduce
# with rank 1 aborting in its third run, right after issuing the
# collective, so that rank 0 waits inside NCCL's kernel for a peer that is
# gone) is built here with nvcc and NCCL. Its crashing rows must fail
# naming rank 1, the run must end well within the experiment's timeout
# (rank 0 is ended, not waited for), and every row after a crash must be
# `ok` with its probes passed, in a fresh group. Skips without nvcc, NCCL,
# jq, the cuda pack or two GPUs; NCCL_NVLS_ENABLE=0 as everywhere.
. "$top_srcdir/tests/lib.sh"
export NCCL_NVLS_ENABLE=0

[ -n "${JQ:-}" ] || skip_all "jq not found"
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || skip_all "nvcc not found"
cuda_probe
[ "$probe_status" = ok ] || skip_all "the cuda probe row is $probe_status: $probe_reason"
gpus=$(gpu_count)
[ "${gpus:-0}" -ge 2 ] || skip_all "two GPUs are needed; this machine has ${gpus:-0}"
mkdir -p "$tmp/plugins"
"$nvcc" -std=c++20 -O2 -shared -Xcompiler -fPIC -cudart static \
  -gencode arch=compute_90,code=sm_90 -I"$top_srcdir/sdk" \
  "$top_srcdir/tests/packs/nccl/nccl-crash.cu" -o "$tmp/plugins/nccl-crash.so" -lnccl \
  >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log" | tail -n 5; skip_all "NCCL not found by nvcc"; }

plan 5
{ experiment_header faults timeout=120 warmup=0 min_reps=4 max_reps=4
  printf '[data]\nop = sum\ndtype = f32\nn = 1K, 1M\nranks = 2\n'
  printf '[run c]\nplugin = nccl-crash\nbug = none, crash\nresult = vector\n'
} >"$tmp/faults.ini"
start=$(date +%s)
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/faults.ini" --format json -o "$tmp/faults.json" \
  >"$tmp/out" 2>"$tmp/err"
st=$? took=$(( $(date +%s) - start ))
is "$st" 1 "a rank killed inside the collective: exit 1"
is "$("$JQ" -r '[.results[] | select(.params.bug == "crash") | .status] | unique | join(" ")' "$tmp/faults.json")" \
  failed "  its rows failed"
ok "  naming rank 1" sh -c "[ \$(\"$JQ\" '[.results[] | select(.params.bug == \"crash\") | select(.reason | test(\"rank 1\"))] | length' '$tmp/faults.json') -eq 2 ]"
is "$("$JQ" -r '[.results[] | select(.params.bug == "none") | "\(.status) \(.probes)"] | unique | join(",")' "$tmp/faults.json")" \
  "ok passed" "  every other row ok with its probes passed, the one after a crash in a fresh group"
ok "  the run ended in ${took}s, not at the 120 s timeout" test "$took" -lt 100
"$JQ" -r '.results[] | "# \(.params.bug) n=\(.n): \(.status) \(.reason)"' "$tmp/faults.json"
done_testing
