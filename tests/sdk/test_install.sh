#!/bin/bash
# tests/sdk/test_install.sh: the SDK as someone who has only the installed
# redbench sees it. `make install` into a temporary root puts every part in
# place (and no libtool .la files among the plugins); pkg-config reads
# redbench.pc, and with --define-prefix points into the staged root; the
# guide's 40-line strategy builds with those flags and runs; the installed
# skeleton pack builds out of tree from the staged root with its own
# configure (redbench.m4), installs into a plugin folder and runs `ok`; its
# CUDA strategy builds where nvcc is found, its Vulkan strategy where glslc
# and the Vulkan loader are; `make uninstall` leaves nothing behind.
. "$top_srcdir/tests/lib.sh"
[ -z "${REDBENCH_SKIP_REBUILDS:-}" ] || skip_all "REDBENCH_SKIP_REBUILDS is set (the build system is checked by the plain suite)"
cd "$top_builddir"
unset REDBENCH_PLUGIN_PATH PKG_CONFIG PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR ACLOCAL_PATH # set below, as the test needs
plan 45
root=$tmp/root
pre() { echo "$root$1"; }
make_quietly() { # make without the jobserver of the make running the tests
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${rb_make:-make}" "$@" >"$tmp/make.log" 2>&1 ||
    { tail -n 20 "$tmp/make.log"; return 1; }
}

ok "make install DESTDIR=... succeeds" make_quietly -C "$top_builddir" install DESTDIR="$root"
ok "bin/redbench" test -x "$(pre "$rb_bindir")/redbench"
for h in plugin.h backend.h cuda_helpers.cuh; do
  ok "include/redbench/$h" test -f "$(pre "$rb_includedir")/redbench/$h"
done
ok "the cpu pack: 4 modules and pack.ini" bash -c "cd '$(pre "$rb_pkglibdir")/cpu' && ls kahan.so serial.so threads.so unrolled.so pack.ini"
is "$(find "$(pre "$rb_pkglibdir")" -name '*.la' | wc -l)" 0 "no libtool .la file in the plugin folder"
ok "redbench.pc" test -f "$(pre "$rb_libdir")/pkgconfig/redbench.pc"
ok "share/aclocal/redbench.m4" test -f "$(pre "$rb_datadir")/aclocal/redbench.m4"
ok "the man page" test -f "$(pre "$rb_mandir")/man1/redbench.1"
ok "the bash completion script" test -f "$(pre "$rb_datadir")/bash-completion/completions/redbench"
ok "example experiment files" test -f "$(pre "$rb_pkgdatadir")/default.ini"
ok "the skeleton pack" bash -c "cd '$(pre "$rb_pkgdatadir")/skeleton' && ls configure.ac Makefile.am pack.ini chunked.c blocksum.cu example.ini && test -x autogen.sh"
ok "the guide" test -f "$(pre "$rb_docdir")/writing-a-plugin.md"
ok "... and docs/measurement.md, which it cites" test -f "$(pre "$rb_docdir")/measurement.md"

# pkg-config, pointed at the staged root. redbench.pc there names the final
# prefix; `pkg-config --define-prefix` takes the prefix from where the file
# lies, so its flags and folders point into the root (the guide says so).
export PKG_CONFIG_PATH=$(pre "$rb_libdir")/pkgconfig
is "$(pkg-config --modversion redbench 2>&1)" "$rb_version" "pkg-config: the version"
is "$(pkg-config --variable=plugindir redbench 2>&1)" "$rb_pkglibdir" "pkg-config: plugindir is the installed plugin folder"
header_abi=$(sed -n 's/^#define REDBENCH_ABI_\(MAJOR\|MINOR\) \([0-9]*\)$/\2/p' "$top_srcdir/sdk/redbench/plugin.h" | tr '\n' .)
is "$(pkg-config --variable=abi_major redbench).$(pkg-config --variable=abi_minor redbench)." "$header_abi" "pkg-config: the ABI version of the headers"
export PKG_CONFIG="pkg-config --define-prefix"
is "$($PKG_CONFIG --variable=plugindir redbench 2>&1)" "$(pre "$rb_pkglibdir")" "pkg-config --define-prefix: plugindir in the staged root"
cflags=$($PKG_CONFIG --cflags redbench)
case " $cflags " in *" -I$(pre "$rb_includedir") "*) r=1;; *) r=0;; esac
is "$r" 1 "pkg-config --define-prefix --cflags points at the staged headers"

# The installed program, with the installed plugin folder, run elsewhere
# than in the build tree.
cd "$tmp"
installed=$(pre "$rb_bindir")/redbench
export REDBENCH_PLUGIN_PATH=$(pre "$rb_pkglibdir")
ok "the installed redbench runs" "$installed" --version
"$installed" --list >"$tmp/list" 2>&1
ok "... and lists the installed cpu pack with its manifest" grep -qx "  manifest: $(pre "$rb_pkglibdir")/cpu/pack.ini" "$tmp/list"
ok "... and searches its compiled-in plugin folder last" bash -c "sed -n '/^Plugin search path/,/^\$/p' '$tmp/list' | grep -v '^\$' | tail -n 1 | grep -qx '  $rb_pkglibdir'"

