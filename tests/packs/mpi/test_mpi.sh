#!/bin/sh
# tests/packs/mpi/test_mpi.sh: the mpi pack, its ranks started by redbench with
# mpirun (-np 2 and -np 4 on this machine, oversubscribed): every strategy
# judged ok against the whole data set, on a size that does not divide
# among the ranks; the JSON carries ranks, algbw and busbw; a rank that
# crashes and a rank that hangs (tests/packs/mpi/mpi-faults.c) each fail their
# own row, and the run goes on. Then redbench itself under `mpirun -np 2`
# and `-np 3`: process 0 runs the experiment and writes the results, the
# others start the ranks of each configuration of 2 (or 3) ranks; a
# crashing and a hanging rank there fail their own rows too; the vector
# answer of the all-reduces (`result = vector`), every element judged;
# the mpi pack under `mpirun -np 4` (conf/ranks-cpu.ini), every row ok;
# its configurations of 4 ranks in the launcher's own processes (one MPI
# rank process each for the whole run, no mpirun of redbench's own), and
# a crash there failing its row, naming the rank, with the later MPI rows
# skipped since MPI starts once per job. Skipped where configure found no
# MPI.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
[ -f "$top_builddir/plugins/mpi/allreduce.so" ] || skip_all "the mpi pack is not built (no MPI)"
plugins="-p $top_builddir/plugins/mpi -p $top_builddir/tests/packs/mpi/dir"
# Under the sanitizer build, MPI's own allocations kept until exit are not
# this program's leaks; a rank that reported them would exit non-zero.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
plan 29

cat >"$tmp/mpi.ini" <<INI
[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 3
max_reps = 4
timeout = 20
[data]
op = sum, max
dtype = i32, f64
n = 10001
ranks = 2, 4
[run allreduce]
plugin = mpi/allreduce
stage = vector, local
[run reduce]
plugin = mpi/reduce
stage = vector, local
[run ring]
plugin = mpi/ring
[run doubling]
plugin = mpi/doubling
INI
# shellcheck disable=SC2086
"$rb" -q $plugins -c "$tmp/mpi.ini" -o "$tmp/mpi.json" 2>"$tmp/mpi.err"
is "$?" 0 "every mpi strategy on 2 and 4 ranks: exit 0"
is "$("$JQ" '[.results[] | select(.status == "ok")] | length' "$tmp/mpi.json")" 48 \
  "48 rows ok (6 strategies x 2 ops x 2 dtypes x 2 rank counts)"
"$JQ" -r '.results[] | select(.status != "ok") |
  "# not ok: \(.run) \(.params_text) \(.op) \(.dtype) \(.ranks): \(.status): \(.reason)"' \
  "$tmp/mpi.json" 2>/dev/null | head -n 8
is "$("$JQ" -c '[.results[] | .ranks] | unique' "$tmp/mpi.json")" "[2,4]" "rows carry ranks"
is "$("$JQ" -r '[.results[] | select(.run == "allreduce" and .ranks == 4) |
    (.busbw_gbs / .bandwidth_gbs * 1000 | round)] | unique | .[]' "$tmp/mpi.json")" 1500 \
  "an all-reduce's busbw is algbw x 2(r-1)/r"
is "$("$JQ" -r '[.results[] | select(.run == "reduce") |
    (.busbw_gbs / .bandwidth_gbs * 1000 | round)] | unique | .[]' "$tmp/mpi.json")" 1000 \
  "a reduce's busbw is algbw"
is "$("$JQ" -r '[.results[] | .n_total / .n] | unique | map(tostring) | join(" ")' \
  "$tmp/mpi.json")" "2 4" "n_total is n per rank times the ranks"

cat >"$tmp/faults.ini" <<INI
[experiment]
rounds = 1
warmup = 0
min_time = 0
min_reps = 4
max_reps = 4
timeout = 4
determinism_runs = 0
[data]
op = sum
dtype = i64
n = 1000
ranks = 2
[run faults]
plugin = mpi-faults
bug = crash, none, hang, none
INI
# shellcheck disable=SC2086
"$rb" -q $plugins -c "$tmp/faults.ini" -o "$tmp/faults.json" 2>"$tmp/faults.err"
is "$?" 1 "a crashing and a hanging rank: exit 1"
status() { "$JQ" -r ".results[$1] | \"\(.status): \(.reason)\"" "$tmp/faults.json"; }
case $(status 0) in "failed: rank 1 ended in run without its row"*SIGABRT*) r=1;; *) r=0;; esac
is "$r" 1 "a crashing rank fails its row ($(status 0))"
case $(status 2) in "failed: rank"*" stopped answering for "*"killed"*) r=1;; *) r=0;; esac
is "$r" 1 "a hanging rank fails its row ($(status 2))"
is "$(status 1 | cut -d: -f1) $(status 3 | cut -d: -f1)" "ok ok" \
  "the rows after each fault are ok: the run went on with fresh ranks"

