#!/bin/bash
# tests/run/test_limits.sh: the limits of sizes. n = 0 is an error in the
# experiment file; n = 1 runs; an input larger than the device's memory is
# `unsupported` before anything is allocated ("needs X GiB, DEVICE device
# has Y GiB"); a shape counts beside its input its ragged rows' offsets
# (8 bytes a row, on the device too) and its answers' references and
# buffers (on the host: 40 bytes an answer for a sum with probes), and is
# refused before allocating the same way, saying what the bytes are for;
# an allocation the host refuses is `unsupported` too (a run
# of such rows alone measured nothing: exit 3); and more
# than 2^32 elements (past 32-bit indices) run and verify on the cpu pack
# when the machine has the memory (about 4 GiB, 30 s; REDBENCH_SKIP_LARGE=1
# skips it).
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
dir=$top_builddir/tests/run/crashers/dir
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 21

run_ini() { printf '[experiment]\nrounds = 1\nwarmup = 0\nmin_time = 0\nmin_reps = 1\nmax_reps = 2\n%s\n' "$1" >"$tmp/t.ini"; }
field() { "$JQ" -r ".results[0].$1" "$tmp/out.json"; }

# n = 0
run_ini $'[data]\nn = 0\n[run a]\nplugin = serial'
"$rb" -q --dry-run -c "$tmp/t.ini" >/dev/null 2>"$tmp/err"; is "$?" 2 "n = 0: --dry-run exits 2"
ok "... naming the file and line, and what is valid" grep -q "t.ini:8: error: n = 0 is out of range; valid: 1 to 1T" "$tmp/err"

# n = 1: the smallest input.
run_ini $'[data]\nn = 1\ndtype = i64\n[run a]\nplugin = serial'
"$rb" -q -c "$tmp/t.ini" --format json >"$tmp/out.json" 2>"$tmp/err"; is "$?" 0 "n = 1 runs"
is "$(field status)" ok "... and is ok"

# 2^40 doubles (8 TiB): more than the cpu device (host memory) has.
run_ini $'[data]\nn = 1T\ndtype = f64\n[run a]\nplugin = serial'
"$rb" -q --dry-run -c "$tmp/t.ini" >/dev/null 2>&1; is "$?" 0 "n = 1T is a valid size (--dry-run)"
SECONDS=0
"$rb" -q -c "$tmp/t.ini" --format json >"$tmp/out.json" 2>"$tmp/err"; is "$?" 3 "n = 1T f64 on the cpu: exit 3 (unsupported is not a failure, but nothing was measured)"
is "$(field status)" unsupported "... the row is unsupported"
case "$(field reason)" in "needs 8192.0 GiB, cpu device has "*" GiB") r=1;; *) r=0;; esac
is "$r" 1 "... needs 8192.0 GiB, cpu device has Y GiB"
ok "... decided before allocating anything (took ${SECONDS} s; under 60, 29 seen with the sanitizers beside other tests)" test "$SECONDS" -lt 60

# A device with 1 GiB (the fragile test backend) and a 2 GiB input.
if [ -d "$dir" ]; then
  run_ini $'[data]\nn = 512M\ndtype = i32\n[run a]\nplugin = fragile-sum\nfault = none'
  "$rb" -q -c "$tmp/t.ini" --plugin-path "$dir" --format json >"$tmp/out.json" 2>"$tmp/err"
  is "$?" 3 "2 GiB of input on a 1 GiB device: exit 3 (nothing was measured)"
  is "$(field status) $(field reason)" "unsupported needs 2.0 GiB, fragile device has 1.0 GiB" "... unsupported: needs 2.0 GiB, fragile device has 1.0 GiB"
else
  skip "test plugins not built"; skip "test plugins not built"
fi

