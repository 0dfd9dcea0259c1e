#!/bin/bash
# tests/host/test_loader.sh: plugin discovery and ABI checks with deliberately
# broken plugins (tests/plugins/): each is rejected with its reason, the good
# ones still load and run, and the search order is the documented one. The
# process that loads plugins for discovery holds its socket to the host and
# the standard streams, none of the host's other descriptors.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
plan 26
dir=$top_builddir/tests/plugins/dir
[ -d "$dir" ] || skip_all "test plugins not built"

"$rb" --list --plugin-path "$dir" >"$tmp/list" 2>&1; is "$?" 0 "--list with broken plugins exits 0"
sed -n '/^Rejected/,$p' "$tmp/list" >"$tmp/rejected"
reason() { grep -A1 "/$1\$" "$tmp/rejected" | tail -n 1; }
ok "no entry point is rejected" bash -c "[[ \"\$(grep -A1 '/no-entry.so\$' '$tmp/rejected')\" == *'no entry point'* ]]"
case "$(reason wrong-major.so)" in *"ABI 2.0"*"ABI 1."*"major"*) r=1;; *) r=0;; esac
is $r 1 "another major is rejected, both versions named"
case "$(reason newer-minor.so)" in *"ABI 1."*", newer than"*) r=1;; *) r=0;; esac
is $r 1 "a newer minor is rejected"
case "$(reason too-small.so)" in *"descriptor is "*" bytes"*"needs at least"*) r=1;; *) r=0;; esac
is $r 1 "a descriptor too small is rejected with both sizes"
case "$(reason no-run.so)" in *"missing the required callback 'run'"*) r=1;; *) r=0;; esac
is $r 1 "a missing callback is rejected, naming it"
case "$(reason notaplugin.so)" in *"not a shared object"*) r=1;; *) r=0;; esac
is $r 1 "a text file is not a shared object"
is "$(grep -c '^  /' "$tmp/rejected")" 6 "exactly the 6 broken files are rejected"
ok "tiny-sum still loads" grep -qE '^  tiny-sum +dir +cpu ' "$tmp/list"
ok "wrong-answer still loads" grep -qE '^  wrong-answer +dir +cpu ' "$tmp/list"
ok "the cpu pack still loads" grep -qE '^  serial +cpu +cpu ' "$tmp/list"

# Search order: --plugin-path, then REDBENCH_PLUGIN_PATH, then ./plugins, then the installed folder.
mkdir -p "$tmp/a" "$tmp/b"
REDBENCH_PLUGIN_PATH="$tmp/b" "$rb" --list --plugin-path "$tmp/a" >"$tmp/order" 2>&1
is "$(sed -n '2,4p' "$tmp/order" | tr -d ' ' | tr '\n' ' ')" "$tmp/a $tmp/b $top_builddir/plugins " "search order: --plugin-path, REDBENCH_PLUGIN_PATH, ./plugins"
cp "$dir/tiny-sum.so" "$tmp/b/"
REDBENCH_PLUGIN_PATH="$tmp/b" "$rb" --list >"$tmp/env" 2>&1
ok "a plugin in REDBENCH_PLUGIN_PATH is found" grep -q "$tmp/b/tiny-sum.so" "$tmp/env"
mkdir -p "$tmp/drop/plugins/mypack"
cp "$dir/tiny-sum.so" "$tmp/drop/plugins/mypack/"
(cd "$tmp/drop" && "$rb" --list) >"$tmp/drop.list" 2>&1
ok "a plugin dropped into ./plugins/PACK is found, with its pack" grep -qE "^  tiny-sum +mypack .*$tmp/drop/plugins/mypack/tiny-sum.so" "$tmp/drop.list"
ok "--describe works on a dropped plugin" bash -c "cd '$tmp/drop' && '$rb' --describe tiny-sum | grep -q 'pack: *mypack'"

# A broken plugin named in an experiment is an unknown plugin: exit 2, reason shown by --list.
printf '[run a]\nplugin = no-run\n' >"$tmp/broken.ini"
"$rb" -c "$tmp/broken.ini" --plugin-path "$dir" >/dev/null 2>"$tmp/err"; is "$?" 2 "naming a rejected plugin exits 2"
ok "... naming the file and line" grep -q 'broken.ini:2:' "$tmp/err"

# The wrong-answer plugin runs and is judged wrong; the others still run.
printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K\n[run bad]\nplugin = wrong-answer\n[run good]\nplugin = tiny-sum\n' >"$tmp/mixed.ini"
"$rb" -q -c "$tmp/mixed.ini" --plugin-path "$dir" --format csv >"$tmp/mixed.csv" 2>/dev/null; is "$?" 1 "a wrong plugin among good ones exits 1"
ok "the wrong one is wrong" grep -q '^bad,wrong-answer,.*,wrong,' "$tmp/mixed.csv"
ok "the good one is ok" grep -q '^good,tiny-sum,.*,ok,' "$tmp/mixed.csv"

# A plugin of ABI 1.4 (old-minor) loads, and its dtype mask is read as 1.4
# knew it: the bits that 1.5 gave f16 and bf16 are not offered, though set.
ok "a plugin of ABI 1.4 still loads" grep -qE '^  old-minor +dir +cpu ' "$tmp/list"
ok "... listed with the dtypes 1.4 knew (i32, f32), not f16 or bf16" \
  grep -qE '^  old-minor +dir +cpu +sum +i32, f32 ' "$tmp/list"
printf '[experiment]\nmin_time = 0\nmax_reps = 2\n[data]\nn = 1K\ndtype = f32, f16, bf16\n[run old]\nplugin = old-minor\n' >"$tmp/old.ini"
"$rb" -q -c "$tmp/old.ini" --plugin-path "$dir" --format csv >"$tmp/old.csv" 2>/dev/null; is "$?" 0 "a run of it over f32, f16 and bf16 exits 0"
ok "... f32 is ok, f16 and bf16 unsupported by the host's check (never run)" \
  sh -c "grep -q '^old,old-minor,,sum,f32,.*,ok,' '$tmp/old.csv' &&
    grep -q '^old,old-minor,,sum,f16,.*,unsupported,\"old-minor does not support sum on f16' '$tmp/old.csv' &&
    grep -q '^old,old-minor,,sum,bf16,.*,unsupported,\"old-minor does not support sum on bf16' '$tmp/old.csv'"

# Descriptors the host holds (a file written and one read, as a caller's
# shell may leave them) never reach the loading process: loader-fds's entry
# point writes what its process holds above 2, counted there.
REDBENCH_TEST_FDS_FILE=$tmp/loader-fds "$rb" --list -p "$top_builddir/tests/plugins/fds" \
  7>"$tmp/seven" 8<"$tmp/old.ini" >"$tmp/fds-list" 2>&1
ok "--list with descriptors 7 and 8 open lists loader-fds" grep -qE '^  loader-fds ' "$tmp/fds-list"
ok "... whose loading process held its socket alone ($(cat "$tmp/loader-fds"))" \
  grep -qxE '1: [0-9]+ -> socket:\[[0-9]+\]' "$tmp/loader-fds"
done_testing
