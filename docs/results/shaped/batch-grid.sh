#!/bin/sh
# docs/results/shaped/batch-grid.sh: device calls of the shaped reductions'
# record, from a copy of the project root holding .device-carry
# (shared/device/pack.sh, SQLite in its sysroot) and .device-extra (jq in
# bin/, its libraries in lib/). The build from the dist tarball once (kept
# while the machine stays warm), then the parts named in PARTS, each under
# its own time limit (a run stopped by SIGINT writes what it measured):
#   grid      conf/shaped.ini whole: f32 sum, both axes, CUB's segmented
#             reduce beside every strategy (GRID_S seconds)
#   grid-rows, grid-columns   the same by axis, each its own results file
#             (the whole grid takes longer than one device call)
#   grid-rows-short, grid-rows-long   the row half in two: n = 32 and
#             128, and n = 1K and up, each with CUB's runs of its cells
#   variants  the same grid as bf16 sums and f32 argmax, timed briefly:
#             is every row ok and proven (VARIANTS_S seconds each)
#   rows1     the row runs of conf/shaped.ini at rows = 1 only (one
#             reduction of n: CUB's segmented reduce of one segment beside
#             every strategy), full timing (ROWS1_S seconds)
#   rest      the bf16 and argmax variants of the column runs only
#             (REST_S seconds each)
#   hard      docs/results/shaped/hard-cells.ini: the cells where the grid
#             fell short, CUB beside our strategies (HARD_S seconds)
#   correct   the grid of tests/packs/cuda/test_gpu_shaped.sh (every
#             strategy, op and dtype, fixed, ragged and columns) without
#             its twins and sanitizers: every row ok and proven (CORRECT_S)
#   tests     the GPU tests named in TESTS (TESTS_S seconds)
# Everything comes back as one tarball, $OUT/NAME.tar.xz (NAME=grid unless
# set), since only a few files come back from $OUT.
top=$(pwd)
name=${NAME:-grid}
export PATH=$top/.device-extra/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
res=$OUT/$name; mkdir -p "$res"
date -u +%FT%TZ > "$res/started.txt"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$res/gpu.txt" 2>&1
t0=$(date +%s)
pack() { xz -T0 -f "$res"/*.json 2>/dev/null; tar -C "$OUT" -cJf "$OUT/$name.tar.xz" "$name"; }
trap pack EXIT
if [ ! -x /tmp/rb-build/redbench-0.1.0/redbench ]; then
  sh .device-carry/build.sh --with-cuda-arch=sm_90 --without-mpi --without-vulkan > "$res/build.txt" 2>&1 ||
    { tail -n 30 "$res/build.txt"; exit 1; }
fi
. /tmp/rb-build/env
export PATH=$top/.device-extra/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib:$LD_LIBRARY_PATH
cd /tmp/rb-build/redbench-*/
# segmented (and cub-deterministic) against CCCL 3.1's headers where they
# are carried (.device-extra/cccl-3.1.4.tar.xz), once: CUB's fixed-size
# segments (variant = fixed) and a CUB as new as the one the repro page used
if [ -f $top/.device-extra/cccl-3.1.4.tar.xz ] && [ ! -d /tmp/cccl ]; then
  OUT=$res sh $top/bench/cccl_rebuild.sh $top/.device-extra/cccl-3.1.4.tar.xz
fi
echo "build $(( $(date +%s) - t0 )) s"
summary() { # RESULTS: the statuses, and the first rows that are not ok
  jq -r '"\(.wall_seconds) s: " + ([.results[] | .status] | group_by(.) | map("\(.[0]) \(length)") | join(", "))' "$1"
  jq -r '.results[] | select(.status != "ok" or .probes != "passed") | "\(.run) \(.params_text) \(.op) \(.dtype) rows=\(.rows) n=\(.n) \(.axis): \(.status) probes=\(.probes) \(.reason)"' "$1" | head -n 8
}
# The shortest call (docs/results/shaped/floor.ini), once, beside the grid.
case " ${PARTS:-grid} " in *" grid"*)
  ./redbench -q -c "$top/docs/results/shaped/floor.ini" -o "$res/floor.json" > "$res/floor.txt" 2>&1
  echo "floor rc=$?" ;;
