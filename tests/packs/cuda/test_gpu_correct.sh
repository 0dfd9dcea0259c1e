#!/bin/sh
# tests/packs/cuda/test_gpu_correct.sh: every strategy of the cuda pack is right on the
# GPU. For each plugin it writes an experiment covering every variant x op x
# dtype the plugin offers at n = 1, 31, 1000, 2^20 + 3 (not a multiple of any
# block or vector width), 2^26 and 2^30 (histograms also at 2^32 + 5 bytes),
# runs it with few repetitions and asserts that every row is `ok` and that no
# row is missing. Declined configurations are asserted `unsupported` with
# their reason. Half precision (f16, bf16) is checked at n = 1, 7, 1001,
# 2^20 + 3 and 2^26 + 7, none a multiple of the 8 halves of a 16-byte load. Skips without jq, without the cuda pack or without a device.
#
# The probe runs as users do (each data group in a worker process); the rest
# runs with --no-isolation, since every data group would otherwise open the
# device anew (a CUDA context each, a few tenths of a second) and there are
# hundreds of groups. RB_GPU_TEST_LARGE=0 leaves out the 2^30 and 2^32 + 5
# sizes (each of their data sets takes seconds to generate and check on the
# host).
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
large=${RB_GPU_TEST_LARGE:-1}

small="1, 31, 1000, 1048579, 64M" # 1048579 = 2^20 + 3
big=1G
huge=4294967301 # 2^32 + 5 bytes
halves="1, 7, 1001, 1048579, 67108871" # 2^20 + 3, 2^26 + 7

# [experiment] for a correctness run: one warm-up, one or two repetitions.
header() { experiment_header "$1" timeout=600 seed=20261122; }

# The probe: is the pack built, is there a device?
cuda_probe timeout=600 seed=20261122
[ "$probe_status" != skipped ] || skip_all "$probe_reason"

# all_ok NAME ROWS: runs $tmp/NAME.ini and checks that it made ROWS rows, all
# ok, and exited 0. Prints what differs.
all_ok() {
  "$rb" -c "$tmp/$1.ini" --no-isolation --format json -o "$tmp/$1.json" >"$tmp/$1.out" 2>"$tmp/$1.err"
  status=$?
  rows=$("$JQ" '.results | length' "$tmp/$1.json" 2>/dev/null)
  not_ok=$("$JQ" '[.results[] | select(.status != "ok" or .probes != "passed")] | length' "$tmp/$1.json" 2>/dev/null)
  if [ "$status" -eq 0 ] && [ "$rows" = "$2" ] && [ "$not_ok" = 0 ]; then
    return 0
  fi
  echo "exit status $status; $rows rows (want $2); $not_ok not ok"
  "$JQ" -r '.results[] | select(.status != "ok" or .probes != "passed")
    | "\(.run) \(.params_text) \(.op) \(.dtype) n=\(.n): \(.status) (probes \(.probes)): \(.reason)"' \
    "$tmp/$1.json" 2>/dev/null | head -n 15
  tail -n 5 "$tmp/$1.err"
  return 1
}

