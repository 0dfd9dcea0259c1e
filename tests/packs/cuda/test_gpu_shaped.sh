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
# columns 992.. of 1000 left out at 32 a tile) name 992, columns-twin's
# thread strategy (its grid rounds down: one block of 128 threads at 4
# columns each) names 512; rows-waves-twin (grid = waves stepping by
# threads, not groups) names a row, and is `ok` with a thread per row;
# rows-block-twin (a block's part rounded down to whole vectors) names a
# row at 1001 elements a row, and is `ok` at 1000; rows-ticket-twin
# (finish = last-block, its tickets never set back) is `wrong` (later
# calls answer nothing: the probes' inputs get the first call's answers),
# and `ok` at finish = kernel; rows-reverse-twin (order = alternate, a
# reversed call's answers stored at the group's index) names a row, and
# is `ok` at order = forward; columns-vector-twin
# (a tile's first column counted in vectors: at 4 columns a load, columns
# 280.. of 1000 left out) names 280, and is `ok` with vector = no;
# segmented-twin (ragged rows taken as cols long) names a row, and is `ok`
# on fixed rows. The column strategies run with vector loads where the
# columns allow (auto: n = 1000) and once more without (vector = no); the
# rows' group strategies also at grid = waves over more rows than a wave
# has groups, and every rows strategy at order = alternate.
# cuda/segmented's variant = fixed (CUB's fixed-size segments) is `ok` on
# fixed rows and columns where the plugin was built against CCCL 3.1 or
# later, and otherwise declined naming the older version; ragged rows are
# declined either way.
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
# The twins built side by side (each takes nvcc half a minute or more).
twins="rows rows-waves rows-block rows-ticket rows-reverse columns columns-vector segmented"
pids=
for twin in $twins; do
  "$nvcc" -std=c++20 -O3 -shared -Xcompiler -fPIC,-fvisibility=hidden -cudart static \
    -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 \
    -I"$top_srcdir/sdk" "$top_srcdir/tests/packs/cuda/$twin-twin.cu" \
    -o "$tmp/plugins/$twin-twin.so" >"$tmp/nvcc-$twin.log" 2>&1 &
  pids="$pids $!"
done
set -- $pids # waited for in the order they were started, as $twins
for twin in $twins; do
  wait "$1" || { sed 's/^/# /' "$tmp/nvcc-$twin.log"; bail "nvcc could not build $twin-twin"; }
  shift
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
  printf 'strategy = blocks\nsplit = auto, 3\nfinish = kernel, last-block\n'
  printf '[run rows-waves]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = thread, warp\ngrid = waves\nrows = 600K\nn = 5, 33\n'
  printf 'op = sum, argmax\ndtype = f32, bf16\n'
  printf '[run rows-alternate]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = thread, subwarp, warp, block, blocks\nlanes = 4\nsplit = 3\n'
  printf 'order = alternate\nrows = 7, 1000\nn = 31, 1000\n'
  printf '[run rows-waves-subwarp]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = subwarp\nlanes = 2, 16\ngrid = waves\nrows = 600K\nn = 5, 33\n'
  printf 'op = sum, argmax\ndtype = f32, bf16\n'
  printf '[run columns-thread]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = thread\n'
  printf '[run columns-tile]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = tile\ntile = 32, 64\nblock = 256, 1024\n'
  printf '[run columns-split]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = split\nsplit = auto, 5\n'
  printf '[run columns-scalar]\nplugin = cuda/columns\naxis = column\nlengths = fixed\n'
  printf 'strategy = thread, tile, split\nvector = no\nn = 1000\n'
} >"$tmp/shaped.ini"

