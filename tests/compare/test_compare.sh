#!/bin/bash
# tests/compare/test_compare.sh: `redbench compare` end to end: a real cpu-pack run
# against itself, against copies with every time doubled, halved or 10%
# longer (the threshold), files made by hand with known samples (too few,
# noisy, failed), configurations in one file only, parameters written in
# another order, different devices, the four formats, and bad usage; an A/B
# across a parameter's values (--ignore, --match run) and a plugin whose
# version and file changed. Then
# files measured differently (tests/compare/fixtures: launch against graph
# timing, a hot against a cold cache, a file that does not say): the
# warning, the note in every format, and the exit status left as the
# verdicts make it.
. "$top_srcdir/tests/lib.sh"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 115

cat >"$tmp/small.ini" <<'INI'
[experiment]
name = compare
min_time = 0.01
[data]
op = sum
dtype = f32, i32
n = 1K, 64K
[run plain]
plugin = serial
[run wide]
plugin = unrolled
lanes = 4
INI
cd "$top_builddir" || exit 1
ok "a real run to compare" "$rb" -q -c "$tmp/small.ini" -o "$tmp/a.json" --format json
rows=$("$JQ" '.results|length' "$tmp/a.json")

# scale FACTOR IN OUT: every time of every row multiplied by FACTOR
scale() { "$JQ" --argjson f "$1" '.results |= map(.samples_ns |= map(. * $f) |
  .median_ns *= $f | .min_ns *= $f | .max_ns *= $f | .mean_ns *= $f)' "$2" >"$3"; }
scale 2 "$tmp/a.json" "$tmp/slow.json"
scale 0.5 "$tmp/a.json" "$tmp/fast.json"
scale 1.1 "$tmp/a.json" "$tmp/tenth.json"

# verdicts FILE: the verdicts of a JSON comparison, each once, sorted
verdicts() { "$JQ" -r '[.comparisons[].verdict]|unique|join(",")' "$1"; }
# status: the exit status of a command, its output kept in $tmp/out
status() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }

# A real run's samples are as noisy as the machine was: under load some
# intervals are wider than 5%, and those verdicts are rightly unclear. So
# these checks allow unclear where a quiet machine says same, slower or
# faster; the files made by hand below have known answers.
is "$(status "$rb" compare "$tmp/a.json" "$tmp/a.json")" 0 "A against A exits 0"
ok "and says same" grep -Eq "^ *[0-9]+ .* same$" "$tmp/out"
"$rb" compare --format json "$tmp/a.json" "$tmp/a.json" >"$tmp/aa.json"
ok "A against A: every verdict same (or unclear)" grep -Eqx "same|same,unclear" <(verdicts "$tmp/aa.json")
is "$("$JQ" '[.comparisons[]|.ratio==1 and .p_value==1]|all' "$tmp/aa.json")" true \
   "A against A: ratio 1 and p = 1 everywhere"

is "$(status "$rb" compare "$tmp/a.json" "$tmp/slow.json")" 1 "every time doubled exits 1"
ok "and says slower" grep -q "slower" "$tmp/out"
ok "and names the regression" grep -Eq "regression: [0-9]+ configurations? slower by more than 5%" "$tmp/out"
"$rb" compare --format json "$tmp/a.json" "$tmp/slow.json" >"$tmp/as.json"
ok "every time doubled: every verdict slower (or unclear)" grep -Eqx "slower|slower,unclear" <(verdicts "$tmp/as.json")
is "$("$JQ" '[.comparisons[]|(.ratio-2|fabs)<1e-9 and .ci_low<=2 and .ci_high>=2]|all' "$tmp/as.json")" \
   true "every time doubled: ratio 2 inside its interval"

is "$(status "$rb" compare "$tmp/a.json" "$tmp/fast.json")" 0 "every time halved exits 0"
"$rb" compare --format json "$tmp/a.json" "$tmp/fast.json" >"$tmp/af.json"
ok "every time halved: every verdict faster (or unclear)" grep -Eqx "faster|faster,unclear" <(verdicts "$tmp/af.json")

is "$(status "$rb" compare "$tmp/a.json" "$tmp/tenth.json")" 1 "10% slower, default threshold 5%: exits 1"
is "$(status "$rb" compare --threshold 20 "$tmp/a.json" "$tmp/tenth.json")" 0 "10% slower, --threshold 20: exits 0"
"$rb" compare --threshold=20% --format=json "$tmp/a.json" "$tmp/tenth.json" >"$tmp/at.json"
ok "10% slower, --threshold=20%: every verdict same (or unclear)" grep -Eqx "same|same,unclear" <(verdicts "$tmp/at.json")
is "$("$JQ" .threshold "$tmp/at.json")" 0.2 "the threshold is recorded"

