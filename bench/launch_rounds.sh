#!/bin/sh
# bench/launch_rounds.sh: interleaved rounds of the plain CUB loop (built
# four ways by bench/Makefile) and of redbench's `timing = launch`, so that
# the launch path's variation from process to process falls on all alike.
# Run in a configured build folder after `make` and `make -C bench`:
#     bench/launch_rounds.sh ROUNDS OUT_DIR [EXPERIMENT [LABEL=BUILD_DIR]...]
# (e.g. bench/launch-rounds.ini). Writes per round OUT_DIR/static-R.csv
# (runtime linked in), shared-R.csv (libcudart.so), dlopen-R.csv (the loop
# as a dlopen'd object), split-R.csv (the same, its events recorded through
# a second runtime) and launch-R.json from this folder's redbench;
# each LABEL=BUILD_DIR adds LABEL-R.json from another build's redbench (for
# instance one whose plugins were built with other flags).
# bench/launch_rounds.py compares them.
set -eu
rounds=$1 out=$2 experiment=${3:-bench/launch-vs-plain.ini}
[ $# -ge 3 ] && shift 3 || shift $#
sizes=$(sed -n 's/^n = //p' "$experiment" | tr -d ',') # 1K, 16M, ...: plain_cub_sum reads them
mkdir -p "$out"
here=$(pwd)
r=1
while [ "$r" -le "$rounds" ]; do
  bench/plain_cub_sum $sizes >"$out/static-$r.csv" 2>/dev/null
  ./redbench -q -c "$experiment" -o "$out/launch-$r.json" >/dev/null 2>&1
  bench/plain_cub_sum_shared $sizes >"$out/shared-$r.csv" 2>/dev/null
  bench/plain_dlopen bench/plain_cub_sum.so $sizes >"$out/dlopen-$r.csv" 2>/dev/null
  bench/plain_dlopen bench/plain_cub_sum.so --record bench/plain_record.so $sizes \
    >"$out/split-$r.csv" 2>/dev/null
  for build in "$@"; do
    label=${build%%=*} dir=${build#*=}
    (cd "$dir" && ./redbench -q -c "$here/$experiment" -o "$here/$out/$label-$r.json" >/dev/null 2>&1)
  done
  r=$((r + 1))
done
