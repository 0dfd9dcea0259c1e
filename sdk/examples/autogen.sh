#!/bin/sh
# autogen.sh: makes ./configure (needs autoconf, automake, libtool and
# pkg-config). aclocal finds redbench.m4 where pkg-config says redbench put
# it.
set -e
cd "$(dirname "$0")"
macros=$(${PKG_CONFIG:-pkg-config} --variable=aclocaldir redbench) || {
  echo "autogen.sh: pkg-config finds no redbench; set PKG_CONFIG_PATH=PREFIX/lib/pkgconfig" >&2
  exit 1
}
ACLOCAL_PATH="$macros${ACLOCAL_PATH:+:$ACLOCAL_PATH}" autoreconf -fi
