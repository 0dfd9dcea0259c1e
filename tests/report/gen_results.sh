#!/bin/bash
# tests/report/gen_results.sh ROWS RUNS [SCALE]: writes to standard output a
# redbench results file of ROWS ok rows, for the tests of large files:
# RUNS runs, each sweeping two parameters (block x lanes, 24 values) over
# sizes n; times multiplied by SCALE (default 1). Rows are small (a few
# samples each), as in a quick sweep. With SHAPE tiny, each row holds only
# the members every row must have, with the shortest values (about 70
# bytes a row): the file where a reader's cost per row shows most.
rows=$1 runs=$2 scale=${3:-1} shape=${4:-}
if [ "$shape" = tiny ]; then
  awk -v rows="$rows" -v runs="$runs" 'BEGIN {
    printf "{\"tool\":\"redbench\",\"results\":[\n"
    for (k = 0; k < rows; k++)
      printf "{\"run\":\"r%d\",\"plugin\":\"p\",\"op\":\"sum\",\"dtype\":\"f32\",\"n\":%d,\"status\":\"ok\"}%s\n", \
        k % runs, 1 + int(k / runs), k + 1 < rows ? "," : ""
    printf "]}\n"
  }'
  exit
fi
awk -v rows="$rows" -v runs="$runs" -v scale="$scale" 'BEGIN {
  printf "{\"tool\": \"redbench\", \"version\": \"0.1.0\", \"host\": {\"name\": \"gen\"},\n"
  printf " \"devices\": [{\"backend\": \"cpu\", \"device\": 0, \"name\": \"Test CPU\", \"peak_gbs\": 100}],\n"
  printf " \"results\": [\n"
  for (k = 0; k < rows; k++) {
    run = k % runs; c = int(k / runs); block = 32 * 2 ^ (c % 6); lanes = 4 * 2 ^ (int(c / 6) % 4)
    n = 1024 * (1 + int(c / 24)); t = (n / 1000 + run % 7 + block / 64) * scale
    printf "  {\"run\":\"r%d\",\"plugin\":\"p%d\",\"params\":{\"block\":%d,\"lanes\":%d},\"params_text\":\"block=%d lanes=%d\",\"op\":\"sum\",\"dtype\":\"f32\",\"n\":%d,\"distribution\":\"uniform\",\"status\":\"ok\",\"reason\":\"\",\"device\":0,\"timing\":\"launch\",\"median_ns\":%.6g,\"bandwidth_gbs\":%.6g,\"samples_ns\":[%.6g,%.6g,%.6g]}%s\n", \
      run, run % 5, block, lanes, block, lanes, n, t, 4 * n / t, t, t * 1.01, t * 0.99, k + 1 < rows ? "," : ""
  }
  printf "]}\n"
}'
