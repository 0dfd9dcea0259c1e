#!/bin/bash
# tests/cli/test_readme.sh: what README.md and the manual page show runs as
# pasted. The example experiment of README.md ("## Experiment files") and
# the manual page's (EXPERIMENT FILES, its roff escapes undone) are taken
# from the documents as they are: each is valid (--dry-run), and runs, with
# -D making its sizes and times small, every row ok. README's first command
# updates apt's lists and installs every package the build, `make check`
# and `plot` use; its -r/-D example is valid. Its sample output (between
# the readme-sample markers) has the shape of what tools/readme-sample.sh
# makes now: the same columns, rows and statuses (the times may differ), so
# that it cannot go stale unseen; run the tool to remake it.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
readme=$top_srcdir/README.md
man=$top_builddir/man/redbench.1
[ -n "${JQ:-}" ] || skip_all "jq not found"
plan 20
small=(-D n=1K -D warmup=1 -D min_time=0.01 -D max_reps=20 -D min_reps=5)

# README.md: the indented block after "## Experiment files".
awk '/^## Experiment files/ {on = 1; next}
     on && /^    / {print substr($0, 5); seen = 1; next}
     on && /^$/ {print; next}
     on && seen {exit}' "$readme" >"$tmp/readme.ini"
ok "README.md has an example experiment" grep -q '^\[run ' "$tmp/readme.ini"
"$rb" --dry-run -c "$tmp/readme.ini" >"$tmp/out" 2>"$tmp/err"
is "$?" 0 "README's example experiment is valid as pasted"
ok "... it sweeps 6 configurations" grep -q ': 6 configurations$' "$tmp/out"
"$rb" -q -c "$tmp/readme.ini" "${small[@]}" -o "$tmp/readme.json" >/dev/null 2>"$tmp/err"
is "$?" 0 "... and runs (small sizes and times given with -D)"
is "$("$JQ" -r '[.results[].status] | unique | join(" ")' "$tmp/readme.json")" "ok" "... every row ok"

# The manual page: from ".nf/.RS" after EXPERIMENT FILES to ".RE".
awk '/^\.SH EXPERIMENT FILES/ {on = 1}
     on && /^\.RS/ {copy = 1; next}
     copy && /^\.RE/ {exit}
     copy {print}' "$man" | sed 's/\\-/-/g' >"$tmp/man.ini"
ok "the manual page has an example experiment" grep -q '^\[run ' "$tmp/man.ini"
(cd "$tmp" && "$rb" --plugin-path "$top_builddir/plugins" --dry-run -c man.ini >"$tmp/out" 2>"$tmp/err")
is "$?" 0 "the manual page's example experiment is valid as pasted"
(cd "$tmp" && "$rb" -q --plugin-path "$top_builddir/plugins" -c man.ini "${small[@]}" >/dev/null 2>"$tmp/err")
is "$?" 0 "... and runs (small sizes and times given with -D)"
is "$("$JQ" -r '[.results[].status] | unique | join(" ")' "$tmp/results.json")" "ok" "... writing results.json as its output key says, every row ok"

# README's first command.
first=$(grep -m 1 '^    apt-get' "$readme")
ok "README's first command updates apt's lists before installing" grep -q '^    apt-get update && apt-get install -y ' <<<"$first"
for package in build-essential "autoconf automake libtool pkg-config" "libinih-dev jq" gnuplot-nox; do
  ok "... and installs $package" grep -q " $package" <<<"$first"
done
example=$(grep -m 1 "^    redbench -c conf/default.ini -r " "$readme" | sed 's/^    redbench //')
eval "set -- $example"
"$rb" --dry-run -c "$top_srcdir/$2" "${@:3}" >/dev/null 2>"$tmp/err"
is "$?" 0 "README's -r/-D example is valid: $example"
# README's sample output, against the tool's output now (short times).
sample() { sed -n '/^<!-- readme-sample: begin -->$/,/^<!-- readme-sample: end -->$/p' "$readme" | sed '1d;$d'; }
# The header's columns, then each cpu run's row (run, status): the rows of
# the GPU runs depend on which packs are built and whether a GPU is there.
shape() {
  awk '/^ +# +run / { $1 = $1; print "columns:", $0 } /^ +[0-9]+  +cpu-/ { print $2, $NF }'
}
sample >"$tmp/readme-sample"
ok "README.md has a sample between the readme-sample markers" grep -q '^    \$ ./redbench -c conf/default.ini$' "$tmp/readme-sample"
# One round of short times: the shape (columns, rows, statuses) is a round's.
"$top_srcdir/tools/readme-sample.sh" --print -C "$top_builddir" -D rounds=1 -D warmup=1 -D min_time=0.01 -D max_reps=20 \
  >"$tmp/now-sample" 2>"$tmp/err"
is "$?" 0 "tools/readme-sample.sh --print runs the README's example"
shape <"$tmp/readme-sample" >"$tmp/readme-shape"
shape <"$tmp/now-sample" >"$tmp/now-shape"
is "$(head -1 "$tmp/readme-shape")" "$(head -1 "$tmp/now-shape")" "... with the README's columns"
is "$(grep -vc '^columns:' "$tmp/readme-shape")" "$(grep -vc '^columns:' "$tmp/now-shape")" "... as many rows of the cpu runs"
ok "... each with the README's status (else run tools/readme-sample.sh)" diff "$tmp/readme-shape" "$tmp/now-shape"
done_testing
