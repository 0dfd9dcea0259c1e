#!/bin/bash
# tests/run/test_isolation.sh: broken plugins (tests/run/crashers/) are contained.
# One run mixes good plugins with one that crashes in each callback, hangs,
# exits, returns a wrong sum, prints to standard output, returns absurd
# values, or poisons its device; each broken configuration is one row with
# the reason, and every other configuration runs and is ok. Descriptors with
# absurd values are rejected when loaded. --no-isolation runs in-process.
# A worker holds no descriptor of the host's but its pipe (count-fds,
# tests/plugins/, counts them).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/run/crashers/dir
[ -d "$dir" ] || skip_all "broken test plugins not built"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 57
crashes_as_signals
# The runs that count the fragile device's peak measurements get a peak
# cache of their own (the host's peak only), so that the fragile peak is
# measured afresh (the first time, with nothing cached: twice).

cat >"$tmp/broken.ini" <<'INI'
[experiment]
warmup = 1
min_time = 0
min_reps = 3
max_reps = 3
timeout = 2
[data]
op = sum
dtype = i32
n = 4K
[run before]
plugin = tiny-sum
[run describe]
plugin = crash-describe
fault = none, yes, none
[run init]
plugin = crash-init
[run run]
plugin = crash-run
fault = none, yes, none
[run verify]
plugin = crash-verify
[run teardown]
plugin = crash-teardown
[run hang]
plugin = hang-run
fault = none, yes, none
[run exit]
plugin = exit-run
[run wrong]
plugin = wrong-sum
[run chatty]
plugin = print-stdout
[run huge]
plugin = huge-error
[run fragile]
plugin = fragile-sum
fault = none, yes, none, none
[run serial]
plugin = serial
[run after]
plugin = tiny-sum
INI

export FRAGILE_PEAK_LOG=$tmp/fragile-peaks
own_peak_cache "$tmp/cache"
started=$(date +%s)
"$rb" -q -c "$tmp/broken.ini" --plugin-path "$dir" --format json >"$tmp/out.json" 2>"$tmp/err"
is "$?" 1 "a run with broken plugins ends, exit status 1"
elapsed=$(( $(date +%s) - started ))
ok "... within 90 s (the hang is cut at its 2 s timeout in each of 3 rounds; took ${elapsed} s, up to 44 on a busy machine)" test "$elapsed" -lt 90
ok "standard output is valid JSON despite plugins printing to it" "$JQ" -e .results "$tmp/out.json"
ok "what the plugins printed went to standard error" grep -q 'PLUGIN-STDOUT printf in run' "$tmp/err"
ok "... also what a plugin printed while it was loaded" grep -q 'PLUGIN-STDOUT at load time' "$tmp/err"
ok "... even what was left unflushed at teardown" grep -q 'PLUGIN-STDOUT unflushed at teardown' "$tmp/err"
is "$("$JQ" '.results|length' "$tmp/out.json")" 23 "one row per configuration (23)"

# statuses_of RUN, reasons_of RUN: the statuses of RUN's rows in out.json,
# on one line; the reasons of those not ok, one a line.
statuses_of() { "$JQ" -r --arg run "$1" '[.results[]|select(.run==$run)|.status]|join(" ")' "$tmp/out.json"; }
reasons_of() { "$JQ" -r --arg run "$1" '.results[]|select(.run==$run and .status!="ok")|.reason' "$tmp/out.json"; }