# declined NAME WORDS: every row of $tmp/NAME.ini is unsupported, and each
# reason contains WORDS.
declined() {
  "$rb" -c "$tmp/$1.ini" --no-isolation --format json -o "$tmp/$1.json" >/dev/null 2>"$tmp/$1.err"
  bad=$("$JQ" -r --arg w "$2" '.results[]
    | select(.status != "unsupported" or (.reason | contains($w) | not))
    | "\(.params_text) \(.op) \(.dtype): \(.status): \(.reason)"' "$tmp/$1.json")
  rows=$("$JQ" '.results | length' "$tmp/$1.json")
  [ -z "$bad" ] && [ "$rows" -gt 0 ] && return 0
  echo "$bad"
  return 1
}

# One section per (plugin, dtype) at 2^30, so that each input is generated
# once for all the ops that read it.
big_sections() { # PLUGIN OPS DTYPES PARAMS...
  plugin=$1 ops=$2 dtypes=$3
  shift 3
  for d in $(echo "$dtypes" | tr ',' ' '); do
    printf '[run %s-%s]\nplugin = %s\nop = %s\ndtype = %s\nn = %s\n' \
      "$plugin" "$d" "$plugin" "$ops" "$d" "$big"
    for p in "$@"; do echo "$p"; done
  done
}

tests=26
[ "$large" = 0 ] || tests=$((tests + 9))
plan "$tests"

# --- tree: 6 variants x 3 blocks (x 1 at the large sizes) x 3 ops x 4 dtypes
{ header tree
  cat <<EOF
[data]
distribution = signed
[run tree]
plugin = cuda/tree
op = sum, min, max
dtype = i32, i64, f32, f64
n = 1, 31, 1000, 1048579
variant = divergent, strided-index, sequential, first-add, warp-unroll, full-unroll
block = 64, 256, 1024
[run tree-64m]
plugin = cuda/tree
op = sum, min, max
dtype = i32, i64, f32, f64
n = 64M
variant = divergent, strided-index, sequential, first-add, warp-unroll, full-unroll
[run tree-uniform]
plugin = cuda/tree
distribution = uniform
op = sum
dtype = f32
n = 1048579, 64M
variant = divergent, full-unroll
EOF
} >"$tmp/tree.ini"
ok "tree: every variant, op and dtype, n = 1 .. 2^26" all_ok tree $((6*3*3*4*4 + 6*3*4 + 2*2))

# --- shuffle: finish x vector x items, all ops (argmax has no atomic finishes)
{ header shuffle
  cat <<EOF
[data]
distribution = signed
n = $small
dtype = i32, i64, f32, f64
[run shuffle]
plugin = shuffle
op = sum, min, max, argmax
finish = two-pass, last-block
vector = 1, 2, 4
items = 1, 8
[run shuffle-atomic]
plugin = shuffle
op = sum, min, max
finish = atomic, atomic-epoch
vector = 1, 2, 4
items = 1, 8
[run shuffle-shapes]
plugin = shuffle
op = sum, argmax
n = 1000, 1048579
block = 32, 1024
grid = 1, 1024
EOF
} >"$tmp/shuffle.ini"
ok "shuffle: every finish, vector and op, n = 1 .. 2^26" \
  all_ok shuffle $((5*4*4*2*3*2 + 5*4*3*2*3*2 + 2*4*2*2*2))

# --- onepass: one pass of blocks, no grid-stride loop, so every size ends
# in a partial block; every finish, op, dtype and batch (min and max of
# floats have no atomic: declined under finish = atomic, below)
{ header onepass
  cat <<EOF
[data]
distribution = signed
n = $small
dtype = i32, i64, f32, f64
[run onepass]
plugin = onepass
op = sum, min, max
finish = last-block, tagged
batch = 1, 16
[run onepass-atomic]
plugin = onepass
op = sum
finish = atomic
batch = 1, 16
[run onepass-atomic-int]
plugin = onepass
op = min, max
dtype = i32, i64
finish = atomic
batch = 1, 16
[run onepass-shapes]
plugin = onepass
op = sum
n = 1000, 1048579
block = 32, 128
batch = 2, 4, 8
finish = atomic, last-block, tagged
[run onepass-order]
plugin = onepass
op = sum
batch = 4
order = alternate
finish = atomic, last-block, tagged
keep = 0, 50
EOF
} >"$tmp/onepass.ini"
ok "onepass: every finish, order, keep, batch, op and dtype, n = 1 .. 2^26" \
  all_ok onepass $((5*4*3*2*2 + 5*4*2 + 5*2*2*2 + 2*4*2*3*3 + 5*4*3*2))

# --- f16 and bf16, reduced in f32: onepass (every finish, order and
# batch) and shuffle (every vector, 8 halves a 16-byte load, and finish);
# min and max of halves have no atomic finish (declined, below)
{ header halves
  cat <<EOF
[data]
distribution = signed
n = $halves
dtype = f16, bf16
[run onepass-half]
plugin = onepass
op = sum, min, max
finish = last-block, tagged
batch = 1, 8, 16
[run onepass-half-atomic]
plugin = onepass
op = sum
finish = atomic
batch = 1, 8, 16
[run onepass-half-order]
plugin = onepass
op = sum, max
batch = 8
order = alternate
finish = last-block, tagged
keep = 0, 50
[run shuffle-half]
plugin = shuffle
op = sum, min, max, argmax
finish = two-pass, last-block
vector = 1, 2, 4, 8
items = 1, 8
[run shuffle-half-atomic]
plugin = shuffle
op = sum
finish = atomic, atomic-epoch
vector = 1, 8
items = 1, 8
[run shuffle-half-shapes]
plugin = shuffle
op = sum, argmax
n = 1001, 1048579
vector = 8
block = 32, 1024
grid = 1, 1024
EOF
} >"$tmp/halves.ini"
ok "f16 and bf16: onepass and shuffle, every finish, batch, vector and op, n = 1 .. 2^26 + 7" \
  all_ok halves $((5*2*3*2*3 + 5*2*3 + 5*2*2*2*2 + 5*2*4*2*4*2 + 5*2*2*2*2 + 2*2*2*2*2))

# --- pattern: the published one-pass sum (the yardstick), every dtype;
# every size but 64M has elements after its last whole vector
{ header pattern
  cat <<EOF
[data]
distribution = signed
n = $small
dtype = i32, i64, f32, f64
[run pattern]
plugin = pattern
op = sum
EOF
} >"$tmp/pattern.ini"
ok "pattern: every dtype, n = 1 .. 2^26" all_ok pattern $((5*4))

# --- bulk and cluster: ring shapes x finish, cluster sizes, sum/min/max
# (compute capability 9.0 and later)
{ header bulk
  cat <<EOF
[data]
distribution = signed
n = $small
dtype = i32, i64, f32, f64
[run bulk]
plugin = bulk
op = sum, min, max
finish = last-block, atomic
stages = 2, 5
chunk = 4096, 16384
[run bulk-shapes]
plugin = bulk
op = sum
n = 1000, 1048579
block = 64, 1024
per_sm = 1, 2
[run cluster]
plugin = cluster
op = sum, min, max
blocks = 1, 8, 16
items = 1, 8
[run cluster-shapes]
plugin = cluster
op = sum
n = 1000, 1048579
blocks = 3
block = 64, 256
EOF
} >"$tmp/bulk.ini"
bulk_cc=$("$JQ" -r '.devices[0].compute_capability // empty' "$tmp/probe.json")
case $bulk_cc in
  [1-8].*|"")
    skip "bulk and cluster: need compute capability 9.0, device has ${bulk_cc:-unknown}"
    skip "bulk: needs compute capability 9.0" ;;
  *)
    ok "bulk and cluster: every finish, ring shape and cluster size, n = 1 .. 2^26" \
      all_ok bulk $((5*4*3*2*2*2 + 2*4*2*2 + 5*4*3*3*2 + 2*4*2))
    { header declined-bulk
      printf '[data]\nop = sum\ndtype = f32\nn = 1000\n[run b]\nplugin = bulk\nblock = 1024\nper_sm = 3\n'
    } >"$tmp/declined-bulk.ini"
    ok "bulk declines more blocks per SM than fit" declined declined-bulk "fit on one multiprocessor" ;;
