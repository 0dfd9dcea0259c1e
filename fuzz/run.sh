#!/bin/bash
# fuzz/run.sh: builds the fuzzing harnesses (fuzz_experiment.c,
# fuzz_descriptor.c, fuzz_results.c) with clang's libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer, and runs them at once for
# SECONDS (default 60), starting from a seed corpus made of the experiment
# files in conf/ and tests/ (the results files of tests/*/fixtures/ for
# fuzz_results) and the inputs in fuzz/regressions/.
#
#     fuzz/run.sh [SECONDS]      run from a configured build folder
#                                (config.h is read there), or set BUILD=DIR
#
# Prints one TAP line per harness and exits 1 when one found a bug. The input
# that did is kept (its path is printed): add it to fuzz/regressions/HARNESS/
# once fixed, where `make check` replays it from then on.
set -u
seconds=${1:-60}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$(pwd)}
work=${FUZZ_WORK:-$build/fuzz-work}
CLANG=${CLANG:-clang}
[ -f "$build/config.h" ] || { echo "fuzz: no config.h in $build: run from a configured build folder or set BUILD"; exit 2; }
command -v "$CLANG" >/dev/null || { echo "fuzz: $CLANG not found"; exit 2; }
mkdir -p "$work"

flags="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
  -I$srcdir/sdk -I$srcdir/src -I$build/src -I$build -DRB_PLUGIN_DIR=\"/nonexistent\" $(pkg-config --cflags inih sqlite3)"
libs="$(pkg-config --libs inih sqlite3) -ldl -lm -lpthread"
core=$(ls "$srcdir"/src/*/*.c | grep -vE '/cli/(main|write_completion)\.c$')

# The core once, instrumented for coverage; then each harness.
rm -rf "$work/obj" "$work"/crashes-*; mkdir -p "$work/obj"
export CLANG flags work
# shellcheck disable=SC2016
printf '%s\n' $core | xargs -P "$(nproc)" -I{} sh -c \
  'd=$(dirname {}); o="$work/obj/${d##*/}_$(basename {} .c).o"; $CLANG $flags -fsanitize=fuzzer-no-link -c {} -o "$o" 2>>"$o.log" ||
   { cat "$o.log"; exit 1; }' || { echo "fuzz: building the core failed"; exit 2; }
build_one() { # build_one NAME SOURCE
  # shellcheck disable=SC2086
  $CLANG $flags -fsanitize=fuzzer "$2" "$work"/obj/*.o $libs -o "$work/$1" 2>"$work/$1.build.log" ||
    { echo "fuzz: building $1 failed:"; tail -n 30 "$work/$1.build.log"; return 1; }
}
# The three harnesses are linked side by side, as they run.
build_one fuzz_experiment "$srcdir/fuzz/fuzz_experiment.c" & b1=$!
build_one fuzz_descriptor "$srcdir/fuzz/fuzz_descriptor.c" & b2=$!
build_one fuzz_results "$srcdir/fuzz/fuzz_results.c" & b3=$!
built=0
for b in $b1 $b2 $b3; do wait "$b" || built=2; done
[ $built -eq 0 ] || exit 2
# shellcheck disable=SC2086
$CLANG -std=gnu11 -g -O1 -fPIC -shared -I"$srcdir/sdk" "$srcdir/fuzz/fuzz_plugin.c" \
  -o "$work/fuzz-plugin.so" || exit 2

# Seed corpus: every experiment file in conf/ and tests/, and the regressions.
for h in experiment descriptor; do
  mkdir -p "$work/corpus-$h"
  find "$srcdir/conf" "$srcdir/tests" -name '*.ini' -exec cp {} "$work/corpus-$h/" \; 2>/dev/null
  cp "$srcdir"/fuzz/regressions/$h/* "$work/corpus-$h/" 2>/dev/null
done
mkdir -p "$work/corpus-results"
find "$srcdir/tests" -path '*/fixtures/*' -name '*.json' -exec cp {} "$work/corpus-results/" \; 2>/dev/null
cp "$srcdir"/fuzz/regressions/results/* "$work/corpus-results/" 2>/dev/null

run_one() { # run_one HARNESS
  local h=$1 dict=
  [ -f "$srcdir/fuzz/$h.dict" ] && dict=-dict=$srcdir/fuzz/$h.dict
  mkdir -p "$work/crashes-$h"
  # shellcheck disable=SC2086
  (cd "$work/crashes-$h" && "$work/fuzz_$h" -max_total_time="$seconds" -max_len=4096 \
     -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 $dict \
     "$work/corpus-$h") >"$work/$h.log" 2>&1
}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
run_one experiment & p1=$!
run_one descriptor & p2=$!
run_one results & p3=$!
wait $p1; s1=$?
wait $p2; s2=$?
wait $p3; s3=$?

echo "1..3"
failed=0; n=0
for h in experiment descriptor results; do
  n=$((n + 1)); status=$s1; [ $h = descriptor ] && status=$s2; [ $h = results ] && status=$s3
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log")
  if [ "$status" -eq 0 ]; then
    echo "ok $n - fuzz_$h: ${runs:-?} inputs in ${seconds} s, no bug found"
  else
    failed=1
    echo "not ok $n - fuzz_$h found a bug (exit $status)"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$work/$h.log" | head -n 10 | sed 's/^/#   /'
    for f in "$work/crashes-$h"/*; do
      [ -f "$f" ] && echo "#   input: $f (replay: $work/fuzz_$h $f)"
    done
  fi
done
exit $failed
