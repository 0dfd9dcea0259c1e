#!/bin/sh
# bench/cccl_rebuild.sh: rebuilds the cuda pack's plugins that take a CCCL
# newer than the toolkit's (cub-deterministic: CCCL 3.1's determinism
# requirements; segmented: its fixed-size segments), in a configured and
# built tree, against the headers of a CCCL tarball (git archive
# --prefix=cccl/ vX.Y.Z cub/cub libcudacxx/include thrust/thrust of
# NVIDIA/cccl, xz-compressed):
#   bench/cccl_rebuild.sh TARBALL [BUILD]
# BUILD: the tree to rebuild in (default: the current folder). The headers
# are unpacked once into /tmp/cccl. Prints one line per plugin with make's
# exit status; its output goes to $OUT/cccl-build.txt where OUT is set.
set -u
tarball=${1:?usage: bench/cccl_rebuild.sh TARBALL [BUILD]}
build=${2:-.}
log=${OUT:-/tmp}/cccl-build.txt
[ -f "$tarball" ] || { echo "cccl_rebuild: no $tarball" >&2; exit 1; }
[ -d /tmp/cccl ] || tar -xJf "$tarball" -C /tmp || { echo "cccl_rebuild: cannot unpack $tarball" >&2; exit 1; }
flags="-I/tmp/cccl/cub -I/tmp/cccl/libcudacxx/include -I/tmp/cccl/thrust"
plugins="cub_deterministic segmented"
targets=
for plugin in $plugins; do
  rm -f "$build/plugins/cuda/$plugin.so"
  targets="$targets plugins/cuda/$plugin.so"
done
# side by side: each takes nvcc most of a minute
# shellcheck disable=SC2086
make -C "$build" -j2 CUDA_CCCL_FLAGS="$flags" $targets >>"$log" 2>&1
status=0
for plugin in $plugins; do
  if [ -f "$build/plugins/cuda/$plugin.so" ]; then
    echo "$plugin against $(basename "$tarball" .tar.xz): built"
  else
    echo "$plugin against $(basename "$tarball" .tar.xz): not built (see $log)"
    status=1
  fi
done
exit $status
