#!/bin/sh
# tests/packs/vulkan/test_vulkan.sh: the vulkan pack on the machine's Vulkan device
# (lavapipe, Mesa's CPU driver, in CI). Every strategy, variant, op and
# dtype the pack offers is judged `ok` (probes included) at n = 1, 2, 3,
# 31, 1000, 1000001 (odd: no block or vector width divides it; 65539 for
# tree's eight variants) and 4M;
# what the device cannot run is `unsupported` with the reason (on lavapipe:
# double atomic adds); subgroup's f16 and bf16 at n = 1, 7, 1001 and
# 2^16 + 3, also read at 0 to 7 halves past a 16-byte boundary (the
# half-shifted control), and the other strategies declining them; the
# four timing modes time it; the planted-bug plugins of
# tests/packs/vulkan/ (the one-pass finish's counter left unreset and the
# odd last half dropped among them) are each judged `wrong`; and, where the
# Khronos validation layer is installed, a run of every strategy (and of
# the half shaders) makes no validation error. Runs name the pack (vulkan/tree): other packs offer the
# same names. Skips without jq, without the pack or without a device.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
pack=$top_builddir/plugins/vulkan
planted=$top_builddir/tests/packs/vulkan/dir
[ -f "$pack/backend.so" ] || skip_all "the vulkan pack is not built"
paths="--plugin-path $pack --plugin-path $planted"

# [experiment] for a correctness run: one warm-up, one or two repetitions.
header() { experiment_header "$1" timeout=300 seed=20261124; printf '%s\n' "${2:-}"; }

# The probe: is there a device?
header probe >"$tmp/probe.ini"
cat >>"$tmp/probe.ini" <<EOF2
[data]
op = sum
dtype = i32
n = 1
[run probe]
plugin = vulkan/subgroup
EOF2
# shellcheck disable=SC2086
"$rb" -c "$tmp/probe.ini" $paths --format json -o "$tmp/probe.json" >"$tmp/probe.out" 2>&1
probe_status=$("$JQ" -r '.results[0].status' "$tmp/probe.json" 2>/dev/null)
case $probe_status in
  ok) ;;
  skipped|failed) skip_all "the vulkan probe row is $probe_status: $("$JQ" -r '.results[0].reason' "$tmp/probe.json")" ;;
  *) skip_all "the probe run did not run: $(tail -n 1 "$tmp/probe.out")" ;;
esac

# all_ok NAME ROWS: runs $tmp/NAME.ini; every row ok (and proven by the
# probes), ROWS rows, exit status 0. Prints what differs.
all_ok() {
  # shellcheck disable=SC2086
  "$rb" -c "$tmp/$1.ini" $paths --format json -o "$tmp/$1.json" >"$tmp/$1.out" 2>"$tmp/$1.err"
  status=$?
  rows=$("$JQ" '.results | length' "$tmp/$1.json" 2>/dev/null)
  not_ok=$("$JQ" '[.results[] | select(.status != "ok" or (.probes // "passed") != "passed")] | length' \
    "$tmp/$1.json" 2>/dev/null)
  if [ "$status" -eq 0 ] && [ "$rows" = "$2" ] && [ "$not_ok" = 0 ]; then
    return 0
  fi
  echo "exit status $status; $rows rows (want $2); $not_ok not ok"
  "$JQ" -r '.results[] | select(.status != "ok" or (.probes // "passed") != "passed")
    | "\(.run) \(.params_text // .params) \(.op) \(.dtype) n=\(.n): \(.status): \(.reason)"' \
    "$tmp/$1.json" 2>/dev/null | head -n 15
  tail -n 5 "$tmp/$1.err"
  return 1
}

# rows NAME STATUS: how many rows of $tmp/NAME.json have STATUS.
rows() {
  "$JQ" --arg s "$2" '[.results[] | select(.status == $s)] | length' "$tmp/$1.json"
}

features=$("$JQ" -r '.devices[0].properties.features // ""' "$tmp/probe.json")
device=$("$JQ" -r '.devices[0].name' "$tmp/probe.json")
echo "# device: $device; features: $features"
has() { case " $features " in *" $1 "*) return 0 ;; esac; return 1; }

dtypes=i32,f32
has int64 && dtypes="$dtypes, i64"
has float64 && dtypes="$dtypes, f64"
# Under the sanitizers, what is checked is the host's and the plugins' own
# memory: one dtype of 4 bytes and one of 8 take every path of it (the
# shaders of every dtype run in the plain suite, under the validation layer).
if sanitized; then
  dtypes=i32
  if has float64; then dtypes="$dtypes, f64"; elif has int64; then dtypes="$dtypes, i64"; fi
