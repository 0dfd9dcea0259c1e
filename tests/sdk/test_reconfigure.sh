#!/bin/bash
# tests/sdk/test_reconfigure.sh: re-running configure with another --prefix in a
# built tree rebuilds what embeds the installed plugin folder: a build tree
# of its own is configured with prefix A (the options of this build, prefix
# aside) and redbench built; configured again with prefix B, `make redbench`
# recompiles the objects that embed the folder (src/host/paths.h changed)
# and no other, and redbench then searches B's folder. Configured again
# with B, nothing is rebuilt. The build tree is configured from a copy of
# the distributed sources (`make distdir`), so that the test works whether
# this tree was built in the source tree (as the README does) or out of it:
# autoconf refuses to configure out of tree from a configured source tree.
. "$top_srcdir/tests/lib.sh"
[ -x "$top_srcdir/configure" ] || skip_all "no configure script in the source tree"
[ -z "${REDBENCH_SKIP_REBUILDS:-}" ] || skip_all "REDBENCH_SKIP_REBUILDS is set (the build system is checked by the plain suite)"
plan 11
srcdir=$tmp/src
build=$tmp/build
mkdir -p "$build"
eval "set -- $("$top_builddir/config.status" --config)"
# The build's options, prefix aside, compiled without optimisation: what
# is tested is which objects are rebuilt, and -O0 compiles the program in a
# third of the time.
args=()
cflags=
for a in "$@"; do case $a in
  --prefix=*|--srcdir=*|--with-cuda*|--without-cuda|--with-vulkan*|--without-vulkan|--with-mpi*|--without-mpi) ;;
  CFLAGS=*) cflags=${a#CFLAGS=} ;;
  *) args+=("$a") ;;
esac; done
args+=("CFLAGS=${cflags:--g} -O0")
# No pack is built here (`make redbench`): configure need not look for
# their tools (the CUDA pack's checks run nvcc).
args+=(--without-cuda --without-vulkan --without-mpi)
# One cache file for the three: the later configures reuse the first's
# checks (the prefix is not cached), which is what the test changes.
args+=(--cache-file="$tmp/config.cache")
quietly() { # make and configure without the jobserver of the make running the tests
  (cd "$build" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$@") >"$tmp/log" 2>&1 ||
    { tail -n 20 "$tmp/log"; return 1; }
}
compiled() { grep -c '^ *CC ' "$tmp/log"; }
searched() { "$build/redbench" --help | tr '\n' ' ' | grep -o "then $1/lib/redbench\." ; }

ok "a copy of the distributed sources (make distdir)" \
  quietly "${rb_make:-make}" -C "$top_builddir" distdir distdir="$srcdir"
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