# A shape's offsets: 96M ragged rows of i32 around n = 1, 384 MiB of input
# and 768 MiB of offsets, on the 1 GiB device (shaped-fragile: the shaped
# control plugin on the fragile backend).
fragile_shaped=$top_builddir/tests/plugins/shaped-fragile-dir
if [ -d "$fragile_shaped" ]; then
  run_ini $'[data]\nn = 1\nrows = 96M\nlengths = ragged\ndtype = i32\n[run a]\nplugin = shaped-fragile'
  SECONDS=0
  "$rb" -q -c "$tmp/t.ini" --plugin-path "$fragile_shaped" --format json >"$tmp/out.json" 2>"$tmp/err"
  is "$?" 3 "96M ragged rows: input and offsets past a 1 GiB device: exit 3"
  is "$(field status) $(field reason)" "unsupported needs 1.1 GiB (0.4 GiB of input, 0.8 GiB of row offsets), fragile device has 1.0 GiB" \
    "... unsupported, counting the rows' offsets beside the input (took ${SECONDS} s)"
else
  skip "test plugins not built"; skip "test plugins not built"
fi

# A shape's answers: 2G rows of one i32 each, 8 GiB of input and 80 GiB for
# the references and answers (sum, with probes), more than the cpu device
# (host memory) has where it has less than 96 GiB.
memory=$(awk '/^MemTotal:/ {print int($2 / 1048576)}' /proc/meminfo 2>/dev/null)
if [ "${memory:-0}" -ge 96 ] || [ "${memory:-0}" -eq 0 ]; then
  skip "a shape's answers past the host's memory: this machine has ${memory:-?} GiB, 96 or more"
  skip "a shape's answers past the host's memory: this machine has ${memory:-?} GiB, 96 or more"
else
  run_ini $'[data]\nn = 1\nrows = 2G\ndtype = i32\n[run a]\nplugin = serial'
  SECONDS=0
  "$rb" -q -c "$tmp/t.ini" --format json >"$tmp/out.json" 2>"$tmp/err"
  is "$?" 3 "2G rows of one i32: their answers past the host's memory: exit 3"
  case "$(field status) $(field reason)" in
    "unsupported needs 88.0 GiB (8.0 GiB of input, 80.0 GiB for the references and answers of 2147483648 rows), cpu device has "*" GiB") r=1;;
    *) r=0;;
  esac
  is "$r" 1 "... unsupported before allocating, counting the answers beside the input (took ${SECONDS} s): $(field reason)"
fi

# The host refuses the allocation (an address-space limit): unsupported, no crash.
# Sanitizers reserve terabytes of address space, so this is left to plain builds.
if sanitized; then
  skip "address-space limit: not under sanitizers"; skip "address-space limit: not under sanitizers"
else
  run_ini $'[data]\nn = 4G\ndtype = f32\n[run a]\nplugin = serial'
  (ulimit -v 4000000; "$rb" -q -c "$tmp/t.ini" --format json >"$tmp/out.json" 2>"$tmp/err")
  is "$?" 3 "16 GiB of input under a 4 GB address-space limit: exit 3 (nothing was measured)"
  case "$(field status) $(field reason)" in "unsupported needs 16.0 GiB"*) r=1;; *) r=0;; esac
  is "$r" 1 "... unsupported: needs 16.0 GiB ($(field reason))"
fi

# More than 2^32 elements: 2^32 + 1024 bytes, histogram on the cpu pack.
avail=$(awk '/^MemAvailable:/ {print int($2 / 1048576)}' /proc/meminfo 2>/dev/null)
if [ -n "${REDBENCH_SKIP_LARGE:-}" ]; then
  for k in 1 2 3 4; do skip "more than 2^32 elements: REDBENCH_SKIP_LARGE is set"; done
elif [ "${avail:-0}" -lt 8 ]; then
  for k in 1 2 3 4; do skip "more than 2^32 elements: needs 8 GiB of available memory, ${avail:-?} here"; done
else
  run_ini $'[data]\nop = histogram\ndtype = u8\nn = 4194305K\ndistribution = ones\n[run a]\nplugin = threads'
  "$rb" -q -c "$tmp/t.ini" --format json >"$tmp/out.json" 2>"$tmp/err"; is "$?" 0 "2^32 + 1024 elements run (exit 0)"
  is "$(field n)" 4294968320 "... n is 4294968320"
  is "$(field status)" ok "... and the result verifies"
  is "$(field result)" "4294968320 counted in 256 bins" "... every element was counted"
fi
done_testing
