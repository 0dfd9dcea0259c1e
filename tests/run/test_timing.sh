#!/bin/bash
# tests/run/test_timing.sh: how configurations are measured, on the cpu pack and
# the plugins of tests/run/timing/. Each timing mode is recorded in every row
# (device falls back to launch on the cpu, which has no queue to hold;
# graph and eager rows carry their batch size, and an eager batch's time
# per call is a call's, not a batch's); stopped_by says whether the noise
# target, max_reps or the timeout ended the repetitions, and the reports
# say so; error_ratio is the error in units of the tolerance; determinism
# is checked by comparing result bits (threads: same; flaky-bits: not); the
# measured peak is cached per device and measured again when its key
# changes or `peak = measure` (or REDBENCH_PEAK=measure) asks; a backend of ABI 1.0 still loads, is
# timed its own way and declines graph and eager timing with the reason; --profile
# runs each configuration once. Every sample is whole nanoseconds, in
# every mode (a batch's time over its calls too).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/run/timing/dir
[ -d "$dir" ] || skip_all "the timing test plugins are not built"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 56
# The peak cache is under test, in a folder of its own; until its own
# tests below, that folder holds the host's peak from the suite's cache
# (tests/local.mk), so the runs before them do not measure it.
own_peak_cache "$tmp/cache"
peaks=$tmp/cache/redbench/peaks
run() { "$rb" --plugin-path "$dir" -q "$@"; }
q() { "$JQ" -r "$1" "$2"; }

write() { # write NAME TIMING-LINES...
  local name=$1; shift
  { echo "[experiment]"; printf '%s\n' "$@"
    cat <<'INI'
[data]
op = sum
dtype = f32, i32
n = 1K, 64K
[run serial]
plugin = serial
[run threads]
plugin = threads
threads = 2
INI
  } >"$tmp/$name.ini"
}

# ---- timing modes ----
write launch "min_time = 0.01" "max_reps = 1000000" "timing = launch"
run -c "$tmp/launch.ini" -o "$tmp/launch.json"
is "$(q '[.results[].timing]|unique|join(",")' "$tmp/launch.json")" "launch" \
   "timing = launch: every row says launch"
is "$(q '.experiment.settings.timing' "$tmp/launch.json")" "launch" "... and the settings say launch"
is "$(q '[.results[].batch_calls]|unique|map(tostring)|join(",")' "$tmp/launch.json")" "null" \
   "... with no batch size"

write device "min_time = 0.01"
run -c "$tmp/device.ini" -o "$tmp/device.json"
is "$(q '.experiment.settings.timing' "$tmp/device.json")" "device" "the default timing is device"
is "$(q '[.results[].timing]|unique|join(",")' "$tmp/device.json")" "launch" \
   "on the cpu backend device timing falls back to launch, and the rows say so"

write graph "min_time = 0.01" "timing = graph" "graph_calls = 7"
run -c "$tmp/graph.ini" -o "$tmp/graph.json"
write eager "min_time = 0.01" "timing = eager" "graph_calls = 7"
run -c "$tmp/eager.ini" -o "$tmp/eager.json"
whole='[.results[].samples_ns[]?] | [length, (map(select(. != floor)) | length)] | map(tostring) | join(" ")'
for mode in launch device graph eager; do
  q "$whole" "$tmp/$mode.json" >"$tmp/whole"
  ok "timing = $mode: every samples_ns value is whole nanoseconds ($(cat "$tmp/whole"): samples, fractional)" \
    grep -qE '^[1-9][0-9]* 0$' "$tmp/whole"
done
is "$(q '[.results[].timing]|unique|join(",")' "$tmp/graph.json")" "graph" \
   "timing = graph: every row says graph"
is "$(q '[.results[].batch_calls]|unique|map(tostring)|join(",")' "$tmp/graph.json")" "7" \
   "... each with its batch of graph_calls = 7 calls"
is "$(q '[.results[].status]|unique|join(",")' "$tmp/graph.json")" "ok" "... and every row is ok"

