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
plan 6

# check_rules FILE...: each recipe line of a make file (it starts with a
# tab, or continues one) and each line of a script: every temporary file
# it names (a word ending in .tmp, .options or .settings; a glob, which
# cleans up, aside) holds the process id ($$$$ in make, $$ in a script),
# and the process id is never inside single quotes, where the shell does
# not expand it. Prints "FILE:LINE: ..." for each line that fails, and
# returns 1 when there is one.
check_rules() {
  awk -v q="'" '
    function report(what) { printf "%s:%d: %s: %s\n", FILENAME, FNR, what, $0; bad = 1 }
    FNR == 1 { recipe = 0; script = FILENAME ~ /\.sh$/ }
    {
      is_recipe = script || /^\t/ || recipe
      recipe = !script && is_recipe && /\\$/
      if (!is_recipe || /^[ \t]*#/)
        next
      pid = script ? "$$" : "$$$$"
      rest = $0
      word_re = "[^ \t\"" q ";<>|&]*\\.(tmp|options|settings)"
      while (match(rest, word_re)) {
        word = substr(rest, RSTART, RLENGTH)
        rest = substr(rest, RSTART + RLENGTH)
        if (word !~ /\*/ && !index(word, pid)) { report("a temporary file without the process id"); break }
      }
      quoted = 0
      for (k = 1; k <= length($0); k++) {
        c = substr($0, k, 1)
        if (c == q)
          quoted = !quoted
        else if (quoted && substr($0, k, length(pid)) == pid) {
          report("the process id inside single quotes, where the shell leaves it as it is")
          break
        }
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

# Planted: a shared name (lines 2 and 3, a continuation line), one of two
# names without the id (5), the id inside single quotes (7); accepted: a
# rule naming its files after the process (9), a clean-up glob (10).
{
  printf 'a: b\n\t@echo one >$@.tmp && \\\n\t  mv -f $@.tmp $@\n'
  printf 'c: b\n\tcp b $@.$$$$.tmp && mv -f $@.tmp $@\n'
  printf 'd: b\n\tsed -e %s/x/{r $@.$$$$.options%s b >$@.$$$$.tmp && mv -f $@.$$$$.tmp $@\n' "'" "'"
  printf 'ok: b\n\techo >$@.$$$$.tmp && mv -f $@.$$$$.tmp $@\n\trm -f man/*.tmp\n'
} >"$tmp/planted.mk"
out=$(check_rules "$tmp/planted.mk"); rc=$?
is "$rc $(grep -o '^[^ ]*:[0-9]*:' <<<"$out" | sed 's/.*planted.mk://' | tr '\n' ' ')" "1 2: 3: 5: 7: " \
  "planted rules with shared names, or the id quoted, are refused at their lines, and no other"
ok "... naming the file and line and what is wrong" \
  grep -q "planted.mk:5: a temporary file without the process id: " <<<"$out"
ok "... the id quoted too" \
  grep -q "planted.mk:7: the process id inside single quotes, where the shell leaves it as it is" <<<"$out"
# The rule of man/redbench.1 before it was mended, on the same check.
printf 'm: b\n\t$(SED) -e %s/^@X@$$/{r $@.$$$$.options%s -e d \\\n\t  b >$@.$$$$.tmp\n' "'" "'" >"$tmp/man.mk"
out=$(check_rules "$tmp/man.mk"); rc=$?
is "$rc $(grep -o '^[^ ]*:[0-9]*:' <<<"$out" | sed 's/.*man.mk://')" "1 2:" \
  "the manual page's rule of ae9874c (its sections read from a name left unexpanded) is refused"
done_testing
