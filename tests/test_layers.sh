#!/bin/bash
# tests/test_layers.sh: the include order of src/ (docs/architecture.md):
# a folder's files include only files of their own folder and of the
# folders before it, base < host < config < run < plot < report < compare <
# tune < cli; and every folder of src/ has its place in that order.
. "$top_srcdir/tests/lib.sh"
layers=(base host config run plot report compare tune cli)
plan $(( ${#layers[@]} + 1 ))

rank() {
  local k
  for k in "${!layers[@]}"; do [ "${layers[k]}" = "$1" ] && { echo "$k"; return; }; done
  echo -1
}

folders=$(cd "$top_srcdir/src" && for d in */; do echo "${d%/}"; done)
unplaced=""
for d in $folders; do [ "$(rank "$d")" -ge 0 ] || unplaced="$unplaced $d"; done
is "$unplaced" "" "every folder of src/ has its place in the order"

for layer in "${layers[@]}"; do
  own=$(rank "$layer")
  wrong=""
  for file in "$top_srcdir/src/$layer"/*.[ch]; do
    [ -e "$file" ] || continue
    while IFS=: read -r line folder; do
      [ "$(rank "$folder")" -gt "$own" ] && wrong="$wrong src/$layer/${file##*/}:$line includes $folder/;"
    done < <(grep -n '^#include "[a-z_]*/' "$file" | sed 's|^\([0-9]*\):#include "\([a-z_]*\)/.*|\1:\2|')
  done
  is "$wrong" "" "src/$layer/ includes no folder after it"
done
done_testing