fi
n_dtypes=$(echo "$dtypes" | tr ',' '\n' | wc -l)
# Under the sanitizers (the plain suite runs the full sizes) the host's
# instrumented work per element dominates: the odd large size is 2^16 + 3
# and the medium one 1000001, the same passes and tails of every shader.
large=1000001 medium=4M
! sanitized || { large=65539 medium=1000001; }
sizes="1, 2, 3, 31, 1000, $large"
n_sizes=6

plan 27

# 1. tree: every variant (reduce0..reduce7), op and dtype the device has,
# at every size; grid-stride and subgroup also with 3 workgroups a pass.
# The eight variants at 2^16 + 3 rather than 1000001: still many
# workgroups and odd, at a fifteenth of the CPU driver's time (n = 4M below
# takes two of them further).
tree_sizes=$(echo "$sizes" | sed "s/$large/65539/")
header tree >"$tmp/tree.ini"
cat >>"$tmp/tree.ini" <<EOF2
[data]
op = sum, min, max
dtype = $dtypes
n = $tree_sizes
[run tree]
plugin = vulkan/tree
variant = divergent, interleaved, sequential, first-add, warp-unroll, full-unroll, grid-stride, subgroup
[run tree-grid]
plugin = vulkan/tree
variant = grid-stride, subgroup
grid = 3
block = 64
EOF2
ok "tree: 8 variants (and a grid of 3) x sum/min/max x $dtypes x n = $tree_sizes all ok" \
  all_ok tree $(((8 + 2) * 3 * n_dtypes * n_sizes))

# 2. subgroup, two-pass: scalar and 16-byte loads, 1 and 4 loads in flight.
header subgroup >"$tmp/subgroup.ini"
cat >>"$tmp/subgroup.ini" <<EOF2
[data]
op = sum, min, max
dtype = $dtypes
n = $sizes
[run subgroup]
plugin = vulkan/subgroup
finish = two-pass
vector = true, false
items = 1, 4
EOF2
ok "subgroup two-pass: vector x items x sum/min/max x $dtypes x n = $sizes all ok" \
  all_ok subgroup $((2 * 2 * 3 * n_dtypes * n_sizes))

# 2b. subgroup, one-pass (the last workgroup done joins the values in the
# same dispatch): the automatic grid and a grid of 3 workgroups, so that
# the small sizes join several workgroups too (some of them empty).
header one-pass >"$tmp/one-pass.ini"
cat >>"$tmp/one-pass.ini" <<EOF2
[data]
op = sum, min, max
dtype = $dtypes
n = $sizes
[run one-pass]
plugin = vulkan/subgroup
finish = one-pass
vector = true, false
items = 4
grid = auto, 3
EOF2
ok "subgroup one-pass: vector x grid x sum/min/max x $dtypes x n = $sizes all ok" \
  all_ok one-pass $((2 * 2 * 3 * n_dtypes * n_sizes))

# 3. subgroup and atomic with atomic finishes, where the device has them:
# the configurations it lacks the atomics for are left out here (test 6).
atomic_dtypes=i32
has f32-atomic-add && atomic_dtypes="$atomic_dtypes, f32"
has int64-atomics && atomic_dtypes="$atomic_dtypes, i64"
header atomics >"$tmp/atomics.ini"
cat >>"$tmp/atomics.ini" <<EOF2
[data]
op = sum, min, max
dtype = $atomic_dtypes
n = $sizes
[run subgroup-atomic]
plugin = vulkan/subgroup
finish = atomic
[run subgroup-epoch]
plugin = vulkan/subgroup
finish = atomic-epoch
grid = auto, 3
[run atomic]
plugin = vulkan/atomic
scope = workgroup, thread
EOF2
n_atomic=$(echo "$atomic_dtypes" | tr ',' '\n' | wc -l)
ok "subgroup (finish = atomic, atomic-epoch at 1 to 3 workgroups and auto) and atomic (workgroup, thread): sum/min/max x $atomic_dtypes all ok" \
  all_ok atomics $((5 * 3 * n_atomic * n_sizes))

# 4. histograms: 256, 7 and 1 bins, u8.
header histogram >"$tmp/histogram.ini"
cat >>"$tmp/histogram.ini" <<EOF2
[data]
op = histogram
dtype = u8
n = $sizes, $medium
bins = 256, 7, 1
[run histogram]
plugin = vulkan/histogram
block = 64, 256
EOF2
ok "histogram: 256, 7 and 1 bins at n = $sizes, $medium all ok" all_ok histogram $((3 * 2 * 7))

