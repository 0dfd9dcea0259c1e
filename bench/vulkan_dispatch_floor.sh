#!/bin/sh
# bench/vulkan_dispatch_floor.sh [CALLS [DEVICE]]: builds
# bench/vulkan_dispatch_floor.c and its shader (cc, glslc, the Vulkan
# headers and loader) into a temporary folder and runs it: the cost of one
# dispatch recorded back to back, with each kind of barrier between.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vulkan-floor.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${GLSLC:-glslc} --target-env=vulkan1.2 -O -o "$tmp/floor.spv" "$here/vulkan_dispatch_floor.comp"
${CC:-cc} -O2 -std=c11 -Wall -o "$tmp/floor" "$here/vulkan_dispatch_floor.c" \
  ${VULKAN_CFLAGS:-} ${VULKAN_LIBS:--lvulkan}
"$tmp/floor" "$tmp/floor.spv" "$@"
