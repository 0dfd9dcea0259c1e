#!/bin/sh
# tests/timed-driver.sh DRIVER ARGS...: runs the test driver (automake's
# tap-driver.sh with its arguments) and appends the test's duration to its
# log as a last line, `# duration: N.N s`; where RB_TEST_TIMES names a
# file, also a line `N.N TEST` to it (.ci/run lists the slowest tests from
# it). The driver's exit status is kept.
log=
prev=
for a in "$@"; do
  [ "$prev" = --log-file ] && log=$a
  prev=$a
done
start=$(date +%s.%N)
"$@"
status=$?
took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
if [ -n "$log" ] && [ -f "$log" ]; then
  echo "# duration: $took s" >>"$log"
  [ -z "${RB_TEST_TIMES:-}" ] || echo "$took ${log%.log}" >>"$RB_TEST_TIMES"
fi
exit $status
