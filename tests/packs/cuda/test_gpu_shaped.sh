#!/bin/sh
# tests/packs/cuda/test_gpu_shaped.sh: the cuda pack's shaped reductions
# (ABI 1.6, issue 43) on a GPU. cuda/segmented (CUB, the baseline), every
# strategy of cuda/rows and cuda/columns, over rows 1, 7, 64 and 1000 by
# n (elements per row) 1, 31, 1000 and 4097, rows fixed and ragged (rows'
# strategies, segmented) and columns (columns', segmented), f32, i32, f16
# and bf16, sum, min, max and argmax: every row `ok` with its probes passed.
# The planted twins (tests/packs/cuda/*-twin.cu) `wrong`, the host naming
# the first bad answer: rows-twin (its grid rounds down: rows 992.. of 1000
# left out at 32 rows a block) and columns-twin (its tiles round down:
# columns 992.. of 1000 left out at 32 a tile) name 992; segmented-twin
# (ragged rows taken as cols long) names a row, and is `ok` on fixed rows.
# Then compute-sanitizer's memcheck and racecheck over the three plugins
# on a smaller grid: 0 errors, every row ok. Skips without jq, nvcc, the
# cuda pack or a device (the sanitizer steps without compute-sanitizer).
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || skip_all "nvcc not found"
cuda_probe timeout=600 seed=20261215
[ "$probe_status" = ok ] || skip_all "no cuda device: $probe_reason"

mkdir -p "$tmp/plugins"
for twin in rows columns segmented; do
  "$nvcc" -std=c++20 -O3 -shared -Xcompiler -fPIC,-fvisibility=hidden -cudart static \
    -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 \
    -I"$top_srcdir/sdk" "$top_srcdir/tests/packs/cuda/$twin-twin.cu" \
    -o "$tmp/plugins/$twin-twin.so" >"$tmp/nvcc.log" 2>&1 ||
    { sed 's/^/# /' "$tmp/nvcc.log"; bail "nvcc could not build $twin-twin"; }
done

# The grid. Each [run] names its shape; [data] holds the rest.
{ experiment_header shaped timeout=600 seed=20261215
  printf '[data]\nop = sum, min, max, argmax\ndtype = f32, i32, f16, bf16\n'
  printf 'rows = 1, 7, 64, 1000\nn = 1, 31, 1000, 4097\n'
  printf '[run segmented-rows]\nplugin = cuda/segmented\naxis = row\nlengths = fixed, ragged\n'
  printf '[run segmented-columns]\nplugin = cuda/segmented\naxis = column\nlengths = fixed\n'
  printf '[run rows-thread]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = thread\nblock = 128\n'
  printf '[run rows-subwarp]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = subwarp\nlanes = 2, 16\n'
  printf '[run rows-warp]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = warp\n'
  printf '[run rows-block]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = block\nblock = 128, 1024\n'
  printf '[run rows-blocks]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = blocks\nsplit = auto, 3\n'
  printf '[run columns-thread]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = thread\n'
  printf '[run columns-tile]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = tile\ntile = 32, 64\nblock = 256, 1024\n'
  printf '[run columns-split]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = split\nsplit = auto, 5\n'
} >"$tmp/shaped.ini"

# The twins, where their bugs show (and segmented-twin where it has none).
{ experiment_header twins timeout=600 seed=20261215
  printf '[data]\nop = sum, max, argmax\ndtype = f32, i32\nrows = 1000\nn = 1000\n'
  printf '[run rows-twin]\nplugin = rows-twin\naxis = row\nlengths = fixed\n'
  printf 'strategy = subwarp\nlanes = 8\nblock = 256\n'
  printf '[run columns-twin]\nplugin = columns-twin\naxis = column\nlengths = fixed\n'
  printf 'strategy = tile, split\ntile = 32\nblock = 256\n'
  printf '[run segmented-twin]\nplugin = segmented-twin\naxis = row\nlengths = ragged\n'
  printf 'rows = 7, 64, 1000\n'
  printf '[run segmented-twin-fixed]\nplugin = segmented-twin\naxis = row\nlengths = fixed\n'
  printf 'rows = 7, 1000\n'
} >"$tmp/twins.ini"

