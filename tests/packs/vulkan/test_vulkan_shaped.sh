#!/bin/sh
# tests/packs/vulkan/test_vulkan_shaped.sh: the vulkan pack's shaped
# reductions (ABI 1.6, issue 43) on the machine's Vulkan device (lavapipe
# in CI). vulkan/rows, a subgroup per row, over rows 1, 7, 64 and 1000 by
# n (elements per row) 1, 31, 1000 and 4097, fixed and ragged, sum, min,
# max and argmax of i32, f32, f16 and bf16 (and of i64 and f64 where the
# device has them, on a smaller grid): every row `ok` with its probes
# passed; a grid of one workgroup of 32 invocations, whose subgroups
# stride over all the rows; columns declined with the reason. Its planted
# twin rows-twin (tests/packs/vulkan/local.mk: rows.c with rows.comp's
# PLANTED_FIXED_LENGTHS, ragged rows taken as cols long) `wrong` on ragged
# rows, the host naming a row, and `ok` on fixed ones. Where the Khronos
# validation layer is installed, a run in each timing mode makes no
# validation error. Skips without jq, without the pack or without a device.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
pack=$top_builddir/plugins/vulkan
planted=$top_builddir/tests/packs/vulkan/dir
[ -f "$pack/rows.so" ] || skip_all "the vulkan pack is not built"
paths="--plugin-path $pack --plugin-path $planted"

header() { experiment_header "$1" timeout=300 seed=20261215; printf '%s\n' "${2:-}"; }

# The probe: is there a device?
header probe >"$tmp/probe.ini"
printf '[data]\nop = sum\ndtype = i32\nn = 1\n[run probe]\nplugin = vulkan/rows\n' >>"$tmp/probe.ini"
# shellcheck disable=SC2086
"$rb" -c "$tmp/probe.ini" $paths --format json -o "$tmp/probe.json" >"$tmp/probe.out" 2>&1
probe_status=$("$JQ" -r '.results[0].status' "$tmp/probe.json" 2>/dev/null)
case $probe_status in
  ok) ;;
  skipped|failed|unsupported)
    skip_all "the vulkan probe row is $probe_status: $("$JQ" -r '.results[0].reason' "$tmp/probe.json")" ;;
  *) skip_all "the probe run did not run: $(tail -n 1 "$tmp/probe.out")" ;;
esac
features=$("$JQ" -r '.devices[0].properties.features // ""' "$tmp/probe.json")
echo "# device: $("$JQ" -r '.devices[0].name' "$tmp/probe.json"); features: $features"
has() { case " $features " in *" $1 "*) return 0 ;; esac; return 1; }

# run NAME: runs $tmp/NAME.ini into $tmp/NAME.json; $status is its exit status.
run() {
  # shellcheck disable=SC2086
  "$rb" -q -c "$tmp/$1.ini" $paths --format json -o "$tmp/$1.json" >"$tmp/$1.out" 2>&1
  status=$?
}
# results NAME FILTER: the rows of $tmp/NAME.json that FILTER selects, one a line.
results() {
  "$JQ" -r ".results[] | select($2)
    | \"\(.run) \(.params_text) \(.op) \(.dtype) n=\(.n) \(.result):\"
      + \" \(.status) (probes \(.probes)): \(.reason)\"" "$tmp/$1.json"
}
# all_ok NAME ROWS: exit status 0, ROWS rows, each ok with its probes passed.
all_ok() {
  rows=$("$JQ" '.results | length' "$tmp/$1.json" 2>/dev/null)
  bad=$(results "$1" '.status != "ok" or .probes != "passed"')
  [ "$status" -eq 0 ] && [ "$rows" = "$2" ] && [ -z "$bad" ] && return 0
  echo "exit status $status; $rows rows (want $2)"
  echo "$bad" | head -n 15
  tail -n 3 "$tmp/$1.out"
  return 1
}
# none NAME FILTER: no row of $tmp/NAME.json is selected by FILTER, and
# some row is (prints the first selected).
none() {
  [ "$("$JQ" '.results | length' "$tmp/$1.json" 2>/dev/null)" -gt 0 ] 2>/dev/null ||
    { echo "no rows"; return 1; }
  out=$(results "$1" "$2")
  [ -z "$out" ] && return 0
  echo "$out" | head -n 15
  return 1
}

plan 8

# 1. the grid: 4 x 4 shapes, fixed and ragged, 4 ops, 4 dtypes.
header grid >"$tmp/grid.ini"
cat >>"$tmp/grid.ini" <<EOF2
[data]
op = sum, min, max, argmax
dtype = i32, f32, f16, bf16
rows = 1, 7, 64, 1000
n = 1, 31, 1000, 4097
[run rows]
plugin = vulkan/rows
axis = row
lengths = fixed, ragged
EOF2
run grid
ok "rows 1, 7, 64, 1000 x n 1, 31, 1000, 4097, fixed and ragged, sum/min/max/argmax of i32, f32, f16, bf16: all ok, probes passed" \
  all_ok grid $((4 * 4 * 2 * 4 * 4))