esac
for part in ${PARTS:-grid}; do
  case $part in
  grid)
    timeout -s INT -k 10 "${GRID_S:-480}" ./redbench -q -c conf/shaped.ini -o "$res/shaped.json" > "$res/shaped.txt" 2>&1
    echo "grid rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped.json" ;;
  grid-rows|grid-columns|grid-rows-short|grid-rows-long)
    case $part in
    grid-rows) set -- -r 'segmented-[!c]*' -r 'rows-*' -r 'block-*' -r 'subwarp-*' -r 'waves-*' -r 'alt-*' ;;
    grid-rows-short) set -- -r 'segmented-short' -r 'rows-short' -r 'block-short' -r 'subwarp-short' -r 'waves-short' -r 'alt-short' ;;
    grid-rows-long) set -- -r 'segmented-[0-9]*' -r 'rows-[0-9]*' -r 'block-[0-9]*' -r 'block-last-*' -r 'subwarp-[0-9]*' -r 'alt-[0-9]*' ;;
    *) set -- -r '*columns*' ;;
    esac
    timeout -s INT -k 10 "${GRID_S:-480}" ./redbench -q -c conf/shaped.ini "$@" -o "$res/shaped-${part#grid-}.json" > "$res/shaped-${part#grid-}.txt" 2>&1
    echo "$part rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped-${part#grid-}.json" ;;
  variants)
    quick="-D warmup=1 -D min_time=0 -D max_reps=3 -D rounds=1"
    timeout -s INT -k 10 "${VARIANTS_S:-200}" ./redbench -q -c conf/shaped.ini $quick -D dtype=bf16 -o "$res/shaped-bf16.json" > "$res/shaped-bf16.txt" 2>&1
    echo "bf16 rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped-bf16.json"
    timeout -s INT -k 10 "${VARIANTS_S:-200}" ./redbench -q -c conf/shaped.ini $quick -D op=argmax -o "$res/shaped-argmax.json" > "$res/shaped-argmax.txt" 2>&1
    echo "argmax rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped-argmax.json" ;;
  rows1)
    runs="-r segmented-short -r segmented-1k -r segmented-32k -r segmented-256k -r segmented-4m"
    timeout -s INT -k 10 "${ROWS1_S:-120}" ./redbench -q -c conf/shaped.ini $runs -r 'rows-*' -r 'subwarp-*' -D rows=1 -o "$res/shaped-rows1.json" > "$res/shaped-rows1.txt" 2>&1
    echo "rows1 rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped-rows1.json" ;;
  rest)
    quick="-D warmup=1 -D min_time=0 -D max_reps=3 -D rounds=1"
    timeout -s INT -k 10 "${REST_S:-100}" ./redbench -q -c conf/shaped.ini $quick -r '*columns*' -D dtype=bf16 -o "$res/shaped-bf16-columns.json" > "$res/shaped-bf16-columns.txt" 2>&1
    echo "bf16 columns rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped-bf16-columns.json"
    timeout -s INT -k 10 "${REST_S:-100}" ./redbench -q -c conf/shaped.ini $quick -r '*columns*' -D op=argmax -o "$res/shaped-argmax-columns.json" > "$res/shaped-argmax-columns.txt" 2>&1
    echo "argmax columns rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/shaped-argmax-columns.json" ;;
  hard)
    timeout -s INT -k 10 "${HARD_S:-90}" ./redbench -q -c "$top/docs/results/shaped/hard-cells.ini" -o "$res/hard-cells.json" > "$res/hard-cells.txt" 2>&1
    echo "hard rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/hard-cells.json" ;;
  correct)
    sed -n "/^{ experiment_header shaped/,/^} >/p" tests/packs/cuda/test_gpu_shaped.sh | sed 's/^} >.*/}/' > "$res/grid.sh"
    { experiment_header() { _name=$1; shift
        printf '[experiment]\nname = %s\nrounds = 1\nwarmup = 1\nmin_time = 0\nmin_reps = 1\nmax_reps = 2\n' "$_name"
        for _kv in "$@"; do printf '%s = %s\n' "${_kv%%=*}" "${_kv#*=}"; done; }
      . "$res/grid.sh"; } > "$res/correct.ini"
    timeout -s INT -k 10 "${CORRECT_S:-120}" ./redbench -q -c "$res/correct.ini" -o "$res/correct.json" > "$res/correct.txt" 2>&1
    echo "correct rc=$? $(( $(date +%s) - t0 )) s"; summary "$res/correct.json" ;;
  tests)
    RB_GPU_TEST_LARGE=0 timeout -k 10 "${TESTS_S:-400}" make -j4 check TESTS="$TESTS" > "$res/check.txt" 2>&1
    echo "tests rc=$? $(( $(date +%s) - t0 )) s"
    for t in $TESTS; do
      log=${t%.sh}.log; cp "$log" "$res/" 2>/dev/null
      echo "$t: $(grep -c '^ok' "$log" 2>/dev/null) ok, $(grep -c '^not ok' "$log" 2>/dev/null) not ok"
      grep '^not ok\|^1\.\.0\|Bail' "$log" 2>/dev/null | head -n 6
    done ;;
  esac
done
date -u +%FT%TZ > "$res/finished.txt"
