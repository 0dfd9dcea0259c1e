#!/bin/sh
# autogen.sh: makes ./configure (needs autoconf, automake, libtool and
# pkg-config). aclocal finds redbench.m4 where pkg-config says redbench put
# it. configure.ac keeps libtool's macros in m4/ (AC_CONFIG_MACRO_DIR),
# which a fresh copy lacks: it is made first, so that aclocal does not warn.
set -e
cd "$(dirname "$0")"
macros=$(${PKG_CONFIG:-pkg-config} --variable=aclocaldir redbench) || {
  echo "autogen.sh: pkg-config finds no redbench; set PKG_CONFIG_PATH=PREFIX/lib/pkgconfig" >&2
  exit 1
}
mkdir -p m4
ACLOCAL_PATH="$macros${ACLOCAL_PATH:+:$ACLOCAL_PATH}" autoreconf -fi
