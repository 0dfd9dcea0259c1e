#!/bin/bash
# tests/test_reconfigure.sh: re-running configure with another --prefix in a
# built tree rebuilds what embeds the installed plugin folder: a build tree
# of its own is configured with prefix A (the options of this build, prefix
# aside) and redbench built; configured again with prefix B, `make redbench`
# recompiles the objects that embed the folder (src/host/paths.h changed)
# and no other, and redbench then searches B's folder. Configured again
# with B, nothing is rebuilt.
. "$top_srcdir/tests/lib.sh"
[ -x "$top_srcdir/configure" ] || skip_all "no configure script in the source tree"
plan 10
srcdir=$(cd "$top_srcdir" && pwd) # configure needs it whole, not relative to here
build=$tmp/build
mkdir -p "$build"
eval "set -- $("$top_builddir/config.status" --config)"
args=()
for a in "$@"; do case $a in --prefix=*|--srcdir=*) ;; *) args+=("$a") ;; esac; done
quietly() { # make and configure without the jobserver of the make running the tests
  (cd "$build" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$@") >"$tmp/log" 2>&1 ||
    { tail -n 20 "$tmp/log"; return 1; }
}
compiled() { grep -c '^ *CC ' "$tmp/log"; }
searched() { "$build/redbench" --help | tr '\n' ' ' | grep -o "then $1/lib/redbench\." ; }

ok "configure --prefix=A" quietly "$srcdir/configure" --prefix="$tmp/A" "${args[@]}"
ok "... make redbench" quietly "${rb_make:-make}" redbench
is "$(searched "$tmp/A")" "then $tmp/A/lib/redbench." "... it searches A's plugin folder"
ok "configure --prefix=B in the built tree" quietly "$srcdir/configure" --prefix="$tmp/B" "${args[@]}"
ok "... make redbench" quietly "${rb_make:-make}" redbench
is "$(searched "$tmp/B")" "then $tmp/B/lib/redbench." "... it now searches B's plugin folder"
is "$(compiled)" 2 "... having compiled only the two objects that embed it"
ok "configure with the same prefix again" quietly "$srcdir/configure" --prefix="$tmp/B" "${args[@]}"
ok "... make redbench" quietly "${rb_make:-make}" redbench
is "$(compiled)" 0 "... compiles nothing"
done_testing
