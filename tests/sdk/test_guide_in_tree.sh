#!/bin/bash
# tests/sdk/test_guide_in_tree.sh: docs/writing-a-plugin.md's plugin built
# in redbench's own tree, without `make install`, by the guide's commands as
# written (the block between its guide-in-tree markers, read from the guide
# here, not copied): pkg-config finds redbench-uninstalled.pc at the top of
# the build tree and gives the headers under sdk/; the plugin compiled into
# ./plugins is found there with no other step and runs the guide's
# mysum.ini `ok`. The commands run in a copy of the build tree's top folder
# made of links (its plugins/ a folder of its own), so that the plugin the
# test drops there is not seen by the tests beside it.
. "$top_srcdir/tests/lib.sh"
unset PKG_CONFIG PKG_CONFIG_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_DISABLE_UNINSTALLED REDBENCH_PLUGIN_PATH
command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config not found"
plan 10
guide=$top_srcdir/docs/writing-a-plugin.md

ok "configure wrote redbench-uninstalled.pc at the top of the build tree" test -f "$top_builddir/redbench-uninstalled.pc"

# The tree: every entry of the build tree's top folder linked, plugins/ a
# folder of links to the build tree's packs.
tree=$tmp/tree
mkdir -p "$tree/plugins"
for f in "$top_builddir"/* "$top_builddir"/.[!.]*; do
  [ -e "$f" ] || continue
  [ "${f##*/}" = plugins ] || ln -s "$f" "$tree/${f##*/}"
done
for f in "$top_builddir"/plugins/*; do ln -s "$f" "$tree/plugins/${f##*/}"; done

# The guide's strategy (its first C block) and commands (the indented lines
# between the markers).
sed -n '/^```c$/,/^```$/p' "$guide" | sed '1d;$d' >"$tree/mysum.c"
sed -n '/^<!-- guide-in-tree: begin -->$/,/^<!-- guide-in-tree: end -->$/p' "$guide" |
  sed -n 's/^    //p' >"$tmp/commands.sh"
is "$(grep -c . "$tmp/commands.sh")" 4 "the guide's in-tree block holds its 4 commands"
ok "the guide's in-tree commands build plugins/mysum.so" \
  bash -c "cd '$tree' && set -e && . '$tmp/commands.sh' >'$tmp/commands.out' 2>&1"
# The folder named by -I, as the file system resolves it: in a build out of
# the source tree configure names it through the build tree (sub/../../sdk).
cflags_dir=$(sed -n 's/^-I\(.*[^ ]\) *$/\1/p' "$tmp/commands.out" | head -n 1)
is "$(cd "$cflags_dir" 2>/dev/null && pwd -P)" "$(cd "$top_srcdir/sdk" && pwd -P)" \
  "... pkg-config --cflags redbench names the source tree's sdk/"
ok "... the plugin lies in ./plugins" test -f "$tree/plugins/mysum.so"
ok "... and --describe finds it there" grep -q "mysum" "$tmp/commands.out"
is "$(cd "$tree" && PKG_CONFIG_PATH=$tree pkg-config --variable=plugindir redbench)" \
   "$top_builddir/plugins" "pkg-config: plugindir is the build tree's plugins/"
is "$(cd "$tree" && PKG_CONFIG_PATH=$tree pkg-config --variable=abi_major redbench).$(cd "$tree" && PKG_CONFIG_PATH=$tree pkg-config --variable=abi_minor redbench)" \
   "$(sed -n 's/^#define REDBENCH_ABI_\(MAJOR\|MINOR\) \([0-9]*\)$/\2/p' "$top_srcdir/sdk/redbench/plugin.h" | paste -sd.)" \
   "pkg-config: the ABI version of the headers"

# The guide's mysum.ini (the indented lines after "`mysum.ini`:"), run
# briefly by ./redbench from the tree.
awk '/^`mysum.ini`:$/ {on = 1; next} on && /^[^ ]/ {exit} on' "$guide" | sed 's/^    //' >"$tree/mysum.ini"
ok "the guide's mysum.ini names the plugin" grep -qx 'plugin = mysum' "$tree/mysum.ini"
(cd "$tree" && ./redbench -q -c mysum.ini -D min_time=0.01 -D rounds=1 -D n=1K,64K --format csv) >"$tmp/run.csv" 2>"$tmp/run.err"
is "$(grep -c '^mine,mysum,.*,ok,' "$tmp/run.csv")" 2 "./redbench -c mysum.ini runs it ok from ./plugins" ||
  sed 's/^/#   /' "$tmp/run.err"
done_testing
