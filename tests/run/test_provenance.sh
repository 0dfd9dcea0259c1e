#!/bin/bash
# tests/run/test_provenance.sh: the provenance a real cpu-pack run records in its
# JSON: tool version and git revision, command line, host, the experiment file
# verbatim and expanded, the device, and each plugin used with its path,
# version, ABI and the SHA-256 of its file (checked against sha256sum).
. "$top_srcdir/tests/lib.sh"
[ -n "${JQ:-}" ] || skip_all "jq not found"
command -v sha256sum >/dev/null || skip_all "sha256sum not found"
plan 16

# Spaces and a comment: the verbatim text must keep them.
cat >"$tmp/prov.ini" <<'INI'
; provenance test
[experiment]
name = provenance
min_time = 0.001
max_reps = 20

[data]
op = sum
dtype = f32, i32
n = 1K, 4K
[run plain]
plugin = serial
[run wide]
plugin = unrolled
lanes = 4, 8
INI
cd "$top_builddir" || exit 1
ok "the run succeeds" "$rb" -q -c "$tmp/prov.ini" -o "$tmp/r.json" --format json
j() { "$JQ" -r "$@" "$tmp/r.json"; }

is "$(j .version)" "$("$rb" --version | awk '{print $2}')" "tool version as --version says"
rev=$(j .git_revision)
ok "git revision recorded ($rev)" test -n "$rev" -a "$rev" != null
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null; then
  ok "built from git: the revision is not 'unknown'" test "$rev" != unknown
else
  is "$rev" unknown "built outside git: the revision is 'unknown'"
fi
is "$(j .plugin_abi)" "$(sed -n 's/^#define REDBENCH_ABI_MAJOR \([0-9]*\).*/\1/p' "$top_srcdir/sdk/redbench/plugin.h").$(sed -n 's/^#define REDBENCH_ABI_MINOR \([0-9]*\).*/\1/p' "$top_srcdir/sdk/redbench/plugin.h")" "the host's plugin ABI"
ok "the command line names the experiment file" bash -c "'$JQ' -e '.command_line|contains(\"$tmp/prov.ini\")' '$tmp/r.json'"
is "$(j .host.name)" "$(hostname)" "host name"
ok "host OS and CPU recorded" "$JQ" -e '(.host.os|length>0) and (.host.cpu|length>0)' "$tmp/r.json"

j -j .experiment.text >"$tmp/text.ini"
ok "the experiment text is the file verbatim" cmp "$tmp/prov.ini" "$tmp/text.ini"
is "$(j '.experiment.configurations|length')" 12 "12 expanded configurations (2 dtypes x 2 n x 3)"
is "$(j '[.experiment.configurations[]|select(.run=="wide")|.params.lanes]|unique|join(",")')" \
   "4,8" "expanded configurations carry their parameters"
ok "the device has a name" "$JQ" -e '.devices[0].name|length>0' "$tmp/r.json"

is "$(j '.plugins|map(.name)|join(",")')" "serial,unrolled" "each plugin used, once"
for p in serial unrolled; do
  path=$(j ".plugins[]|select(.name==\"$p\")|.path")
  is "$(j ".plugins[]|select(.name==\"$p\")|.sha256")" "$(sha256sum "$path" | cut -d' ' -f1)" \
     "$p: sha256 equals sha256sum of $path"
done
ok "plugins have version, ABI and pack" "$JQ" -e \
  '[.plugins[]|(.version|length>0) and (.abi|test("^[0-9]+\\.[0-9]+$")) and .pack=="cpu"]|all' "$tmp/r.json"
done_testing
