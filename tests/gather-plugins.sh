#!/bin/sh
# tests/gather-plugins.sh DIR MODULE.la...: the folder a test points
# --plugin-path at, made by make: DIR emptied of shared objects, then given
# the one each libtool module built (.libs/NAME.so beside NAME.la).
set -eu
dir=$1
shift
rm -f "$dir"/*.so
mkdir -p "$dir"
for la in "$@"; do
  name=${la##*/}
  cp "${la%/*}/.libs/${name%.la}.so" "$dir/"
done