is "$(statuses_of before)" "ok" "a good plugin before the broken ones is ok"
is "$(statuses_of describe)" "ok failed ok" "a crash in describe fails that configuration only"
is "$(reasons_of describe)" "crashed with SIGSEGV in describe" "... reason names the signal and the callback"
is "$(statuses_of init)" "failed" "abort in init: failed"
is "$(reasons_of init)" "crashed with SIGABRT in init" "... SIGABRT in init"
is "$(statuses_of run)" "ok failed ok" "a crash in run fails that configuration only; the rest of its group runs"
is "$(reasons_of run)" "crashed with SIGSEGV in run" "... SIGSEGV in run"
is "$(statuses_of verify)" "failed" "SIGFPE in verify: failed"
is "$(reasons_of verify)" "crashed with SIGFPE in verify" "... SIGFPE in verify"
is "$(statuses_of teardown)" "failed" "a crash in teardown after a good result: failed"
is "$(reasons_of teardown)" "crashed with SIGSEGV in teardown" "... SIGSEGV in teardown"
is "$(statuses_of hang)" "ok failed ok" "a hang in run is killed; the configurations after it run"
case "$(reasons_of hang)" in "timed out after 2 s in run"*) r=1;; *) r=0;; esac
is "$r" 1 "... reason: timed out after 2 s in run"
is "$(statuses_of exit)" "failed" "exit() in run: failed"
is "$(reasons_of exit)" "exited with status 7 in run (warm-up)" "... reason names the exit status and the step"
is "$(statuses_of wrong)" "wrong" "a wrong sum is judged wrong"
is "$(statuses_of chatty)" "ok" "a plugin that prints to standard output is still ok"
is "$(statuses_of huge)" "failed" "absurd status and error text from init: failed"
case "$(reasons_of huge)" in "init failed: HUGE-ERROR eeee"*) r=1;; *) r=0;; esac
is "$r" 1 "... with the plugin's error text"
ok "... cut to fit the reason" test "$(reasons_of huge | wc -c)" -lt 600
is "$(statuses_of fragile)" "ok failed ok ok" "a poisoned device fails one configuration; the next ones get a fresh process"
case "$(reasons_of fragile)" in *"emulated sticky device error"*"no longer usable"*) r=1;; *) r=0;; esac
is "$r" 1 "... reason says the device is no longer usable"
# (a first measurement with nothing cached is taken twice: count the
# processes that measured)
is "$(grep measured "$FRAGILE_PEAK_LOG" | cut -d' ' -f2 | sort -u | wc -l)" 1 "the fragile device's peak was measured in the first worker only"
is "$("$JQ" -r '[.devices[].backend]|join(" ")' "$tmp/out.json")" "cpu fragile" "both devices recorded once"
is "$("$JQ" -r '[.results[]|select(.run=="fragile")|.device]|unique|join(" ")' "$tmp/out.json")" 1 "fragile rows point at the fragile device"
is "$(statuses_of serial)" "ok" "a cpu pack plugin after the broken ones is ok"
is "$(statuses_of after)" "ok" "a good plugin at the end is ok"
is "$("$JQ" '[.results[]|select(.status=="ok")]|length' "$tmp/out.json")" 13 "13 rows ok in all"

# Absurd descriptors are rejected at load time, each with a reason.
"$rb" --list --plugin-path "$dir" >"$tmp/list" 2>&1; is "$?" 0 "--list with absurd descriptors exits 0"
sed -n '/^Rejected/,$p' "$tmp/list" >"$tmp/rejected"
rejected_for() { grep -A1 "/absurd-$1.so\$" "$tmp/rejected" | tail -n 1; }
n=0
for c in null-name long-name huge-params null-default long-summary many-choices bad-masks; do
  [ -n "$(rejected_for $c)" ] && n=$((n+1))
done
is "$n" 7 "all 7 absurd descriptors are rejected, each with a reason"
case "$(rejected_for huge-params)" in *"4294967295 parameters"*) r=1;; *) r=0;; esac
is "$r" 1 "... the huge parameter table is named by its size"

# --no-isolation: the same plugins in this process (crash-free ones).
cat >"$tmp/inproc.ini" <<'INI'
[experiment]
rounds = 1
warmup = 1
min_time = 0
max_reps = 3
[data]
dtype = i32
n = 4K
[run chatty]
plugin = print-stdout
[run wrong]
plugin = wrong-sum
[run fragile]
plugin = fragile-sum
fault = none, yes, none
[run after]
plugin = tiny-sum
INI
"$rb" -q --no-isolation -c "$tmp/inproc.ini" --plugin-path "$dir" --format json >"$tmp/in.json" 2>"$tmp/in.err"
is "$?" 1 "--no-isolation runs in this process, exit status 1 (one wrong, one failed)"
ok "... standard output is still valid JSON" "$JQ" -e .results "$tmp/in.json"
ok "... what the plugin printed went to standard error" grep -q 'PLUGIN-STDOUT printf in verify' "$tmp/in.err"
is "$(statuses "$tmp/in.json")" "ok wrong ok failed skipped ok" "... statuses: ok wrong ok failed skipped ok"
case "$("$JQ" -r '.results[4].reason' "$tmp/in.json")" in *"no longer usable"*) r=1;; *) r=0;; esac
is "$r" 1 "... after the poisoned device, its next configuration is skipped with the reason"

