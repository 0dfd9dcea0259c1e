#!/bin/bash
# bench/nccl_tests_beside.sh: redbench's element-wise all-reduce set beside
# nccl-tests' all_reduce_perf on the same GPUs, in the same run
# (docs/scale-out.md, docs/results/scale-out-h200.md). It builds nccl-tests
# from its source (NCCL_TESTS_SRC: a copy of github.com/NVIDIA/nccl-tests
# that travels with the tree, since the GPU machine has no network), runs
# all_reduce_perf eager and with CUDA graphs (-G) right before redbench's
# nccl/allreduce with `result = vector` (the all-reduce alone, out of
# place, every element judged) in timing = eager (batches of ITERS calls
# launched back to back, as all_reduce_perf times them) and timing =
# graph, on f32 from 1K to 256M elements per rank (4 KiB to 1 GiB), and
# prints one table: n, redbench's timing mode (beside nccl-tests' eager run
# for eager, device and launch, its -G run for graph), nccl-tests us,
# redbench us, their ratio, busbw of both.
# NCCL's NVLink multicast stays off (NCCL_NVLS_ENABLE=0) in every process.
#   NCCL_TESTS_SRC=DIR bench/nccl_tests_beside.sh GPUS [OUT]
# Run from the build folder (./redbench and plugins/nccl built). Other
# settings: REDBENCH (the program), CUDA_HOME, NCCL_HOME (where nccl.h and
# libnccl are, when not where the compiler looks), NVCC_GENCODE (nccl-
# tests' target GPUs, e.g. -gencode=arch=compute_90,code=sm_90: fewer
# build faster), MAX_BYTES (default 1G), ITERS (nccl-tests' -n, default
# 20), MIN_TIME (redbench's min_time, default 0.2), MODES (redbench's
# timing modes, default "eager graph"; device and launch are the others),
# THREADS=1 (nccl-tests drives each GPU from a thread of its own, -t GPUS
# -g 1, as redbench's ranks each have a process; default: one thread, -g
# GPUS).
set -u
gpus=${1:?usage: NCCL_TESTS_SRC=DIR bench/nccl_tests_beside.sh GPUS [OUT]}
out=${2:-$(mktemp -d)}
src=${NCCL_TESTS_SRC:?set NCCL_TESTS_SRC to a copy of the nccl-tests source}
rb=${REDBENCH:-./redbench}
cuda=${CUDA_HOME:-/usr/local/cuda}
max_bytes=${MAX_BYTES:-1G}
iters=${ITERS:-20}
min_time=${MIN_TIME:-0.2}
modes=${MODES:-eager graph}
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"

# nccl-tests, built once into its own folder (its Makefile writes build/).
build=$out/nccl-tests
if [ ! -x "$build/build/all_reduce_perf" ]; then
  rm -rf "$build"
  cp -r "$src" "$build" || exit 2
  make -C "$build" -j"$(nproc)" MPI=0 CUDA_HOME="$cuda" ${NCCL_HOME:+NCCL_HOME="$NCCL_HOME"} \
    ${NVCC_GENCODE:+NVCC_GENCODE="$NVCC_GENCODE"} >"$out/nccl-tests-build.log" 2>&1 || {
    echo "nccl-tests did not build; see $out/nccl-tests-build.log" >&2
    exit 2
  }
fi
perf=$build/build/all_reduce_perf
if [ -n "${NCCL_HOME:-}" ]; then
  export LD_LIBRARY_PATH=$NCCL_HOME/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# nccl-tests first: one process driving every GPU, f32 sum, out of place.
drive=(-g "$gpus")
[ "${THREADS:-0}" = 1 ] && drive=(-t "$gpus" -g 1)
common=(-b 4K -e "$max_bytes" -f 4 "${drive[@]}" -d float -o sum -w 5 -n "$iters" -c 1)
"$perf" "${common[@]}" >"$out/nccl-tests-eager.txt" 2>&1 || exit 2
"$perf" "${common[@]}" -G 1 >"$out/nccl-tests-graph.txt" 2>&1 || exit 2

# redbench right after, on the same GPUs and sizes.
devices=$(seq -s, 0 $((gpus - 1)))
cat >"$out/beside.ini" <<INI
[experiment]
name = nccl-tests beside
warmup = 5
min_time = $min_time
max_reps = 200
rounds = 1
timeout = 120
devices = $devices
[data]
op = sum
dtype = f32
n = 1K, 4K, 16K, 64K, 256K, 1M, 4M, 16M, 64M, 256M
ranks = $gpus
[run allreduce]
plugin = nccl/allreduce
scheme = allreduce
result = vector
INI
for mode in $modes; do
  batch=()
  [ "$mode" = eager ] && batch=(-D "graph_calls=$iters")
  "$rb" -q -c "$out/beside.ini" -D timing=$mode "${batch[@]}" -o "$out/redbench-$mode.json" \
    2>"$out/redbench-$mode.err"
  code=$?
  [ "$code" -le 1 ] || { echo "redbench failed (exit $code); see $out/redbench-$mode.err" >&2; exit 2; }
done

python3 - "$out" $modes <<'PY'
import json, sys
out = sys.argv[1]
modes = sys.argv[2:]

def nccl_tests(path):
    """bytes -> (out-of-place time us, busbw GB/s) from all_reduce_perf's table."""
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 13 and f[0].isdigit() and f[2] == "float":
            rows[int(f[0])] = (float(f[5]), float(f[7]))
    return rows

def redbench(path):
    rows = {}
    for r in json.load(open(path))["results"]:
        if r.get("status") == "ok" and r.get("median_ns"):
            rows[int(r["n"]) * 4] = (r["median_ns"] / 1000.0, r.get("busbw_gbs") or 0.0)
    return rows

print("%10s %6s %14s %12s %7s %12s %12s" % ("n", "mode", "nccl-tests us", "redbench us",
                                            "ratio", "busbw nt", "busbw rb"))
for mode in modes:
    nt_file = "nccl-tests-graph.txt" if mode == "graph" else "nccl-tests-eager.txt"
    nt = nccl_tests("%s/%s" % (out, nt_file))
    rb = redbench("%s/redbench-%s.json" % (out, mode))
    for size in sorted(set(nt) | set(rb)):
        a, b = nt.get(size), rb.get(size)
        n = size // 4
        name = "%dK" % (n // 1024) if n < 1 << 20 else "%dM" % (n >> 20)
        print("%10s %6s %14s %12s %7s %12s %12s" % (
            name, mode,
            "%.1f" % a[0] if a else "-", "%.1f" % b[0] if b else "-",
            "%.3f" % (b[0] / a[0]) if a and b and a[0] else "-",
            "%.1f" % a[1] if a else "-", "%.1f" % b[1] if b else "-"))
PY
echo "files: $out"
