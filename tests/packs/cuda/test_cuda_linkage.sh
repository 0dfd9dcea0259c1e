#!/bin/bash
# tests/packs/cuda/test_cuda_linkage.sh: how the cuda pack's modules are linked, which
# launch timing depends on (docs/results/launch-vs-plain.md): each links
# the CUDA runtime in (no libcudart.so dependency, as nvcc links a
# program) and exports its entry point and nothing else of its own
# (instances of the C++ library's templates, which keep default
# visibility, aside). Needs no GPU; skips without readelf or the pack.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
command -v readelf >/dev/null 2>&1 || skip_all "readelf not found"
modules=$(ls plugins/cuda/*.so 2>/dev/null)
[ -n "$modules" ] || skip_all "the cuda pack is not built"
plan 3

no_shared_runtime() {
  local m bad=0
  for m in $modules; do
    if readelf -d "$m" | grep -q 'NEEDED.*libcudart'; then echo "$m needs libcudart.so"; bad=1; fi
  done
  return $bad
}
ok "no module of the pack needs libcudart.so" no_shared_runtime

exports_entry_only() {
  local m bad=0 defined want
  for m in $modules; do
    want=redbench_plugin_entry
    [ "${m##*/}" = backend.so ] && want=redbench_backend_entry
    defined=$(readelf --dyn-syms -W "$m" |
      awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") && ($4 == "FUNC" || $4 == "OBJECT") { print $8 }' |
      sed 's/@.*//' | grep -v '^_ZN\{0,1\}K\{0,1\}St' | sort -u)
    if [ "$defined" != "$want" ]; then echo "$m exports: $defined (want only $want)"; bad=1; fi
  done
  return $bad
}
ok "each module exports its entry point and nothing else of its own" exports_entry_only

backend_resolves_driver_record() {
  readelf -p .rodata plugins/cuda/backend.so | grep -q cuEventRecord
}
ok "the backend looks up the driver's cuEventRecord for its timing events" backend_resolves_driver_record
done_testing
