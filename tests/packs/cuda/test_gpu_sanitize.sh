#!/bin/sh
# tests/packs/cuda/test_gpu_sanitize.sh: compute-sanitizer finds nothing in the cuda
# pack. redbench runs every plugin and variant once (no warm-up, one
# repetition) at n = 1000 and n = 2^20 + 3 (odd: no multiple of any block
# or vector width, the 8 halves of f16 and bf16 included), under --tool
# memcheck and then --tool racecheck, in one process (--no-isolation); each
# must report 0 errors (repro: every dtype, blocks 256 and 1024, batches 4
# and 8, a block per tile and a grid of 3 taking tiles 3 apart). Skips
# without compute-sanitizer, without the cuda
# pack or without a device.
. "$top_srcdir/tests/lib.sh"

sanitizer=${COMPUTE_SANITIZER:-}
if [ -z "$sanitizer" ]; then
  for c in compute-sanitizer /usr/local/cuda/bin/compute-sanitizer; do
    command -v "$c" >/dev/null 2>&1 && { sanitizer=$c; break; }
  done
fi
[ -n "$sanitizer" ] || skip_all "compute-sanitizer not found"
[ -n "${JQ:-}" ] || skip_all "jq not found"

cuda_probe
[ "$probe_status" = ok ] || skip_all "$probe_reason"

cat >"$tmp/all.ini" <<EOF
[experiment]
name = sanitize
rounds = 1
warmup = 0
min_time = 0
min_reps = 1
max_reps = 1
timeout = 600
[data]
n = 1000, 1048579
distribution = signed
[run single-thread]
plugin = single-thread
op = sum
dtype = i32, f64
[run tree]
plugin = cuda/tree
op = sum, max
dtype = f32, i64
variant = divergent, strided-index, sequential, first-add, warp-unroll, full-unroll
block = 64, 1024
[run shuffle]
plugin = shuffle
op = sum, argmax
dtype = f32, f64
finish = two-pass, last-block
vector = 1, 4
[run shuffle-atomic]
plugin = shuffle
op = sum, min
dtype = i32, f64
finish = atomic, atomic-epoch
vector = 2
[run onepass]
plugin = onepass
op = sum, min
dtype = f32, i64
finish = last-block, tagged
batch = 1, 16
[run onepass-alternate]
plugin = onepass
op = sum
dtype = f32, i32
finish = atomic, last-block, tagged
order = alternate
keep = 0, 50
[run onepass-atomic]
plugin = onepass
op = sum, max
dtype = i32, i64
finish = atomic
block = 128
batch = 8
[run onepass-atomic-f64]
plugin = onepass
op = sum
dtype = f64
finish = atomic
[run pattern]
plugin = pattern
dtype = f32, i32, f64
[run bulk]
plugin = bulk
op = sum, max
dtype = f32, i64
finish = last-block, atomic
stages = 3
chunk = 4096
[run cluster]
plugin = cluster
op = sum, min
dtype = f32, i64
blocks = 4, 16
[run atomic]
plugin = cuda/atomic
op = sum, max
dtype = i32, i64
scope = value, thread, warp, block
values_per_thread = 3
[run reduce-add-sync]
plugin = reduce-add-sync
op = sum
dtype = i32
finish = atomic, shared-array
values_per_thread = 3
[run shared-array]
plugin = shared-array
op = sum
dtype = f32, i64
values_per_thread = 3
[run histogram]
plugin = cuda/histogram
op = histogram
dtype = u8
distribution = uniform
bins = 256, 7
variant = global-atomic, block-shared, warp-private
vector = 1, 16
[run cub]
plugin = cub
op = sum, argmax
dtype = f32, i64
[run cub-histogram]
plugin = cub
op = histogram
dtype = u8
distribution = uniform
[run thrust]
plugin = cub
variant = thrust
op = sum, max
dtype = i32
[run onepass-half]
plugin = onepass
op = sum, max
dtype = f16, bf16
finish = last-block, tagged
batch = 1, 8
[run onepass-half-atomic]
plugin = onepass
op = sum
dtype = f16, bf16
finish = atomic
order = alternate
keep = 0, 50
[run shuffle-half]
plugin = shuffle
op = sum, argmax
dtype = f16, bf16
finish = two-pass, last-block
vector = 1, 8
[run cub-half]
plugin = cub
op = sum, max
dtype = f16, bf16
[run repro]
plugin = repro
op = sum
dtype = f32, f64, f16, bf16
block = 256, 1024
batch = 4, 8
grid = 0, 3
order = alternate
EOF

plan 4
for tool in memcheck racecheck; do
  "$sanitizer" --tool "$tool" --error-exitcode 99 "$rb" -c "$tmp/all.ini" --no-isolation --format json \
    -o "$tmp/$tool.json" >"$tmp/$tool.log" 2>&1
  status=$?
  summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$tmp/$tool.log" | tail -n 1)
  clean() {
    [ "$status" -eq 0 ] && echo "$summary" | grep -q ' 0 errors\| 0 hazards' && return 0
    echo "exit status $status: $summary"
    grep -E '=========' "$tmp/$tool.log" | head -n 15
    return 1
  }
  ok "$tool: no errors over every plugin at n = 1000 and 2^20 + 3" clean
  rows_ok() {
    bad=$("$JQ" -r '.results[] | select(.status != "ok")
      | "\(.run) \(.params_text) \(.op) \(.dtype) n=\(.n): \(.status): \(.reason)"' \
      "$tmp/$tool.json")
    [ -z "$bad" ] && return 0
    echo "$bad" | head -n 10
    return 1
  }
  ok "$tool: every row verified under the sanitizer" rows_ok
done

done_testing
