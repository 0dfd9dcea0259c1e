#!/bin/bash
# tests/cli/test_completion_packs.sh: the bash completion's plugin names
# where two packs offer the same name: each pack's PACK/NAME is offered,
# once, and the bare name (which redbench refuses as ambiguous) is not;
# a name one pack alone offers is offered bare; what is offered resolves.
. "$top_srcdir/tests/lib.sh"
completion=$top_builddir/completion/redbench
[ -f "$completion" ] || skip_all "the completion script is not built"
plan 5
# Two packs (folders without a manifest) that both hold serial; one holds kahan.
mkdir -p "$tmp/p/alpha" "$tmp/p/beta" "$tmp/run"
cp "$top_builddir/plugins/cpu/serial.so" "$tmp/p/alpha/serial.so"
cp "$top_builddir/plugins/cpu/serial.so" "$tmp/p/beta/serial.so"
cp "$top_builddir/plugins/cpu/kahan.so" "$tmp/p/beta/kahan.so"
export REDBENCH_PLUGIN_PATH=$tmp/p
cd "$tmp/run" # no ./plugins here
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _redbench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@" | sort
}
offered=$(complete_words "$rb" --describe "" | grep -v '^$' | tr '\n' ' ')
case " $offered " in *" serial "*) bare=1;; *) bare=0;; esac
is "$bare" 0 "the ambiguous bare name serial is not offered (offered: $offered)"
is "$(complete_words "$rb" --describe "" | grep -c '^alpha/serial$')$(complete_words "$rb" --describe "" | grep -c '^beta/serial$')" 11 \
  "alpha/serial and beta/serial are offered, once each"
is "$(complete_words "$rb" --describe "" | grep -c '^kahan$')" 1 "kahan, one pack's alone, is offered bare, once"
ok "what is offered resolves: --describe beta/serial" "$rb" --describe beta/serial
ok "... and --describe kahan" "$rb" --describe kahan
done_testing
