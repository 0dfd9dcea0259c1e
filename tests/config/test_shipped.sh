#!/bin/bash
# tests/config/test_shipped.sh: every experiment file the project ships
# (conf/*.ini, conf/seeds/*.ini) is read, expanded and checked against the
# plugins of this build without error (--dry-run: nothing is run). A file
# whose only errors name plugins of a pack this build lacks is skipped,
# naming them; with every pack built, as in CI, every file is checked.
# Catches what only the whole set of packs shows, such as a bare plugin
# name that two packs offer.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
set -- "$top_srcdir"/conf/*.ini "$top_srcdir"/conf/seeds/*.ini
plan $#
# shown: the dry run's exit status 0, or what it said.
shown() { [ "$status" -eq 0 ] && return 0; echo "exit status $status"; head -n 8 "$tmp/err"; return 1; }
for f in "$@"; do
  name=${f#"$top_srcdir"/}
  "$rb" -q -c "$f" --dry-run >"$tmp/out" 2>"$tmp/err"
  status=$?
  others=$(grep ': error: ' "$tmp/err" | grep -v ": error: unknown plugin '")
  missing=$(sed -n "s/.*: error: unknown plugin '\([^']*\)'.*/\1/p" "$tmp/err" | sort -u |
    paste -sd, - | sed 's/,/, /g')
  if [ "$status" -ne 0 ] && [ -z "$others" ] && [ -n "$missing" ]; then
    skip "$name: this build has no plugin $missing (its pack is not built)"
    continue
  fi
  ok "$name: read and checked against this build's plugins" shown
done
done_testing
