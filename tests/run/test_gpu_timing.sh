#!/bin/bash
# tests/run/test_gpu_timing.sh: the measurement on a GPU, with the cuda pack.
# A CUB sum, a shuffle sum, thrust and a float atomic sum at 1M elements in
# each timing mode (launch, device, graph, eager): rows ok and labelled
# with their mode, graph and eager rows with a batch of calls, and the
# times in the expected order (graph, eager and held device time not above
# launch); thrust (which
# allocates and waits inside each call) declined for graph timing with the
# CUDA capture error, not crashed, and the stream usable after it; clocks
# from NVML where present; the float atomics not deterministic while CUB's
# sum is; the measured peak cached by device UUID; --profile.
# Skips without jq, without the cuda pack or without a device.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
[ -n "${JQ:-}" ] || skip_all "jq not found"
export XDG_CACHE_HOME=$tmp/cache
unset REDBENCH_PEAK # the peak cache is under test
q() { "$JQ" -r "$1" "$2"; }

experiment() { # experiment NAME TIMING
  cat >"$tmp/$1.ini" <<INI
[experiment]
rounds = 1
min_time = 0.05
max_reps = 100000
timing = $2
determinism_runs = 10
[data]
op = sum
dtype = f32
n = 1M
[run cub]
plugin = cub
variant = cub
[run shuffle]
plugin = shuffle
[run thrust]
plugin = cub
variant = thrust
[run atomic]
plugin = cuda/atomic
scope = block
acc = f32
values_per_thread = 4
INI
}

experiment launch launch
"$rb" -q -c "$tmp/launch.ini" -o "$tmp/launch.json" >"$tmp/probe.out" 2>&1
case $? in 2) skip_all "the cuda pack is not built: $(head -n 3 "$tmp/probe.out")" ;; esac
status=$(q '.results[0].status' "$tmp/launch.json" 2>/dev/null)
[ "$status" = skipped ] && skip_all "$(q '.results[0].reason' "$tmp/launch.json")"
plan 19

is "$(q '[.results[]|.status+":"+.timing]|join(",")' "$tmp/launch.json")" \
   "ok:launch,ok:launch,ok:launch,ok:launch" "timing = launch: every row ok and labelled launch"
experiment device device
"$rb" -q -c "$tmp/device.ini" -o "$tmp/device.json"
is "$(q '[.results[]|.status+":"+.timing]|join(",")' "$tmp/device.json")" \
   "ok:device,ok:device,ok:device,ok:device" "timing = device: every row ok and labelled device"
experiment graph graph
"$rb" -q -c "$tmp/graph.ini" -o "$tmp/graph.json"
is "$(q '[.results[]|.run+":"+.status]|join(",")' "$tmp/graph.json")" \
   "cub:ok,shuffle:ok,thrust:unsupported,atomic:ok" \
   "timing = graph: cub, shuffle and atomic ok; thrust unsupported"
ok "... thrust's reason names the graph capture and the CUDA error" "$JQ" -e \
   '.results[2].reason|test("timing = graph: the run cannot be captured in a CUDA graph.*cudaError")' \
   "$tmp/graph.json"
ok "... graph rows have a batch of 1 to 1000 calls" "$JQ" -e \
   '[.results[]|select(.status=="ok")|.batch_calls>=1 and .batch_calls<=1000 and .timing=="graph"]|all' \
   "$tmp/graph.json"
ok "a graph replay's time per call is not above a launched call's (cub)" "$JQ" -e \
   --slurpfile l "$tmp/launch.json" '.results[0].median_ns <= $l[0].results[0].median_ns * 1.02' \
   "$tmp/graph.json"
ok "a held (device) time is not above a launched one (cub)" "$JQ" -e \
   --slurpfile l "$tmp/launch.json" '.results[0].median_ns <= $l[0].results[0].median_ns * 1.02' \
   "$tmp/device.json"
ok "the stream is usable after the failed capture: the row after thrust is ok" \
   test "$(q '.results[3].status' "$tmp/graph.json")" = ok
experiment eager eager
"$rb" -q -c "$tmp/eager.ini" -o "$tmp/eager.json"
ok "timing = eager: every row ok (thrust too), labelled eager, with a batch of 2 to 1000 calls" \
   "$JQ" -e '[.results[]|.status=="ok" and .timing=="eager" and .batch_calls>=2 and .batch_calls<=1000]|all' \
   "$tmp/eager.json"
ok "an eager call's time is not above a launched call's (cub)" "$JQ" -e \
   --slurpfile l "$tmp/launch.json" '.results[0].median_ns <= $l[0].results[0].median_ns * 1.02' \
   "$tmp/eager.json"

nvml=$(q '.devices[0].properties.nvml // ""' "$tmp/launch.json")
case $nvml in
  loaded*)
    ok "NVML loaded: SM and memory clocks before and after every row" "$JQ" -e \
       '[.results[]|.clocks.before.core_mhz>0 and .clocks.after.core_mhz>0 and .clocks.after.memory_mhz>0]|all' \
       "$tmp/launch.json"
    ok "... and a throttled flag on every row" "$JQ" -e '[.results[]|.throttled|type=="boolean"]|all' \
       "$tmp/launch.json" ;;
  *) skip "NVML not loaded ($nvml)"; skip "NVML not loaded" ;;
esac

is "$(q '[.results[]|.run+":"+(.deterministic|tostring)]|join(",")' "$tmp/launch.json")" \
   "cub:true,shuffle:true,thrust:true,atomic:false" \
   "determinism: cub, shuffle and thrust same bits; float atomics differ"
ok "error_ratio known for every row, under 1" "$JQ" -e \
   '[.results[]|.error_ratio>=0 and .error_ratio<=1]|all' "$tmp/launch.json"

is "$(q '.devices[0].measured_peak_source' "$tmp/launch.json")" "measured" "the first run measured the peak"
is "$(q '.devices[0].measured_peak_source' "$tmp/device.json")" "cache" "the next took it from the cache"
uuid=$(q '.devices[0].uuid' "$tmp/launch.json")
ok "... whose file names the device's UUID ($uuid)" grep -rqx "uuid = $uuid" "$tmp/cache/redbench/peaks"

"$rb" -q --profile -c "$tmp/launch.ini" -o "$tmp/profile.json"
is "$(q '[.results[]|(.reps|tostring)+":"+.stopped_by]|unique|join(",")' "$tmp/profile.json")" \
   "1:profile" "--profile: one run per configuration"
is "$(q '[.results[].status]|unique|join(",")' "$tmp/profile.json")" "ok" "... each verified"
done_testing