# 2. the 64-bit dtypes the device has, on a smaller grid.
wide=
has int64 && wide=i64
has float64 && wide="${wide:+$wide, }f64"
if [ -z "$wide" ]; then
  skip "the device has neither 64-bit integers nor doubles in shaders"
else
  header wide >"$tmp/wide.ini"
  cat >>"$tmp/wide.ini" <<EOF2
[data]
op = sum, min, max, argmax
dtype = $wide
rows = 7, 1000
n = 31, 1000
[run rows]
plugin = vulkan/rows
axis = row
lengths = fixed, ragged
EOF2
  run wide
  n_wide=$(echo "$wide" | tr ',' '\n' | wc -l)
  # i64 needs subgroup operations on 64-bit integers: declined, saying so, without them
  wide_ok() {
    declined=$(results wide '.status == "unsupported"')
    if [ -n "$declined" ]; then
      echo "$declined" | grep -v shaderSubgroupExtendedTypes | head -n 5 | grep . && return 1
      echo "$declined" | sed 's/^/# /' | head -n 1 >&2
      none wide '.status != "unsupported" and (.status != "ok" or .probes != "passed")'
      return
    fi
    all_ok wide $((2 * 2 * 2 * 4 * n_wide))
  }
  ok "$wide: rows 7, 1000 x n 31, 1000, fixed and ragged, every op: all ok" wide_ok
fi

# 3. one workgroup of 32 invocations: its subgroups stride over all rows.
header stride >"$tmp/stride.ini"
cat >>"$tmp/stride.ini" <<EOF2
[data]
op = sum, argmax
dtype = f32, i32
rows = 1000
n = 31
[run rows]
plugin = vulkan/rows
axis = row
lengths = fixed, ragged
grid = 1
block = 32
EOF2
run stride
ok "grid = 1, block = 32 (a few subgroups over 1000 rows): all ok" all_ok stride 8

# 4. columns are declined, with the reason.
header columns >"$tmp/columns.ini"
cat >>"$tmp/columns.ini" <<EOF2
[data]
op = sum
dtype = f32
rows = 7
n = 31
[run rows]
plugin = vulkan/rows
axis = column
EOF2
run columns
ok "axis = column is unsupported, saying why" \
  none columns '.status != "unsupported" or (.reason | test("columns") | not)'

# 5-7. the twin: ragged rows wrong (naming a row), fixed rows ok.
header twin >"$tmp/twin.ini"
cat >>"$tmp/twin.ini" <<EOF2
[data]
op = sum, max, argmax
dtype = i32, f32
n = 1000
[run twin-ragged]
plugin = rows-twin
axis = row
lengths = ragged
rows = 7, 64, 1000
[run twin-fixed]
plugin = rows-twin
axis = row
lengths = fixed
rows = 1, 7, 1000
EOF2
run twin
results twin '.run == "twin-ragged"' | sed 's/^/# /' | head -n 3
ok "rows-twin (ragged rows taken as cols long): ragged rows wrong, naming a row" \
  none twin '.run == "twin-ragged" and (.status != "wrong" or (.reason | test("row [0-9]+ of") | not))'
ok "rows-twin: fixed rows ok (the bug is only the offsets)" \
  none twin '.run == "twin-fixed" and (.status != "ok" or .probes != "passed")'
is "$status" 1 "a run with wrong rows exits 1"

# 8. validation layers: no error over every timing mode, fixed and ragged.
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
    export VK_LAYER_SETTINGS_PATH="$tmp/layer" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
    for mode in launch graph device eager; do
      header "validated-$mode" "timing = $mode" >"$tmp/validated-$mode.ini"
      cat >>"$tmp/validated-$mode.ini" <<EOF2
[data]
op = sum, argmax
dtype = f32, f16
rows = 1, 64
n = 1000
[run rows]
plugin = vulkan/rows
axis = row
lengths = fixed, ragged
EOF2
      run "validated-$mode"
      all_ok "validated-$mode" 16 || return 1
    done
    unset VK_LAYER_SETTINGS_PATH VK_INSTANCE_LAYERS
    [ -f "$tmp/validation.log" ] || return 0
    errors=$(grep -c 'Validation Error' "$tmp/validation.log")
    [ "$errors" = 0 ] || { grep 'Validation Error' "$tmp/validation.log" | head -n 5; return 1; }
  }
  ok "the validation layer (with synchronization checks) reports no error in any timing mode" \
    validated
fi

done_testing