# 5. medium size (4M) for every strategy, sums and maxima (the trees'
# sums only: their maxima take the same passes, at 65539 above, and a 4M
# tree row takes the CPU driver 1.5 s).
header medium >"$tmp/medium.ini"
cat >>"$tmp/medium.ini" <<EOF2
[data]
op = sum, max
dtype = i32, f32
n = $medium
[run tree]
plugin = vulkan/tree
variant = sequential, first-add
op = sum
[run subgroup]
plugin = vulkan/subgroup
[run atomic]
plugin = vulkan/atomic
dtype = i32
EOF2
ok "n = $medium: tree (sums), subgroup and atomic all ok" all_ok medium $((2 * 2 + 2 * 2 + 2))

# 5b. halves: subgroup's f16 and bf16 (read as 32-bit words, reduced in
# f32) with each finish (auto: atomic where the device has it), scalar and
# 16-byte loads, 1 and 4 loads in flight, at odd sizes.
half_sizes="1, 7, 1001, 65539"
header half >"$tmp/half.ini"
cat >>"$tmp/half.ini" <<EOF2
[data]
op = sum, min, max
dtype = f16, bf16
n = $half_sizes
[run subgroup]
plugin = vulkan/subgroup
finish = auto, two-pass, one-pass
vector = true, false
items = 1, 4
EOF2
ok "subgroup f16/bf16: finish x vector x items x sum/min/max at n = $half_sizes all ok" \
  all_ok half $((3 * 2 * 2 * 3 * 2 * 4))

# 5c. halves at a 2-byte offset: half-shifted (tests/packs/vulkan/planted.c)
# copies the input to 0, 1, 3 and 7 halves past a 16-byte boundary and runs
# subgroup's half shaders there (the host hands the input at offset 0).
header half-shifted >"$tmp/half-shifted.ini"
cat >>"$tmp/half-shifted.ini" <<EOF2
[data]
op = sum, min, max
dtype = f16, bf16
n = $half_sizes
[run half-shifted]
plugin = half-shifted
shift = 0, 1, 3, 7
vector = true, false
EOF2
ok "f16/bf16 at 0, 1, 3 and 7 halves past a 16-byte boundary all ok" \
  all_ok half-shifted $((4 * 2 * 3 * 2 * 4))