esac

# --- atomic: every scope, several values per thread
{ header atomic
  cat <<EOF
[data]
distribution = signed
n = $small
[run atomic-sum]
plugin = cuda/atomic
op = sum
dtype = i32, i64, f32, f64
scope = value, thread, warp, block
values_per_thread = 1, 16, 33
[run atomic-extrema]
plugin = cuda/atomic
op = min, max
dtype = i32, i64
scope = value, thread, warp, block
values_per_thread = 1, 16, 33
[run atomic-blocks]
plugin = cuda/atomic
op = sum
dtype = i32
n = 1000, 1048579
block = 32, 1024
[run atomic-f64-acc]
plugin = cuda/atomic
distribution = uniform
op = sum
dtype = f32
n = 1048579, 64M
scope = value, thread
values_per_thread = 1
acc = f64
EOF
} >"$tmp/atomic.ini"
ok "atomic: every scope, sum and integer min/max, n = 1 .. 2^26" \
  all_ok atomic $((5*4*4*3 + 5*2*2*4*3 + 2*2 + 2*2))

# --- reduce-add-sync and shared-array
{ header warp-sync
  cat <<EOF
[data]
distribution = signed
n = $small
op = sum
[run reduce-add-sync]
plugin = reduce-add-sync
dtype = i32
finish = atomic, shared-array
values_per_thread = 1, 16, 33
block = 32, 512, 1024
[run shared-array]
plugin = shared-array
dtype = i32, i64, f32, f64
values_per_thread = 1, 16, 33
block = 32, 512, 1024
EOF
} >"$tmp/warp-sync.ini"
ok "reduce-add-sync and shared-array: n = 1 .. 2^26" \
  all_ok warp-sync $((5*2*3*3 + 5*4*3*3))