# The twins, where their bugs show (and segmented-twin where it has none).
{ experiment_header twins timeout=600 seed=20261215
  printf '[data]\nop = sum, max, argmax\ndtype = f32, i32\nrows = 1000\nn = 1000\n'
  printf '[run rows-twin]\nplugin = rows-twin\naxis = row\nlengths = fixed\n'
  printf 'strategy = subwarp\nlanes = 8\nblock = 256\n'
  printf '[run columns-twin]\nplugin = columns-twin\naxis = column\nlengths = fixed\n'
  printf 'strategy = tile, split\ntile = 32\nblock = 256\n'
  printf '[run columns-twin-thread]\nplugin = columns-twin\naxis = column\n'
  printf 'lengths = fixed\nstrategy = thread\nblock = 128\nvector = yes\n'
  printf '[run rows-waves-twin]\nplugin = rows-waves-twin\naxis = row\nlengths = fixed\n'
  printf 'strategy = subwarp\nlanes = 8\ngrid = waves\nrows = 600K\nn = 5\n'
  printf '[run rows-waves-twin-thread]\nplugin = rows-waves-twin\naxis = row\n'
  printf 'lengths = fixed\nstrategy = thread\ngrid = waves\nrows = 600K\nn = 5\n'
  printf '[run rows-block-twin]\nplugin = rows-block-twin\naxis = row\nlengths = fixed\n'
  printf 'strategy = block, blocks\nsplit = 3\nrows = 7\nn = 1001\nop = sum\n'
  printf '[run rows-block-twin-whole]\nplugin = rows-block-twin\naxis = row\n'
  printf 'lengths = fixed\nstrategy = block\nrows = 7\nn = 1000\n'
  printf '[run rows-ticket-twin]\nplugin = rows-ticket-twin\naxis = row\nlengths = fixed\n'
  printf 'strategy = blocks\nsplit = 3\nfinish = last-block\nrows = 7\n'
  printf '[run rows-ticket-twin-kernel]\nplugin = rows-ticket-twin\naxis = row\n'
  printf 'lengths = fixed\nstrategy = blocks\nsplit = 3\nfinish = kernel\nrows = 7\n'
  printf '[run rows-reverse-twin]\nplugin = rows-reverse-twin\naxis = row\nlengths = fixed\n'
  printf 'strategy = subwarp, block\nlanes = 8\norder = alternate\n'
  printf '[run rows-reverse-twin-forward]\nplugin = rows-reverse-twin\naxis = row\n'
  printf 'lengths = fixed\nstrategy = subwarp, block\nlanes = 8\norder = forward\n'
  printf '[run columns-vector-twin]\nplugin = columns-vector-twin\naxis = column\n'
  printf 'lengths = fixed\nstrategy = tile, split\ntile = 32\nblock = 256\nvector = yes\n'
  printf '[run columns-vector-twin-scalar]\nplugin = columns-vector-twin\naxis = column\n'
  printf 'lengths = fixed\nstrategy = tile, split\nvector = no\n'
  printf '[run segmented-twin]\nplugin = segmented-twin\naxis = row\nlengths = ragged\n'
  printf 'rows = 7, 64, 1000\n'
  printf '[run segmented-twin-fixed]\nplugin = segmented-twin\naxis = row\nlengths = fixed\n'
  printf 'rows = 7, 1000\n'
} >"$tmp/twins.ini"

# CUB's fixed-size segments, along rows and columns, and declining ragged rows.
{ experiment_header fixed timeout=600 seed=20261215
  printf '[data]\nop = sum, argmax\ndtype = f32, bf16\nrows = 1, 7, 1000\nn = 1, 31, 4097\n'
  printf '[run segmented-fixed]\nplugin = cuda/segmented\nvariant = fixed\naxis = row\n'
  printf 'lengths = fixed\n'
  printf '[run segmented-fixed-columns]\nplugin = cuda/segmented\nvariant = fixed\n'
  printf 'axis = column\nlengths = fixed\n'
  printf '[run segmented-fixed-ragged]\nplugin = cuda/segmented\nvariant = fixed\naxis = row\n'
  printf 'lengths = ragged\nrows = 7\n'
} >"$tmp/fixed.ini"

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
# twin_wrong RUN REGEX: every row of the twins' run RUN is wrong, its
# reason matching REGEX (the first bad row or column it names).
twin_wrong() {
  none "$tmp/twins.json" ".run == \"$1\" and (.status != \"wrong\" or (.reason | test(\"$2\") | not))"
}
# twin_ok RUN: every row of the twins' run RUN is ok.
twin_ok() { none "$tmp/twins.json" ".run == \"$1\" and .status != \"ok\""; }
# every_run FILE RUNS...: each run named made rows.
every_run() { file=$1; shift
  for r in "$@"; do
    [ -n "$(results "$file" ".run == \"$r\"")" ] || { echo "run $r made no rows"; return 1; }
  done
}

plan 25
"$rb" -q -c "$tmp/shaped.ini" --no-isolation --format json -o "$tmp/shaped.json" \
  >"$tmp/shaped.out" 2>&1
status=$?
ok "the grid ran and exited 0" test "$status" -eq 0
ok "every run made rows" every_run "$tmp/shaped.json" segmented-rows segmented-columns \
  rows-thread rows-subwarp rows-warp rows-block rows-blocks rows-waves rows-waves-subwarp \
  rows-alternate \
  columns-thread columns-tile columns-split columns-scalar
ok "every row ok with its probes passed" \
  none "$tmp/shaped.json" '.status != "ok" or .probes != "passed"'

"$rb" -q --plugin-path "$tmp/plugins" -c "$tmp/twins.ini" --no-isolation --format json \
  -o "$tmp/twins.json" >"$tmp/twins.out" 2>&1