# Files made by hand: samples with known answers.
# file NAME DEVICE ROWS...: a result file on device DEVICE with the rows given
file() { local name=$1 device=$2; shift 2
  { printf '{"tool": "redbench", "version": "0.1.0", "devices": [{"backend": "cuda", "device": 0, "name": "%s", "uuid": "GPU-%s"}],\n "results": [' "$device" "$device"
    local sep=""; for r in "$@"; do printf '%s\n  %s' "$sep" "$r"; sep=","; done
    printf '\n]}\n'; } >"$tmp/$name"; }
# row RUN STATUS SAMPLES [PARAMS]
row() { printf '{"run": "%s", "plugin": "tree", "params": %s, "op": "sum", "dtype": "f32", "n": 1024, "distribution": "uniform", "device": 0, "status": "%s", "reason": "%s", "samples_ns": [%s]}' \
  "$1" "${4:-{\"block\": 256, \"variant\": \"shuffle\"\}}" "$2" "$([ "$2" = ok ] || echo "kernel crashed")" "$3"; }
steady="100,101,99,100,102,98,100,101,99,100"
file old.json A "$(row steady ok "$steady")" "$(row same ok "$steady")" "$(row tenth ok "$steady")" \
  "$(row few ok 100,101,99)" "$(row noisy ok 100,60,140,90,180,70,120)" \
  "$(row broken ok "$steady")" "$(row gone ok "$steady")"
file new.json A "$(row steady ok 200,202,198,200,204,196,200,202,198,200 '{"variant": "shuffle", "block": 256}')" \
  "$(row same ok 100,100,101,99,100,98,102,100,99,101)" \
  "$(row tenth ok 110,111.1,108.9,110,112.2,107.8,110,111.1,108.9,110)" \
  "$(row few ok 300,301,299)" "$(row noisy ok 110,65,150,95,190,60,130)" "$(row broken failed "")" \
  "$(row added ok "$steady")"
is "$(status "$rb" compare --format json "$tmp/old.json" "$tmp/new.json")" 1 "made by hand: some slower, exits 1"
cp "$tmp/out" "$tmp/hand.json"
v() { "$JQ" -r ".comparisons[]|select(.run==\"$1\")|.$2" "${3:-$tmp/hand.json}"; }
is "$(v steady verdict)" slower "2x slower, parameters in another order: matched, slower"
is "$(v same verdict)" same "the same times in another order: same"
is "$(v tenth verdict)" slower "10% slower, threshold 5%: slower"
"$rb" compare --format json --threshold 20 "$tmp/old.json" "$tmp/new.json" >"$tmp/hand20.json"
is "$(v tenth verdict "$tmp/hand20.json")" same "10% slower, threshold 20%: same"
is "$(v few verdict)" unclear "3 samples each: unclear"
ok "  because there are too few" bash -c "'$JQ' -r '.comparisons[]|select(.run==\"few\")|.why' '$tmp/hand.json' | grep -q 'too few samples'"
is "$(v few ratio)" 3 "  the ratio is still shown"
is "$(v noisy verdict)" unclear "noisy, overlapping samples: unclear"
is "$(v broken verdict)" unclear "a configuration that failed: unclear"
is "$(v broken why)" "new is failed: kernel crashed" "  saying why"
is "$("$JQ" -r '[.only_in_old[].run, .only_in_new[].run]|join(",")' "$tmp/hand.json")" "gone,added" \
   "configurations in one file only are listed"
"$rb" compare "$tmp/old.json" "$tmp/new.json" >"$tmp/hand.txt"
ok "the table lists what is only in the old file" grep -A1 "^only in $tmp/old.json:" "$tmp/hand.txt"
ok "the table says why a verdict is unclear" grep -q "#4 few tree block=256 variant=shuffle sum f32 n=1K uniform: too few samples" "$tmp/hand.txt"

file other.json B "$(row steady ok "$steady")"
is "$(status "$rb" compare "$tmp/old.json" "$tmp/other.json")" 2 "different devices: refused with exit 2"
ok "  saying what differs" grep -q "cuda device 0: name 'A' -> 'B', uuid GPU-A -> GPU-B" "$tmp/err"
ok "  and how to compare anyway" grep -q -- "--allow-device-change" "$tmp/err"
is "$(status "$rb" compare --allow-device-change "$tmp/old.json" "$tmp/other.json")" 0 \
   "--allow-device-change compares them"