# The guide's CPU strategy, built with pkg-config's flags and dropped into ./plugins.
mkdir -p "$tmp/guide/plugins"
sed -n '/^```c$/,/^```$/p' "$(pre "$rb_docdir")/writing-a-plugin.md" | sed '1d;$d' >"$tmp/guide/mysum.c"
is "$(grep -c . "$tmp/guide/mysum.c" | awk '{print ($1 <= 45)}')" 1 "the guide's strategy is about 40 lines"
ok "the guide's strategy builds against the installed SDK" \
  ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -fPIC -shared $cflags -o "$tmp/guide/plugins/mysum.so" "$tmp/guide/mysum.c"
printf '[experiment]\nmin_time = 0.01\n[data]\nop = sum\ndtype = f32\nn = 1K, 1M\n[run mine]\nplugin = mysum\n' >"$tmp/guide/mysum.ini"
(cd "$tmp/guide" && "$installed" -q -c mysum.ini --format csv) >"$tmp/guide.csv" 2>&1
is "$(grep -c '^mine,mysum,.*,ok,' "$tmp/guide.csv")" 2 "... and runs ok, dropped into ./plugins"

# The skeleton pack, copied from the installed SDK, built out of tree.
build_skeleton() {
  skel=$tmp/skeleton
  cp -r "$(pre "$rb_pkgdatadir")/skeleton" "$skel"
  ok "the skeleton's autogen.sh makes its configure (redbench.m4 from the staged root)" bash -c "cd '$skel' && ./autogen.sh >'$tmp/autogen.log' 2>&1"
  is "$(grep -ci 'warning' "$tmp/autogen.log")" 0 "... without a warning (the m4 folder made first)" ||
    sed 's/^/#   /' "$tmp/autogen.log"
  mkdir -p "$skel/build"
  # one GPU target (where nvcc is found): nvcc's second pass would double the build
  ok "its configure finds the SDK" bash -c "cd '$skel/build' && ../configure REDBENCH_PLUGINDIR='$tmp/plugins' --with-cuda-arch=sm_80 >'$tmp/configure.log' 2>&1 && grep -q 'redbench plugin ABI.*yes' '$tmp/configure.log'"
  ok "it builds out of tree" make_quietly -C "$skel/build"
  ok "make install drops it into the plugin folder" make_quietly -C "$skel/build" install
  ok "... the CPU strategy and the manifest" bash -c "ls '$tmp/plugins/example/chunked.so' '$tmp/plugins/example/pack.ini'"
  is "$(find "$tmp/plugins" -name '*.la' | wc -l)" 0 "... and no libtool .la file"
  if command -v nm >/dev/null 2>&1; then
    is "$(nm -D --defined-only "$tmp/plugins/example/chunked.so" | awk '$2 == "T" {print $3}')" \
       redbench_plugin_entry "the module exports the entry point only"
  else
    skip "nm not found"
  fi
  "$installed" --list --plugin-path "$tmp/plugins" >"$tmp/skel.list" 2>&1
  ok "--list shows the example pack with its manifest" grep -qx "Pack example 1.0, by Example Vendor, backend cpu, cuda, vulkan: [123] plugins\?" "$tmp/skel.list"
  (cd "$skel" && "$installed" -q -c example.ini --plugin-path "$tmp/plugins" -o "$tmp/example.json") >/dev/null 2>"$tmp/run.err"
  is "$?" 0 "the skeleton's example.ini runs (exit 0)"
  if [ -n "$JQ" ]; then
    is "$($JQ -r '[.results[]|select(.plugin=="chunked")|"\(.pack):\(.status)"]|unique|join(" ")' "$tmp/example.json")" \
       "example:ok" "every chunked row is ok, from the example pack"
  else
    skip "jq not found"
  fi
  if grep -q '^NVCC = /' "$skel/build/Makefile"; then
    ok "where nvcc is found, the CUDA strategy is built and installed" test -f "$tmp/plugins/example/blocksum.so"
    ok "... and loads (backend cuda)" grep -qE '^  blocksum +example +cuda ' "$tmp/skel.list"
  else
    skip "no nvcc: the CUDA strategy is not built"
    skip "no nvcc: the CUDA strategy is not built"
  fi
  if [ -n "$glslc" ]; then
    ok "where glslc and the Vulkan loader are found, the Vulkan strategy is built and installed" test -f "$tmp/plugins/example/vksum.so"
    ok "... and loads (backend vulkan)" grep -qE '^  vksum +example +vulkan ' "$tmp/skel.list"
  else
    skip "no glslc or no Vulkan loader: the Vulkan strategy is not built"
    skip "no glslc or no Vulkan loader: the Vulkan strategy is not built"
  fi
  ok "the skeleton's make uninstall succeeds" make_quietly -C "$skel/build" uninstall
  is "$(find "$tmp/plugins" -type f | wc -l)" 0 "... and removes its modules and manifest"
}
missing=
for tool in autoreconf automake libtoolize; do command -v $tool >/dev/null 2>&1 || missing="$missing $tool"; done
glslc=
command -v glslc >/dev/null 2>&1 && pkg-config --exists vulkan 2>/dev/null && glslc=yes
if [ -z "$missing" ]; then
  build_skeleton
else
  for k in $(seq 1 17); do skip "building the skeleton needs$missing"; done
fi

ok "redbench's make uninstall succeeds" make_quietly -C "$top_builddir" uninstall DESTDIR="$root"
is "$(find "$root" -type f | wc -l)" 0 "... and leaves no file behind"
done_testing
