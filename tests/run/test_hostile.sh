#!/bin/bash
# tests/run/test_hostile.sh: plugins that attack the process that loads or runs
# them (tests/run/crashers/hostile.c), and files in plugin folders that are not
# plugins. redbench runs no plugin code while it discovers: a constructor
# that crashes, exits or hangs is a rejected file with the reason, and
# --list, --describe and runs of other plugins work; one that changes the
# current folder, blocks SIGINT or prints from a destructor does not touch
# redbench's own process. Named pipes called x.so and pack.ini are refused,
# not read. A parameter default outside its own range is rejected. Each
# plugin runs in its own worker: a thread it leaves running fails its own
# row, not the next plugin's; a process it forks ends with its
# configuration and does not make redbench wait. No text from a plugin or a
# file name reaches the terminal unescaped.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
src=$top_builddir/tests/run/crashers/hostile
[ -d "$src" ] || skip_all "hostile test plugins not built"
[ -n "${JQ:-}" ] || skip_all "jq not found"
command -v timeout >/dev/null || skip_all "timeout not found"
command -v mkfifo >/dev/null || skip_all "mkfifo not found"
plan 45
unset REDBENCH_PLUGIN_PATH
crashes_as_signals
# A plugin that hangs while it loads is given up after 1 s, not 10.
export REDBENCH_LOAD_TIMEOUT=1

# folder NAME PLUGIN...: a plugin folder $tmp/NAME with tiny-sum and those.
folder() {
  local d=$tmp/$1; shift
  mkdir -p "$d"; cp "$src/tiny-sum.so" "$d/"
  for p in "$@"; do cp "$src/$p.so" "$d/"; done
}
# redbench with a time limit: a hang fails a test, not the suite.
rbt() { timeout 300 "$rb" "$@"; } # generous: a sanitized build beside make -j took over 60 s
# Bytes a terminal would act on: ESC, DEL, CSI (0x9b).
raw_bytes() { LC_ALL=C tr -dc '\033\177\233' <"$1" | wc -c; }
mkdir -p "$tmp/work"
cat >"$tmp/work/good.ini" <<'INI'
[experiment]
warmup = 1
min_time = 0
min_reps = 3
max_reps = 3
timeout = 10
[data]
op = sum
dtype = i32
n = 4K
[run good]
plugin = tiny-sum
INI

# ---- every hostile file in one folder ----
folder all hostile-segv hostile-exit hostile-hang hostile-chdir hostile-sigmask hostile-dtor \
  hostile-thread hostile-fork hostile-bad-default hostile-evil-summary hostile-evil-name
all=$tmp/all
mkfifo "$all/x.so" "$all/pack.ini"
rbt --list --plugin-path "$all" >"$tmp/list" 2>"$tmp/list.err"
is "$?" 0 "--list with hostile plugins and named pipes in the folder exits 0"
sed -n '/^Rejected/,$p' "$tmp/list" >"$tmp/rejected"
reason() { grep -A1 "^  $all/$1\$" "$tmp/rejected" | tail -n 1 | sed 's/^ *//'; }
listed() { grep -qE "^  $1 +all +cpu " "$tmp/list"; }
ok "the good plugin is listed" listed tiny-sum
n=0
for p in hostile-chdir hostile-sigmask hostile-dtor hostile-thread hostile-fork; do
  listed "$p" && n=$((n+1))
done
is "$n" 5 "the plugins that misbehave only in this process or at run time load and are listed"
is "$(reason hostile-segv.so)" "killed by SIGSEGV while loading" "a constructor that segfaults: rejected, naming the signal"
# Under AddressSanitizer with leak detection (the sanitized CI build) a
# process that exits with memory still allocated reports the leak and
# exits with the sanitizer's status, 1, instead of the one it asked for.
case "$(reason hostile-exit.so)" in
  "exited with status 5 while loading"*) r=1 ;;
  "exited with status 1 while loading"*) case ${ASAN_OPTIONS:-} in *detect_leaks=1*) r=1 ;; *) r=0 ;; esac ;;
  *) r=0 ;;
esac
is "$r" 1 "a constructor that calls exit(5): rejected, naming the status"
is "$(reason hostile-hang.so)" "did not load within 1 s (killed)" "a constructor that hangs: rejected after the load time limit"
case "$(reason x.so)" in "not a regular file (a named pipe)"*) r=1;; *) r=0;; esac
is "$r" 1 "a named pipe called x.so: rejected, not opened"
case "$(reason pack.ini)" in *"not a regular file (a named pipe)"*) r=1;; *) r=0;; esac
is "$r" 1 "a named pipe called pack.ini: rejected, not read"
is "$(reason hostile-bad-default.so)" "parameter 'block' has default 100, outside its own range 1..64" \
  "a parameter default outside its own range: rejected, naming the parameter"