ok "  and says what differs" grep -q "devices differ (compared anyway): cuda device 0: name 'A' -> 'B'" "$tmp/out"

"$rb" compare --format csv "$tmp/old.json" "$tmp/new.json" >"$tmp/hand.csv"
is "$(head -n 1 "$tmp/hand.csv" | cut -d, -f1-3,15,19)" "in,run,plugin,ratio,verdict" "CSV header"
is "$(grep -c . "$tmp/hand.csv")" 9 "CSV: a header, 6 pairs and 2 one-file rows"
"$rb" compare --format md "$tmp/old.json" "$tmp/new.json" >"$tmp/hand.md"
is "$(grep -c '^| [0-9]' "$tmp/hand.md")" 6 "Markdown: one table line per pair"

is "$(status "$rb" compare "$tmp/old.json")" 2 "one file only: usage error"
is "$(status "$rb" compare --bogus "$tmp/old.json" "$tmp/new.json")" 2 "unknown option: usage error"
is "$(status "$rb" compare --threshold lots "$tmp/old.json" "$tmp/new.json")" 2 "bad threshold: usage error"
is "$(status "$rb" compare --format xml "$tmp/old.json" "$tmp/new.json")" 2 "unknown format: usage error"
is "$(status "$rb" compare "$tmp/old.json" "$tmp/none.json")" 2 "missing file: exit 2"
printf '{"results": [\n  {"run": "x",\n  ]}\n' >"$tmp/broken.json"
is "$(status "$rb" compare "$tmp/old.json" "$tmp/broken.json")" 2 "invalid JSON: exit 2"
ok "  naming the file and line" grep -q "broken.json:3:" "$tmp/err"
printf '{"tool": "redbench", "results": [\n {"run": "x", "plugin": "tree", "op": "sum", "dtype": "f32", "n": 4, "status": "ok",\n  "samples_ns": [1, "two"]}]}\n' >"$tmp/bad-sample.json"
is "$(status "$rb" compare "$tmp/old.json" "$tmp/bad-sample.json")" 2 "a sample that is not a number: exit 2"

# Measured differently. launch.json and graph.json hold the same three
# configurations: `small` (7 us launch-timed, 1.5 us graph-timed) and
# `large` (2x slower in graph.json) differ in timing; `steady` is
# launch-timed in both.
fx=$top_srcdir/tests/compare/fixtures
is "$(status "$rb" compare "$fx/launch.json" "$fx/graph.json")" 1 \
   "launch against graph timing: the slower verdict still exits 1"
cp "$tmp/out" "$tmp/modes.txt"; cp "$tmp/err" "$tmp/modes.err"
is "$(sed -n 1p "$tmp/modes.err")" \
   "redbench: warning: timing differs in 2 configurations (old: launch, new: graph); their samples measure different things:" \
   "  a warning names the setting and both modes"
is "$(sed -n '2,3p' "$tmp/modes.err" | tr '\n' '|')" \
   "  #1 small tree block=256 sum f32 n=1K uniform|  #2 large tree block=256 sum f32 n=1M uniform|" \
   "  and the configurations, by number and name"
is "$(sed -n 4p "$tmp/modes.err")" \
   "redbench: warning: those 2 verdicts are kept, marked in the report, and count toward the exit status as usual; compare files measured the same way" \
   "  and says what happens to their verdicts"
is "$(wc -l <"$tmp/modes.err")" 4 "  nothing else on standard error (steady is not named)"
ok "  the table has a note column" grep -Eq "^#  run .* verdict  note$" "$tmp/modes.txt"
ok "  small: faster, noted" grep -Eq "^1  small .* faster   timing launch -> graph$" "$tmp/modes.txt"
ok "  large: slower, noted" grep -Eq "^2  large .* slower   timing launch -> graph$" "$tmp/modes.txt"
ok "  steady: same, no note" grep -Eq "^3  steady .* same$" "$tmp/modes.txt"
ok "  the summary counts them" grep -qx "measured differently: 2 configurations (see note); their verdicts compare different measurements" "$tmp/modes.txt"
ok "  the regression line says one was measured differently" grep -qx "regression: 1 configuration slower by more than 5% (1 measured differently)" "$tmp/modes.txt"
is "$(status "$rb" compare --threshold 150 "$fx/launch.json" "$fx/graph.json")" 0 \
   "  --threshold 150: nothing slower beyond it, exits 0"