# --- single-thread: one thread reads at the memory latency (tens of MB/s),
# so it stops at 2^20 + 3.
{ header single
  cat <<EOF
[data]
n = 1, 31, 1000, 1048579
op = sum
[run single-thread]
plugin = single-thread
dtype = i32, i64, f32, f64
[run single-thread-f64-acc]
plugin = single-thread
dtype = f32
acc = f64
EOF
} >"$tmp/single.ini"
ok "single-thread: every dtype, n = 1 .. 2^20 + 3" all_ok single $((4*4 + 4))

# --- histogram: every variant and load width, several bin counts
{ header histogram
  cat <<EOF
[data]
op = histogram
dtype = u8
n = $small
[run histogram]
plugin = cuda/histogram
bins = 256, 7, 1
variant = global-atomic, block-shared, warp-private
vector = 1, 4, 16
[run histogram-skewed]
plugin = cuda/histogram
distribution = float-bytes
n = 1048579, 64M
variant = global-atomic, block-shared, warp-private
[run histogram-shapes]
plugin = cuda/histogram
n = 1000, 1048579
variant = block-shared, warp-private
block = 32, 1024
grid = 1, 3
EOF
} >"$tmp/histogram.ini"
ok "histogram: every variant, vector and bin count, n = 1 .. 2^26" \
  all_ok histogram $((5*3*3*3 + 2*3 + 2*2*2*2))

# --- f32 sums of uniform data (all positive: the random-input check is
# tightest there) by every strategy that sums f32; probes as everywhere
bulk_cc=$("$JQ" -r '.devices[0].compute_capability // empty' "$tmp/probe.json")
{ header uniform
  cat <<EOF
[data]
distribution = uniform
op = sum
dtype = f32
n = 1048579, 64M
[run shuffle]
plugin = shuffle
finish = two-pass, last-block, atomic, atomic-epoch
[run atomic]
plugin = cuda/atomic
scope = warp, block
[run shared-array]
plugin = shared-array
[run cub]
plugin = cub
variant = cub, thrust
[run onepass]
plugin = onepass
finish = atomic, last-block
EOF
  case $bulk_cc in
    [1-8].*|"") ;;
    *) printf '[run bulk]\nplugin = bulk\nfinish = last-block, atomic\n[run cluster]\nplugin = cluster\n' ;;
  esac
} >"$tmp/uniform.ini"
uniform_rows=$((2*4 + 2*2 + 2 + 2*2 + 2*2))
case $bulk_cc in [1-8].*|"") ;; *) uniform_rows=$((uniform_rows + 2*2 + 2)) ;; esac
ok "f32 sums of uniform data: every strategy, n = 2^20 + 3 and 2^26" all_ok uniform $uniform_rows

# --- cub and thrust
{ header cub
  cat <<EOF
[data]
distribution = signed
n = $small
[run cub]
plugin = cub
op = sum, min, max, argmax
dtype = i32, i64, f32, f64
[run thrust]
plugin = cub
variant = thrust
op = sum, min, max
dtype = i32, i64, f32, f64
[run cub-histogram]
plugin = cub
op = histogram
dtype = u8
distribution = uniform
bins = 256, 7
EOF
} >"$tmp/cub.ini"
ok "cub: DeviceReduce, DeviceHistogram and thrust::reduce, n = 1 .. 2^26" \
  all_ok cub $((5*4*4 + 5*3*4 + 5*2))

