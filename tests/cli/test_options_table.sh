#!/bin/bash
# tests/cli/test_options_table.sh: every command and option of the table
# (src/cli/option_table.c, listed by src/cli/write-completion --options) is
# accepted by its command's parser, listed by `redbench [COMMAND] --help`,
# named in the manual page and offered by the bash completion script; every
# command is listed by `redbench --help` and the manual page, and completed;
# the manual page holds its generated OPTION SUMMARY and the keys of each
# section (src/config/keys.c), which --help lists and -D completes.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
lister=$top_builddir/src/cli/write-completion
completion=$top_builddir/completion/redbench
man=$top_builddir/man/redbench.1
[ -x "$lister" ] && [ -f "$completion" ] || skip_all "the completion script is not built"
"$lister" --options >"$tmp/options"
commands=$(cut -f1 "$tmp/options" | grep -v '^-$' | sort -u)
plan $(( $(wc -l <"$tmp/options") * 4 + $(echo "$commands" | wc -l) * 3 + 9 ))

# What bash completion offers after the words given (the last one being
# completed).
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _redbench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@"
}
# The manual page's text for an option: roff writes each - as \-.
roff() { sed 's/-/\\-/g' <<<"$1"; }

# Each command's --help and the options the completion offers after it
# ("-" for the top level), once per command: the options' checks read them.
for command in - $commands; do
  words=(); [ "$command" = - ] || words=("$command")
  "$rb" "${words[@]}" --help >"$tmp/help.$command"
  complete_words redbench "${words[@]}" - >"$tmp/completed.$command"
done

while IFS=$'\t' read -r command option argument; do
  words=(); [ "$command" = - ] || words=("$command")
  what="${words[*]:+${words[*]} }$option"
  args=("${words[@]}" "$option"); [ "$argument" = arg ] && args+=(x)
  # given on its own, no option starts any work: each ends in a usage error,
  # help, or an error about the missing file or plugin
  "$rb" "${args[@]}" </dev/null >"$tmp/out" 2>"$tmp/err"
  ok "$what: the parser takes it" bash -c "! grep -q 'unknown option' '$tmp/err'"
  ok "$what: listed by ${words[*]:+${words[*]} }--help" grep -Eq -- "(^|[ ,])$option([ ,=]|$)" "$tmp/help.$command"
  ok "$what: named in the manual page" grep -Fq -- "$(roff "$option")" "$man"
  ok "$what: offered by the bash completion" grep -Fxq -- "$option" "$tmp/completed.$command"
done <"$tmp/options"

for command in $commands; do
  ok "$command: listed by redbench --help" grep -Eq "^  $command( |$)" "$tmp/help.-"
  ok "$command: named in the manual page's COMMANDS" \
    bash -c "sed -n '/^\\.SH COMMANDS/,/^\\.SH /p' '$man' | grep -Eq '^\\.BI? \"?$command[ \"]'"
  complete_words redbench "${command:0:2}" >"$tmp/completed"
  ok "$command: completed from its first letters" grep -Fxq "$command" "$tmp/completed"
done
complete_words redbench --format "" >"$tmp/completed"
is "$(sort "$tmp/completed" | tr '\n' ' ')" "csv html json md sqlite table " "the completion offers --format's words"
complete_words redbench compare --format "" >"$tmp/completed"
is "$(sort "$tmp/completed" | tr '\n' ' ')" "csv json md table " "... and compare's own"
# The manual page holds its generated parts whole: the OPTION SUMMARY
# (write-completion --man) and the keys of [experiment] (--man-settings),
# [data] (--man-data) and [run NAME] (--man-run).
for part in man man-settings man-data man-run; do
  "$lister" --$part >"$tmp/$part"
  missing=$(grep -Fxvf "$man" "$tmp/$part" | head -n 3)
  ok "the manual page holds every line of write-completion --$part ($(wc -l <"$tmp/$part") lines)" \
    test -s "$tmp/$part" -a -z "$missing"
done
# A data key and a run key, from the same table: listed by --help (the
# shaped reductions' rows among them) and completed after -D.
ok "the data keys and the run keys are listed by --help" \
  bash -c "grep -q '^  rows ' '$tmp/help.-' && grep -q '^  lengths ' '$tmp/help.-' && grep -q '^  optional ' '$tmp/help.-'"
complete_words redbench -D ro >"$tmp/completed"
is "$(tr '\n' ' ' <"$tmp/completed")" "rounds= rows= " "-D completes the keys of every section (rounds=, rows=)"
"$rb" --bogus 2>"$tmp/err"
ok "an unknown option's error lists the valid ones" grep -q 'unknown option: --bogus; valid: --config, --run, -D, ' "$tmp/err"
done_testing
