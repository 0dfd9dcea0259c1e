#!/bin/bash
# bench/compare_acceptance.sh: redbench compare's acceptance on this machine
# (docs/results/compare-acceptance.md): PAIRS pairs of identical runs of
# bench/compare-acceptance.ini, each pair compared under the defaults, count
# the exits of 1 (a false `slower`); then DELAYED pairs whose second run has
# a planted slowdown (DELAY_SUM_PERCENT=PCT for tests/run/timing/delay-sum.c, so
# that the configuration stays the same one), count the
# exits of 1 (found `slower`). Run from the build folder after make check
# (which builds the test plugins):
#   bench/compare_acceptance.sh [PAIRS [DELAYED [PCT]]]
# On a GPU, the same with tests/run/timing/delay-cuda.cu (built with nvcc into
# a folder of its own) and the GPU experiment:
#   EXPERIMENT=bench/compare-acceptance-gpu.ini PLUGINS=DIR bench/compare_acceptance.sh 8 5
set -u
pairs=${1:-30}
delayed=${2:-10}
pct=${3:-10}
rb=${REDBENCH:-./redbench}
src=$(cd "$(dirname "$0")" && pwd)
plugins=${PLUGINS:-tests/run/timing/dir}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
experiment=${EXPERIMENT:-$src/compare-acceptance.ini}
run() { "$rb" -q -c "$experiment" --plugin-path "$plugins" -o "$1" "${@:2}"; }
false_slower=0
for k in $(seq 1 "$pairs"); do
  run "$out/same-$k-a.json" && run "$out/same-$k-b.json" || exit 2
  "$rb" compare "$out/same-$k-a.json" "$out/same-$k-b.json" >"$out/same-$k.txt"
  code=$?
  [ "$code" -eq 1 ] && false_slower=$((false_slower + 1))
  echo "identical pair $k: exit $code ($(grep -c ' slower ' "$out/same-$k.txt") slower)"
done
found=0
for k in $(seq 1 "$delayed"); do
  run "$out/delay-$k-a.json" && DELAY_SUM_PERCENT=$pct run "$out/delay-$k-b.json" || exit 2
  "$rb" compare "$out/delay-$k-a.json" "$out/delay-$k-b.json" >"$out/delay-$k.txt"
  code=$?
  [ "$code" -eq 1 ] && found=$((found + 1))
  echo "delayed pair $k (+$pct%): exit $code ($(grep -c ' slower ' "$out/delay-$k.txt") slower)"
done
echo "identical pairs: $false_slower of $pairs exited 1 (false slower)"
echo "delayed pairs (+$pct%): $found of $delayed exited 1 (slower found)"
echo "results and comparisons in $out"
