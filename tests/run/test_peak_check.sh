#!/bin/bash
# tests/run/test_peak_check.sh: the peak cache as run and tune use it on the cpu
# pack: one cache entry for both commands (tune finds the figure the run
# stored), and a new measurement far from the cached figure (one planted
# 1000 times too high) taken again, said on standard error and kept in the
# device's record, with the cache corrected.
. "$top_srcdir/tests/lib.sh"
[ -n "${JQ:-}" ] || skip_all "jq not found (apt-get install jq)"
plan 10
cd "$top_builddir" || exit 1
export XDG_CACHE_HOME="$tmp/cache"
unset REDBENCH_PEAK
peaks="$XDG_CACHE_HOME/redbench/peaks"
cat >"$tmp/p.ini" <<'INI'
[experiment]
min_time = 0.001
max_reps = 5
[data]
op = sum
dtype = f32
n = 4K
[run t]
plugin = unrolled
lanes = 4, 8
INI

"$rb" -q -c "$tmp/p.ini" -o "$tmp/r.json" --format json >/dev/null 2>&1
is "$?" 0 "the run succeeds"
is "$(ls "$peaks" | wc -l)" 1 "it stores one cache entry"
# (a first figure is taken twice; on a busy machine the two may disagree,
# and that is noted, but never a disagreement with a cached figure)
ok "... and notes no disagreement with a cached figure (there was none)" "$JQ" -e '(.devices[0].measured_peak_note // "") | test("cached") | not' "$tmp/r.json"
entry=$(ls "$peaks")
cp "$peaks/$entry" "$tmp/entry"
"$rb" tune -q -c "$tmp/p.ini" -o "$tmp/tuned.ini" >/dev/null 2>&1
is "$?" 0 "tune succeeds"
is "$(ls "$peaks")" "$entry" "tune uses the run's cache entry, and makes none of its own"
ok "... the figure found, not measured again" cmp "$peaks/$entry" "$tmp/entry"

sed -i 's/^measured_gbs = .*/measured_gbs = 1000000/' "$peaks/$entry"
REDBENCH_PEAK=measure "$rb" -c "$tmp/p.ini" -o "$tmp/r2.json" --format json >/dev/null 2>"$tmp/err"
is "$?" 0 "a run that measures again succeeds"
ok "standard error says the measurement disagreed and was taken again" \
  grep -qE 'warning: cpu device 0: peak bandwidth: measured [0-9.]+ GB/s, -[0-9]+% from the cached 1000000.0 GB/s; measured again' "$tmp/err"
ok "the device's record keeps the disagreement" "$JQ" -e \
  '.devices[0].measured_peak_note|test("from the cached 1000000.0 GB/s; measured again")' "$tmp/r2.json"
ok "the cache holds the new figure" \
  awk -F' = ' '$1 == "measured_gbs" { exit !($2 > 0 && $2 < 100000) }' "$peaks/$entry"
done_testing
