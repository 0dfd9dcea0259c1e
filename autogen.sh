#!/bin/sh
# autogen.sh: generate ./configure from a git checkout (needs the autotools).
set -e
missing=
for tool in autoreconf:autoconf automake:automake libtoolize:libtool pkg-config:pkg-config; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing="$missing ${tool##*:}"
done
if [ -n "$missing" ]; then
  echo "autogen.sh: missing tools; on Debian: apt-get install$missing" >&2
  exit 1
fi
cd "$(dirname "$0")"
autoreconf -fi