# auto_batch MODE: graph_calls = auto sizes MODE's batches from the
# warm-up, and a batch's time over its calls is a call's.
auto_batch() {
  write "$1-auto" "min_time = 0.01" "timing = $1"
  run -c "$tmp/$1-auto.ini" -o "$tmp/$1-auto.json"
  ok "graph_calls = auto under $1: a 1K serial sum (about 1 us) gets a batch of 100 to 1000 calls" \
     test "$(q '.results[0].batch_calls' "$tmp/$1-auto.json")" -ge 100 -a \
          "$(q '.results[0].batch_calls' "$tmp/$1-auto.json")" -le 1000
  ok "... and its time per call (the batch's / calls) is near a launch-timed call's (within 5x)" \
     "$JQ" -e --slurpfile l "$tmp/launch.json" \
     '.results[1].median_ns < 5 * $l[0].results[1].median_ns and
      .results[1].median_ns > $l[0].results[1].median_ns / 5 and .results[1].batch_calls > 5' \
     "$tmp/$1-auto.json"
}
auto_batch graph

is "$(q '[.results[]|.timing+":"+.status+":"+(.batch_calls|tostring)]|unique|join(",")' "$tmp/eager.json")" \
   "eager:ok:7" "timing = eager: every row says eager, ok, with its batch of graph_calls = 7 calls"
auto_batch eager

# ---- what stopped the repetitions ----
is "$(q '[.results[].stopped_by]|unique|join(",")' "$tmp/launch.json")" "noise" \
   "min_time 0.01 s, noise 1%: stopped by noise"
write capped "min_time = 100" "max_reps = 4" "min_reps = 2"
run -c "$tmp/capped.ini" -o "$tmp/capped.json"
is "$(q '[.results[]|.stopped_by,.hit_max_reps,.reps]|unique|map(tostring)|join(",")' "$tmp/capped.json")" \
   "true,4,max_reps" "max_reps = 4 before min_time: stopped by max_reps, 4 reps, hit_max_reps"
run -c "$tmp/capped.ini" -o "$tmp/capped.txt" --format table
ok "the table's notes column says max_reps" grep -qE '  max_reps +ok$' "$tmp/capped.txt"
run -c "$tmp/capped.ini" -o "$tmp/capped.md" --format md
ok "the Markdown table says 'stopped by max_reps'" grep -q '| stopped by max_reps |' "$tmp/capped.md"
# (256K elements: some 10^4 repetitions fit in the timeout, not 10^6)
write slow "min_time = 100" "max_reps = 1000000000" "timeout = 0.5" "warmup = 0" \
      "determinism_runs = 0"
sed -i 's/^n = .*/n = 256K/' "$tmp/slow.ini"
run -c "$tmp/slow.ini" -o "$tmp/slow.json"
is "$(q '[.results[].stopped_by]|unique|join(",")' "$tmp/slow.json")" "timeout" \
   "timeout = 0.5 s before min_time: stopped by the timeout"
ok "... each row ok, with the reason naming the timeout" "$JQ" -e \
   '[.results[]|.status=="ok" and (.reason|test("near the 0.5 s timeout"))]|all' "$tmp/slow.json"

# ---- accuracy and determinism ----
ok "error_ratio: f32 rows a fraction of the tolerance, i32 rows exactly 0" "$JQ" -e \
   '[.results[]|if .dtype=="i32" then .error_ratio==0 else .error_ratio>=0 and .error_ratio<1 end]|all' \
   "$tmp/launch.json"
ok "error_ratio is error / tolerance" "$JQ" -e \
   '[.results[]|select(.dtype=="f32")|(.error_ratio - .error/.tolerance)|fabs < 1e-12]|all' \
   "$tmp/launch.json"
is "$(q '[.results[]|select(.run=="threads")|.deterministic]|unique|map(tostring)|join(",")' "$tmp/launch.json")" \
   "true" "threads (fixed lanes and order) is deterministic"