# --- what must be declined, with the reason
{ header declined-ras
  printf '[data]\nop = sum\nn = 1000\n[run r]\nplugin = reduce-add-sync\ndtype = i64, f32, f64\n'
} >"$tmp/declined-ras.ini"
ok "reduce-add-sync declines all but i32" declined declined-ras "32-bit integers"

{ header declined-argmax
  printf '[data]\nop = argmax\ndtype = f32\nn = 1000\n[run s]\nplugin = shuffle\nfinish = atomic, atomic-epoch\n'
} >"$tmp/declined-argmax.ini"
ok "shuffle declines argmax with an atomic finish" declined declined-argmax "no single atomic"

{ header declined-onepass
  printf '[data]\nop = min, max\ndtype = f32, f64\nn = 1000\n[run o]\nplugin = onepass\nfinish = atomic\n'
} >"$tmp/declined-onepass.ini"
ok "onepass declines floating min and max with finish = atomic" declined declined-onepass \
  "atomicMin/atomicMax"

{ header declined-onepass-half
  printf '[data]\nop = min, max\ndtype = f16, bf16\nn = 1001\n[run o]\nplugin = onepass\nfinish = atomic\n'
} >"$tmp/declined-onepass-half.ini"
ok "onepass declines min and max of halves with finish = atomic" declined \
  declined-onepass-half "atomicMin/atomicMax"

{ header declined-shuffle-half
  printf '[data]\nop = min, max\ndtype = f16, bf16\nn = 1001\n[run s]\nplugin = shuffle\nfinish = atomic, atomic-epoch\nvector = 1, 8\n'
} >"$tmp/declined-shuffle-half.ini"
ok "shuffle declines min and max of halves with an atomic finish" declined \
  declined-shuffle-half "not an f32 for f16 and bf16"

{ header declined-vector
  printf '[data]\nop = sum\ndtype = i32, i64, f32, f64\nn = 1001\n[run s]\nplugin = shuffle\nvector = 8\n'
} >"$tmp/declined-vector.ini"
ok "shuffle declines vector = 8 for all but halves" declined declined-vector \
  "vector = 8 is for f16 and bf16"

{ header declined-keep
  printf '[data]\nop = sum\ndtype = f32\nn = 1000\n[run o]\nplugin = onepass\nkeep = 25, 75\n'
} >"$tmp/declined-keep.ini"
ok "onepass declines keep in forward order" declined declined-keep "needs order = alternate"

{ header declined-atomic
  printf '[data]\nop = min, max\ndtype = f32, f64\nn = 1000\n[run a]\nplugin = cuda/atomic\n'
} >"$tmp/declined-atomic.ini"
ok "atomic declines floating min and max" declined declined-atomic "atomicMin/atomicMax"

{ header declined-thrust
  printf '[data]\nn = 1000\n[run t]\nplugin = cub\nvariant = thrust\nop = argmax\ndtype = f32\n'
  printf '[run th]\nplugin = cub\nvariant = thrust\nop = histogram\ndtype = u8\n'
} >"$tmp/declined-thrust.ini"
ok "thrust declines argmax and histograms" declined declined-thrust "thrust"

# --- a result that is wrong is reported wrong, not ok: one float
# accumulator over 2^26 values in [0, 1) stalls at 2^24.
{ header stall
  printf '[data]\nop = sum\ndtype = f32\nn = 64M\n[run a]\nplugin = cuda/atomic\nscope = value\nacc = f32\n'
} >"$tmp/stall.ini"
"$rb" -c "$tmp/stall.ini" --no-isolation --format json -o "$tmp/stall.json" >/dev/null 2>&1
is "$("$JQ" -r '.results[0].status' "$tmp/stall.json")" wrong \
  "one f32 atomic accumulator over 2^26 values is judged wrong"