cat >"$tmp/vector.ini" <<INI
[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 3
max_reps = 4
timeout = 20
[data]
op = sum, max
dtype = i32, f32
n = 10001
ranks = 4
[run allreduce]
plugin = mpi/allreduce
result = vector
[run ring]
plugin = mpi/ring
result = vector
[run doubling]
plugin = mpi/doubling
result = vector
INI
# shellcheck disable=SC2086
"$rb" -q $plugins -c "$tmp/vector.ini" -o "$tmp/vector.json" 2>"$tmp/vector.err"
is "$?" 0 "the mpi all-reduces with result = vector: exit 0"
is "$("$JQ" -r '[.results[] | "\(.status) \(.probes)"] | unique | join(",")' \
  "$tmp/vector.json")" "ok passed" \
  "12 rows of n-element vectors, every element judged: ok and proven"

# redbench under the launcher: the hub (a socket on this node).
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cat >"$tmp/hub.ini" <<INI
[experiment]
warmup = 1
min_time = 0
min_reps = 3
max_reps = 4
timeout = 4
[data]
op = sum, max
dtype = f32, i64
n = 3001
ranks = 2
[run hub]
plugin = exchange-sum
INI
mpirun --oversubscribe -np 2 "$rb" -q -p "$top_builddir/tests/procs/ranks/dir" -c "$tmp/hub.ini" \
  -o "$tmp/hub.json" >"$tmp/hub.out" 2>"$tmp/hub.err"
is "$?" 0 "mpirun -np 2 redbench: exit 0"
is "$("$JQ" -r '[.results[] | "\(.ranks) \(.status) \(.probes)"] | unique | join(",")' \
  "$tmp/hub.json")" "2 ok passed" "every row on the launcher's 2 processes ok and proven"
mpirun --oversubscribe -np 3 "$rb" -q -p "$top_builddir/tests/procs/ranks/dir" -c "$tmp/hub.ini" \
  -D ranks=3 -D op=sum -o "$tmp/hub3.json" >"$tmp/hub3.out" 2>"$tmp/hub3.err"
is "$("$JQ" -r '[.results[] | "\(.ranks) \(.status)"] | unique | join(",")' "$tmp/hub3.json")" \
  "3 ok" "mpirun -np 3: rows of 3 ranks ok"
mpirun --oversubscribe -np 2 "$rb" -q -p "$top_builddir/tests/procs/ranks/dir" -c "$tmp/hub.ini" \
  -D op=sum -D dtype=f32 -D bug=crash,none,hang,none -o "$tmp/hubf.json" \
  >"$tmp/hubf.out" 2>"$tmp/hubf.err"
hub_status() { "$JQ" -r ".results[$1] | \"\(.status): \(.reason)\"" "$tmp/hubf.json"; }
is "$(hub_status 0)" "failed: rank 1 ended in run without its row" \
  "under the launcher, a crashing rank fails its row"
case $(hub_status 2) in "failed: "*) r=1;; *) r=0;; esac
is "$r" 1 "under the launcher, a hanging rank fails its row ($(hub_status 2))"
is "$(hub_status 1 | cut -d: -f1) $(hub_status 3 | cut -d: -f1)" "ok ok" \
  "under the launcher, the rows after each fault are ok"
port=$((20000 + $$ % 20000))
mpirun --oversubscribe -np 2 -x REDBENCH_LEADER=127.0.0.1:$port "$rb" -q \
  -p "$top_builddir/tests/procs/ranks/dir" -c "$tmp/hub.ini" -D op=sum -o "$tmp/hubt.json" \
  >"$tmp/hubt.out" 2>"$tmp/hubt.err"
is "$("$JQ" -r '[.results[] | "\(.ranks) \(.status)"] | unique | join(",")' "$tmp/hubt.json")" \
  "2 ok" "through REDBENCH_LEADER=127.0.0.1:$port (TCP, as across nodes): rows ok"

# The mpi pack under the launcher: each of its configurations' ranks make
# an MPI job of their own on process 0's node (mpirun, with the launcher's
# variables removed from its environment); every row ok and proven. The
# line is docs/scale-out.md's, as written (run in the build tree, without
# the root allowance exported above: as root, the line's own must do),
# with options of the test's appended for a brief run.
launcher_line=$(sed -n '/^<!-- mpi-launcher: begin -->$/,/^<!-- mpi-launcher: end -->$/p' \
  "$top_srcdir/docs/scale-out.md" | sed -n 's/^    //p')
# Out of the source tree (distcheck), the line runs in a folder of links to
# the build tree's entries with the source tree's conf/ beside them.
line_dir=$top_builddir
if [ ! -e "$top_builddir/conf/ranks-cpu.ini" ]; then
  line_dir=$tmp/line-tree
  mkdir -p "$line_dir"
  for f in "$top_builddir"/*; do ln -s "$f" "$line_dir/${f##*/}"; done
  rm -f "$line_dir/conf"; ln -s "$(cd "$top_srcdir" && pwd)/conf" "$line_dir/conf"
