#!/bin/sh
# docs/results/shaped/batch-speed.sh: device call 2 of issues 43 and 46 (as
# batch-shaped.sh, whose build it reuses when the machine is still warm):
# conf/shaped.ini (every shaped strategy against CUB's segmented reduce over
# rows x n, both axes), conf/repro.ini with repro's planted twin, and
# docs/results/h200/speed.ini in device and graph timing. Results come back
# xz-compressed in $OUT.
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
step() { # name seconds experiment [options]: one run, its results compressed
  name=$1 secs=$2; shift 2
  date -u +%FT%TZ > $OUT/$name-start.txt
  timeout -s INT -k 20 $secs ./redbench "$@" -o $OUT/$name.json > $OUT/$name.txt 2>&1
  echo "$name rc=$? $(( $(date +%s) - t0 )) s"
  xz -f $OUT/$name.json
}
step shaped ${SHAPED_S:-240} -c conf/shaped.ini
mkdir -p /tmp/twin
nvcc -std=c++20 -O3 -shared -Xcompiler -fPIC -cudart static -gencode arch=compute_90,code=sm_90 \
  -Isdk tests/packs/cuda/repro-twin.cu -o /tmp/twin/repro-twin.so > $OUT/twin-nvcc.txt 2>&1
cp conf/repro.ini $OUT/repro-twin.ini
printf '\n[run twin]\nplugin = repro-twin\nblock = 256, 1024\nbatch = 8\n' >> $OUT/repro-twin.ini
step repro ${REPRO_S:-100} --plugin-path /tmp/twin -c $OUT/repro-twin.ini
step device ${SPEED_S:-110} -c docs/results/h200/speed.ini
sed 's/^timing = device/timing = graph/' docs/results/h200/speed.ini > $OUT/graph.ini
step graph ${SPEED_S:-110} -c $OUT/graph.ini
date -u +%FT%TZ > $OUT/finished.txt