# 5d. the strategies without halves decline them, with the reason.
header half-declined >"$tmp/half-declined.ini"
cat >>"$tmp/half-declined.ini" <<EOF2
[data]
op = sum, max
dtype = f16, bf16
n = 1000
[run tree]
plugin = vulkan/tree
[run atomic]
plugin = vulkan/atomic
EOF2
half_declined() {
  # shellcheck disable=SC2086
  "$rb" -c "$tmp/half-declined.ini" $paths --format json -o "$tmp/half-declined.json" >/dev/null 2>&1
  [ "$(rows half-declined unsupported)" = 8 ] ||
    { echo "unsupported rows: $(rows half-declined unsupported), want 8"; return 1; }
  bad=$("$JQ" -r '.results[] | select(.reason | test("does not support (sum|max) on b?f16") | not)
    | "\(.run) \(.dtype): \(.reason)"' "$tmp/half-declined.json")
  [ -z "$bad" ] || { echo "declined without the reason: $bad"; return 1; }
}
ok "tree and atomic decline f16 and bf16 (unsupported, with the reason)" half_declined

# 6. declined: what the device lacks is unsupported, with the reason.
header declined >"$tmp/declined.ini"
cat >>"$tmp/declined.ini" <<EOF2
[data]
op = sum
dtype = i32, i64, f32, f64
n = 1000
[run subgroup-atomic]
plugin = vulkan/subgroup
finish = atomic
[run atomic]
plugin = vulkan/atomic
[run too-large]
plugin = vulkan/tree
dtype = i32
n = 2G
EOF2
declined_ok() {
  # shellcheck disable=SC2086
  "$rb" -c "$tmp/declined.ini" $paths --format json -o "$tmp/declined.json" >/dev/null 2>&1
  want_ok=2 # i32 in both runs
  has f32-atomic-add && want_ok=$((want_ok + 2))
  has int64-atomics && want_ok=$((want_ok + 2))
  has f64-atomic-add && want_ok=$((want_ok + 2))
  [ "$(rows declined ok)" = "$want_ok" ] || { echo "ok rows: $(rows declined ok), want $want_ok"; return 1; }
  [ "$(rows declined unsupported)" = $((9 - want_ok)) ] ||
    { echo "unsupported rows: $(rows declined unsupported), want $((9 - want_ok))"; return 1; }
  bad=$("$JQ" -r '.results[] | select(.status == "unsupported")
    | select(.reason | test("atomic|shaderInt64|shaderFloat64|2\\^31|largest buffer|GiB") | not)
    | "\(.run) \(.dtype): \(.reason)"' "$tmp/declined.json")
  [ -z "$bad" ] || { echo "unsupported without a reason that says why: $bad"; return 1; }
  "$JQ" -r '.results[] | select(.status == "unsupported") | "# \(.run) \(.dtype) n=\(.n): \(.reason)"' \
    "$tmp/declined.json" | sort -u | head -n 6 >&2
}
ok "what the device lacks is unsupported with the reason" declined_ok

# 7-8. the timing modes: launch, device, graph and eager (calls submitted
# back to back, timed together) each time every strategy.
for mode in launch graph device eager; do
  header "timing-$mode" "timing = $mode" >"$tmp/timing-$mode.ini"
  cat >>"$tmp/timing-$mode.ini" <<EOF2
[data]
op = sum
dtype = i32
n = $large
[run tree]
plugin = vulkan/tree
variant = sequential
[run subgroup]
plugin = vulkan/subgroup
finish = two-pass, atomic, one-pass
[run atomic]
plugin = vulkan/atomic
[run histogram]
plugin = vulkan/histogram
op = histogram
dtype = u8
EOF2
  timed() {
    all_ok "timing-$1" 6 || return 1
    modes=$("$JQ" -r '[.results[].timing] | unique | join(",")' "$tmp/timing-$1.json")
    [ "$modes" = "$1" ] || { echo "timing: $modes, want $1"; return 1; }
    slow=$("$JQ" '[.results[] | select((.median_ns // 0) <= 0)] | length' "$tmp/timing-$1.json")
    [ "$slow" = 0 ] || { echo "$slow rows without a positive time"; return 1; }
  }
  ok "timing = $mode: every strategy ok and timed in that mode" timed "$mode"
done

# 9-12. planted bugs: each judged wrong.
header planted >"$tmp/planted.ini"
cat >>"$tmp/planted.ini" <<EOF2
[data]
op = sum
dtype = i32, f32
n = 1000001
[run skip-tail]
plugin = bug-skip-tail
[run stale]
plugin = bug-stale
[run one-pass-count]
plugin = bug-one-pass-count
[run last-byte]
plugin = bug-last-byte
op = histogram
dtype = u8
[run half-tail]
plugin = bug-half-tail
op = sum, min, max
dtype = f16, bf16
n = 7, 1001
[run reverse-round-up]
plugin = bug-reverse-round-up
finish = one-pass
order = alternate
vector = true
[run epoch-keep]
plugin = bug-epoch-keep
finish = atomic-epoch
op = sum, max
dtype = i32
[run epoch-keep-control]
plugin = bug-epoch-keep
finish = atomic
op = sum, max
dtype = i32
EOF2
# shellcheck disable=SC2086
"$rb" -c "$tmp/planted.ini" $paths --format json -o "$tmp/planted.json" >/dev/null 2>&1
planted_status=$?
wrong_rows() {
  got=$("$JQ" -r --arg r "$1" '[.results[] | select(.run == $r) | .status] | unique | join(",")' \
    "$tmp/planted.json")
  "$JQ" -r --arg r "$1" '.results[] | select(.run == $r) | "# \(.run) \(.dtype): \(.status): \(.reason)"' \
    "$tmp/planted.json" >&2
  [ "$got" = wrong ] || { echo "$1: $got, want wrong"; return 1; }
}
ok "bug-skip-tail (drops the elements after the last whole workgroup) is wrong" wrong_rows skip-tail
ok "bug-last-byte (a histogram that ignores the last byte) is wrong" wrong_rows last-byte
ok "bug-stale (computes on the first call only) is wrong, by the probes" wrong_rows stale
ok "bug-one-pass-count (the one-pass finish's counter never set back to 0) is wrong" \
  wrong_rows one-pass-count
ok "bug-half-tail (f16 and bf16 without an odd last half) is wrong" wrong_rows half-tail
ok "bug-reverse-round-up (order = alternate with the vectors counted rounded up) is wrong" \
  wrong_rows reverse-round-up
ok "bug-epoch-keep (the atomic-epoch finish never sets the other result back) is wrong" \
  wrong_rows epoch-keep
is "$("$JQ" -r '[.results[] | select(.run == "epoch-keep-control") | .status] | unique | join(",")' \
  "$tmp/planted.json")" ok "... and right with finish = atomic (the bug is the epoch's alone)"

# The control of bug-reverse-round-up: subgroup in alternate order, every
# finish, with and without 16-byte loads, right at odd sizes; halves are
# declined in that order, with the reason.
alternate_finishes="two-pass, one-pass"
n_alternate_finishes=2
has f32-atomic-add && alternate_finishes="$alternate_finishes, atomic" n_alternate_finishes=3
header alternate >"$tmp/alternate.ini"
cat >>"$tmp/alternate.ini" <<EOF2
[data]
op = sum
dtype = i32, f32
n = 31, $large
[run subgroup]
plugin = vulkan/subgroup
finish = $alternate_finishes
order = alternate
vector = false, true
EOF2
ok "subgroup order = alternate: every finish, vector or not, i32 and f32 at odd n all ok" \
  all_ok alternate $((n_alternate_finishes * 2 * 2 * 2))
header alternate-half >"$tmp/alternate-half.ini"
cat >>"$tmp/alternate-half.ini" <<EOF2
[data]
op = sum
dtype = f16
n = 1001
[run subgroup]
plugin = vulkan/subgroup
order = alternate
EOF2
declined_alternate() {
  # shellcheck disable=SC2086
  "$rb" -c "$tmp/alternate-half.ini" $paths --format json -o "$tmp/alternate-half.json" \
    >/dev/null 2>&1
  why=$("$JQ" -r '.results[] | "\(.status): \(.reason)"' "$tmp/alternate-half.json")
  case $why in
  "unsupported: "*"read forward only"*) return 0 ;;
  esac
  echo "got: $why"
  return 1
}
ok "subgroup order = alternate declines f16, saying why" declined_alternate
is "$planted_status" 1 "a run with wrong rows exits 1"

# bench/vulkan_dispatch_floor.sh (the cost of each barrier between
# dispatches, docs/vulkan-pack.md) builds and measures on this device.
floor_bench() {
  sh "$top_srcdir/bench/vulkan_dispatch_floor.sh" 20 >"$tmp/floor.txt" 2>&1 ||
    { tail -n 5 "$tmp/floor.txt"; return 1; }
  got=$(grep -cE '^(none|execution|shader|transfer|full|fill\+full) +[0-9]+\.[0-9]+ us per dispatch$' \
    "$tmp/floor.txt")
  [ "$got" = 6 ] || { echo "$got of 6 barrier lines"; cat "$tmp/floor.txt"; return 1; }
}
if command -v "${GLSLC:-glslc}" >/dev/null 2>&1 && command -v "${CC:-cc}" >/dev/null 2>&1; then
  ok "bench/vulkan_dispatch_floor.sh builds and times the six barriers" floor_bench
else
  skip "glslc or a C compiler is missing: the dispatch floor bench is not built"
fi

# 13. validation layers: no error over every strategy and timing mode,
# nor over the half shaders (each finish).
layer=
for d in /usr/share/vulkan/explicit_layer.d /usr/local/share/vulkan/explicit_layer.d; do
  [ -f "$d/VkLayer_khronos_validation.json" ] && layer=yes
done
if [ -z "$layer" ]; then
  skip "the Khronos validation layer is not installed (apt-get install vulkan-validationlayers)"
else
  mkdir -p "$tmp/layer"
  cat >"$tmp/layer/vk_layer_settings.txt" <<EOF2
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.log_filename = $tmp/validation.log
khronos_validation.report_flags = error
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
EOF2
  validated() {
    for mode in launch graph device eager; do
      VK_LAYER_SETTINGS_PATH=$tmp/layer VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
        all_ok "timing-$mode" 6 || return 1
    done
    half_finishes="two-pass, one-pass" n_half_finishes=2
    has f32-atomic-add && half_finishes="$half_finishes, atomic" n_half_finishes=3
    header half-validated >"$tmp/half-validated.ini"
    cat >>"$tmp/half-validated.ini" <<EOF2
[data]
op = sum, min
dtype = f16, bf16
n = 1001
[run subgroup]
plugin = vulkan/subgroup
finish = $half_finishes
EOF2
    VK_LAYER_SETTINGS_PATH=$tmp/layer VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
      all_ok half-validated $((4 * n_half_finishes)) || return 1
    [ -f "$tmp/validation.log" ] || return 0
    errors=$(grep -c 'Validation Error' "$tmp/validation.log")
    [ "$errors" = 0 ] || { grep 'Validation Error' "$tmp/validation.log" | head -n 5; return 1; }
  }
  ok "the validation layer (with synchronization checks) reports no error" validated
fi

done_testing
