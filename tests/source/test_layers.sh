#!/bin/bash
# tests/source/test_layers.sh: the include order of src/ (docs/architecture.md).
# Each folder of src/ is a layer, and a file includes only files of its own
# layer and of the layers before it; no files include each other in a
# loop. A new folder is placed in `layers` below, in its place in the order.
# The check runs on src/, and on copies of src/ with a planted include from
# a lower layer to a higher one (procs/ including run/ among them: the
# processes need nothing of the runner but the table it fills), a planted
# loop and an include that names no folder, each of which it must refuse,
# naming the file and line.
# procs/ calls nothing that run/ defines either (a call does not show as
# an include); a planted call is refused, named.
# And the plugin's gate: a strategy's callbacks (p->describe, init, run,
# verify, teardown, group_open, group_close) are called only from
# src/run/plugin_gate.c, but for run in the timed loops (run/timing.c,
# run/energy_row.c); a planted call elsewhere is refused, named.
. "$top_srcdir/tests/lib.sh"

# The layers, lowest first: a file of one may include the ones before it.
layers="base host config results procs run plot report compare history tune cli"

# check_layers SRC: every include of SRC/*/*.[ch] against the order, and the
# includes between files for loops. Prints each mistake as "FILE:LINE: ..."
# and returns 1 when there is one. One awk reads every file (a shell loop
# over each include took half a minute).
check_layers() {
  local src=$1 bad=0 dir folder
  : >"$tmp/edges"
  for dir in "$src"/*/; do
    folder=$(basename "$dir")
    case " $layers " in
    *" $folder "*) ;;
    *) echo "src/$folder/: a folder that is not in the order ($layers); give it its place in tests/source/test_layers.sh"
       bad=1 ;;
    esac
  done
  set -- "$src"/*/*.[ch]
  [ -e "$1" ] || set --
  if [ $# -gt 0 ]; then
    awk -v layers="$layers" -v edges="$tmp/edges" '
      BEGIN { n = split(layers, order, " "); for (k = 1; k <= n; k++) rank[order[k]] = k }
      FNR == 1 {
        count = split(FILENAME, part, "/"); folder = part[count - 1]; base = part[count]
        name = "src/" folder "/" base
      }
      /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
        target = $0; sub(/^[^"]*"/, "", target); sub(/".*/, "", target)
        if (target == "config.h") next # the build s own (configure)
        if (index(target, "/") == 0) {
          printf "%s:%d: includes \"%s\", which names no folder (write \"FOLDER/%s\")\n", name, FNR, target, target
          bad = 1; next
        }
        layer = target; sub(/\/.*/, "", layer)
        if (!(folder in rank)) next # reported above, as a folder
        if (!(layer in rank)) {
          printf "%s:%d: includes \"%s\", of no layer (%s)\n", name, FNR, target, layers; bad = 1
        } else if (rank[layer] > rank[folder]) {
          printf "%s:%d: includes \"%s\": %s may not include %s, which comes after it (%s)\n", name, FNR, target, folder, layer, layers
          bad = 1
        }
        print folder "/" base, target > edges
      }
      END { exit bad }' "$@" || bad=1
  fi
  # tsort names the files of a loop on standard error
  if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loop"; then
    echo "files that include each other in a loop:"
    sed -n 's/^tsort: //p' "$tmp/loop" | grep -v 'input contains a loop' | sed 's/^/  /'
    bad=1
  fi
  return $bad
}

# check_gate SRC: every call of a strategy's callback in SRC/*/*.c outside
# the gate, as "FILE:LINE: ..."; returns 1 when there is one.
check_gate() {
  awk '
    FNR == 1 {
      count = split(FILENAME, part, "/"); name = "src/" part[count - 1] "/" part[count]
    }
    name == "src/run/plugin_gate.c" { next }
    match($0, /(^|[^A-Za-z0-9_])(p|group_plugin|desc)->(describe|init|run|verify|teardown|group_open|group_close)\(/) {
      call = substr($0, RSTART, RLENGTH - 1); sub(/^[^A-Za-z0-9_]/, "", call)
      if (call ~ /->run$/ && (name == "src/run/timing.c" || name == "src/run/energy_row.c")) next
      printf "%s:%d: calls %s directly; a strategy is called through run/plugin_gate.h\n", name, FNR, call
      bad = 1
    }
    END { exit bad }' "$1"/*/*.c
}

# check_calls SRC: every call in SRC/procs/*.c of a function that
# SRC/run/*.c defines, as "FILE:LINE: ..."; returns 1 when there is one.
# What procs/ needs of the runner comes through the table run/ fills
# (procs/rank_service.h), never by calling up.
check_calls() {
  local names
  names=$(awk '/^[A-Za-z_][A-Za-z0-9_ *]*[ *][a-z_][a-z0-9_]*\(/ && !/^static/ && !/;[[:space:]]*$/ {
      f = $0; sub(/\(.*/, "", f); sub(/.*[ *]/, "", f); print f }' "$1"/run/*.c | sort -u)
  awk -v names="$names" '
    BEGIN { n = split(names, list, "\n"); for (k = 1; k <= n; k++) if (list[k] != "") up[list[k]] = 1 }
    FNR == 1 { count = split(FILENAME, part, "/"); name = "src/" part[count - 1] "/" part[count] }
    {
      line = $0
      while (match(line, /[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/)) {
        call = substr(line, RSTART, RLENGTH); sub(/[[:space:]]*\($/, "", call)
        if (call in up) {
          printf "%s:%d: calls %s, which run/ defines; procs/ calls the runner only through procs/rank_service.h\n", name, FNR, call
          bad = 1
        }
        line = substr(line, RSTART + RLENGTH)
      }
    }
    END { exit bad }' "$1"/procs/*.c
}

plan 14

check_layers "$top_srcdir/src" >"$tmp/found"
is "$?" 0 "src/: no include from a lower layer to a higher one, and no loop"
[ -s "$tmp/found" ] && sed 's/^/# /' "$tmp/found"
check_gate "$top_srcdir/src" >"$tmp/found"
is "$?" 0 "src/: a strategy's callbacks called only through run/plugin_gate.c"
[ -s "$tmp/found" ] && sed 's/^/# /' "$tmp/found"
check_calls "$top_srcdir/src" >"$tmp/found"
is "$?" 0 "src/procs/: no call of a function of run/"
[ -s "$tmp/found" ] && sed 's/^/# /' "$tmp/found"

# The check itself, on copies of src/ with one mistake planted in each.
plant() {
  local dir
  rm -rf "$tmp/src"
  for dir in "$top_srcdir"/src/*/; do
    mkdir -p "$tmp/src/$(basename "$dir")"
    cp "$dir"*.[ch] "$tmp/src/$(basename "$dir")/"
  done
}

plant
printf '#include "cli/commands.h"\n' >>"$tmp/src/base/util.h"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: base/util.h including cli/commands.h is refused"
line=$(wc -l <"$tmp/src/base/util.h")
ok "... naming the file, its line and both layers" \
  grep -Fq "src/base/util.h:$line: includes \"cli/commands.h\": base may not include cli" "$tmp/found"

plant
printf '#include "run/runner.h"\n' >>"$tmp/src/host/registry.h"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: a header of host including one of run is refused"

# procs/ (the worker and rank processes) needs nothing of run/: what it
# needs of the runner comes in procs/rank_service.h, filled by run/.
plant
printf '#include "run/runner_state.h"\n' >>"$tmp/src/procs/ranks.c"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: procs/ranks.c including run/runner_state.h is refused"
line=$(wc -l <"$tmp/src/procs/ranks.c")
ok "... naming the file, its line and both layers" \
  grep -Fq "src/procs/ranks.c:$line: includes \"run/runner_state.h\": procs may not include run" "$tmp/found"

plant
printf 'static double planted(void) { return runner_now(); }\n' >>"$tmp/src/procs/ranks.c"
check_calls "$tmp/src" >"$tmp/found"
line=$(wc -l <"$tmp/src/procs/ranks.c")
is "$(cat "$tmp/found")" "src/procs/ranks.c:$line: calls runner_now, which run/ defines; procs/ calls the runner only through procs/rank_service.h" \
  "planted: procs/ranks.c calling runner_now is refused, naming the file and line"

plant
printf '#include "base/stats.h"\n' >>"$tmp/src/base/util.h"
printf '#include "base/util.h"\n' >>"$tmp/src/base/stats.h"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: two headers of one folder that include each other are refused"
ok "... naming both" bash -c "grep -Fq '  base/util.h' '$tmp/found' && grep -Fq '  base/stats.h' '$tmp/found'"

plant
printf '#include "util.h"\n' >>"$tmp/src/base/stats.c"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: an include that names no folder is refused"

plant
printf 'static void planted(const rb_plugin *p, void *s) { p->teardown(s); }\n' >>"$tmp/src/run/judge.c"
check_gate "$tmp/src" >"$tmp/found"
line=$(wc -l <"$tmp/src/run/judge.c")
is "$(cat "$tmp/found")" "src/run/judge.c:$line: calls p->teardown directly; a strategy is called through run/plugin_gate.h" \
  "planted: a teardown called from run/judge.c is refused, naming the file and line"

plant
mkdir "$tmp/src/extra"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: a folder that is not in the order is refused"

done_testing
