#!/bin/sh
# tests/procs/test_ranks.sh: configurations run by several ranks. tests/procs/ranks/
# exchange-sum.c reduces each rank's slice and gathers the partial results
# through the host; on 1, 2 and 4 ranks every row must be `ok` against the
# reference of all ranks' data, with ranks, n_total, algbw and busbw
# (2(r-1)/r for an all-reduce) and the scaling against the one-rank row.
# Each planted fault fails or makes wrong its own row and no other: a rank
# that returns only its slice, one wrong rank, a crashing rank, a hanging
# rank, a rank that declines. Also: `n_scope = total`, `devices`, a
# plugin without a collective on two ranks, and the vector answer
# (`result = vector`, ABI 1.4): every element judged, a rank's slice left
# out and one element off each wrong; graph and eager timing across
# ranks; an exchange over the host's limit, whose row names the limit;
# rank processes that hold no descriptor of the host's but their socket;
# and the reproducibility level judged at all ranks' elements.
. "$top_srcdir/tests/lib.sh"

[ -n "${JQ:-}" ] || skip_all "jq not found"
plugins=$top_builddir/tests/procs/ranks/dir
plan 41

cat >"$tmp/good.ini" <<INI
[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 3
max_reps = 6
timeout = 5
[data]
op = sum, min, max
dtype = i32, i64, f32, f64
n = 10K
ranks = 1, 2, 4
[run good]
plugin = exchange-sum
INI
"$rb" -q -p "$plugins" -c "$tmp/good.ini" -o "$tmp/good.json" 2>"$tmp/good.err"
is "$?" 0 "every strategy on 1, 2 and 4 ranks: exit 0"
is "$("$JQ" '[.results[] | select(.status == "ok")] | length' "$tmp/good.json")" 36 \
  "36 rows ok (3 ops x 4 dtypes x 3 rank counts)"
is "$("$JQ" -c '[.results[] | .ranks] | unique' "$tmp/good.json")" "[1,2,4]" "rows carry ranks"
is "$("$JQ" -r '.results[] | select(.ranks == 4) | .n_total' "$tmp/good.json" | sort -u)" 40960 \
  "n_total is n times the ranks (n per rank)"
is "$("$JQ" -r '[.results[] | select(.ranks == 4) |
    (.busbw_gbs / .bandwidth_gbs * 1000 | round)] | unique | .[]' "$tmp/good.json")" 1500 \
  "busbw = algbw x 2(r-1)/r on 4 ranks"
is "$("$JQ" -r '[.results[] | select(.ranks == 2) | .scaling > 0] | all' "$tmp/good.json")" true \
  "rows on 2 ranks have a scaling efficiency against 1 rank"
is "$("$JQ" -r '[.results[] | select(.ranks == 1) | .scaling == null] | all' "$tmp/good.json")" \
  true "one-rank rows have none"
is "$("$JQ" -r '[.results[] | select(.ranks == 4) | .slowest_rank >= 0 and .slowest_rank < 4
    and .slowest_rank_ns >= .fastest_rank_ns and .wrong_ranks == 0] | all' "$tmp/good.json")" \
  true "the slowest and fastest rank, no wrong rank"
is "$("$JQ" -r '[.results[] | .probes] | unique | join(" ")' "$tmp/good.json")" passed \
  "every row, on 1, 2 or 4 ranks, passed the probes (planted on one rank, the others' background)"
is "$("$JQ" -r '.results[] | select(.ranks == 4 and .op == "sum" and .dtype == "f32") |
    .probes_passed' "$tmp/good.json")" 3 "a sum on 4 ranks passed its 3 probes"
is "$("$JQ" -r '[.results[] | select(.ranks == 4) | .median_ns >= .slowest_rank_ns * 0.999]
    | all' "$tmp/good.json")" true "a row's time per call is at least its slowest rank's median"
"$rb" report "$tmp/good.json" -o "$tmp/good.html" 2>/dev/null
ok "the HTML report has the ranks, busbw and scaling columns" \
  grep -q '<th>ranks</th><th>busbw (GB/s)</th><th>slowest rank</th><th>wrong ranks</th><th>scaling</th>' \
  "$tmp/good.html"
"$rb" -q -p "$plugins" -c "$tmp/good.ini" -r good -D ranks=1 -o "$tmp/one.html" 2>/dev/null
ok "... and not when no row ran on several ranks" sh -c "! grep -q '<th>ranks</th>' '$tmp/one.html'"
"$rb" -q -p "$plugins" -c "$tmp/good.ini" -r good -D op=sum -D dtype=i32 -D ranks=2 \
  >"$tmp/table.out" 2>&1