ok "  and still warns" grep -q "warning: timing differs in 2 configurations" "$tmp/err"

"$rb" compare --format json "$fx/launch.json" "$fx/graph.json" >"$tmp/modes.json" 2>/dev/null
is "$("$JQ" -r '[.comparisons[]|.run+":"+.verdict+":"+(.measured_differently|join(" "))]|join(",")' "$tmp/modes.json")" \
   "small:faster:timing,large:slower:timing,steady:same:" "JSON: verdicts kept, each pair says what differs"
is "$("$JQ" -r '.comparisons[0]|[.old_timing,.new_timing,.old_cache,.new_cache]|join(",")' "$tmp/modes.json")" \
   "launch,graph,hot,hot" "JSON: both sides' timing and cache"
is "$("$JQ" .summary.measured_differently "$tmp/modes.json")" 2 "JSON: the summary counts them"
"$rb" compare --format csv "$fx/launch.json" "$fx/graph.json" >"$tmp/modes.csv" 2>/dev/null
is "$(head -n 1 "$tmp/modes.csv" | cut -d, -f21-)" "old_timing,new_timing,old_cache,new_cache,measured_differently" \
   "CSV: the settings appended to the header"
is "$(sed -n 2p "$tmp/modes.csv" | cut -d, -f1,2,19,21-)" "both,small,faster,launch,graph,hot,hot,timing" \
   "CSV: a pair timed differently"
is "$(sed -n 4p "$tmp/modes.csv" | cut -d, -f1,2,19,21-)" "both,steady,same,launch,launch,hot,hot," \
   "CSV: a pair timed the same way"
"$rb" compare --format md "$fx/launch.json" "$fx/graph.json" >"$tmp/modes.md" 2>/dev/null
ok "Markdown: a note cell" grep -q '^| 1 | small | .* | faster | timing launch -> graph |$' "$tmp/modes.md"
ok "Markdown: the summary counts them" grep -qx '\*\*Measured differently:\*\* 2 configurations (see the note column); their verdicts compare different measurements.' "$tmp/modes.md"

# cold.json: the same samples, cache = cold in its experiment (its rows do
# not say), so every pair differs in cache and none in timing.
is "$(status "$rb" compare "$fx/launch.json" "$fx/cold.json")" 0 "hot against cold cache: all same, exits 0"
is "$(sed -n 1p "$tmp/err")" \
   "redbench: warning: cache differs in 3 configurations (old: hot, new: cold); their samples measure different things:" \
   "  a warning names the cache regimes, taken from the experiment where rows do not say"
ok "  every row noted" test "$(grep -c 'same     cache hot -> cold$' "$tmp/out")" -eq 3

# Both settings differ; each setting gets its own warning.
"$JQ" '.experiment.settings.cache = "cold" | .results[].cache = "cold"' "$fx/graph.json" >"$tmp/graph-cold.json"
"$rb" compare "$fx/launch.json" "$tmp/graph-cold.json" >"$tmp/out" 2>"$tmp/err"
ok "timing and cache both differ: one note with both" grep -Eq "^1  small .* faster   timing launch -> graph; cache hot -> cold$" "$tmp/out"
ok "  and a warning for the cache" grep -qx "redbench: warning: cache differs in 3 configurations (old: hot, new: cold); their samples measure different things:" "$tmp/err"
"$JQ" '.results[0].cache = "cold"' "$fx/graph.json" >"$tmp/row-cold.json"
is "$(status "$rb" compare "$fx/launch.json" "$tmp/row-cold.json")" 2 "a row whose cache is not its run's: exit 2"
ok "  naming the file, the row and both regimes" grep -q "row-cold.json:[0-9]*: error: results\[0\]: \"cache\": is cold, but the experiment's settings say hot" "$tmp/err"

# unlabelled.json does not say how it was measured: nothing to warn about.
is "$(status "$rb" compare "$fx/launch.json" "$fx/unlabelled.json")" 0 "a file that does not say how it was timed: exits 0"
is "$(wc -c <"$tmp/err")" 0 "  no warning"
ok "  no note column" bash -c "! grep -q 'note' '$tmp/out'"

