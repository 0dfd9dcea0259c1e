#!/bin/bash
# tests/test_compare.sh: `redbench compare` end to end: a real cpu-pack run
# against itself, against copies with every time doubled, halved or 10%
# longer (the threshold), files made by hand with known samples (too few,
# noisy, failed), configurations in one file only, parameters written in
# another order, different devices, the four formats, and bad usage.
. "$top_srcdir/tests/lib.sh"
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 46

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
  { printf '{"version": "0.1.0", "devices": [{"backend": "cuda", "device": 0, "name": "%s", "uuid": "GPU-%s"}],\n "results": [' "$device" "$device"
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
printf '{"results": [\n {"run": "x", "plugin": "tree", "op": "sum", "dtype": "f32", "n": 4, "status": "ok",\n  "samples_ns": [1, "two"]}]}\n' >"$tmp/bad-sample.json"
is "$(status "$rb" compare "$tmp/old.json" "$tmp/bad-sample.json")" 2 "a sample that is not a number: exit 2"
done_testing