ok "the terminal table has the ranks and busbw columns" grep -q 'ranks  busbw' "$tmp/table.out"

cat >"$tmp/bugs.ini" <<INI
[experiment]
rounds = 1
warmup = 1
min_time = 0
min_reps = 3
max_reps = 6
timeout = 3
[data]
op = sum
dtype = f32
n = 10K
ranks = 2, 4
[run bugs]
plugin = exchange-sum
bug = none, local, rank1-off, crash, hang, decline, remember
INI
started=$(date +%s)
"$rb" -q -p "$plugins" -c "$tmp/bugs.ini" -o "$tmp/bugs.json" 2>"$tmp/bugs.err"
is "$?" 1 "planted faults: exit 1"
took=$(( $(date +%s) - started ))
ok "the hanging ranks cost about the timeout each ($took s)" test "$took" -lt 30
reason() {
  "$JQ" -r ".results[] | select(.params_text == \"bug=$1 result=value\" and .ranks == $2) |
    \"\(.status): \(.reason)\"" "$tmp/bugs.json"
}
is "$(reason none 4 | cut -d: -f1)" ok "the correct strategy is ok beside the faults"
case $(reason local 4) in "wrong: rank 0: off by"*) r=1;; *) r=0;; esac
is "$r" 1 "a rank that returns only its slice is wrong ($(reason local 4))"
case $(reason rank1-off 4) in "wrong: rank 1: off by"*) r=1;; *) r=0;; esac
is "$r" 1 "one wrong rank is named ($(reason rank1-off 4))"
is "$("$JQ" -r '.results[] | select(.params_text == "bug=rank1-off result=value" and .ranks == 4) |
    .wrong_ranks' "$tmp/bugs.json")" 1 "wrong_ranks counts it"
is "$(reason crash 2)" "failed: rank 1 crashed with SIGABRT in run" "a crashing rank fails its row"
case $(reason hang 4) in "failed: rank 1 stopped answering for"*"killed"*) r=1;; *) r=0;; esac
is "$r" 1 "a hanging rank fails its row, named ($(reason hang 4))"
is "$(reason decline 2)" "unsupported: rank 1: rank 1 declines (planted)" \
  "a rank that declines makes the row unsupported"
case $(reason remember 4) in "wrong: rank 0: probe 1: "*"earlier call"*) r=1;; *) r=0;; esac
is "$r" 1 "ranks that return a remembered answer are caught by the probes ($(reason remember 4))"

cat >"$tmp/total.ini" <<INI
[experiment]
warmup = 0
min_time = 0
min_reps = 2
max_reps = 2
n_scope = total
devices = 0
[data]
op = sum
dtype = i64
n = 1001
ranks = 1, 3
[run total]
plugin = exchange-sum
[run single]
plugin = cpu/serial
ranks = 2
INI
"$rb" -q -p "$plugins" -c "$tmp/total.ini" -o "$tmp/total.json" 2>"$tmp/total.err"
is "$("$JQ" -r '.results[] | select(.run == "total") | "\(.ranks) \(.n_total) \(.status)"' \
  "$tmp/total.json" | tr '\n' ' ')" "1 1001 ok 3 1001 ok " \
  "n_scope = total splits n across the ranks (1001 over 3) and is judged whole"
case $("$JQ" -r '.results[] | select(.run == "single") | "\(.status): \(.reason)"' \
  "$tmp/total.json") in "unsupported: serial runs on one device"*) r=1;; *) r=0;; esac
is "$r" 1 "a plugin without a collective is unsupported on two ranks"

cat >"$tmp/vector.ini" <<INI
[experiment]
warmup = 1
min_time = 0
min_reps = 3
max_reps = 4
rounds = 1
[data]
op = sum, min, max
dtype = i32, f32, f64
n = 10001
ranks = 1, 2, 4
[run vector]
plugin = exchange-sum
result = vector
bug = none, skip-rank, one-element
INI
"$rb" -q -p "$plugins" -c "$tmp/vector.ini" -o "$tmp/vector.json" 2>"$tmp/vector.err"
is "$?" 1 "vector answers with planted faults: exit 1"
is "$("$JQ" -r '[.results[] | select(.params_text == "bug=none result=vector") |
    "\(.status) \(.probes)"] | unique | join(",")' "$tmp/vector.json")" "ok passed" \
  "the n-element all-reduce judged element by element: 27 rows ok and proven"