# More configurations than a warning names: the real run, relabelled.
"$JQ" '.results |= map(.timing = "graph")' "$tmp/a.json" >"$tmp/a-graph.json"
"$rb" compare "$tmp/a.json" "$tmp/a-graph.json" >/dev/null 2>"$tmp/err"
is "$(grep -c '^  #' "$tmp/err")" 5 "$rows configurations timed differently: five are named"
is "$(grep '^  and ' "$tmp/err")" "  and $((rows - 5)) more" "  and the rest counted"
# The gate: statuses, missing and common configurations, few samples, many
# configurations.
file gate-old.json A "$(row keep ok "$steady")" "$(row wrong ok "$steady")" "$(row unsup ok "$steady")" \
  "$(row was-failed failed "")" "$(row gone ok "$steady")"
file gate-new.json A "$(row keep ok "$steady")" \
  "$(printf '%s' "$(row wrong ok "$steady")" | sed 's/"status": "ok", "reason": ""/"status": "wrong", "reason": "off by 3 ulp"/')" \
  "$(row unsup unsupported "")" "$(row was-failed ok "$steady")"
is "$(status "$rb" compare "$tmp/gate-old.json" "$tmp/gate-new.json")" 1 "ok became wrong or unsupported: exits 1"
ok "  one line for the wrong one" grep -qx "became wrong: #2 wrong tree block=256 variant=shuffle sum f32 n=1K uniform: off by 3 ulp" "$tmp/out"
ok "  one line for the unsupported one" grep -q "^became unsupported: #3 unsup " "$tmp/out"
ok "  failed that became ok is no regression" bash -c "! grep -q 'became ok' '$tmp/out'"
ok "  the regression counted" grep -qx "regression: 2 configurations became wrong, failed or unsupported" "$tmp/out"
file gate-ok.json A "$(row keep ok "$steady")" "$(row wrong ok "$steady")"
is "$(status "$rb" compare "$tmp/gate-ok.json" "$tmp/gate-ok.json")" 0 "nothing became worse: exits 0"
file gate-less.json A "$(row keep ok "$steady")"
is "$(status "$rb" compare "$tmp/gate-ok.json" "$tmp/gate-less.json")" 0 "a configuration missing from new: exits 0"
is "$(status "$rb" compare --require-all "$tmp/gate-ok.json" "$tmp/gate-less.json")" 1 "  with --require-all: exits 1"
ok "  saying so" grep -qx "regression: 1 configuration of old missing from new (--require-all)" "$tmp/out"
file gate-other.json A "$(row elsewhere ok "$steady")"
is "$(status "$rb" compare "$tmp/gate-ok.json" "$tmp/gate-other.json")" 2 "no configuration in common: exits 2"
ok "  saying so" grep -q "no configuration in common" "$tmp/err"
# (Two such configurations: alone, the exact rank test's 2/252 passes
# alpha; with two, Holm's adjustment takes it past, and the large-change
# rule decides.)
file five-old.json A "$(row five ok 100,101,99,102,98)" "$(row five2 ok 100,101,99,102,98)"
file five-new.json A "$(row five ok 200,202,198,204,196)" "$(row five2 ok 200,202,198,204,196)"
is "$(status "$rb" compare "$tmp/five-old.json" "$tmp/five-new.json")" 1 "2x slower, 5 samples a side: exits 1"
"$rb" compare --format json "$tmp/five-old.json" "$tmp/five-new.json" >"$tmp/five.json"
ok "  with the right reason" grep -q "2x slower (at least 1.5x) and all 5 new samples above the old median" "$tmp/five.json"
"$rb" compare "$tmp/five-old.json" "$tmp/five-new.json" >"$tmp/out"
ok "  saying run-to-run variation is unknown" grep -q "run-to-run variation unknown" "$tmp/out"
# 100 configurations, the same noise (+-3%, seeded) in both files.
noise() { awk -v seed="$1" 'BEGIN { srand(seed); for (c = 0; c < 100; c++) { s = "";
  for (k = 0; k < 20; k++) s = s (k ? "," : "") sprintf("%.3f", 1000 * (0.97 + 0.06 * rand()));
  print s } }'; }
