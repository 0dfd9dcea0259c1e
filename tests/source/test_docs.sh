#!/bin/bash
# tests/source/test_docs.sh: what the documents say agrees with the source. The
# licence: LICENSE holds the Apache License 2.0, and README.md, the SDK's
# headers (an SPDX line) and the packs' manifests name it. The plugin
# guide's ABI minor is the header's (REDBENCH_ABI_MINOR); the manual page's
# compare describes the rounds' test as well as the one-run test; README
# says that plot without gnuplot draws its own SVG and exits 0; the guide
# the SDK installs cites docs/measurement.md, which is installed with it.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir"
plan 11

ok "LICENSE is the Apache License 2.0, whole" bash -c \
  "grep -q '^ *Apache License\$' LICENSE && grep -q '^ *Version 2.0, January 2004\$' LICENSE && grep -q 'END OF TERMS AND CONDITIONS' LICENSE && grep -q 'limitations under the License.' LICENSE"
ok "... named in README.md" grep -q 'Apache License 2.0 (\[LICENSE\](LICENSE))' README.md
missing=
for h in sdk/redbench/*.h sdk/redbench/*.cuh; do
  head -n 1 "$h" | grep -qx '/\* SPDX-License-Identifier: Apache-2.0 \*/' || missing="$missing $h"
done
is "$missing" "" "every SDK header opens with its SPDX line"
missing=
for m in plugins/*/pack.ini.in; do
  grep -qx '; SPDX-License-Identifier: Apache-2.0' "$m" || missing="$missing $m"
done
is "$missing" "" "every pack's manifest names the licence"
ok "... and LICENSE is distributed" grep -q '^EXTRA_DIST = .*LICENSE' Makefile.am

minor=$(sed -n 's/^#define REDBENCH_ABI_MINOR \([0-9]*\)$/\1/p' sdk/redbench/plugin.h)
major=$(sed -n 's/^#define REDBENCH_ABI_MAJOR \([0-9]*\)$/\1/p' sdk/redbench/plugin.h)
shown=$(awk '/pkg-config --variable=abi_major redbench; pkg-config --variable=abi_minor redbench/ {getline a; getline b; print a b}' docs/writing-a-plugin.md | tr -d ' ')
is "$shown" "$major$minor" "the plugin guide shows the header's ABI, $major.$minor"
ok "... and says what $major.$minor appended" bash -c "tr '\n' ' ' <docs/writing-a-plugin.md | grep -q ' $major.$minor appended'"

compare=$(awk '/^\.BI "compare "/ {on = 1} on && /^\.TP/ && seen++ {exit} on {print}' man/redbench.1.in)
ok "the manual page's compare describes the rounds' test" grep -q 'hierarchical bootstrap' <<<"$compare"
ok "... and the one-run test, exact for few samples" bash -c "grep -q 'Mann.*Whitney U test (its exact' <<<\"\$1\"" _ "$compare"

ok "README: plot without gnuplot draws its own SVG and exits 0" bash -c \
  "tr '\n' ' ' <README.md | grep -q 'Without gnuplot, redbench draws its own SVG figures (no \`.gp\` or \`.png\`), says so on standard error, and exits 0'"
ok "docs/measurement.md, which the guide cites, is installed with the SDK's docs" bash -c \
  "grep -q 'docs/measurement.md' docs/writing-a-plugin.md && grep -q '^dist_doc_DATA = .*docs/measurement.md' sdk/local.mk"
done_testing
