#!/bin/bash
# tests/source/test_make_rules.sh: the make rules that write a file through a
# temporary one name it after the shell's process ($$$$ in make, $$ in a
# script), so that two makes in one tree never move, compare or delete each
# other's half-written file: the suite runs `make install` and `make
# distdir` in the build tree side by side (test_install, test_reconfigure),
# and a shared name once failed a run ("mv: cannot stat ...tmp"). The
# check runs on the tree's make files and the scripts their rules call, and
# on a planted rule with a shared name, which it must refuse, naming the
# file and line.
. "$top_srcdir/tests/lib.sh"
plan 4

# check_rules FILE...: each recipe line of a make file (it starts with a
# tab, or continues one) and each line of a script that names a `.tmp`
# file must name it with the process id. Prints "FILE:LINE: ..." for each
# line that does not, and returns 1 when there is one.
check_rules() {
  awk '
    FNR == 1 { recipe = 0; script = FILENAME ~ /\.sh$/ }
    {
      is_recipe = script || /^\t/ || recipe
      recipe = !script && is_recipe && /\\$/
      if (is_recipe && /\.tmp/ && !/^[ \t]*#/) {
        pid = script ? index($0, "$$") : index($0, "$$$$")
        if (!pid) { printf "%s:%d: a temporary file without the process id: %s\n", FILENAME, FNR, $0; bad = 1 }
      }
    }
    END { exit bad }' "$@"
}

cd "$top_srcdir"
files=$(ls Makefile.am sdk/examples/Makefile.am */local.mk */*/local.mk */*/*/local.mk plugins/packs.mk \
  plugins/vulkan/spirv-embed.sh 2>/dev/null)
count=$(wc -w <<<"$files")
ok "the tree's make files and scripts are found ($count)" test "$count" -ge 10
out=$(check_rules $files)
is "$out" "" "every temporary file of a rule is named after its process"

printf 'a: b\n\t@echo one >$@.tmp && \\\n\t  mv -f $@.tmp $@\nok: b\n\techo >$@.$$$$.tmp && mv -f $@.$$$$.tmp $@\n' >"$tmp/planted.mk"
out=$(check_rules "$tmp/planted.mk"); rc=$?
is "$rc:$(grep -c . <<<"$out")" "1:2" "a planted rule with a shared name is refused, both lines"
ok "... naming the file and line" grep -q "planted.mk:2: a temporary file without the process id" <<<"$out"
done_testing
