#!/bin/sh
# docs/results/repro/batch-repro.sh: one device call for issue 46, from a copy of the
# project root holding .device-carry (shared/device/pack.sh) and .device-extra (a jq
# binary in bin/ with its libraries in lib/, tables.py, and CCCL 3.1's headers for
# cub-deterministic): conf/repro.ini with the
# planted twin appended (device timing), compute-sanitizer memcheck and racecheck over
# repro and the twin, tests/packs/cuda/test_gpu_repro.sh, then speed.ini in device and
# graph timing; every step under a timeout so that what finished comes back in $OUT.
# PARTS picks the steps (default: repro san test speed); the build is kept in
# /tmp/rb-build while the machine stays warm, so a later call starts at once.
top=$(pwd)
export PATH=$top/.device-extra/bin:/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
date -u +%FT%TZ > $OUT/started.txt
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem,clocks.applications.graphics,clocks.applications.memory --format=csv > $OUT/gpu.txt 2>&1
t0=$(date +%s)
mkdir -p /tmp/twin
[ -f /tmp/twin/repro-twin.so ] || ( nvcc -std=c++20 -O3 -shared -Xcompiler -fPIC -cudart static -gencode arch=compute_90,code=sm_90 \
    -Isdk tests/packs/cuda/repro-twin.cu -o /tmp/twin/repro-twin.so > $OUT/twin-nvcc.txt 2>&1 ) &
twin=$!
if [ ! -x /tmp/rb-build/redbench-0.1.0/redbench ]; then
  sh .device-carry/build.sh --with-cuda-arch=sm_90 --without-mpi --without-vulkan > $OUT/build.txt 2>&1 || { tail -n 40 $OUT/build.txt; exit 1; }
fi
wait $twin
. /tmp/rb-build/env
export PATH=$top/.device-extra/bin:$PATH
export LD_LIBRARY_PATH=$top/.device-extra/lib:$LD_LIBRARY_PATH
cd /tmp/rb-build/redbench-*/
# cub-deterministic and segmented against CCCL 3.1's headers, where they
# are carried (.device-extra/cccl-3.1.4.tar.xz: git archive v3.1.4 cub/cub
# libcudacxx/include thrust/thrust of NVIDIA/cccl, under cccl/), once
if [ -f $top/.device-extra/cccl-3.1.4.tar.xz ] && [ ! -d /tmp/cccl ]; then
  sh $top/bench/cccl_rebuild.sh $top/.device-extra/cccl-3.1.4.tar.xz
fi
echo "build $(( $(date +%s) - t0 )) s"; ls /tmp/twin
for part in ${PARTS:-repro san test speed}; do
  case $part in
  repro)
  cp conf/repro.ini $OUT/repro-twin.ini
  printf '\n[run twin]\nplugin = repro-twin\nblock = 256, 1024\nbatch = 8\ndistribution = signed\n' >> $OUT/repro-twin.ini
  date -u +%FT%TZ > $OUT/repro-start.txt
  timeout -s INT -k 20 200 ./redbench --plugin-path /tmp/twin -c $OUT/repro-twin.ini -o $OUT/repro.json > $OUT/repro.txt 2>&1
  echo "repro rc=$? $(( $(date +%s) - t0 )) s"
  xz -f $OUT/repro.json; python3 $top/docs/results/repro/tables.py repro $OUT/repro.json.xz 2>&1 | head -60
  ;;
  san)
  cat > /tmp/san.ini <<'INI'
[experiment]
name = sanitize-repro
rounds = 1
warmup = 0
min_time = 0
min_reps = 1
max_reps = 1
timeout = 600
[data]
op = sum
n = 1000, 1048579
distribution = signed
[run repro]
plugin = repro
dtype = f32, f64, f16, bf16
block = 256, 1024
batch = 4, 8
grid = 0, 3
order = alternate
[run twin]
plugin = repro-twin
dtype = f32, bf16
block = 256, 1024
[run cub-deterministic]
plugin = cub-deterministic
dtype = f32, f64
determinism = gpu-to-gpu, run-to-run
INI
  cp /tmp/san.ini $OUT/san.ini
  date -u +%FT%TZ > $OUT/san-start.txt
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 ./redbench --plugin-path /tmp/twin -c /tmp/san.ini --no-isolation --format json -o $OUT/san-$tool.json > $OUT/san-$tool.log 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1) $(python3 -c "import json,sys; r=json.load(open('$OUT/san-$tool.json'))['results']; print(len(r), 'rows', sum(x['status']=='ok' for x in r), 'ok')" 2>&1) $(( $(date +%s) - t0 )) s"
  done
  ;;
  test)
  date -u +%FT%TZ > $OUT/test-start.txt
  cccl=; [ -d /tmp/cccl ] && cccl="-I/tmp/cccl/cub -I/tmp/cccl/libcudacxx/include -I/tmp/cccl/thrust"
  RB_GPU_TEST_LARGE=0 timeout 150 make -j16 check TESTS=tests/packs/cuda/test_gpu_repro.sh \
    CUDA_CCCL_FLAGS="$cccl" > $OUT/test-make.txt 2>&1
  echo "test rc=$? $(( $(date +%s) - t0 )) s"
  cp tests/packs/cuda/test_gpu_repro.log $OUT/ 2>/dev/null; cat tests/packs/cuda/test_gpu_repro.log 2>/dev/null | tail -15
  ;;
  speed)
  date -u +%FT%TZ > $OUT/speed-device-start.txt
  timeout -s INT -k 20 150 ./redbench -c $top/docs/results/h200/speed.ini -o $OUT/device.json > $OUT/device.txt 2>&1
  echo "speed device rc=$? $(( $(date +%s) - t0 )) s"
  xz -f $OUT/device.json
  sed 's/^timing = device/timing = graph/' $top/docs/results/h200/speed.ini > graph.ini
  date -u +%FT%TZ > $OUT/speed-graph-start.txt
  timeout -s INT -k 20 150 ./redbench -c graph.ini -o $OUT/graph.json > $OUT/graph.txt 2>&1
  echo "speed graph rc=$? $(( $(date +%s) - t0 )) s"
  xz -f $OUT/graph.json
  ;;
  esac
done
date -u +%FT%TZ > $OUT/finished.txt