# A worker goes on across data groups; --isolation group starts a fresh one
# for each (the fragile device is opened once per worker, measured once).
cat >"$tmp/groups.ini" <<'INI'
[experiment]
rounds = 1
min_time = 0
max_reps = 3
[data]
dtype = i32
[run fragile]
plugin = fragile-sum
n = 1K, 2K, 4K
fault = none
INI
opens() { # opens MODE FILE: the device's opens and measurements in a run
  rm -f "$tmp/opens" "$tmp/peaks"
  export REDBENCH_PEAK=measure # once, checked against the peak cached above
  FRAGILE_OPEN_LOG=$tmp/opens FRAGILE_PEAK_LOG=$tmp/peaks "$rb" -q --isolation "$1" \
    -c "$tmp/$2" --plugin-path "$dir" --format json >"$tmp/groups.json" 2>/dev/null
  echo "$(grep -c . "$tmp/opens") $(grep -c . "$tmp/peaks") $(statuses "$tmp/groups.json")"
}
is "$(opens worker groups.ini)" "1 1 ok ok ok" "--isolation worker: one worker for three data groups (opened once, measured once)"
is "$(opens group groups.ini)" "3 1 ok ok ok" "--isolation group: a fresh worker per data group (opened 3 times, measured once)"
sed -i 's/^rounds = 1$/rounds = 2/' "$tmp/groups.ini"
is "$(opens worker groups.ini)" "2 1 ok ok ok" "rounds = 2: a fresh worker for each round (opened twice, measured once)"
sed -i 's/^rounds = 2$/rounds = 1/' "$tmp/groups.ini"
sed -i 's/^fault = none$/fault = none, yes/' "$tmp/groups.ini"
is "$(opens worker groups.ini)" "3 1 ok failed ok failed ok failed" "after each poisoned device a fresh worker goes on"
"$rb" -q --isolation sometimes -c "$tmp/groups.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "--isolation with an unknown mode exits 2"

# A slow but healthy configuration stops measuring before its timeout, keeps
# what it measured and is ok: only a worker that does not return is killed.
printf '[experiment]\nwarmup = 0\nmin_time = 10\nmax_reps = 100000\ntimeout = 1\n[data]\ndtype = i32\nn = 1K\n[run slow]\nplugin = slow-sum\n' >"$tmp/slow.ini"
"$rb" -q -c "$tmp/slow.ini" --plugin-path "$dir" --format json >"$tmp/slow.json" 2>/dev/null
is "$?" 0 "a configuration slower than its timeout allows: exit 0"
case "$("$JQ" -r '.results[0]|"\(.status) \(.hit_max_reps) \(.reps > 10) \(.reason)"' "$tmp/slow.json")" in
  "ok true true stopped after "*" repetitions, near the 1 s timeout") r=1;; *) r=0;; esac
is "$r" 1 "... it stops measuring near the timeout, keeps its samples, and is ok"

# With isolation off a crash ends the process: that is what isolation is for.
printf '[experiment]\nmin_time = 0\nmax_reps = 3\n[data]\ndtype = i32\nn = 1K\n[run run]\nplugin = crash-run\n' >"$tmp/crash.ini"
code=$( ( "$rb" -q --no-isolation -c "$tmp/crash.ini" --plugin-path "$dir" >/dev/null 2>&1; echo $? ) 2>/dev/null )
is "$code" 139 "--no-isolation: a crash in run ends redbench with SIGSEGV (128+11)"
"$rb" -q -c "$tmp/crash.ini" --plugin-path "$dir" >/dev/null 2>&1
is "$?" 1 "the same file with isolation: exit status 1"

# Descriptors the host holds (here a file written and the experiment file
# read, as a caller's shell may leave them) never reach a worker: count-fds
# fails in init, listing them, when its process holds more than its pipe.
fds=$top_builddir/tests/plugins/fds
{ experiment_header fds; printf '[data]\nop = sum\ndtype = i32\nn = 1K\n[run c]\nplugin = count-fds\n'; } >"$tmp/fds.ini"
for mode in worker group; do
  "$rb" -q --isolation $mode -p "$fds" -c "$tmp/fds.ini" -o "$tmp/fds-$mode.json" \
    7>"$tmp/seven" 8<"$tmp/fds.ini" >/dev/null 2>"$tmp/fds.err"
  is "$?" 0 "--isolation $mode with descriptors 7 and 8 open: exit 0"
  is "$(statuses "$tmp/fds-$mode.json")" ok "... the worker holds its pipe alone"
done
"$rb" -q --isolation none -p "$fds" -c "$tmp/fds.ini" -o "$tmp/fds-none.json" \
  7>"$tmp/seven" 8<"$tmp/fds.ini" >/dev/null 2>"$tmp/fds.err"
ok "in this process (--isolation none) the plugin sees them, naming the file" \
  "$JQ" -e '.results[0].status == "failed" and (.results[0].reason | test("7 -> .*/seven"))' \
  "$tmp/fds-none.json"
done_testing
