#!/bin/bash
# tests/source/test_layers.sh: the include order of src/ (docs/architecture.md).
# Each folder of src/ is a layer, and a file includes only files of its own
# layer and of the layers before it; no files include each other in a
# loop. A new folder is placed in `layers` below, in its place in the order.
# The check runs on src/, and on copies of src/ with a planted include from
# a lower layer to a higher one, a planted loop and an include that names no
# folder, each of which it must refuse, naming the file and line.
. "$top_srcdir/tests/lib.sh"

# The layers, lowest first: a file of one may include the ones before it.
layers="base host config run plot report compare history tune cli"

# The place of a layer in the order, or nothing when it is not a layer.
rank_of() {
  local k=0 layer
  for layer in $layers; do
    [ "$layer" = "$1" ] && { echo "$k"; return; }
    k=$((k + 1))
  done
}

# check_layers SRC: every include of SRC/*/*.[ch] against the order, and the
# includes between files for loops. Prints each mistake as "FILE:LINE: ..."
# and returns 1 when there is one.
check_layers() {
  local src=$1 bad=0 dir folder file n target layer rank target_rank
  : >"$tmp/edges"
  for dir in "$src"/*/; do
    folder=$(basename "$dir")
    rank=$(rank_of "$folder")
    if [ -z "$rank" ]; then
      echo "src/$folder/: a folder that is not in the order ($layers); give it its place in tests/source/test_layers.sh"
      bad=1
      continue
    fi
    for file in "$dir"*.[ch]; do
      [ -e "$file" ] || continue
      while IFS=: read -r n target; do
        target=${target#*\"}; target=${target%%\"*}
        case $target in
        config.h) continue ;; # the build's own (configure)
        */*) ;;
        *)
          echo "src/$folder/${file##*/}:$n: includes \"$target\", which names no folder (write \"FOLDER/${target}\")"
          bad=1
          continue ;;
        esac
        layer=${target%%/*}
        target_rank=$(rank_of "$layer")
        if [ -z "$target_rank" ]; then
          echo "src/$folder/${file##*/}:$n: includes \"$target\", of no layer ($layers)"
          bad=1
        elif [ "$target_rank" -gt "$rank" ]; then
          echo "src/$folder/${file##*/}:$n: includes \"$target\": $folder may not include $layer, which comes after it ($layers)"
          bad=1
        fi
        echo "$folder/${file##*/} $target" >>"$tmp/edges"
      done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file")
    done
  done
  # tsort names the files of a loop on standard error
  if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loop"; then
    echo "files that include each other in a loop:"
    sed -n 's/^tsort: //p' "$tmp/loop" | grep -v 'input contains a loop' | sed 's/^/  /'
    bad=1
  fi
  return $bad
}

plan 8

check_layers "$top_srcdir/src" >"$tmp/found"
is "$?" 0 "src/: no include from a lower layer to a higher one, and no loop"
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
mkdir "$tmp/src/extra"
check_layers "$tmp/src" >"$tmp/found"
is "$?" 1 "planted: a folder that is not in the order is refused"

done_testing