case "$(reason hostile-evil-summary.so)" in *"unprintable"*) r=1;; *) r=0;; esac
is "$r" 1 "a summary with DEL and CSI in it: rejected as unprintable"
case "$(reason hostile-evil-name.so)" in *"no valid name"*) r=1;; *) r=0;; esac
is "$r" 1 "a name with escapes in it: rejected"
is "$(grep -c "^  $all/" "$tmp/rejected")" 8 "exactly the 8 hostile files are rejected"
ok "nothing any plugin printed reached --list's output" bash -c "! grep -q HOSTILE '$tmp/list' '$tmp/list.err'"

rbt --describe tiny-sum --plugin-path "$all" >"$tmp/describe" 2>&1
is "$?" 0 "--describe of a good plugin works beside them"
ok "... and describes it" grep -q '^tiny-sum ' "$tmp/describe"
SECONDS=0
(cd "$tmp/work" && rbt -q -c good.ini -o all.json --plugin-path "$all") 2>"$tmp/all.err"
is "$?" 0 "an experiment of good plugins runs with the hostile ones in its plugin folder"
is "$(statuses "$tmp/work/all.json")" "ok" "... its configuration is ok"
ok "... in reasonable time (took ${SECONDS} s; under 150: 3 idle, 34 busy, over 60 sanitized and busy)" test "$SECONDS" -lt 150

# ---- this process's current folder, signal mask and standard output ----
folder chdir hostile-chdir
cp "$tmp/work/good.ini" "$tmp/work/chdir.ini"
printf '[run chdir]\nplugin = hostile-chdir\n' >>"$tmp/work/chdir.ini"
(cd "$tmp/work" && rbt -q -c chdir.ini -o chdir.json --plugin-path "$tmp/chdir") 2>"$tmp/chdir.err"
is "$?" 0 "a constructor that changes the current folder: the experiment file is still read from here"
ok "... and the results are written here" "$JQ" -e .results "$tmp/work/chdir.json"
is "$(statuses "$tmp/work/chdir.json")" "ok ok" "... both configurations ok, the chdir plugin's too"

folder dtor hostile-dtor
cp "$tmp/work/good.ini" "$tmp/work/dtor.ini"
printf '[run dtor]\nplugin = hostile-dtor\n' >>"$tmp/work/dtor.ini"
(cd "$tmp/work" && rbt -q -c dtor.ini --format json --plugin-path "$tmp/dtor") >"$tmp/dtor.json" 2>"$tmp/dtor.err"
is "$?" 0 "a destructor that prints: the run exits 0"
ok "... standard output is valid JSON" "$JQ" -e .results "$tmp/dtor.json"
ok "... and holds nothing the destructor printed" bash -c "! grep -q HOSTILE-DESTRUCTOR '$tmp/dtor.json'"
rbt --list --plugin-path "$tmp/dtor" >"$tmp/dtor.list" 2>/dev/null
ok "... nor does --list's" bash -c "! grep -q HOSTILE-DESTRUCTOR '$tmp/dtor.list'"

folder sigmask hostile-sigmask slow-sum
cat >"$tmp/work/sigmask.ini" <<'INI'
[experiment]
warmup = 0
min_time = 1
max_reps = 60
[data]
dtype = i32
[run masked]
plugin = hostile-sigmask
n = 1K
[run slow]
plugin = slow-sum
n = 1K, 2K, 4K
INI
export SLOW_SUM_MARK=$tmp/started
start_slow -c "$tmp/work/sigmask.ini" -o "$tmp/sigmask.json" --plugin-path "$tmp/sigmask"
blocked=$(sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
is "$(( 0x${blocked:-0} & 0x6 ))" 0 "a constructor that blocks SIGINT and SIGTERM: redbench's own mask does not have them"
kill -INT "$pid"
for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
wait "$pid"; is "$?" 130 "... SIGINT stops the run (exit status 130)"
is "$(statuses "$tmp/sigmask.json")" "ok skipped skipped skipped" "... the configuration in progress abandoned"
unset SLOW_SUM_MARK

# ---- one worker per plugin; what a plugin starts ends with it ----
folder leaky hostile-thread slow-sum
cat >"$tmp/work/thread.ini" <<'INI'
[experiment]
warmup = 0
min_time = 0
min_reps = 20
max_reps = 20
timeout = 10
[data]
dtype = i32
n = 1K
[run leaky]
plugin = hostile-thread
[run next]
plugin = slow-sum
INI
rbt -q -c "$tmp/work/thread.ini" -o "$tmp/thread.json" --plugin-path "$tmp/leaky" 2>"$tmp/thread.err"
is "$(statuses "$tmp/thread.json")" "failed ok" "a thread left running that crashes later fails its own plugin's row, not the next plugin's"
case "$("$JQ" -r '.results[0].reason' "$tmp/thread.json")" in
  "crashed with SIGSEGV in threads the plugin left running after teardown") r=1;; *) r=0;; esac
