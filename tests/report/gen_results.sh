#!/bin/bash
# tests/report/gen_results.sh ROWS RUNS [SCALE [SHAPE]]: writes to standard
# output a redbench results file of ROWS rows, for the tests of large
# files: RUNS runs, each sweeping two parameters (block x lanes, 24 values)
# over sizes n; times multiplied by SCALE (default 1). Rows are small (a
# few samples each), as in a quick sweep. All rows are ok unless SHAPE is
# mixed: then one row in 4 is skipped (its run's plugin absent), one in 8
# failed with a reason of its own, one in 16 unsupported, and one in 32
# wrong, as a large sweep that went badly has them. With SHAPE tiny, each
# row holds only the members every row must have, with the shortest values
# (about 70 bytes a row): the file where a reader's cost per row shows
# most. A million rows take a few seconds (awk).
rows=$1 runs=$2 scale=${3:-1} shape=${4:-}
mixed=0; [ "$shape" = mixed ] && mixed=1
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
awk -v rows="$rows" -v runs="$runs" -v scale="$scale" -v mixed="$mixed" 'BEGIN {
  printf "{\"tool\": \"redbench\", \"version\": \"0.1.0\", \"host\": {\"name\": \"gen\"},\n"
  printf " \"devices\": [{\"backend\": \"cpu\", \"device\": 0, \"name\": \"Test CPU\", \"peak_gbs\": 100}],\n"
  printf " \"results\": [\n"
  for (k = 0; k < rows; k++) {
    run = k % runs; c = int(k / runs); block = 32 * 2 ^ (c % 6); lanes = 4 * 2 ^ (int(c / 6) % 4)
    n = 1024 * (1 + int(c / 24)); t = (n / 1000 + run % 7 + block / 64) * scale
    status = "ok"; reason = ""
    if (mixed == 1) {
      if (k % 4 == 1) { status = "skipped"; reason = sprintf("plugin p%d not found", run % 5) }
      else if (k % 8 == 2) { status = "failed"; reason = sprintf("worker %d crashed (SIGSEGV)", k) }
      else if (k % 16 == 4) { status = "unsupported"; reason = sprintf("p%d does not support n = %d", run % 5, n) }
      else if (k % 32 == 8) { status = "wrong"; reason = sprintf("result %d outside tolerance", k) }
    }
    printf "  {\"run\":\"r%d\",\"plugin\":\"p%d\",\"params\":{\"block\":%d,\"lanes\":%d},\"params_text\":\"block=%d lanes=%d\",\"op\":\"sum\",\"dtype\":\"f32\",\"n\":%d,\"distribution\":\"uniform\",\"status\":\"%s\",\"reason\":\"%s\",\"device\":0,\"timing\":\"launch\"", \
      run, run % 5, block, lanes, block, lanes, n, status, reason
    if (status == "ok" || status == "wrong")
      printf ",\"median_ns\":%.6g,\"bandwidth_gbs\":%.6g,\"samples_ns\":[%.6g,%.6g,%.6g]", t, 4 * n / t, t, t * 1.01, t * 0.99
    printf "}%s\n", k + 1 < rows ? "," : ""
  }
  printf "]}\n"
}'
