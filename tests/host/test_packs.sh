#!/bin/bash
# tests/host/test_packs.sh: packs. The build tree's cpu pack shows its manifest
# in --list; two packs offering a plugin of the same name are both listed,
# PACK/NAME picks one and the plain name is an error listing the
# candidates; an earlier folder's copy of a pack's plugin shadows a later
# one; a manifest with a mistake is rejected with its line and the pack is
# known by its folder's name; a plugin whose descriptor is the ABI 1.0
# layout loads and runs.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
unset REDBENCH_PLUGIN_PATH # the search path is the test's: --plugin-path, ./plugins
plan 29
serial=$top_builddir/plugins/cpu/serial.so
tiny=$top_builddir/tests/plugins/dir/tiny-sum.so
old=$top_builddir/tests/host/.libs/abi-1-0.so
[ -f "$serial" ] && [ -f "$tiny" ] && [ -f "$old" ] || skip_all "plugins not built"
version=$("$rb" --version | sed -n 's/^redbench \([^ ]*\) .*/\1/p')

# The cpu pack and its manifest.
"$rb" --list >"$tmp/list" 2>&1
ok "--list shows the cpu pack's manifest" grep -qx "Pack cpu $version, by redbench, backend cpu: 4 plugins" "$tmp/list"
ok "... and where it is" grep -qx "  manifest: $top_builddir/plugins/cpu/pack.ini" "$tmp/list"
ok "--describe names the pack, its version and vendor" bash -c "'$rb' --describe serial | grep -qx '  pack:     cpu $version, by redbench'"

# A second pack, acme, offering a plugin named serial too.
mkdir -p "$tmp/p/acme"
cp "$serial" "$tiny" "$tmp/p/acme/"
cat >"$tmp/p/acme/pack.ini" <<'EOF'
; acme's pack
[pack]
name = acme
vendor = Acme Corp.    ; an inline comment
version = 2.1
backend = cpu
description = Acme's reductions
EOF
"$rb" --list --plugin-path "$tmp/p" >"$tmp/two" 2>&1; is "$?" 0 "--list with two packs exits 0"
ok "the acme pack shows its manifest" grep -qx "Pack acme 2.1, by Acme Corp., backend cpu: 2 plugins" "$tmp/two"
ok "... with its description" grep -qx "  Acme's reductions" "$tmp/two"
ok "acme's serial is listed" grep -qE "^  serial +acme +cpu .*$tmp/p/acme/serial.so\$" "$tmp/two"
ok "cpu's serial is listed too" grep -qE "^  serial +cpu +cpu .*$top_builddir/plugins/cpu/serial.so\$" "$tmp/two"

"$rb" --describe serial --plugin-path "$tmp/p" >/dev/null 2>"$tmp/err"; is "$?" 2 "--describe of a name two packs offer exits 2"
ok "... listing the candidates" grep -q "plugin 'serial' is offered by more than one pack: acme/serial, cpu/serial" "$tmp/err"
ok "--describe acme/serial picks acme's" bash -c "'$rb' --describe acme/serial --plugin-path '$tmp/p' | grep -qx '  pack:     acme 2.1, by Acme Corp.'"

printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K\ndtype = i32\n[run a]\nplugin = serial\n' >"$tmp/plain.ini"
"$rb" -c "$tmp/plain.ini" --plugin-path "$tmp/p" >/dev/null 2>"$tmp/err"; is "$?" 2 "an experiment naming an ambiguous plugin exits 2"
ok "... naming the file and line and the candidates" grep -q "plain.ini:8: error: plugin 'serial' is offered by more than one pack: acme/serial, cpu/serial; name one as 'plugin = PACK/NAME'" "$tmp/err"
printf '[run a]\nplugin = serial\noptional = true\n' >"$tmp/optional.ini"
"$rb" --dry-run -c "$tmp/optional.ini" --plugin-path "$tmp/p" >/dev/null 2>&1; is "$?" 2 "... even when the run is optional"
printf '[run a]\nplugin = seriel\n' >"$tmp/typo.ini"
"$rb" -c "$tmp/typo.ini" --plugin-path "$tmp/p" >/dev/null 2>"$tmp/err"; is "$?" 2 "an unknown plugin exits 2"
ok "... listing what there is, PACK/NAME where a name is in two packs" grep -q "unknown plugin 'seriel'; available: acme/serial, tiny-sum, kahan, cpu/serial, threads, unrolled" "$tmp/err"
printf '[run a]\nplugin = nopack/serial\n' >"$tmp/nopack.ini"
"$rb" -c "$tmp/nopack.ini" --plugin-path "$tmp/p" >/dev/null 2>"$tmp/err"; is "$?" 2 "PACK/NAME of a pack that is not there exits 2"

printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K\ndtype = i32\n[run a]\nplugin = acme/serial\n[run b]\nplugin = cpu/serial\n' >"$tmp/picked.ini"
"$rb" -q -c "$tmp/picked.ini" --plugin-path "$tmp/p" --format csv >"$tmp/picked.csv" 2>"$tmp/err"; is "$?" 0 "PACK/NAME picks each pack's plugin, and both run"
if [ -n "$JQ" ]; then
  "$rb" -q -c "$tmp/picked.ini" --plugin-path "$tmp/p" -o "$tmp/picked.json" >/dev/null 2>&1
  is "$($JQ -r '[.results[]|"\(.run)=\(.pack)/\(.plugin):\(.status)"]|join(" ")' "$tmp/picked.json")" \
     "a=acme/serial:ok b=cpu/serial:ok" "the JSON rows say which pack each came from, and are ok"
else
  skip "jq not found"
fi

# Shadowing: a pack folder named cpu, earlier in the search path.
mkdir -p "$tmp/s/cpu"
cp "$serial" "$tmp/s/cpu/"
"$rb" --list --plugin-path "$tmp/s" >"$tmp/shadow" 2>&1
ok "the earlier folder's serial is used" grep -qE "^  serial +cpu +cpu .*$tmp/s/cpu/serial.so\$" "$tmp/shadow"
ok "the build tree's serial is shadowed by it" bash -c "grep -A1 -x '  $top_builddir/plugins/cpu/serial.so' '$tmp/shadow' | grep -qx '      used instead: $tmp/s/cpu/serial.so'"
is "$(grep -cE '^  serial ' "$tmp/shadow")" 1 "... and listed once"
"$rb" --dry-run -c "$tmp/plain.ini" --plugin-path "$tmp/s" >/dev/null 2>&1; is "$?" 0 "a shadowed copy makes no name ambiguous"

# Manifests with a mistake: rejected with the line; the folder names the pack.
mkdir -p "$tmp/m/widgets" "$tmp/m/gadgets" "$tmp/m/vendor-2.1"
cp "$tiny" "$tmp/m/widgets/"; cp "$tiny" "$tmp/m/gadgets/"; cp "$tiny" "$tmp/m/vendor-2.1/"
printf '[pack]\nname = widgets\ncolour = blue\n' >"$tmp/m/widgets/pack.ini"
printf '[pack]\nname = gadgets\nversion = 1\nbackend = cpu\ndescription = x\n' >"$tmp/m/gadgets/pack.ini"
printf '[pack]\nname = renamed\nvendor = V\nversion = 2.1\nbackend = cpu\ndescription = its folder is vendor-2.1\n' >"$tmp/m/vendor-2.1/pack.ini"
"$rb" --list --plugin-path "$tmp/m" >"$tmp/bad" 2>&1
ok "an unknown key is rejected with its line and the valid keys" bash -c "grep -A1 -x '  $tmp/m/widgets/pack.ini' '$tmp/bad' | grep -qx \"      line 3: unknown key 'colour'; a pack manifest has: name, vendor, version, backend, description\""
ok "a missing key is rejected, naming it" bash -c "grep -A1 -x '  $tmp/m/gadgets/pack.ini' '$tmp/bad' | grep -q \"no 'vendor' key\""
ok "... and the pack is known by its folder's name" grep -qE "^  tiny-sum +widgets " "$tmp/bad"
ok "a good manifest's name is the pack's, whatever the folder" grep -qE "^  tiny-sum +renamed .*/vendor-2.1/tiny-sum.so\$" "$tmp/bad"

# A plugin built against ABI 1.0: minor 0, the 1.0 descriptor size.
mkdir -p "$tmp/old"
cp "$old" "$tmp/old/"
"$rb" --describe abi-1-0 --plugin-path "$tmp/old" >"$tmp/old.txt" 2>&1
ok "a plugin of the ABI 1.0 layout loads" grep -qx '  ABI:      1.0' "$tmp/old.txt"
printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K, 1M\ndtype = i32, f32\n[run old]\nplugin = abi-1-0\n' >"$tmp/old.ini"
"$rb" -q -c "$tmp/old.ini" --plugin-path "$tmp/old" --format csv >"$tmp/old.csv" 2>&1; is "$?" 0 "... and runs and verifies"
done_testing
