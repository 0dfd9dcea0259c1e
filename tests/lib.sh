# tests/lib.sh: TAP helpers for shell tests. Source it, then:
#   plan N; ok "name" command...; is "got" "want" "name"; skip "why"; bail "why"; done_testing
#   experiment_header NAME [KEY=VALUE]...: an [experiment] section for a quick run
#   cuda_probe [KEY=VALUE]...: is the cuda pack built, is there a device?
#   statuses FILE: the statuses of a results file's rows
#   start_slow ARGS...: redbench in the background, once slow-sum runs
#   own_peak_cache DIR: a peak cache of the test's own, with the host's peak
#   energy_standin: the stand-in NVML library (tests/run/energy/) in use
#   sanitized: true under the sanitizers (their options are set)
#   crashes_as_signals: plugins' crashes reach redbench as signals
# Sets $tmp (removed at exit), $rb (the redbench binary), $fixtures (the
# fixtures/ folder beside the test: each area of tests/ has its own).
set -u
rb=${REDBENCH:-$top_builddir/redbench}
fixtures=$(cd "$(dirname "$0")" && pwd)/fixtures
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
_n=0; _failed=0
plan() { echo "1..$1"; }
ok() { local name=$1; shift; _n=$((_n+1))
  if "$@" >"$tmp/.out" 2>&1; then echo "ok $_n - $name"
  else _failed=$((_failed+1)); echo "not ok $_n - $name"; sed 's/^/#   /' "$tmp/.out" | head -n 20; fi; }
is() { _n=$((_n+1))
  if [ "$1" = "$2" ]; then echo "ok $_n - $3"
  else _failed=$((_failed+1)); echo "not ok $_n - $3"; echo "#   got: '$1'"; echo "#  want: '$2'"; fi; }
skip() { _n=$((_n+1)); echo "ok $_n # SKIP $1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
# bail WHY: the test cannot go on where it should (TAP's Bail out!: an error).
bail() { echo "Bail out! $1"; exit 1; }
done_testing() { [ "$_failed" -eq 0 ]; }
# experiment_header NAME [KEY=VALUE]...: the [experiment] section of a
# quick run (one round, one warm-up, at most two repetitions), then each
# KEY = VALUE.
experiment_header() { _name=$1; shift
  printf '[experiment]\nname = %s\nrounds = 1\nwarmup = 1\nmin_time = 0\nmin_reps = 1\nmax_reps = 2\n' "$_name"
  for _kv in "$@"; do printf '%s = %s\n' "${_kv%%=*}" "${_kv#*=}"; done; }
# cuda_probe [KEY=VALUE]...: one sum of one i32 by the cuda pack's cub (the
# [experiment] section experiment_header's, with each KEY = VALUE) into
# $tmp/probe.json, whose devices later checks may read; skips the whole
# test when the pack is not built. Sets $probe_status and $probe_reason,
# the row's, for the test to decide whether the device can be used.
cuda_probe() {
  { experiment_header probe "$@"
    printf '[data]\nop = sum\ndtype = i32\nn = 1\n[run probe]\nplugin = cub\n'
  } >"$tmp/probe.ini"
  "$rb" -c "$tmp/probe.ini" --format json -o "$tmp/probe.json" >"$tmp/probe.out" 2>&1
  [ $? -ne 2 ] || skip_all "the cuda pack is not built (no cub plugin found)"
  probe_status=$("$JQ" -r '.results[0].status' "$tmp/probe.json" 2>/dev/null)
  probe_reason=$("$JQ" -r '.results[0].reason' "$tmp/probe.json" 2>/dev/null); }
# nvcc_path: nvcc on the PATH or in CUDA's default place (nothing if neither).
nvcc_path() { command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null; }
# gpu_count: how many GPUs nvidia-smi lists (0 without it).
gpu_count() { nvidia-smi -L 2>/dev/null | grep -c '^GPU'; }
# statuses FILE: the statuses of FILE's rows in order, on one line.
statuses() { "$JQ" -r '[.results[]|.status]|join(" ")' "$1"; }
# start_slow ARGS...: `redbench -q ARGS` in the background (standard error
# appended to $tmp/stderr), returning once a configuration of the slow-sum
# test plugin is in progress (it creates $SLOW_SUM_MARK when one starts), so
# that a signal sent then arrives while it runs (it waits up to 60 s: a
# sanitized build beside make -j's other tests took more than 20). Sets $pid.
start_slow() {
  rm -f "$SLOW_SUM_MARK"
  "$rb" -q "$@" 2>>"$tmp/stderr" &
  pid=$!
  for _ in $(seq 1200); do [ -e "$SLOW_SUM_MARK" ] && return 0; sleep 0.05; done
  echo "# the slow configuration did not start"; return 1
}
# own_peak_cache DIR: a peak cache of the test's own in DIR, made the cache
# (XDG_CACHE_HOME) from here on, holding only the host's peak from the
# suite's cache (tests/local.mk): for tests of the peak measurement or
# the cache, which must not measure the host's again.
own_peak_cache() {
  rm -rf "$1"; mkdir -p "$1/redbench/peaks"
  cp "${XDG_CACHE_HOME:-/nonexistent}"/redbench/peaks/cpu-*.ini "$1/redbench/peaks/" 2>/dev/null
  export XDG_CACHE_HOME=$1
  unset REDBENCH_PEAK
}
# sanitized: true when the suite runs under the sanitizers (make check of a
# sanitized build sets their options), where timing and address-space
# limits mean little. Call it before crashes_as_signals, which sets
# ASAN_OPTIONS in every build.
sanitized() { [ -n "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}" ]; }
# crashes_as_signals: the crashes of test plugins reach redbench as
# signals, also in a sanitized build.
crashes_as_signals() {
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0"; }
# energy_standin: the stand-in NVML library of tests/run/energy/ in use:
# sets $dir (its test plugins) and $standin, exports REDBENCH_NVML_LIBRARY
# and REDBENCH_NVML_STANDIN (the script the test writes to $tmp/script);
# skips the whole test where it is not built or jq is missing.
energy_standin() {
  dir=$top_builddir/tests/run/energy/dir
  standin=$top_builddir/tests/run/energy/nvml-standin.so
  [ -f "$standin" ] || skip_all "the stand-in NVML is not built"
  [ -n "${JQ:-}" ] || skip_all "jq not found"
  export REDBENCH_NVML_LIBRARY=$standin REDBENCH_NVML_STANDIN=$tmp/script; }