fi
(cd "$line_dir" && env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
  bash -c "$launcher_line"' -q -D n=4K -D min_time=0 -D max_reps=4 -D rounds=1 -o "$0"' \
  "$tmp/conf.json") >"$tmp/conf.out" 2>"$tmp/conf.err"
is "$?" 0 "docs/scale-out.md's mpirun -np 4 ./redbench -c conf/ranks-cpu.ini, as written: exit 0"
is "$("$JQ" -r '[.results[] | "\(.ranks) \(.status) \(.probes)"] | unique | join(",")' \
  "$tmp/conf.json")" "1 ok passed,2 ok passed,4 ok passed" \
  "every mpi row on 1, 2 and 4 ranks ok and proven under mpirun -np 4"

# Configurations of the launcher's 4 ranks run in the launcher's own
# processes: each starts one MPI rank process, which initialises MPI once
# and serves every such row of the run (redbench -v -v says so, once per
# process); the mpirun that redbench would start itself fails, and is
# never started.
cat >"$tmp/inside.ini" <<INI
[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 3
max_reps = 4
timeout = 20
[data]
op = sum
dtype = i32, f64
n = 4K, 10001
ranks = 4
[run allreduce]
plugin = mpi/allreduce
stage = vector, local
[run reduce]
plugin = mpi/reduce
[run ring]
plugin = mpi/ring
[run doubling]
plugin = mpi/doubling
INI
printf '#!/bin/sh\ntouch "%s/nested"\nexit 1\n' "$tmp" >"$tmp/no-mpirun"
chmod +x "$tmp/no-mpirun"
REDBENCH_MPIRUN=$tmp/no-mpirun timeout 120 mpirun --oversubscribe -np 4 -x REDBENCH_MPIRUN \
  "$rb" -v -v -p "$top_builddir/plugins/mpi" -c "$tmp/inside.ini" -o "$tmp/inside.json" \
  >"$tmp/inside.out" 2>"$tmp/inside.err"
is "$?" 0 "mpirun -np 4 redbench, every mpi plugin on 4 ranks: exit 0"
is "$("$JQ" -r '(.results | length) as $rows |
    [.results[] | "\(.ranks) \(.status) \(.probes)"] | unique | join(",") + " \($rows)"' \
    "$tmp/inside.json")" "4 ok passed 20" \
  "20 rows of 4 ranks ok and proven in the launcher's processes"
is "$([ -e "$tmp/nested" ] && echo started || echo none)" none \
  "redbench started no mpirun of its own for them"
is "$(sed -n 's/^redbench: rank \([0-3]\): MPI ranks run in process \([0-9]*\), under the launcher.s process \1, for the whole run$/\1 \2/p' \
    "$tmp/inside.err" | sort -u | awk '{r = r $1; p[$2] = 1} END {print r, length(p)}')" \
  "0123 4" "one MPI rank process under each of the launcher's 4 processes, for all 20 rows"

# A crash of an MPI rank process there fails its row, naming the rank;
# MPI cannot start again in the job, so the later MPI rows are skipped,
# saying why; the run ends at once with exit status 1.
cat >"$tmp/inside-crash.ini" <<INI
[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 4
max_reps = 4
timeout = 10
determinism_runs = 0
[data]
op = sum
dtype = i64
n = 1000
ranks = 4
[run faults]
plugin = mpi-faults
bug = none, crash, none
[run ring]
plugin = mpi/ring
INI
timeout 120 mpirun --oversubscribe -np 4 "$rb" -q $plugins -c "$tmp/inside-crash.ini" \
  -o "$tmp/inside-crash.json" >"$tmp/inside-crash.out" 2>"$tmp/inside-crash.err"
is "$?" 1 "a crashing MPI rank process in the launcher's processes: exit 1, no hang"
ic_status() { "$JQ" -r ".results[$1] | \"\(.status): \(.reason)\"" "$tmp/inside-crash.json"; }
is "$(ic_status 0)" "ok: " "the row before the crash is ok"
case $(ic_status 1) in "failed: rank 1 ended in run without its row; "*"later MPI rows are skipped"*) r=1;; *) r=0;; esac
is "$r" 1 "the crash fails its row, naming rank 1 ($(ic_status 1))"
is "$("$JQ" -r '[.results[2:][] | "\(.status): \(.reason | sub(": in \\[run faults\\] bug=crash: rank 1 ended in run without its row$"; ": NAMED"))"] | unique | join(",")' \
    "$tmp/inside-crash.json" | sed 's/^skipped: MPI cannot start again in this launcher.s job .*: NAMED$/skipped, naming the crash/')" \
  "skipped, naming the crash" "the later MPI rows are skipped, naming the row that lost MPI"
