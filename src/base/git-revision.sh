#!/bin/sh
# src/base/git-revision.sh SRCDIR: prints `git describe --always --dirty` of the
# source tree, or "unknown" when it is not a git checkout (a release tarball)
# or git is missing. git describe --dirty refreshes the index it reads; it
# reads a copy here, so that a build never holds the checkout's index lock.
srcdir=${1:-.}
rev=
if test -e "$srcdir/.git" &&
   index=$(git -C "$srcdir" rev-parse --path-format=absolute --git-path index 2>/dev/null) &&
   test -f "$index"; then
    copy=$(mktemp) || exit 1
    if cp "$index" "$copy"; then
        rev=$(GIT_INDEX_FILE=$copy git -C "$srcdir" describe --always --dirty 2>/dev/null)
    fi
    rm -f "$copy"
fi
echo "${rev:-unknown}"
