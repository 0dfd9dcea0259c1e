#!/bin/sh
# docs/results/repro/batch-speed.sh: one device call (as batch-repro.sh): speed.ini of
# docs/results/h200.md in device and graph timing with today's code, and the GPU
# judge's twins, half precision included (tests/run/test_gpu_judge.sh).
top=$(pwd)
export PATH=$top/.device-extra/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
date -u +%FT%TZ > $OUT/started.txt
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem,clocks.applications.graphics,clocks.applications.memory --format=csv > $OUT/gpu.txt 2>&1
t0=$(date +%s)
sh .device-carry/build.sh --with-cuda-arch=sm_90 --without-mpi > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
. /tmp/rb-build/env
export PATH=$top/.device-extra/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib:$LD_LIBRARY_PATH
cd /tmp/rb-build/redbench-*/
echo "build $(( $(date +%s) - t0 )) s"
date -u +%FT%TZ > $OUT/speed-device-start.txt
timeout -s INT -k 20 150 ./redbench -c docs/results/h200/speed.ini -o $OUT/device.json > $OUT/device.txt 2>&1
echo "device rc=$? $(( $(date +%s) - t0 )) s"
sed 's/^timing = device/timing = graph/' docs/results/h200/speed.ini > graph.ini
date -u +%FT%TZ > $OUT/speed-graph-start.txt
timeout -s INT -k 20 150 ./redbench -c graph.ini -o $OUT/graph.json > $OUT/graph.txt 2>&1
echo "graph rc=$? $(( $(date +%s) - t0 )) s"
xz -f $OUT/device.json $OUT/graph.json
date -u +%FT%TZ > $OUT/judge-start.txt
RB_GPU_TEST_LARGE=0 timeout 200 make -j16 check TESTS=tests/run/test_gpu_judge.sh > $OUT/judge-make.txt 2>&1
echo "judge rc=$? $(( $(date +%s) - t0 )) s"
cp tests/run/test_gpu_judge.log $OUT/ 2>/dev/null
grep -c '^ok' tests/run/test_gpu_judge.log; grep '^not ok\|SKIP\|^1\.\.' tests/run/test_gpu_judge.log
date -u +%FT%TZ > $OUT/finished.txt
