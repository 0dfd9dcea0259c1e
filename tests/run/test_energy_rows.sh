#!/bin/bash
# tests/run/test_energy_rows.sh: each row's energy (energy = on, src/run/energy.c)
# on the `standin` backend, whose device has an NVIDIA UUID, with the
# stand-in NVML (tests/run/energy/nvml-standin.c) opened through
# REDBENCH_NVML_LIBRARY as the real one is, answering from a script: energy
# per call from the counter's delta over the calls, power at the scripted
# watts; timed calls shorter than 20 counter updates measured over a longer
# batch, said in the note; sampled power where the counter is missing;
# throttling sampled during the calls, in the notes; the SM clock's range;
# the ranks' sum with each rank's share; NVML or RAPL absent: none, with
# the reason; the fields read back from JSON; CSV and Markdown columns.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
energy_standin
plan 29
q() { "$JQ" -r "$1" "$2"; }
within() { # within GOT WANT FRACTION
  awk -v g="$1" -v w="$2" -v f="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= f * w) }'; }
write() { # write NAME KEY=VALUE...: a quick experiment of standin-sum with energy on
  local name=$1; shift
  { experiment_header "$name" energy=on energy_min_time=0.2 "$@"
    printf '[data]\nop = sum\ndtype = i32\nn = 64K\n[run s]\nplugin = standin-sum\n'; } >"$tmp/$name.ini"
}
run() { "$rb" -q -p "$dir" "$@"; }

# Batches of 100 calls with a counter that moves at every read: measured
# over the timed batches themselves.
printf 'power_w = 300\nenergy_period_ms = 0\n' >"$tmp/script"
write fine timing=graph graph_calls=2000
run -c "$tmp/fine.ini" -D min_time=0.2 -D max_reps=20 -o "$tmp/fine.json" 2>"$tmp/err" || cat "$tmp/err"
is "$(q '.results[0]|.status+" "+.energy_source' "$tmp/fine.json")" "ok counter" \
  "a device with an NVIDIA UUID and the counter: source counter"
ok "long enough batches: no note of a longer batch" "$JQ" -e \
  '.results[0].energy_note|(. == null or (test("longer batch")|not))' "$tmp/fine.json"
ok "power over the calls is the scripted 300 W (within 5%)" \
  within "$(q '.results[0].power_w' "$tmp/fine.json")" 300 0.05
ok "energy per call = the counter's delta / the calls = power x seconds / calls" \
  within "$(q '.results[0]|.energy_j' "$tmp/fine.json")" \
         "$(q '.results[0]|.power_w*.energy_s/.energy_calls' "$tmp/fine.json")" 1e-9
# The mean time of the timed calls, not their median: the counter charges
# every call of the batches, and a loaded machine's slow batches with them.
ok "... which is average power x time per call (within 25%: back-to-back batches)" \
  within "$(q '.results[0]|.energy_j' "$tmp/fine.json")" \
         "$(q '.results[0]|.power_w*.mean_ns*1e-9' "$tmp/fine.json")" 0.25
ok "J/GB = energy per call / (n x 4 bytes / 1e9)" \
  within "$(q '.results[0].j_per_gb' "$tmp/fine.json")" \
         "$(q '.results[0].energy_j/(65536*4/1e9)' "$tmp/fine.json")" 1e-9
# Eager timing, the same counter: each timed batch's edges count its calls.
write eager timing=eager graph_calls=2000
run -c "$tmp/eager.ini" -D min_time=0.2 -D max_reps=20 -o "$tmp/eager.json" 2>"$tmp/err" || cat "$tmp/err"
ok "eager timing: the energy covers the timed batches, every call of them (reps x 2000)" \
  "$JQ" -e '.results[0]|.status == "ok" and .timing == "eager" and .energy_source == "counter" and
    .energy_calls == .reps * 2000' "$tmp/eager.json"
ok "... and energy per call is average power x time per call (within 25%)" \
  within "$(q '.results[0]|.energy_j' "$tmp/eager.json")" \
         "$(q '.results[0]|.power_w*.mean_ns*1e-9' "$tmp/eager.json")" 0.25

# Single calls of microseconds with a counter moving every 50 ms: a longer
# energy batch, said in the note; the time is still the timed calls'.
printf 'power_w = 200\nenergy_period_ms = 50\nsm_mhz = 1500, 1980\n' >"$tmp/script"
write coarse timing=launch
run -c "$tmp/coarse.ini" -o "$tmp/coarse.json" 2>"$tmp/err" || cat "$tmp/err"
ok "calls shorter than the counter's resolution: the note says a longer batch measured it" \
  "$JQ" -e '.results[0].energy_note|test("longer batch of [0-9]+ calls.*shorter than 20 updates")' "$tmp/coarse.json"
ok "... which covered at least 20 updates (1 s) and more calls than were timed" \
  "$JQ" -e '.results[0]|.energy_s >= 0.95 and .energy_calls > .reps' "$tmp/coarse.json"
ok "... at the scripted 200 W (within 10%)" within "$(q '.results[0].power_w' "$tmp/coarse.json")" 200 0.1
is "$(q '.results[0]|"\(.sm_clock_min_mhz) \(.sm_clock_max_mhz) \(.throttled)"' "$tmp/coarse.json")" \
  "1500 1980 false" "the SM clock's lowest and highest, sampled during the calls; not throttled"

# Graph timing with batches of 10 short calls and the coarse counter: the
# energy batch replays a batch made longer (the host's part between two
# replays is then a small share of what the counter charges to the calls),
# said in the note; the time is still the timed batches'.
write replays timing=graph graph_calls=10
run -c "$tmp/replays.ini" -o "$tmp/replays.json" 2>"$tmp/err" || cat "$tmp/err"
replays=$(q '.results[0].energy_note' "$tmp/replays.json" |
  sed -n 's/.*replays batches of \([0-9]*\) calls (the timed ones: 10).*/\1/p')
ok "graph timing, short batches: the energy batch replays longer ones (note: ${replays:-none})" \
  test "${replays:-0}" -gt 10
is "$(q '.results[0]|"\(.status) \(.batch_calls)"' "$tmp/replays.json")" "ok 10" \
  "... while the row's time is still that of the timed batches of 10"
ok "... and its energy covers whole replays: calls a multiple of them" \
  "$JQ" -e --argjson m "${replays:-1}" '.results[0]|(.energy_calls % $m == 0) and .energy_calls > 0' \
  "$tmp/replays.json"

# The counter missing: power sampled, labelled.
printf 'power_w = 150\nenergy = missing\n' >"$tmp/script"
write sampled timing=launch
run -c "$tmp/sampled.ini" -o "$tmp/sampled.json" 2>"$tmp/err" || cat "$tmp/err"
is "$(q '.results[0]|.energy_source+" "+(.power_w|tostring)' "$tmp/sampled.json")" "sampled 150" \
  "no energy counter: power sampled during the calls, labelled sampled"
ok "... and the note says so" "$JQ" -e '.results[0].energy_note|test("power samples")' "$tmp/sampled.json"

# Throttled for power during the calls.
printf 'power_w = 700\nthrottle = 0x4\nenergy_period_ms = 0\n' >"$tmp/script"
write hot timing=launch
run -c "$tmp/hot.ini" -o "$tmp/hot.json" >/dev/null 2>&1
is "$(q '.results[0]|"\(.throttled) \(.throttle_reasons)"' "$tmp/hot.json")" "true sw_power_cap" \
  "a power cap seen during the calls: throttled, with the reason"
run -c "$tmp/hot.ini" >"$tmp/hot.txt" 2>&1
ok "... and the table's notes say so" grep -q 'throttled during the calls: sw_power_cap' "$tmp/hot.txt"
run -c "$tmp/hot.ini" --format md >"$tmp/hot.md" 2>&1
ok "... as do Markdown's, beside the J/GB and W columns" \
  bash -c "grep -q 'throttled: sw_power_cap' '$tmp/hot.md' && grep -q '| J/GB | W |' '$tmp/hot.md'"
run -c "$tmp/hot.ini" --format csv >"$tmp/hot.csv" 2>&1
ok "CSV has the energy columns" \
  grep -q 'energy_source,energy_j,j_per_gb,power_w,sm_clock_min_mhz,sm_clock_max_mhz,energy_note' "$tmp/hot.csv"

# Read back: the JSON reader keeps every energy field.
"$rb" report "$tmp/coarse.json" --format json -o "$tmp/again.json" 2>"$tmp/err" || cat "$tmp/err"
fields='[.results[0]|.energy_source,.energy_note,.energy_j,.j_per_gb,.power_w,.energy_calls,.energy_s,.sm_clock_min_mhz,.sm_clock_max_mhz]'
is "$("$JQ" -c "$fields" "$tmp/again.json")" "$("$JQ" -c "$fields" "$tmp/coarse.json")" \
  "the energy fields survive a JSON round trip"

# Two ranks on the stand-in device: the sum, and each rank's share.
printf 'power_w = 100\nenergy_period_ms = 0\n' >"$tmp/script"
write ranks timing=launch
sed -i 's/^n = 64K/n = 64K\nranks = 2/; s/^plugin = standin-sum/plugin = standin-exchange/' "$tmp/ranks.ini"
run -c "$tmp/ranks.ini" -o "$tmp/ranks.json" 2>"$tmp/err" || cat "$tmp/err"
ok "two ranks: two shares, and energy_j their sum" "$JQ" -e \
  '.results[0]|.ranks==2 and (.rank_energy_j|length)==2 and ((.rank_energy_j|add) - .energy_j | fabs) < 1e-12 * .energy_j + 1e-15' \
  "$tmp/ranks.json"
ok "... and power the sum of two devices at 100 W (within 10%)" \
  within "$(q '.results[0].power_w' "$tmp/ranks.json")" 200 0.1

# No NVML: none, with the reason; the cpu backend without RAPL: the same.
REDBENCH_NVML_LIBRARY=$tmp/none.so run -c "$tmp/hot.ini" -o "$tmp/nonvml.json" 2>/dev/null
is "$(q '.results[0]|.energy_source+" "+(.energy_j|tostring)' "$tmp/nonvml.json")" "none null" \
  "NVML absent: energy_source none, no energy"
ok "... with the reason" "$JQ" -e '.results[0].energy_note|test("NVML not loaded")' "$tmp/nonvml.json"
{ experiment_header cpu energy=on; printf '[data]\nop = sum\ndtype = i32\nn = 4K\n[run c]\nplugin = cpu/serial\n'; } >"$tmp/cpu.ini"
REDBENCH_POWERCAP_DIR=$tmp/no-powercap "$rb" -q -c "$tmp/cpu.ini" -o "$tmp/cpu.json" 2>/dev/null
ok "the cpu backend without RAPL: none, with the reason" "$JQ" -e \
  '.results[0]|.energy_source=="none" and (.energy_note|test("RAPL absent"))' "$tmp/cpu.json"
# tune's objective = energy: candidates compete by energy per call, which
# needs the energy measured; without it no candidate can win.
printf 'power_w = 200\nenergy_period_ms = 0\n' >"$tmp/script"
{ experiment_header tune objective=energy timing=launch
  printf '[data]\nop = sum\ndtype = i32\nn = 64K\n[run s]\nplugin = standin-exchange\nresult = value, vector\n'; } >"$tmp/tune.ini"
"$rb" tune -p "$dir" -c "$tmp/tune.ini" -o "$tmp/tuned.ini" >"$tmp/tune.out" 2>&1
ok "tune, objective = energy: a winner by energy per call" grep -q '1 winners written' "$tmp/tune.out"
REDBENCH_NVML_LIBRARY=$tmp/none.so "$rb" tune -p "$dir" -c "$tmp/tune.ini" -o "$tmp/tuned2.ini" >"$tmp/tune2.out" 2>&1
ok "... and none where no energy can be measured" grep -q '0 winners written' "$tmp/tune2.out"
done_testing
