#!/bin/sh
# tests/packs/cuda/test_gpu_repro.sh: the host's reproducibility levels on a
# GPU. The cuda pack's repro sum, over every block (256, 512, 1024), batch
# (4, 8, 16), grid (0: a block per tile, 7) and order, on f32 and bf16 at
# n = 1001, 2^20 + 3 and 2^24 + 1 (RB_GPU_TEST_LARGE=0: the first two), must
# be `ok` (batch 16 declined at block 1024) and judged layout-independent;
# its planted twin (tests/packs/cuda/repro-twin.cu, whose tree follows the
# block size) `ok` but judged run-to-run on f32 at 2^20 + 3 over signed data.
# The twin is judged on signed data because the bits show a tree there: over
# U[0,1) the partial sums' rounding is lost in the total's (a host model of
# both trees on this input, seed 20261206: the same f32 total at 2^20 + 3
# over uniform data, different totals over signed data), and bf16 sums of
# these sizes are exact in f32 whatever the tree. Onepass with a
# last-block finish (deterministic, its tree follows block and batch)
# run-to-run; its i32 rows exact. CUB's sum under a determinism requirement
# (cub-deterministic) ok and run-to-run, or declined naming its CCCL where
# that has none; its twin (tests/packs/cuda/cub-deterministic-twin.cu: no
# storage handed to CUB, which then reduces nothing) wrong. The twin is
# built with $CUDA_CCCL_FLAGS, as the pack's plugin may be. Skips without
# nvcc, jq or a device.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || skip_all "nvcc not found"
cuda_probe
[ "$probe_status" = ok ] || skip_all "no cuda device: $probe_reason"
mkdir -p "$tmp/plugins"
"$nvcc" -std=c++20 -O3 -shared -Xcompiler -fPIC -cudart static \
  -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 \
  -I"$top_srcdir/sdk" "$top_srcdir/tests/packs/cuda/repro-twin.cu" -o "$tmp/plugins/repro-twin.so" \
  >"$tmp/nvcc.log" 2>&1 || { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build the twin"; }
# cub-deterministic's twin, with the CCCL the pack's was built with
"$nvcc" ${CUDA_CCCL_FLAGS:-} -std=c++20 -O3 -shared -Xcompiler -fPIC -cudart static \
  -gencode arch=compute_90,code=sm_90 -I"$top_srcdir/sdk" \
  "$top_srcdir/tests/packs/cuda/cub-deterministic-twin.cu" \
  -o "$tmp/plugins/cub-deterministic-twin.so" >"$tmp/nvcc.log" 2>&1 ||
  { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build cub-deterministic's twin"; }

sizes="1001, 1048579, 16777217"
[ "${RB_GPU_TEST_LARGE:-1}" = 0 ] && sizes="1001, 1048579"
{ experiment_header repro determinism_runs=2 timeout=600 seed=20261206
  printf '[data]\nop = sum\nn = %s\n' "$sizes"
  printf '[run repro]\nplugin = repro\ndtype = f32, bf16\nblock = 256, 512, 1024\n'
  printf 'distribution = uniform, signed\n'
  printf 'batch = 4, 8, 16\ngrid = 0, 7\norder = forward, alternate\n'
  printf '[run twin]\nplugin = repro-twin\ndtype = f32\nn = 1048579\ndistribution = signed\n'
  printf 'block = 256, 1024\nbatch = 8\n'
  printf '[run onepass]\nplugin = onepass\ndtype = f32\nn = 1048579\nblock = 256, 1024\n'
  printf 'batch = 4, 8\nfinish = last-block\n'
  printf '[run int]\nplugin = onepass\ndtype = i32\nn = 1048579\nblock = 256, 1024\n'
  printf '[run cub-det]\nplugin = cub-deterministic\ndtype = f32\nn = 1048579\n'
  printf 'distribution = signed\ndeterminism = gpu-to-gpu, run-to-run\n'
  printf '[run cub-det-twin]\nplugin = cub-deterministic-twin\ndtype = f32\nn = 1048579\n'
} >"$tmp/repro.ini"
"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/repro.ini" --format json -o "$tmp/repro.json" \
  >"$tmp/repro.out" 2>&1
status=$?
plan 9
# A wrong row makes the exit status 1: the twin's, when its CCCL runs it.
want=0
[ -n "$("$JQ" -r '.results[] | select(.run == "cub-det-twin" and .status == "wrong") | .run' \
  "$tmp/repro.json" 2>/dev/null)" ] && want=1
is "$status" "$want" "the run exits $want (1 only for the twin's wrong rows)"
[ "$status" = "$want" ] || tail -n 5 "$tmp/repro.out" | sed 's/^/# /'
rows() {
  "$JQ" -r ".results[] | select($1)
    | \"\(.run) \(.params_text) \(.dtype) n=\(.n): \(.status) \(.repro) \(.reason)\"" \
    "$tmp/repro.json"
}
none() {
  out=$(rows "$1")
  [ -z "$out" ] && return 0
  echo "$out" | head -n 10 | sed 's/^/# /'
  return 1
}
ok "repro: every layout ok but batch 16 at block 1024 (declined)" \
  none '.run == "repro" and .status != "ok" and
        (.status != "unsupported" or .params.block != 1024 or .params.batch != 16)'
ok "repro: some rows ran" test -n "$(rows '.run == "repro" and .status == "ok"')"
ok "repro: every ok row layout-independent" \
  none '.run == "repro" and .status == "ok" and .repro != "layout-independent"'
ok "twin: ok, and judged run-to-run (f32, signed, 2^20 + 3)" \
  none '.run == "twin" and (.status != "ok" or .repro != "run-to-run")'
ok "onepass last-block: run-to-run" none '.run == "onepass" and .repro != "run-to-run"'
ok "onepass i32: exact" none '.run == "int" and .repro != "exact"'
ok "cub-deterministic: ok and run-to-run at least, or declined naming the CCCL it was built with" \
  none '.run == "cub-det" and ((.status == "ok" and .repro != "run-to-run" and
        .repro != "layout-independent") or (.status != "ok" and
        (.status != "unsupported" or (.reason | test("CCCL") | not))))'
ok "cub-deterministic's twin (no storage handed to CUB): wrong, or declined as its original" \
  none '.run == "cub-det-twin" and .status != "wrong" and
        (.status != "unsupported" or (.reason | test("CCCL") | not))'
done_testing