# results FILE FILTER: the rows of FILE that FILTER selects, one a line.
results() {
  "$JQ" -r ".results[] | select($2)
    | \"\(.run) \(.params_text) \(.op) \(.dtype) rows=\(.rows) n=\(.n) \(.axis) \(.lengths):\"
      + \" \(.status) (probes \(.probes)): \(.reason)\"" "$1"
}
# none FILE FILTER: no row of FILE is selected by FILTER (prints the first).
none() {
  out=$(results "$1" "$2")
  [ -z "$out" ] && return 0
  echo "$out" | head -n 15
  return 1
}
# every_run FILE RUNS...: each run named made rows.
every_run() { file=$1; shift
  for r in "$@"; do
    [ -n "$(results "$file" ".run == \"$r\"")" ] || { echo "run $r made no rows"; return 1; }
  done
}

plan 12
"$rb" -q -c "$tmp/shaped.ini" --no-isolation --format json -o "$tmp/shaped.json" \
  >"$tmp/shaped.out" 2>&1
status=$?
ok "the grid ran and exited 0" test "$status" -eq 0
ok "every run made rows" every_run "$tmp/shaped.json" segmented-rows segmented-columns \
  rows-thread rows-subwarp rows-warp rows-block rows-blocks columns-thread columns-tile \
  columns-split
ok "every row ok with its probes passed" \
  none "$tmp/shaped.json" '.status != "ok" or .probes != "passed"'

"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/twins.ini" --no-isolation --format json \
  -o "$tmp/twins.json" >"$tmp/twins.out" 2>&1
ok "the twins' runs made rows" every_run "$tmp/twins.json" rows-twin columns-twin \
  segmented-twin segmented-twin-fixed
ok "rows-twin: wrong, naming row 992 (the first left out)" \
  none "$tmp/twins.json" '.run == "rows-twin" and
    (.status != "wrong" or (.reason | test("row[^0-9]*992") | not))'
ok "columns-twin: wrong, naming column 992 (the first left out)" \
  none "$tmp/twins.json" '.run == "columns-twin" and
    (.status != "wrong" or (.reason | test("column[^0-9]*992") | not))'
ok "segmented-twin: ragged rows wrong, naming a row" \
  none "$tmp/twins.json" '.run == "segmented-twin" and
    (.status != "wrong" or (.reason | test("row[^0-9]*[0-9]") | not))'
ok "segmented-twin: fixed rows ok (the bug is only the offsets)" \
  none "$tmp/twins.json" '.run == "segmented-twin-fixed" and .status != "ok"'

# compute-sanitizer over the three plugins, in one process.
sanitizer=${COMPUTE_SANITIZER:-}
if [ -z "$sanitizer" ]; then
  for c in compute-sanitizer /usr/local/cuda/bin/compute-sanitizer; do
    command -v "$c" >/dev/null 2>&1 && { sanitizer=$c; break; }
  done
fi
{ printf '[experiment]\nname = shaped-sanitize\nrounds = 1\nwarmup = 0\nmin_time = 0\n'
  printf 'min_reps = 1\nmax_reps = 1\ntimeout = 600\n'
  printf '[data]\nop = sum, argmax\ndtype = f32, f16\nrows = 7, 1000\nn = 31, 1000\n'
  printf 'distribution = signed\n'
  printf '[run segmented]\nplugin = cuda/segmented\naxis = row\nlengths = fixed, ragged\n'
  printf '[run segmented-columns]\nplugin = cuda/segmented\naxis = column\nlengths = fixed\n'
  printf '[run rows]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = thread, subwarp, warp, block, blocks\nlanes = 4\nsplit = auto, 3\n'
  printf '[run columns]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = thread, tile, split\ntile = 32, 64\nsplit = auto, 5\n'
} >"$tmp/sanitize.ini"
for tool in memcheck racecheck; do
  if [ -z "$sanitizer" ]; then
    skip "$tool: compute-sanitizer not found"
    skip "$tool: compute-sanitizer not found"
    continue
  fi
  "$sanitizer" --tool "$tool" --error-exitcode 99 "$rb" -c "$tmp/sanitize.ini" --no-isolation \
    --format json -o "$tmp/$tool.json" >"$tmp/$tool.log" 2>&1
  status=$?
  summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$tmp/$tool.log" | tail -n 1)
  clean() {
    [ "$status" -eq 0 ] && echo "$summary" | grep -q ' 0 errors\| 0 hazards' && return 0
    echo "exit status $status: $summary"
    grep -E '=========' "$tmp/$tool.log" | head -n 15
    return 1
  }
  ok "$tool: no errors over segmented, rows and columns" clean
  ok "$tool: every row verified under the sanitizer" \
    none "$tmp/$tool.json" '.status != "ok"'
done

done_testing