is "$(q '[.results[].determinism_results]|unique|map(tostring)|join(",")' "$tmp/launch.json")" "3" \
   "three results compared (determinism_runs = 2 by default)"
cat >"$tmp/flaky.ini" <<'INI'
[experiment]
min_time = 0.01
max_reps = 1000000
determinism_runs = 3
[data]
op = sum
dtype = f32, f64
n = 4K
[run flaky]
plugin = flaky-bits
[run steady]
plugin = kahan
INI
run -c "$tmp/flaky.ini" -o "$tmp/flaky.json"
is "$(q '[.results[]|.run+":"+.status+":"+(.deterministic|tostring)]|join(",")' "$tmp/flaky.json")" \
   "flaky:ok:false,flaky:ok:false,steady:ok:true,steady:ok:true" \
   "flaky-bits: right (ok) but not deterministic; kahan: deterministic"
is "$(q '.results[0].determinism_results' "$tmp/flaky.json")" "4" "determinism_runs = 3: four results"
run -c "$tmp/flaky.ini" -o "$tmp/flaky.txt" --format table
ok "the table has err/tol and det columns" grep -qE 'err/tol +det +(repro +)?(notes +)?status$' "$tmp/flaky.txt"
ok "... and flaky-bits' rows say det no" grep -qE 'flaky +flaky-bits .* no +([a-z_,]+ +)?ok$' "$tmp/flaky.txt"
run -c "$tmp/flaky.ini" -o "$tmp/flaky.md" --format md
ok "the Markdown table has err/tol, det, repro and notes" \
   grep -q '| %meas | %peak | err/tol | det | repro | notes | status | reason |' "$tmp/flaky.md"
ok "... and a flaky-bits row with det no, repro varies" grep -qE '^\| flaky \| flaky-bits \|.*\| no \| varies \| [^|]* \| ok \|' "$tmp/flaky.md"
sed 's/determinism_runs = 3/determinism_runs = 0/' "$tmp/flaky.ini" >"$tmp/unchecked.ini"
run -c "$tmp/unchecked.ini" -o "$tmp/unchecked.json"
is "$(q '[.results[]|.deterministic|tostring]|unique|join(",")' "$tmp/unchecked.json")" "null" \
   "determinism_runs = 0: not checked (null)"

# ---- clocks ----
if grep -q '^cpu MHz' /proc/cpuinfo 2>/dev/null; then
  ok "clocks: the cpu's core clock before and after, not throttled" "$JQ" -e \
     '[.results[]|.clocks.before.core_mhz>0 and .clocks.after.core_mhz>0 and .throttled==false]|all' \
     "$tmp/launch.json"
else
  skip "no 'cpu MHz' in /proc/cpuinfo"
fi

# ---- the peak cache ----
rm -rf "$tmp/cache"
run -c "$tmp/launch.ini" -o "$tmp/p1.json"
is "$(q '.devices[0].measured_peak_source' "$tmp/p1.json")" "measured" "first run: the peak is measured"
files=$(ls "$peaks" 2>/dev/null | grep -c '^cpu-.*\.ini$')
is "$files" "1" "... and written to \$XDG_CACHE_HOME/redbench/peaks/cpu-*.ini"
file=$(ls "$peaks"/cpu-*.ini 2>/dev/null | head -n 1)
ok "... holding the backend, the tool version and the figure" bash -c \
   "grep -qx 'backend = cpu' '$file' && grep -qx 'tool_version = $(q .version "$tmp/p1.json")' '$file' &&
    grep -q '^measured_gbs = [0-9]' '$file'"
run -c "$tmp/launch.ini" -o "$tmp/p2.json"
is "$(q '.devices[0].measured_peak_source' "$tmp/p2.json")" "cache" "second run: taken from the cache"
is "$(q '.devices[0].measured_peak_gbs' "$tmp/p2.json")" "$(q '.devices[0].measured_peak_gbs' "$tmp/p1.json")" \
   "... the same figure"
is "$(q '.devices[0].measured_peak_at' "$tmp/p2.json")" "$(q '.devices[0].measured_peak_at' "$tmp/p1.json")" \
   "... with when it was measured"
