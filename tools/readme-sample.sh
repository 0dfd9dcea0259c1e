#!/bin/bash
# tools/readme-sample.sh: makes README.md's sample output ("## Reading the
# output") from a real run, so that it is never edited by hand: it runs
# `./redbench -c conf/default.ini` (the cpu pack; the GPU runs are skipped
# where no GPU pack is built) in the build directory and puts its table,
# indented, between the README's two marker comments
#   <!-- readme-sample: begin -->   and   <!-- readme-sample: end -->
#
# Usage: tools/readme-sample.sh [--print] [-C BUILD_DIR] [REDBENCH_OPTION]...
#   --print       write the block to standard output; README.md is left as is
#   -C BUILD_DIR  where ./redbench and plugins/ are (default: the source tree)
# Further options go to redbench (tests/cli/test_readme.sh passes -D to
# make the run short).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src print=0
while [ $# -gt 0 ]; do
  case $1 in
    --print) print=1; shift ;;
    -C) build=$2; shift 2 ;;
    *) break ;;
  esac
done
[ -x "$build/redbench" ] || { echo "readme-sample.sh: no $build/redbench (build first, or give -C BUILD_DIR)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out" "$out.md"' EXIT
# The table goes to standard output and the notes under it to standard
# error; both are shown, as a terminal shows them. Exit status 1 (a wrong
# or failed row) is shown too: the sample is what the run says.
{
  echo "    \$ ./redbench -c conf/default.ini"
  # the build folder's plugin path as a reader's own build shows it
  (cd "$build" && ./redbench -c "$src/conf/default.ini" "$@" 2>&1) |
    sed "s|$(cd "$build" && pwd)/plugins|./plugins|g; s/^/    /; s/ *$//" || true
} >"$out"
if [ "$print" = 1 ]; then
  cat "$out"
  exit 0
fi
begin='<!-- readme-sample: begin -->' end='<!-- readme-sample: end -->'
grep -qxF "$begin" "$src/README.md" && grep -qxF "$end" "$src/README.md" ||
  { echo "readme-sample.sh: README.md lacks the lines $begin and $end" >&2; exit 2; }
awk -v begin="$begin" -v end="$end" -v block="$out" '
  $0 == begin { print; print ""; while ((getline line < block) > 0) print line; print ""; skip = 1; next }
  $0 == end { skip = 0 }
  !skip' "$src/README.md" >"$out.md"
cat "$out.md" >"$src/README.md"
echo "README.md: the sample between the markers is now the output of this run" >&2
