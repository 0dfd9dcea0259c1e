#!/bin/bash
# tests/tune/test_tune_settings.sh: the experiment `redbench tune` writes keeps
# every [experiment] setting the search ran under, the ones of ranks and
# rounds too, so that re-running it measures the winners the same way.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 4

# every key but name, output and format (which tune sets or would pass on
# as they are), in the table's order, as the tuned file must repeat them
settings='warmup = 2
min_time = 0.001
min_reps = 3
max_reps = 9
noise = 0.05
cache = hot
seed = 42
device = 0
timeout = 30
timing = launch
determinism_runs = 1
peak = cached
probes = off
devices = 0, 0
n_scope = total
rounds = 2
energy = off
energy_min_time = 0.5
objective = time'
printf '[experiment]\n%s\n[data]\nop = sum\ndtype = f32\nn = 4K\n[run unrolled]\nplugin = unrolled\nlanes = 1, 4\n' \
  "$settings" >"$tmp/every.ini"
"$rb" tune -q -c "$tmp/every.ini" -o "$tmp/tuned.ini" >"$tmp/out" 2>&1; is "$?" 0 "tune exits 0"
want="name = every-tuned
$settings"
is "$(sed -n '/^\[experiment\]/,/^$/p' "$tmp/tuned.ini" | sed '1d;/^$/d')" "$want" \
  "the tuned experiment sets every key as the search ran"
"$rb" --dry-run -c "$tmp/tuned.ini" >"$tmp/dry" 2>&1; is "$?" 0 "the tuned experiment is valid"
is "$(grep -c '^\[run ' "$tmp/tuned.ini")" 1 "it holds the winner"
done_testing
