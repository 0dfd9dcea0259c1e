#!/bin/sh
# bench/timing_rounds.sh: interleaved rounds of the plain CUB loop and of
# redbench, in both of redbench's event-timed modes: per round, the plain
# loop (bench/plain_cub_sum) and redbench with `timing = launch`, then the
# plain loop with --blocking (each call held behind a one-thread kernel)
# and redbench with `timing = device`, so that what varies from process to
# process falls on all alike. Run in a configured build folder after `make`
# and `make -C bench`:
#     [MODES="launch device"] bench/timing_rounds.sh ROUNDS OUT_DIR [EXPERIMENT]
# (EXPERIMENT: bench/launch-vs-plain.ini by default; its `timing` line is
# set for each mode; MODES picks the modes, both by default). Writes per round OUT_DIR/static-R.csv, launch-R.json,
# blocking-R.csv and device-R.json; bench/launch_rounds.py compares them
# (launch with static, device with blocking).
set -eu
rounds=$1 out=$2 experiment=${3:-bench/launch-vs-plain.ini}
sizes=$(sed -n 's/^n = //p' "$experiment" | tr -d ',') # 1K, 16M, ...: plain_cub_sum reads them
mkdir -p "$out"
sed 's/^timing = .*/timing = launch/' "$experiment" >"$out/launch.ini"
sed 's/^timing = .*/timing = device/' "$experiment" >"$out/device.ini"
modes=${MODES:-launch device}
r=1
while [ "$r" -le "$rounds" ]; do
  for mode in $modes; do
    case $mode in
    launch) bench/plain_cub_sum $sizes >"$out/static-$r.csv" 2>/dev/null ;;
    device) bench/plain_cub_sum --blocking $sizes >"$out/blocking-$r.csv" 2>/dev/null ;;
    *) echo "timing_rounds.sh: mode '$mode' is not valid; valid: launch, device" >&2; exit 2 ;;
    esac
    ./redbench -q -c "$out/$mode.ini" -o "$out/$mode-$r.json" >/dev/null 2>&1
  done
  r=$((r + 1))
done