# --- the device is described
is "$("$JQ" -r '.devices[0].backend' "$tmp/probe.json")" cuda "the run names the cuda device"
dev_ok() {
  "$JQ" -e '.devices[0] | (.name | length > 0) and (.peak_gbs > 0)
    and (.measured_peak_gbs > 0) and (.uuid | startswith("GPU-"))' "$tmp/probe.json"
}
ok "the device has a name, a UUID, a theoretical and a measured peak" dev_ok
props_ok() {
  "$JQ" -e '.devices[0].properties as $p | ["sm_count", "l2_bytes", "bus_width",
    "mem_clock_khz", "driver_version", "runtime_version"] | all(. as $k | $p[$k] != null)' \
    "$tmp/probe.json"
}
ok "the device's properties include SMs, L2, bus, clock and versions" props_ok

if [ "$large" != 0 ]; then
  { header big-tree; big_sections tree "sum, min, max" "i32, i64, f32, f64" \
      "variant = divergent, strided-index, sequential, first-add, warp-unroll, full-unroll"
  } >"$tmp/big-tree.ini"
  ok "tree at n = 2^30" all_ok big-tree $((4*3*6))

  { header big-shuffle; big_sections shuffle "sum, min, max, argmax" "i32, i64, f32, f64" \
      "finish = two-pass, last-block" "vector = 1, 4"
  } >"$tmp/big-shuffle.ini"
  ok "shuffle at n = 2^30" all_ok big-shuffle $((4*4*2*2))

  { header big-onepass; big_sections onepass "sum, min, max" "i32, i64, f32, f64" \
      "finish = last-block"
    for d in i32 i64 f32 f64; do
      ops="sum, min, max"
      case $d in f*) ops=sum ;; esac
      printf '[run onepass-atomic-%s]\nplugin = onepass\nop = %s\ndtype = %s\nn = %s\nfinish = atomic\n' \
        "$d" "$ops" "$d" "$big"
    done
  } >"$tmp/big-onepass.ini"
  ok "onepass at n = 2^30" all_ok big-onepass $((4*3 + 2*3 + 2))

  { header big-halves; big_sections onepass "sum, min, max" "f16, bf16" "finish = last-block"
    big_sections shuffle "sum, max, argmax" "f16, bf16" "finish = last-block" "vector = 8"
  } >"$tmp/big-halves.ini"
  ok "onepass and shuffle on f16 and bf16 at n = 2^30" all_ok big-halves $((2*3 + 2*3))

  { header big-atomic; big_sections atomic "sum, min, max" "i32, i64" \
      "scope = value, thread, warp, block"
    big_sections atomic "sum" "f32, f64" "scope = value, thread, warp, block" "acc = f64"
  } >"$tmp/big-atomic.ini"
  ok "atomic at n = 2^30" all_ok big-atomic $((2*3*4 + 2*4))

  { header big-warp-sync; big_sections reduce-add-sync sum i32 "finish = atomic, shared-array"
    big_sections shared-array sum "i32, i64, f32, f64"
  } >"$tmp/big-warp-sync.ini"
  ok "reduce-add-sync and shared-array at n = 2^30" all_ok big-warp-sync $((2 + 4))

  { header big-cub; big_sections cub "sum, min, max, argmax" "i32, i64, f32, f64"
    printf '[run thrust-f32]\nplugin = cub\nvariant = thrust\ndtype = f32\nn = %s\n' "$big"
  } >"$tmp/big-cub.ini"
  ok "cub and thrust at n = 2^30" all_ok big-cub $((4*4 + 1))

  { header big-histogram
    printf '[data]\nop = histogram\ndtype = u8\nn = %s\n' "$big"
    printf '[run histogram]\nplugin = cuda/histogram\nvariant = global-atomic, block-shared, warp-private\n'
    printf '[run cub]\nplugin = cub\n'
  } >"$tmp/big-histogram.ini"
  ok "histograms at n = 2^30" all_ok big-histogram 4

  { header huge-histogram
    printf '[data]\nop = histogram\ndtype = u8\nn = %s\n' "$huge"
    printf '[run histogram]\nplugin = cuda/histogram\nvariant = global-atomic, block-shared, warp-private\n'
    printf '[run cub]\nplugin = cub\n'
  } >"$tmp/huge-histogram.ini"
  ok "histograms over more than 2^32 bytes" all_ok huge-histogram 4
fi

done_testing
