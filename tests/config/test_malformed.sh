#!/bin/bash
# tests/config/test_malformed.sh: every malformed experiment file in tests/config/malformed/
# makes redbench exit with status 2, run nothing, and print the error that
# tests/config/malformed/EXPECTED gives for it (file, line and message), and
# end with "redbench: FILE has errors; nothing was run". Then the
# files that cannot be read at all: a directory, a missing file, a dangling
# link, a file without read permission, a file whose reading fails.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
malformed=$top_srcdir/tests/config/malformed
expected=$malformed/EXPECTED
count=$(grep -vc '^#' "$expected")
plan $((count * 3 + 2 + 15))

# "FILE:LINE: error: ...MESSAGE..." (LINE 0: "FILE: error: ...") on stderr.
has_error() { # has_error STDERR-FILE PATH LINE MESSAGE
  local prefix="$2:$3: error: "
  [ "$3" = 0 ] && prefix="$2: error: "
  while IFS= read -r l; do
    [[ $l == "$prefix"* && $l == *"$4"* ]] && return 0
  done <"$1"
  echo "no line '$prefix...$4...' in:"; head -c 2000 "$1"; return 1
}

wrote=0
while IFS='|' read -r file line message; do
  case $file in '#'*|'') continue;; esac
  path=$malformed/$file
  "$rb" -q -c "$path" -o "$tmp/out.json" >"$tmp/stdout" 2>"$tmp/stderr"
  is "$?" 2 "$file: exit status 2"
  ok "$file:$line: $message" has_error "$tmp/stderr" "$path" "$line" "$message"
  is "$(tail -n 1 "$tmp/stderr")" "redbench: $path has errors; nothing was run" "$file: the closing line comes last"
  [ -e "$tmp/out.json" ] && wrote=$((wrote + 1))
  rm -f "$tmp/out.json"
done <"$expected"
is "$wrote" 0 "no malformed file produced a result file (nothing was run)"
is "$(ls "$malformed"/*.ini | wc -l)" "$count" "every file in tests/config/malformed/ has its expected error"

# Files that cannot be read.
check_unreadable() { # check_unreadable NAME PATH MESSAGE
  "$rb" -q -c "$2" >"$tmp/stdout" 2>"$tmp/stderr"
  is "$?" 2 "$1: exit status 2"
  ok "$1: names the file and says why" has_error "$tmp/stderr" "$2" 0 "$3"
  is "$(tail -n 1 "$tmp/stderr")" "redbench: $2 has errors; nothing was run" "$1: the closing line comes last"
}
mkdir "$tmp/a-directory.ini"
check_unreadable "a directory" "$tmp/a-directory.ini" "is a directory"
check_unreadable "a missing file" "$tmp/none.ini" "cannot open the experiment file: No such file"
ln -s "$tmp/nowhere.ini" "$tmp/dangling.ini"
check_unreadable "a dangling link" "$tmp/dangling.ini" "cannot open the experiment file: No such file"
cp "$top_srcdir/tests/cli/fixtures/small.ini" "$tmp/locked.ini" && chmod 000 "$tmp/locked.ini"
if [ "$(id -u)" = 0 ]; then
  skip "a file without read permission (root can read it anyway)"
  skip "a file without read permission: message"
  skip "a file without read permission: the closing line"
else
  check_unreadable "a file without read permission" "$tmp/locked.ini" "cannot open the experiment file: Permission denied"
fi
# Opening /proc/self/mem works, reading it at offset 0 fails (EIO), even for root.
if [ -r /proc/self/mem ]; then
  check_unreadable "a file whose reading fails" /proc/self/mem "cannot read the experiment file: Input/output error"
else
  skip "no /proc/self/mem"; skip "no /proc/self/mem"; skip "no /proc/self/mem"
fi
done_testing