mapfile -t na < <(noise 1); mapfile -t nb < <(noise 2)
ra=(); rb2=(); for c in $(seq 0 99); do ra+=("$(row c$c ok "${na[c]}")"); rb2+=("$(row c$c ok "${nb[c]}")"); done
file many-a.json A "${ra[@]}"; file many-b.json A "${rb2[@]}"
is "$(status "$rb" compare "$tmp/many-a.json" "$tmp/many-b.json")" 0 "100 configurations of the same noise: exits 0"
ok "  saying how many were compared" grep -q "^compared: 100 configurations" "$tmp/out"
"$rb" compare --format json "$tmp/many-a.json" "$tmp/many-b.json" >"$tmp/many.json"
is "$("$JQ" '.summary.slower + .summary.faster' "$tmp/many.json")" 0 "  none slower or faster"
is "$("$JQ" -r '.summary.p_adjustment' "$tmp/many.json")" holm "  p-values adjusted with Holm's method"
# A/B across parameter values: the real run with lanes=16 in place of 4,
# and serial's version and file changed.
"$JQ" '(.results[] | select(.run == "wide")) |= (.params.lanes = 16 | .params_text = "lanes=16")
  | (.results[] | select(.plugin == "serial")) |= (.plugin_version = "9.9")
  | (.plugins[] | select(.name == "serial")) |= (.version = "9.9" | .sha256 = ("ab" * 32))' \
  "$tmp/a.json" >"$tmp/ab.json"
wide=$("$JQ" '[.results[] | select(.run == "wide")] | length' "$tmp/a.json")
plain=$((rows - wide))
is "$(status "$rb" compare "$tmp/a.json" "$tmp/ab.json")" 0 "lanes=4 against lanes=16: compared where they match"
ok "  wide's rows only in one file each" grep -q "^$plain configurations in both files: .*; $wide only in old, $wide only in new" "$tmp/out"
ok "  a note that serial changed, version and SHA-256" grep -q "warning: plugin serial (version 1.1 -> 9.9, SHA-256 [0-9a-f]\{12\}\.\.\. -> abababababab\.\.\.) changed between the files" "$tmp/err"
ok "  and none for unrolled, which did not" bash -c "! grep -q 'plugin unrolled' '$tmp/err'"
is "$(status "$rb" compare --ignore lanes "$tmp/a.json" "$tmp/ab.json")" 0 "--ignore lanes: exits 0"
ok "  every configuration paired" grep -q "^$rows configurations in both files: .*; 0 only in old, 0 only in new" "$tmp/out"
ok "  the table shows both values, in the plugin's order" grep -Eq "^ *[0-9]+ +wide +unrolled +lanes=4 acc=native -> lanes=16 acc=native " "$tmp/out"
"$rb" compare --ignore lanes --format json "$tmp/a.json" "$tmp/ab.json" >"$tmp/ab-ignore.json"
is "$("$JQ" -r '[.comparisons[] | select(.run == "wide")][0] | "\(.params.lanes) \(.new_params.lanes)"' "$tmp/ab-ignore.json")" \
  "4 16" "  JSON: OLD's params, and NEW's as new_params where they differ"
"$rb" compare --ignore lanes --format csv "$tmp/a.json" "$tmp/ab.json" >"$tmp/ab-ignore.csv"
ok "  CSV: the params column shows both" grep -q '^both,wide,unrolled,lanes=4 acc=native -> lanes=16 acc=native,' "$tmp/ab-ignore.csv"
is "$(status "$rb" compare --match run "$tmp/a.json" "$tmp/ab.json")" 0 "--match run: exits 0"
ok "  every configuration paired" grep -q "^$rows configurations in both files: .*; 0 only in old, 0 only in new" "$tmp/out"
is "$(status "$rb" compare --ignore lane "$tmp/a.json" "$tmp/ab.json")" 2 "--ignore of a parameter no row has: exit 2"
ok "  naming it and the parameters there are" grep -q "ignore lane: no configuration of .* has a parameter 'lane'; their parameters: acc, lanes" "$tmp/err"
is "$(status "$rb" compare --match runs "$tmp/a.json" "$tmp/ab.json")" 2 "--match of an unknown word: exit 2"
"$JQ" '.results += [.results[] | select(.run == "wide") | .params.lanes = 8 | .params_text = "lanes=8"]' \
  "$tmp/a.json" >"$tmp/lanes48.json"
is "$(status "$rb" compare --ignore lanes "$tmp/lanes48.json" "$tmp/ab.json")" 2 "--ignore making two rows of a file one configuration: exit 2"
ok "  naming both" grep -q "lanes48.json: #[0-9]* (wide unrolled lanes=4 acc=native .*) and #[0-9]* (wide unrolled lanes=8 acc=native .*) are one configuration" "$tmp/err"
is "$(status "$rb" compare "$tmp/gate-ok.json" "$tmp/gate-other.json")" 2 "no configuration in common: exit 2"
ok "  pointing at --ignore and --match run" grep -q "no configuration in common.*--ignore PARAM or --match run" "$tmp/err"
done_testing
