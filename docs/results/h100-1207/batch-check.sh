#!/bin/sh
# docs/results/h100-1207/batch-check.sh: a short device call, from a copy of the
# project root holding .device-carry (shared/device/pack.sh, with SQLite in its
# sysroot) and .device-extra (jq in bin/, its libraries in lib/): the build from
# the dist tarball, then test_gpu_repro (the planted twin judged on signed
# data) and the shaped grid of test_gpu_shaped at rows = 1 only (the one
# reduction of the shaped cuda plugins, fixed after the first GPU run), no
# sanitizer. Everything comes back as one tarball, $OUT/check.tar.xz.
top=$(pwd)
export PATH=$top/.device-extra/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
res=$OUT/check; mkdir -p $res
date -u +%FT%TZ > $res/started.txt
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv > $res/gpu.txt 2>&1
t0=$(date +%s)
pack() { tar -C $OUT -cJf $OUT/check.tar.xz check; }
trap pack EXIT
sh .device-carry/build.sh --with-cuda-arch=sm_90 --without-mpi --without-vulkan > $res/build.txt 2>&1 ||
  { tail -n 30 $res/build.txt; exit 1; }
. /tmp/rb-build/env
export PATH=$top/.device-extra/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib:$LD_LIBRARY_PATH
cd /tmp/rb-build/redbench-*/
echo "build $(( $(date +%s) - t0 )) s"
RB_GPU_TEST_LARGE=0 timeout -k 5 ${REPRO_S:-60} make check TESTS=tests/packs/cuda/test_gpu_repro.sh > $res/repro-check.txt 2>&1
echo "repro rc=$? $(( $(date +%s) - t0 )) s"
cp tests/packs/cuda/test_gpu_repro.log $res/ 2>/dev/null
grep '^ok\|^not ok\|^#' tests/packs/cuda/test_gpu_repro.log | head -20
# the shaped grid at rows = 1, as test_gpu_shaped writes it
sed -n "/^{ experiment_header shaped/,/^} >/p" tests/packs/cuda/test_gpu_shaped.sh |
  sed 's/^} >.*/}/; s/rows = 1, 7, 64, 1000/rows = 1/' > $res/grid.sh
{ experiment_header() { _name=$1; shift
    printf '[experiment]\nname = %s\nrounds = 1\nwarmup = 1\nmin_time = 0\nmin_reps = 1\nmax_reps = 2\n' "$_name"
    for _kv in "$@"; do printf '%s = %s\n' "${_kv%%=*}" "${_kv#*=}"; done; }
  . $res/grid.sh; } > $res/shaped.ini
timeout -s INT -k 5 ${SHAPED_S:-60} ./redbench -q -c $res/shaped.ini -o $res/shaped.json > $res/shaped.txt 2>&1
echo "shaped rc=$? $(( $(date +%s) - t0 )) s"
jq -r '[.results[] | .status] | group_by(.) | map("\(.[0]) \(length)") | join(", ")' $res/shaped.json
jq -r '.results[] | select(.status != "ok") | "\(.run) \(.params_text) \(.op) \(.dtype) rows=\(.rows) n=\(.n) \(.axis) \(.lengths): \(.status) \(.reason)"' $res/shaped.json | head -n 12
date -u +%FT%TZ > $res/finished.txt