ok "the twins' runs made rows" every_run "$tmp/twins.json" rows-twin columns-twin \
  columns-twin-thread rows-waves-twin rows-waves-twin-thread rows-block-twin \
  rows-block-twin-whole rows-ticket-twin rows-ticket-twin-kernel rows-reverse-twin \
  rows-reverse-twin-forward columns-vector-twin columns-vector-twin-scalar segmented-twin \
  segmented-twin-fixed
ok "rows-twin: wrong, naming row 992 (the first left out)" \
  twin_wrong rows-twin "row[^0-9]*992"
ok "columns-twin: wrong, naming column 992 (the first left out)" \
  twin_wrong columns-twin "column[^0-9]*992"
ok "columns-twin, thread: wrong, naming column 512 (the first left out)" \
  twin_wrong columns-twin-thread "column[^0-9]*512"
ok "rows-waves-twin: wrong, naming a row" \
  twin_wrong rows-waves-twin "row[^0-9]*[0-9]"
ok "rows-waves-twin: ok at a thread per row (its stride is then right)" \
  twin_ok rows-waves-twin-thread
ok "rows-block-twin: wrong at 1001 elements a row, naming a row" \
  twin_wrong rows-block-twin "row[^0-9]*[0-9]"
ok "rows-block-twin: ok at 1000 (whole vectors)" \
  twin_ok rows-block-twin-whole
ok "rows-ticket-twin: wrong (later calls leave the first call's answers)" \
  twin_wrong rows-ticket-twin ""
ok "rows-ticket-twin: ok at finish = kernel" \
  twin_ok rows-ticket-twin-kernel
ok "rows-reverse-twin: wrong at order = alternate, naming a row" \
  twin_wrong rows-reverse-twin "row[^0-9]*[0-9]"
ok "rows-reverse-twin: ok at order = forward" \
  twin_ok rows-reverse-twin-forward
ok "columns-vector-twin: wrong, naming column 280 (the first left out)" \
  twin_wrong columns-vector-twin "column[^0-9]*280"
ok "columns-vector-twin: ok without vectors (the bug is only their units)" \
  twin_ok columns-vector-twin-scalar
ok "segmented-twin: ragged rows wrong, naming a row" \
  twin_wrong segmented-twin "row[^0-9]*[0-9]"
ok "segmented-twin: fixed rows ok (the bug is only the offsets)" \
  twin_ok segmented-twin-fixed

# Where the plugin's CCCL is older than 3.1, each fixed row says so.
"$rb" -q -c "$tmp/fixed.ini" --no-isolation --format json -o "$tmp/fixed.json" \
  >"$tmp/fixed.out" 2>&1
old_cccl='.status == "unsupported" and (.reason | test("built against \\(([0-2]|3\\.0)\\."))'
fixed_verdict() {
  every_run "$tmp/fixed.json" segmented-fixed segmented-fixed-columns segmented-fixed-ragged ||
    return 1
  none "$tmp/fixed.json" "(.run == \"segmented-fixed\" or .run == \"segmented-fixed-columns\")
    and .status != \"ok\" and (($old_cccl) | not)" || return 1
  # all ok, or all declined for the version: not a mixture
  kinds=$("$JQ" -r '[.results[] | select(.run != "segmented-fixed-ragged") | .status]
    | unique | join(",")' "$tmp/fixed.json")
  case $kinds in ok|unsupported) ;; *) echo "fixed rows: $kinds"; return 1 ;; esac
  echo "# variant = fixed: $kinds"
}
ok "segmented, variant = fixed: every row ok, or every row declined naming a CCCL before 3.1" \
  fixed_verdict
ok "segmented, variant = fixed: ragged rows declined (no offsets, or the CCCL)" \
  none "$tmp/fixed.json" '.run == "segmented-fixed-ragged" and
    (.status != "unsupported" or (.reason | test("offsets|CCCL") | not))'

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
  printf '[run rows-last-block]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = blocks\nsplit = 3\nfinish = last-block, kernel\norder = alternate\n'
  printf '[run segmented-fixed]\nplugin = cuda/segmented\nvariant = fixed\n'
  printf 'axis = row, column\nlengths = fixed\n'
  printf '[run rows-waves]\nplugin = cuda/rows\naxis = row\nlengths = fixed, ragged\n'
  printf 'strategy = thread, subwarp, warp\nlanes = 4\ngrid = waves\nrows = 300K\nn = 7\n'
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
    none "$tmp/$tool.json" ".status != \"ok\" and
      (.run != \"segmented-fixed\" or (($old_cccl) | not))"
done

done_testing