ok "... and the rows' %meas use it" "$JQ" -e \
   '.devices[0].measured_peak_gbs as $p | [.results[]|(.pct_measured_peak - 100*.bandwidth_gbs/$p)|fabs < 1e-6]|all' \
   "$tmp/p2.json"
run -c "$tmp/launch.ini" -o "$tmp/p2.txt" --format table
ok "the table's device line says the peak is cached" grep -q 'measured peak .* GB/s (cached, measured ' "$tmp/p2.txt"
sed -i 's/^tool_version = .*/tool_version = 0.0.0-other/' "$file"
run -c "$tmp/launch.ini" -o "$tmp/p3.json"
is "$(q '.devices[0].measured_peak_source' "$tmp/p3.json")" "measured" \
   "another tool version in the file: measured again"
ok "... and the file rewritten with this version" grep -qx "tool_version = $(q .version "$tmp/p1.json")" "$file"
write measure "min_time = 0.01" "peak = measure"
run -c "$tmp/measure.ini" -o "$tmp/p4.json"
is "$(q '.devices[0].measured_peak_source' "$tmp/p4.json")" "measured" "peak = measure: measured again"
REDBENCH_PEAK=measure run -c "$tmp/launch.ini" -o "$tmp/p5.json"
is "$(q '.devices[0].measured_peak_source' "$tmp/p5.json")" "measured" \
   "REDBENCH_PEAK=measure in the environment: measured again"

# ---- a backend of ABI 1.0 ----
run --list >"$tmp/list.txt" 2>&1
ok "the ABI 1.0 backend loads (not rejected)" bash -c "! grep -A1 'old-clock.so' '$tmp/list.txt' | grep -qi reject"
cat >"$tmp/old.ini" <<'INI'
[experiment]
min_time = 0.01
timing = launch
[data]
op = sum
dtype = i32
n = 4K
[run old]
plugin = old-sum
INI
run -c "$tmp/old.ini" -o "$tmp/old.json"
is "$(q '.results[0]|.status+":"+.timing' "$tmp/old.json")" "ok:backend" \
   "its rows are ok and timed its own way (timing: backend)"
sed 's/timing = launch/timing = graph/' "$tmp/old.ini" >"$tmp/old-graph.ini"
run -c "$tmp/old-graph.ini" -o "$tmp/old-graph.json"
is "$(q '.results[0].status' "$tmp/old-graph.json")" "unsupported" "timing = graph on it: unsupported"
ok "... saying the backend (ABI 1.0) cannot replay batches" "$JQ" -e \
   '.results[0].reason|test("oldclock backend \\(ABI 1.0\\) cannot replay batches")' "$tmp/old-graph.json"
sed 's/timing = launch/timing = eager/' "$tmp/old.ini" >"$tmp/old-eager.ini"
run -c "$tmp/old-eager.ini" -o "$tmp/old-eager.json"
is "$(q '.results[0].status' "$tmp/old-eager.json")" "unsupported" "timing = eager on it: unsupported"
ok "... saying the backend (ABI 1.0) cannot time calls in launch mode" "$JQ" -e \
   '.results[0].reason|test("oldclock backend \\(ABI 1.0\\) cannot time calls in launch mode")' \
   "$tmp/old-eager.json"

# ---- --profile ----
write profile "min_time = 1" "timing = graph"
run -c "$tmp/profile.ini" -o "$tmp/profile.json" --profile
is "$(q '[.results[]|[.reps,.stopped_by,.timing,(.deterministic|tostring)]|join(":")]|unique|join(",")' "$tmp/profile.json")" \
   "1:profile:launch:null" "--profile: one launch-timed run per configuration, no determinism check"
is "$(q '.experiment.settings.profile' "$tmp/profile.json")" "true" "... recorded in the settings"
is "$(q '[.results[].status]|unique|join(",")' "$tmp/profile.json")" "ok" "... and every row verified"
done_testing