vreason() {
  "$JQ" -r ".results[] | select(.params_text == \"bug=$1 result=vector\" and .ranks == $2 and
    .op == \"$3\" and .dtype == \"$4\") | \"\\(.status): \\(.reason)\"" "$tmp/vector.json"
}
case $(vreason skip-rank 4 sum f32) in
  "wrong: rank 0: 10001 of 10001 elements of the vector wrong; the first, element 0: "*) r=1;;
  *) r=0;; esac
is "$r" 1 "a rank's slice left out is wrong on every element ($(vreason skip-rank 4 sum f32))"
case $(vreason one-element 4 sum f32) in
  "wrong: rank 1: 1 of 10001 elements of the vector wrong; the first, element 5000: "*) r=1;;
  *) r=0;; esac
is "$r" 1 "one element off by 1e-4 of itself is wrong, though the sum of all would pass"
is "$("$JQ" -r '[.results[] | select(.params_text != "bug=none result=vector" and
    .ranks > 1) | .status] | unique | join(",")' "$tmp/vector.json")" wrong \
  "every planted fault on 2 and 4 ranks is wrong"

"$rb" -q -p "$plugins" -c "$tmp/vector.ini" -D bug=none -D op=sum -D ranks=2,4 \
  -D timing=graph -o "$tmp/graph.json" 2>"$tmp/graph.err"
is "$?" 0 "timing = graph across ranks: exit 0"
is "$("$JQ" -r '[.results[] | "\(.status) \(.timing) \(.batch_calls > 0) \(.probes)"] | unique |
    join(",")' "$tmp/graph.json")" "ok graph true passed" \
  "each rank replays its batch of calls (rank 0's size), every row ok and proven"
"$rb" -q -p "$plugins" -c "$tmp/vector.ini" -D bug=none -D op=sum -D ranks=2,4 \
  -D timing=eager -D graph_calls=6 -o "$tmp/eager.json" 2>"$tmp/eager.err"
is "$?" 0 "timing = eager across ranks: exit 0"
is "$("$JQ" -r '[.results[] | "\(.status) \(.timing) \(.batch_calls) \(.probes)"] | unique |
    join(",")' "$tmp/eager.json")" "ok eager 6 passed" \
  "each rank launches its batches of 6 calls back to back, every row ok and proven"

# An exchange over the host's limit: the plugin says only that it failed,
# and the row's reason names the host's limit too.
"$rb" -q -p "$plugins" -c "$tmp/good.ini" -D bug=oversize -D op=sum -D dtype=i32 -D ranks=1,2 \
  -o "$tmp/oversize.json" 2>"$tmp/oversize.err"
is "$?" 1 "an exchange over the host's limit: exit 1"
is "$("$JQ" -r '[.results[] | select(.status == "failed" and (.reason | test("the exchange failed \\(the host refused an exchange of 4097 bytes: it takes at most 4096 bytes a rank at once")))] | length' "$tmp/oversize.json")" 2 \
  "... each row failed, its reason the plugin's words and the host's limit (1 and 2 ranks)"

# A rank's process holds its socket to the leader and nothing else of the
# host's (bug = fds fails in init, listing what it holds beyond that).
"$rb" -q -p "$plugins" -c "$tmp/good.ini" -D bug=fds -D op=sum -D dtype=i32 -D ranks=1,2,4 \
  -o "$tmp/fds.json" 7>"$tmp/seven" 2>"$tmp/fds.err"
is "$?" 0 "ranks with descriptor 7 open in the host: exit 0"
is "$(statuses "$tmp/fds.json")" "ok ok ok" "... on 1, 2 and 4 ranks no rank holds the host's descriptors"

# The reproducibility level of an all-reduce is judged at all ranks' slices,
# not at one rank's n: 2 x 9M ones in f32, found exactly, can round in
# another order (one f32 accumulator stops at 2^24); 9M on one rank cannot.
"$rb" -q -p "$plugins" -c "$tmp/good.ini" -D op=sum -D dtype=f32 -D distribution=ones \
  -D n=9M -D ranks=1,2 -D min_reps=1 -D max_reps=2 -D timeout=20 -o "$tmp/repro.json" 2>"$tmp/repro.err"
is "$?" 0 "9M ones in f32 on 1 and 2 ranks: exit 0"
is "$("$JQ" -r '[.results[] | "\(.ranks) \(.status) \(.error) \(.repro)"] | join(",")' \
    "$tmp/repro.json")" "1 ok 0 exact,2 ok 0 run-to-run" \
  "... found exactly; exact on one rank, not on two (18M elements in all)"
