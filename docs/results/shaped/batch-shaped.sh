#!/bin/sh
# docs/results/shaped/batch-shaped.sh: device call 1 of issues 43 and 46, from a
# copy of the project root holding .device-carry (shared/device/pack.sh) and
# .device-extra (a jq binary in bin/, its libraries in lib/): the build from the
# dist tarball, then the GPU tests of the cuda pack and the host's GPU judge in
# one `make check` (test_gpu_shaped: every shaped strategy and its planted twins
# over a grid, compute-sanitizer memcheck and racecheck; test_gpu_repro;
# test_gpu_judge, half twins included; test_gpu_correct; test_gpu_sanitize).
# Each step under a timeout, so that what finished comes back in $OUT.
top=$(pwd)
export PATH=$top/.device-extra/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
date -u +%FT%TZ > $OUT/started.txt
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt 2>&1
t0=$(date +%s)
if [ ! -x /tmp/rb-build/redbench-0.1.0/redbench ]; then
  sh .device-carry/build.sh --with-cuda-arch=sm_90 --without-mpi > $OUT/build.txt 2>&1 ||
    { cat $OUT/build.txt; exit 1; }
fi
. /tmp/rb-build/env
export PATH=$top/.device-extra/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib:$LD_LIBRARY_PATH
cd /tmp/rb-build/redbench-*/
echo "build $(( $(date +%s) - t0 )) s"
tests="tests/packs/cuda/test_gpu_shaped.sh tests/packs/cuda/test_gpu_repro.sh tests/run/test_gpu_judge.sh
  tests/packs/cuda/test_gpu_correct.sh tests/packs/cuda/test_gpu_sanitize.sh"
RB_GPU_TEST_LARGE=0 timeout -k 10 ${BATCH_TESTS_S:-480} make -j5 check TESTS="$(echo $tests)" > $OUT/check.txt 2>&1
echo "check rc=$? $(( $(date +%s) - t0 )) s"
for t in $tests; do
  log=${t%.sh}.log
  cp $log $OUT/ 2>/dev/null
  echo "$t: $(grep -c '^ok' $log 2>/dev/null) ok, $(grep -c '^not ok' $log 2>/dev/null) not ok, $(grep -c '# SKIP' $log 2>/dev/null) skipped"
  grep '^not ok\|^1\.\.0\|Bail' $log 2>/dev/null | head -8
done
date -u +%FT%TZ > $OUT/finished.txt