is "$r" 1 "... saying it crashed in the threads the plugin left running"

folder forky hostile-fork
cat >"$tmp/work/fork.ini" <<'INI'
[experiment]
warmup = 0
min_time = 0
min_reps = 3
max_reps = 3
timeout = 120
[data]
dtype = i32
n = 1K
[run forky]
plugin = hostile-fork
[run after]
plugin = tiny-sum
INI
export HOSTILE_CHILD_PID=$tmp/child.pid
SECONDS=0
rbt -q -c "$tmp/work/fork.ini" -o "$tmp/fork.json" --plugin-path "$tmp/forky" 2>"$tmp/fork.err"
is "$?" 0 "a plugin that forks a long-lived child: the run exits 0"
ok "... without waiting for the 120 s timeout (took ${SECONDS} s; under 60, 24 on a busy machine)" test "$SECONDS" -lt 60
is "$(statuses "$tmp/fork.json")" "ok ok" "... both rows ok"
child=$(cat "$HOSTILE_CHILD_PID" 2>/dev/null)
ok "... the plugin did fork a child" test -n "$child"
ok "... and the child is gone after the run" bash -c "! kill -0 '${child:-0}' 2>/dev/null"
[ -n "$child" ] && kill -KILL "$child" 2>/dev/null
unset HOSTILE_CHILD_PID

# A plugin whose file gives another descriptor after discovery: its worker
# refuses to run it.
folder shifty hostile-shifty
printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K\ndtype = i32\n[run s]\nplugin = hostile-shifty\nn = 1K, 2K\n[run t]\nplugin = tiny-sum\n' >"$tmp/work/shifty.ini"
HOSTILE_MARK=$tmp/shifty.mark rbt -q -c "$tmp/work/shifty.ini" -o "$tmp/shifty.json" --plugin-path "$tmp/shifty" 2>"$tmp/shifty.err"
is "$(statuses "$tmp/shifty.json")" "failed failed ok" "a plugin whose descriptor changed since discovery: its rows fail, the next plugin's run"
case "$("$JQ" -r '.results[0].reason' "$tmp/shifty.json")" in
  *"changed since it was discovered"*) r=1;; *) r=0;; esac
is "$r" 1 "... saying it changed since it was discovered"

# ---- no escape sequence reaches the terminal ----
esc=$tmp/esc
mkdir -p "$esc" "$esc/"$'sub\e[1mpack'
cp "$src/tiny-sum.so" "$esc/"$'evil\e[31m\x7f\x9b2J.so'
cp "$src/tiny-sum.so" "$esc/"$'sub\e[1mpack/tiny-sum.so'
cp "$src/hostile-evil-summary.so" "$src/hostile-evil-name.so" "$esc/"
rbt --list --plugin-path "$esc" >"$tmp/esc.list" 2>&1
is "$?" 0 "--list with escapes in file names, folder names, names and summaries exits 0"
is "$(raw_bytes "$tmp/esc.list")" 0 "... and prints no ESC, DEL or CSI byte"
ok "... the file name is shown escaped" grep -qF 'evil\x1b[31m\x7f\x9b2J.so' "$tmp/esc.list"
ok "... and the pack named after the folder too" grep -qF 'sub\x1b[1mpack' "$tmp/esc.list"
rbt --describe evil-summary --plugin-path "$esc" >"$tmp/esc.describe" 2>&1
is "$(raw_bytes "$tmp/esc.describe")" 0 "--describe of the plugin with escapes in its texts prints none of them"
rbt --describe esc/tiny-sum --plugin-path "$esc" >"$tmp/esc.describe2" 2>&1
is "$(raw_bytes "$tmp/esc.describe2")" 0 "--describe of a plugin whose file name holds escapes prints none of them"
printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K\ndtype = i32\n[run a]\nplugin = esc/tiny-sum\n' >"$tmp/work/esc.ini"
rbt -q -c "$tmp/work/esc.ini" --plugin-path "$esc" >"$tmp/esc.out" 2>&1
is "$?" 0 "a run of that plugin exits 0"
is "$(raw_bytes "$tmp/esc.out")" 0 "... and prints no ESC, DEL or CSI byte"
done_testing
