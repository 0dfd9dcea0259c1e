#!/bin/bash
# tests/compare/test_compare_settle.sh: where `unclear` is the honest verdict
# (an unchanged configuration whose rounds are noisy, as on a busy
# machine), compare says how noisy each side was and what would settle it:
# the rounds a side that would narrow the interval to the threshold, and
# the threshold that calls it the same now; that threshold does. Its footer
# names the test it used (the rounds' bootstrap, or Mann-Whitney U on one
# run's samples), and its parameters are in the run's own order.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir" || exit 1
plan 12

# side FILE M1 M2 M3...: a results file of one ok row measured in rounds,
# 20 samples each, round k's around Mk (within 1%); with one M, one run.
side() { local f=$1; shift
  awk -v medians="$*" 'BEGIN {
    n = split(medians, m, " "); samples = ""; rounds = ""
    for (r = 1; r <= n; r++) {
      for (k = 0; k < 20; k++) samples = samples (samples ? ", " : "") m[r] * (0.99 + k * 0.001)
      rounds = rounds (r > 1 ? ", " : "") sprintf("{\"median_ns\": %s, \"reps\": 20, \"position\": 0, \"stopped_by\": \"max_reps\"}", m[r] * 1.0095)
    }
    printf "{\"tool\": \"redbench\", \"schema_version\": 2, \"results\": [\n"
    printf " {\"run\": \"a\", \"plugin\": \"p\", \"params\": {\"lanes\": 4, \"acc\": \"native\"}, \"op\": \"sum\", \"dtype\": \"f32\", \"n\": 1024, \"status\": \"ok\", \"median_ns\": %s, \"reps\": %d,\n", m[1], 20 * n
    tail = ""; if (n > 1) tail = ", \"rounds\": [" rounds "]"
    printf "  \"samples_ns\": [%s]%s}]}\n", samples, tail
  }' >"$f"; }

side "$tmp/old.json" 100 112 94
side "$tmp/new.json" 104 93 110
"$rb" compare "$tmp/old.json" "$tmp/new.json" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "an unchanged, noisy configuration: exit 0"
ok "... unclear" grep -q "^1 configuration in both files: 0 same, 0 faster, 0 slower, 1 unclear" "$tmp/out"
ok "... saying how much each side's round medians spread" \
  grep -qE "the rounds' median times spread 1[0-9.]*% \(old\) and 1[0-9.]*% \(new\)" "$tmp/out"
ok "... and the rounds a side that would settle it" grep -qE "settle it with about [0-9]+ rounds a side" "$tmp/out"
threshold=$(sed -n 's/.*or --threshold \([0-9]*\) would call it same.*/\1/p' "$tmp/out" | head -n 1)
ok "... or the threshold that calls it the same ($threshold)" test -n "$threshold"
"$rb" compare --threshold "$threshold" "$tmp/old.json" "$tmp/new.json" >"$tmp/out2" 2>&1
ok "... which does: --threshold $threshold gives same" grep -q "1 same, 0 faster, 0 slower, 0 unclear" "$tmp/out2"
less=$((threshold - 1))
"$rb" compare --threshold "$less" "$tmp/old.json" "$tmp/new.json" >"$tmp/out3" 2>&1
ok "... and one less does not" grep -q "0 same, 0 faster, 0 slower, 1 unclear" "$tmp/out3"
ok "the footer names the test used over rounds" grep -q "p of no change (from the hierarchical bootstrap over the rounds)" "$tmp/out"
ok "... and not Mann-Whitney" bash -c "! grep -q 'Mann-Whitney' '$tmp/out'"
ok "the parameters in the row's own order, as the run's table" grep -qE "^ *1 +a +p +lanes=4 acc=native " "$tmp/out"

# One run a side: Mann-Whitney named, and rounds suggested.
side "$tmp/old1.json" 100
side "$tmp/new1.json" 104
"$rb" compare "$tmp/old1.json" "$tmp/new1.json" >"$tmp/out" 2>&1
ok "one run a side: the footer says Mann-Whitney U on the samples" grep -q "p of no change (Mann-Whitney U on the samples, one run a side)" "$tmp/out"
ok "... and an unclear verdict points at rounds" grep -q "settle it with rounds = 5 or more in both runs' experiments" "$tmp/out"
done_testing
