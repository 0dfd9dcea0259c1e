#!/bin/sh
# docs/results/shaped/batch-shaped.sh: one device call: the cuda pack's shaped strategies judged over a small grid
# (and their planted twins), compute-sanitizer memcheck over a smaller one,
# then a first speed grid against cuda/segmented (CUB). Each step is under a
# timeout so that what finished comes back in $OUT.
top=$(pwd); X=$top/.device-extra
export PATH=$X/bin:/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=$X/lib
RB="$X/bin/redbench --plugin-path $X/plugins --plugin-path $X/twins"
t0=$(date +%s); date -u +%FT%TZ > $OUT/started.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt 2>&1
hdr='[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 2
max_reps = 3
timeout = 60
seed = 20261207'
{ echo "$hdr"; cat <<'EOF'
[data]
op = sum, max, argmax
dtype = f32, bf16, i32
n = 31, 4097
rows = 7, 1000
[run segmented]
plugin = cuda/segmented
lengths = fixed, ragged
[run rows]
plugin = cuda/rows
strategy = thread, subwarp, warp, block, blocks
lengths = fixed, ragged
[run columns]
plugin = cuda/columns
axis = column
strategy = thread, tile, split
[run rows-twin]
plugin = rows-twin
op = sum
n = 31
rows = 1000
strategy = subwarp
lanes = 8
block = 256
[run columns-twin]
plugin = columns-twin
op = sum
rows = 7
n = 1000
axis = column
strategy = tile
[run segmented-twin]
plugin = segmented-twin
op = sum
lengths = ragged
EOF
} > $OUT/grid.ini
timeout 100 $RB -q --no-isolation -c $OUT/grid.ini -o $OUT/grid.json > $OUT/grid.txt 2>&1
echo "grid rc=$? $(( $(date +%s) - t0 )) s"
jq -r '[.results[] | "\(.run) \(.status) \(.probes)"] | group_by(.) | map("\(.[0]) x\(length)") | .[]' $OUT/grid.json
jq -r '.results[] | select(.status != "ok" and (.run | endswith("twin") | not)) | "\(.run) \(.params_text) \(.op) \(.dtype) n=\(.n) rows=\(.rows) \(.axis) \(.lengths): \(.reason)"' $OUT/grid.json | head -20
jq -r '.results[] | select(.run | endswith("twin")) | "\(.run) \(.dtype) \(.status): \(.reason)"' $OUT/grid.json | head -8
{ echo "$hdr"; cat <<'EOF'
[data]
op = sum, argmax
dtype = f32
n = 31, 4097
rows = 7, 300
[run segmented]
plugin = cuda/segmented
lengths = fixed, ragged
[run rows]
plugin = cuda/rows
strategy = thread, subwarp, warp, block, blocks
[run columns]
plugin = cuda/columns
axis = column
strategy = thread, tile, split
EOF
} > $OUT/san.ini
timeout 70 compute-sanitizer --tool memcheck --error-exitcode 99 $RB -q --no-isolation -c $OUT/san.ini -o $OUT/san.json > $OUT/san.txt 2>&1
echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $OUT/san.txt | tail -1) $(jq -r '[.results[]|.status]|group_by(.)|map("\(.[0]) \(length)")|join(", ")' $OUT/san.json 2>&1) $(( $(date +%s) - t0 )) s"
cat > $OUT/speed.ini <<'EOF'
[experiment]
name = shaped-speed
warmup = 3
min_time = 0.05
max_reps = 500
timeout = 60
cache = hot
timing = device
[data]
op = sum
dtype = f32
[run segmented]
plugin = cuda/segmented
rows = 64, 4K, 64K
n = 128, 4K
[run rows]
plugin = cuda/rows
rows = 64, 4K, 64K
n = 128, 4K
strategy = thread, subwarp, warp, block, blocks
lanes = 4, 16
EOF
timeout 90 $RB -q -c $OUT/speed.ini -o $OUT/speed.json > $OUT/speed.txt 2>&1
echo "speed rc=$? $(( $(date +%s) - t0 )) s"
jq -r '.results[] | "\(.run) \(.params_text) rows=\(.rows) n=\(.n) \(.status) \(.median_ns) ns \(.bandwidth_gbs) GB/s"' $OUT/speed.json 2>/dev/null | head -60
