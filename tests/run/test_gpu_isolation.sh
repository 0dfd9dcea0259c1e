#!/bin/bash
# tests/run/test_gpu_isolation.sh: a real sticky CUDA error is contained. The
# test plugin tests/run/crashers/cuda-fault.cu (built here with nvcc) faults in
# its kernel when `fault = yes`; that configuration is `failed` and says the
# device is no longer usable, and the configurations after it, of the same
# data group and of another plugin, run in fresh workers and are ok. Skips
# without nvcc, the cuda pack or a GPU.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || skip_all "nvcc not found"
"$rb" --describe cub >/dev/null 2>&1 || skip_all "the cuda pack is not built (no plugin cub)"
# a device first: nvcc takes a minute for nothing where there is none
cuda_probe
[ "$probe_status" = ok ] || skip_all "the cuda probe row is $probe_status: $probe_reason"
mkdir -p "$tmp/plugins"
"$nvcc" -std=c++20 -O2 -shared -Xcompiler -fPIC -cudart static -arch=sm_80 \
  -I"$top_srcdir/sdk" "$top_srcdir/tests/run/crashers/cuda-fault.cu" -o "$tmp/plugins/cuda-fault.so" \
  >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build the test plugin"; }

cat >"$tmp/probe.ini" <<'INI'
[experiment]
rounds = 1
min_time = 0
max_reps = 2
[data]
dtype = i32
n = 1K
[run probe]
plugin = cuda-fault
fault = none
INI
"$rb" -q -c "$tmp/probe.ini" --plugin-path "$tmp/plugins" --format json >"$tmp/probe.json" 2>"$tmp/probe.err"
[ "$("$JQ" -r '.results[0].status' "$tmp/probe.json" 2>/dev/null)" = ok ] ||
  skip_all "the test plugin cannot run here: $("$JQ" -r '.results[0].reason' "$tmp/probe.json" 2>/dev/null || head -n 1 "$tmp/probe.err")"
plan 6

cat >"$tmp/fault.ini" <<'INI'
[experiment]
rounds = 1
warmup = 1
min_time = 0
max_reps = 5
[data]
dtype = i32
n = 1M
[run fault]
plugin = cuda-fault
fault = none, yes, none, none
[run cub]
plugin = cub
INI
"$rb" -q -c "$tmp/fault.ini" --plugin-path "$tmp/plugins" --format json >"$tmp/out.json" 2>"$tmp/err"
is "$?" 1 "a sticky CUDA error: exit status 1"
is "$("$JQ" -r '[.results[]|select(.run=="fault")|.status]|join(" ")' "$tmp/out.json")" "ok failed ok ok" "the faulting configuration fails; the next ones of its group run in a fresh worker"
reason=$("$JQ" -r '.results[1].reason' "$tmp/out.json")
case "$reason" in *"no longer usable"*) r=1;; *) r=0;; esac
is "$r" 1 "... its reason says the device is no longer usable ($reason)"
case "$reason" in *[Ii]llegal*) r=1;; *) r=0;; esac
is "$r" 1 "... and names the CUDA error"
is "$("$JQ" -r '[.results[]|select(.run=="cub")|.status]|join(" ")' "$tmp/out.json")" "ok" "another plugin after it is ok"
is "$("$JQ" -r '[.devices[]|select(.backend=="cuda")]|length' "$tmp/out.json")" 1 "the cuda device is recorded once"
done_testing
