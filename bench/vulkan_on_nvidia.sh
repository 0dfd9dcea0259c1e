#!/bin/sh
# bench/vulkan_on_nvidia.sh: the vulkan pack on an NVIDIA GPU whose machine
# has NVIDIA's Vulkan driver but no Vulkan loader (the device machine of
# docs/vulkan-pack.md, "On NVIDIA GPUs"). It owns the steps that make the
# driver's Vulkan device appear there and what is run with it:
#
#   bench/vulkan_on_nvidia.sh fetch [DEBS]
#       here, on a Debian 12 machine with apt: downloads the packages that
#       travel (the loader, libglvnd, the validation layers, libvulkan-dev,
#       glslc and jq, for the pack's build and tests) into DEBS
#   bench/vulkan_on_nvidia.sh setup [DEBS]
#       there: unpacks them into / (and into .device-carry/sysroot, where
#       the build of .device-carry/build.sh looks for libraries), runs
#       ldconfig and checks that the Vulkan loader is there
#   bench/vulkan_on_nvidia.sh run [BUILD [INI [OUTPUT]]]
#       there: setup, the check that Vulkan offers an NVIDIA device, then
#       BUILD/redbench -c INI -o OUTPUT (INI: conf/vulkan-vs-cuda.ini;
#       OUTPUT: vulkan-vs-cuda.json in $OUT or the current folder)
#   bench/vulkan_on_nvidia.sh validate [BUILD]
#       there: setup, the device check, then the pack's tests
#       (tests/packs/vulkan/test_vulkan.sh through make check in BUILD)
#       with the Khronos validation layer (synchronization checks on)
#       loaded into every process; fails if the tests fail or if the layer
#       reports any error or warning
#
# DEBS: the folder of .deb files (RB_VULKAN_DEBS; default
# .device-carry/vulkan-debs of the project root this script is in). BUILD:
# a configured and built tree (REDBENCH_BUILD; default the one
# .device-carry/build.sh leaves, /tmp/rb-build/redbench-*/, whose env file
# beside it is sourced for inih's library path). The driver's
# manifest: VK_DRIVER_FILES where set, else the first of
# /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json and
# /usr/share/vulkan/icd.d/nvidia_icd.json. RB_VULKAN_ANY_DEVICE=1 accepts a
# device of any vendor (to try the script with lavapipe), and
# RB_VULKAN_NO_UNPACK=1 leaves / as it is (the packages are installed).
# Logs (the probe, the validation layer's) go to $OUT where set, else to a
# temporary folder, named on standard error.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
[ $# -gt 0 ] && shift
debs_default=${RB_VULKAN_DEBS:-$here/.device-carry/vulkan-debs}
packages="libvulkan1 libglvnd0 libegl1 libgl1 libglx0 libopengl0 libgles2
  vulkan-validationlayers libvulkan-dev glslc libshaderc1 jq libjq1 libonig5"

say() { printf 'vulkan_on_nvidia: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
logs=${OUT:-}
[ -n "$logs" ] || logs=$(mktemp -d "${TMPDIR:-/tmp}/vulkan-on-nvidia.XXXXXX")
mkdir -p "$logs"

# fetch DEBS: apt-get download of $packages (Debian 12, bookworm).
fetch() {
  debs=${1:-$debs_default}
  command -v apt-get >/dev/null || die "fetch needs apt-get (a Debian machine)"
  mkdir -p "$debs"
  # shellcheck disable=SC2086
  (cd "$debs" && apt-get download $packages >/dev/null) ||
    die "apt-get download failed in $debs (try apt-get update first)"
  set -- "$debs"/*.deb
  say "$# packages in $debs: $(du -sh "$debs" | cut -f1)"
}

# unpack DEB ROOT: dpkg -x, or ar and tar where dpkg is missing.
unpack() {
  if command -v dpkg >/dev/null; then
    dpkg -x "$1" "$2"
  else
    member=$(ar t "$1" | grep '^data\.tar') || die "$1: no data.tar member"
    ar p "$1" "$member" | tar -x -C "$2" -f - ||
      die "$1: cannot unpack $member (tar may lack its compression)"
  fi
}

# setup DEBS: the packages unpacked into / and the build's sysroot.
setup() {
  debs=${1:-$debs_default}
  if [ "${RB_VULKAN_NO_UNPACK:-0}" != 1 ]; then
    [ -d "$debs" ] || die "no folder $debs: carry the .deb files there (bench/vulkan_on_nvidia.sh fetch, docs/vulkan-pack.md)"
    n=0
    for f in "$debs"/*.deb; do
      [ -f "$f" ] || continue
      unpack "$f" /
      [ -d "$here/.device-carry/sysroot" ] && unpack "$f" "$here/.device-carry/sysroot"
      n=$((n + 1))
    done
    [ "$n" -gt 0 ] || die "no .deb file in $debs"
    ldconfig
    say "unpacked $n packages from $debs into /"
  fi
  ldconfig -p | grep -q 'libvulkan\.so\.1 ' ||
    die "no Vulkan loader (libvulkan.so.1) after unpacking: is libvulkan1 in $debs?"
  if [ -z "${VK_DRIVER_FILES:-}" ]; then
    for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
             /usr/share/vulkan/icd.d/nvidia_icd.json; do
      [ -f "$f" ] && { VK_DRIVER_FILES=$f; break; }
    done
  fi
  if [ "${RB_VULKAN_ANY_DEVICE:-0}" != 1 ]; then
    if [ -z "${VK_DRIVER_FILES:-}" ] || [ ! -f "$VK_DRIVER_FILES" ]; then
      die "no NVIDIA Vulkan driver manifest (nvidia_icd.json) found; set VK_DRIVER_FILES"
    fi
    VK_ICD_FILENAMES=$VK_DRIVER_FILES
    export VK_DRIVER_FILES VK_ICD_FILENAMES
    say "VK_DRIVER_FILES=$VK_DRIVER_FILES"
  fi
  [ -d /usr/share/vulkan/explicit_layer.d ] && VK_LAYER_PATH=/usr/share/vulkan/explicit_layer.d &&
    export VK_LAYER_PATH
  return 0
}

# build_dir [BUILD]: the built tree, with redbench and the vulkan pack.
build_dir() {
  b=${1:-${REDBENCH_BUILD:-}}
  if [ -z "$b" ]; then
    for d in /tmp/rb-build/redbench-*/; do [ -d "$d" ] && b=$d; done
  fi
  [ -n "$b" ] || die "no build folder: name one (or set REDBENCH_BUILD); .device-carry/build.sh makes /tmp/rb-build/redbench-*/"
  b=$(cd "$b" && pwd) || die "no build folder $b"
  [ -x "$b/redbench" ] || die "$b/redbench is not built"
  [ -f "$b/plugins/vulkan/backend.so" ] ||
    die "$b has no vulkan pack (plugins/vulkan/backend.so): configure found no Vulkan headers or glslc; run setup before .device-carry/build.sh"
  echo "$b"
}

# check_device BUILD: one sum by vulkan/subgroup, judged ok, on an NVIDIA
# device (any vendor with RB_VULKAN_ANY_DEVICE=1).
check_device() {
  cat >"$logs/probe.ini" <<EOF
[experiment]
name = vulkan-probe
warmup = 1
min_time = 0
min_reps = 1
max_reps = 2
[data]
op = sum
dtype = i32
n = 1K
[run probe]
plugin = vulkan/subgroup
EOF
  (cd "$1" && ./redbench -c "$logs/probe.ini" --format json -o "$logs/probe.json") \
    >"$logs/probe.out" 2>&1 || true
  found=$(python3 - "$logs/probe.json" <<'EOF'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:
    print("no result (%s)" % e); sys.exit(0)
row = (doc.get("results") or [{}])[0]
dev = next((d for d in doc.get("devices", []) if d.get("backend") == "vulkan"), {})
props = dev.get("properties", {})
print("%s|%s|%s|%s" % (row.get("status"), dev.get("name"), props.get("driver_info", props.get("driver", "")),
                       row.get("reason") or ""))
EOF
)
  status=${found%%|*}
  rest=${found#*|}
  name=${rest%%|*}
  [ "$status" = ok ] ||
    die "no usable Vulkan device: ${found} (see $logs/probe.out; VK_LOADER_DEBUG=all shows the loader's search)"
  if [ "${RB_VULKAN_ANY_DEVICE:-0}" != 1 ]; then
    case $name in
      *NVIDIA*) ;;
      *) die "the Vulkan device is \"$name\", not NVIDIA's (VK_DRIVER_FILES=${VK_DRIVER_FILES:-})" ;;
    esac
  fi
  say "Vulkan device: $name"
}

# build_env BUILD: the environment .device-carry/build.sh wrote beside
# the build (inih's library path), where there is one.
build_env() {
  # shellcheck disable=SC1091
  if [ -f "$1/../env" ]; then . "$1/../env"; fi
}

run() {
  b=$(build_dir "${1:-}")
  build_env "$b"
  ini=${2:-conf/vulkan-vs-cuda.ini}
  case $ini in /*) ;; *) if [ -f "$here/$ini" ]; then ini=$here/$ini; else ini=$b/$ini; fi ;; esac
  [ -f "$ini" ] || die "no experiment file $ini"
  out=${3:-${OUT:-.}/$(basename "$ini" .ini).json}
  case $out in /*) ;; *) out=$(pwd)/$out ;; esac
  setup
  check_device "$b"
  say "redbench -c $ini -o $out (in $b)"
  cd "$b" && exec ./redbench -c "$ini" -o "$out"
}

validate() {
  b=$(build_dir "${1:-}")
  build_env "$b"
  setup
  [ -f "${VK_LAYER_PATH:-/usr/share/vulkan/explicit_layer.d}/VkLayer_khronos_validation.json" ] ||
    die "no Khronos validation layer: carry vulkan-validationlayers"
  check_device "$b"
  mkdir -p "$logs/layer"
  log=$logs/validation.log
  rm -f "$log"
  cat >"$logs/layer/vk_layer_settings.txt" <<EOF
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.log_filename = $log
khronos_validation.report_flags = error,warn
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
EOF
  VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_SETTINGS_PATH=$logs/layer
  export VK_INSTANCE_LAYERS VK_LAYER_SETTINGS_PATH
  say "make check TESTS=tests/packs/vulkan/test_vulkan.sh in $b with the validation layer"
  st=0
  (cd "$b" && make check TESTS=tests/packs/vulkan/test_vulkan.sh) >"$logs/check.out" 2>&1 || st=$?
  cp "$b/tests/packs/vulkan/test_vulkan.log" "$logs/" 2>/dev/null || true
  grep -E '^(ok|not ok)' "$logs/test_vulkan.log" >&2 2>/dev/null || tail -n 20 "$logs/check.out" >&2
  [ "$st" = 0 ] || die "the vulkan tests failed (exit $st): $logs/test_vulkan.log"
  grep -q '^ok .*# SKIP' "$logs/test_vulkan.log" 2>/dev/null &&
    die "a vulkan test was skipped under the validation layer: $logs/test_vulkan.log"
  # the layer logs only errors and warnings (report_flags): any line fails
  found=$(grep -c . "$log" 2>/dev/null || true)
  [ "${found:-0}" = 0 ] || { head -n 10 "$log" >&2
                             die "the validation layer logged $found lines of errors or warnings: $log"; }
  say "no validation error or warning ($log)"
}

case $mode in
  fetch) fetch "$@" ;;
  setup) setup "$@"; say "set: export VK_DRIVER_FILES=${VK_DRIVER_FILES:-}" ;;
  run) run "$@" ;;
  validate) validate "$@" ;;
  *) die "usage: $0 fetch [DEBS] | setup [DEBS] | run [BUILD [INI [OUTPUT]]] | validate [BUILD]" ;;
esac
