#!/bin/bash
# tests/tune/test_tune_hostile.sh: what `redbench tune` writes takes no
# structure from strangers' texts, and no output destroys an input.
#  - The experiment's folder and file name, holding line breaks and a
#    `[run ...]` line, add no section to the tuned experiment, which loads.
#  - Groups that differ only by distribution or by bins get a run each,
#    under names of their own; a long run name and a long path make no
#    line longer than the reader takes.
#  - A plugin's choice words holding '#' are written and read back; its
#    defaults holding ',' or ' ;' are left out, and read back as the
#    defaults (words/choice-words.c).
#  - A loose plugin is named so that it still resolves when its file is
#    found in another folder; a plugin of a pack whose name is not one word
#    is named so that it resolves.
#  - -o and -m naming one file, or either naming the experiment (through a
#    link, or another spelling of its path), are refused before anything
#    runs; a tune whose candidates all fail, or interrupted before its
#    first winner, keeps the previous files and says why; the tuned
#    experiment has no `output`.
#  - Its summary, --dry-run and "has errors" line print no control byte of
#    a file name raw.
. "$top_srcdir/tests/lib.sh"
cd "$top_builddir"
words=$top_builddir/tests/tune/words/dir
crashers=$top_builddir/tests/run/crashers/dir
[ -d "$words" ] && [ -d "$crashers" ] || skip_all "test plugins not built"
plan 32
longest=199

quick() { experiment_header "$1"; printf '[data]\nop = %s\ndtype = %s\nn = 1K\n' "${2:-sum}" "${3:-i32}"; }
lines_fit() { awk -v m="$longest" 'length($0) > m { bad = 1 } END { exit bad }' "$1"; }

# a folder and a file name that hold a line break and a section
nl='
'
dir="$tmp/x${nl}[run evil]${nl}plugin = kahan${nl}y"
mkdir -p "$dir"
exp="$dir/e${nl}[run evil2]${nl}plugin = kahan${nl}.ini"
{ quick hostile | grep -v '^name = '; printf '[run unrolled]\nplugin = unrolled\nlanes = 1, 4\n'; } >"$exp"
"$rb" tune -q -c "$exp" -o "$tmp/t1.ini" >"$tmp/out1" 2>&1
is "$?" 0 "tune of an experiment in a hostile folder exits 0"
is "$(grep -c '^\[' "$tmp/t1.ini")" 2 "the tuned file holds [experiment] and the winner's run only"
ok "no line of it is another section or plugin" sh -c "! grep -qE '^(\\[run evil|plugin = kahan)' '$tmp/t1.ini'"
ok "the folder's line breaks are written as escapes in the comment" \
  grep -qF '; The winners of `redbench tune -c '"$tmp"'/x\n[run evil]\nplugin = kahan\ny/e' "$tmp/t1.ini"
ok "the name's line breaks are written as escapes, on its one line" \
  grep -qxF 'name = e\n[run evil2]\nplugin = kahan\n-tuned' "$tmp/t1.ini"
"$rb" --dry-run -c "$tmp/t1.ini" >"$tmp/dry1" 2>&1
ok "the tuned file loads with its one winner" \
  sh -c "grep -q ': 1 configuration' '$tmp/dry1'"
"$rb" tune --dry-run -c "$exp" >"$tmp/plan1" 2>&1
ok "--dry-run prints the path's line breaks as escapes, on one line" \
  grep -qF 'x\n[run evil]\nplugin = kahan\ny/e\n[run evil2]\nplugin = kahan\n.ini: 1 data set' "$tmp/plan1"

# groups that differ only by distribution, only by bins
{ experiment_header dists; printf '[data]\nop = sum\ndtype = i32\nn = 1K\ndistribution = uniform, ones\n'
  printf '[run unrolled]\nplugin = unrolled\nlanes = 1, 4\n'; } >"$tmp/dists.ini"
"$rb" tune -q -c "$tmp/dists.ini" -o "$tmp/t2.ini" >/dev/null 2>&1
is "$(grep '^\[run ' "$tmp/t2.ini" | sort -u | wc -l)" 2 "groups by distribution: two runs of two names"
"$rb" --dry-run -c "$tmp/t2.ini" >"$tmp/dry2" 2>&1
is "$?" 0 "... and the tuned file loads"
{ experiment_header bins; printf '[data]\nop = histogram\ndtype = u8\nn = 1K\nbins = 16, 32\n'
  printf '[run unrolled]\nplugin = unrolled\nlanes = 1, 4\n'; } >"$tmp/bins.ini"
"$rb" tune -q -c "$tmp/bins.ini" -o "$tmp/t3.ini" >/dev/null 2>&1
is "$(grep '^\[run ' "$tmp/t3.ini" | sort -u | wc -l)" 2 "groups by bins: two runs of two names"
"$rb" --dry-run -c "$tmp/t3.ini" >/dev/null 2>&1
is "$?" 0 "... and the tuned file loads"

# a long run name and a long path
long=$(printf 'r%.0s' $(seq 1 185))
deep="$tmp/$(printf 'd%.0s' $(seq 1 120))/$(printf 'e%.0s' $(seq 1 120))"
mkdir -p "$deep"
{ quick long; printf '[run %s]\nplugin = unrolled\nlanes = 1, 4\n' "$long"; } >"$deep/long.ini"
"$rb" tune -q -c "$deep/long.ini" -o "$tmp/t4.ini" >/dev/null 2>&1
is "$?" 0 "tune of a long run name at a long path exits 0"
ok "every line of the tuned file fits the reader's $longest characters" lines_fit "$tmp/t4.ini"
"$rb" --dry-run -c "$tmp/t4.ini" >/dev/null 2>&1
is "$?" 0 "... and it loads"

# a plugin's choice words
{ quick words; printf '[run words]\nplugin = choice-words\nmode = plain, e#f, #g\n'; } >"$tmp/words.ini"
WORDS_OK='e#f' "$rb" tune -q -p "$words" -c "$tmp/words.ini" -o "$tmp/t5.ini" >/dev/null 2>&1
is "$?" 0 "tune of choice words exits 0"
ok "the word holding '#' is written as it is" grep -qx 'mode = e#f' "$tmp/t5.ini"
ok "the default holding ' ;' is left out, saying so" \
  sh -c "! grep -q '^style' '$tmp/t5.ini' && grep -q '^; style: the plugin.s default' '$tmp/t5.ini'"
"$rb" --dry-run -p "$words" -c "$tmp/t5.ini" >"$tmp/dry5" 2>&1
ok "... and they read back as the search ran them" grep -q 'mode=e#f style=x ;y' "$tmp/dry5"
{ quick words; printf '[run words]\nplugin = choice-words\nstyle = z\n'; } >"$tmp/words2.ini"
"$rb" tune -q -p "$words" -c "$tmp/words2.ini" -o "$tmp/t6.ini" >/dev/null 2>&1
"$rb" --dry-run -p "$words" -c "$tmp/t6.ini" >"$tmp/dry6" 2>&1
ok "the default holding ',' reads back as the default" grep -q 'mode=c,d style=z' "$tmp/dry6"

# a loose plugin, then found in another folder
mkdir -p "$tmp/loose" "$tmp/elsewhere"
cp "$words/choice-words.so" "$tmp/loose/"
"$rb" tune -q -p "$tmp/loose" -c "$tmp/words2.ini" -o "$tmp/t7.ini" >/dev/null 2>&1
ok "a loose plugin is written by its name" grep -qx 'plugin = choice-words' "$tmp/t7.ini"
mv "$tmp/loose/choice-words.so" "$tmp/elsewhere/"
"$rb" --dry-run -p "$tmp/elsewhere" -c "$tmp/t7.ini" >/dev/null 2>&1
is "$?" 0 "... which resolves when its file is found elsewhere"

# a pack whose folder's name is not one word
mkdir -p "$tmp/search/my pack, ;x"
cp "$words/choice-words.so" "$tmp/search/my pack, ;x/"
"$rb" tune -q -p "$tmp/search" -c "$tmp/words2.ini" -o "$tmp/t8.ini" >/dev/null 2>&1
"$rb" --dry-run -p "$tmp/search" -c "$tmp/t8.ini" >/dev/null 2>&1
ok "a plugin of a pack named with blanks, ',' and ';' is written so that it resolves" \
  test $? -eq 0 -a -s "$tmp/t8.ini"

# outputs that would destroy an input
{ experiment_header outputs "output=$tmp/sweep.json"; printf '[data]\nop = sum\ndtype = i32\nn = 1K\n'
  printf '[run unrolled]\nplugin = unrolled\nlanes = 1, 4\n'; } \
  >"$tmp/exp.ini"
cp "$tmp/exp.ini" "$tmp/exp.orig"
echo keep >"$tmp/same"
"$rb" tune -q -c "$tmp/exp.ini" -o "$tmp/same" -m "$tmp/same" >"$tmp/out8" 2>"$tmp/err8"
st=$?
ok "-o X -m X is refused before anything runs" \
  sh -c "[ $st -eq 2 ] && grep -q 'are the same file' '$tmp/err8' && ! grep -q measured '$tmp/out8' && [ \"\$(cat '$tmp/same')\" = keep ]"
ln -s "$tmp/exp.ini" "$tmp/link.ini"
"$rb" tune -q -c "$tmp/exp.ini" -o "$tmp/link.ini" >/dev/null 2>"$tmp/err9"
st=$?
ok "-o a link to the experiment is refused, the experiment kept" \
  sh -c "[ $st -eq 2 ] && grep -q 'is the experiment file' '$tmp/err9' && cmp -s '$tmp/exp.ini' '$tmp/exp.orig'"
mkdir -p "$tmp/sub"
"$rb" tune -q -c "$tmp/exp.ini" -o "$tmp/t9.ini" -m "$tmp/sub/../exp.ini" >/dev/null 2>"$tmp/err10"
st=$?
ok "-m the experiment by another path is refused, the experiment kept" \
  sh -c "[ $st -eq 2 ] && grep -q 'is the experiment file' '$tmp/err10' && cmp -s '$tmp/exp.ini' '$tmp/exp.orig'"
"$rb" tune -q -c "$tmp/exp.ini" -o "$tmp/t10.ini" >/dev/null 2>&1
ok "the tuned experiment carries no output" sh -c "[ -s '$tmp/t10.ini' ] && ! grep -q '^output' '$tmp/t10.ini'"

# candidates that all fail, an interruption before the first winner
echo previous >"$tmp/kept.ini"; echo '{"previous": 1}' >"$tmp/kept.json"
WORDS_OK=none "$rb" tune -q -p "$words" -c "$tmp/words.ini" -o "$tmp/kept.ini" >"$tmp/out11" 2>"$tmp/err11"
is "$?" 1 "a tune whose candidates all fail exits 1"
ok "... keeps the previous files" sh -c "[ \"\$(cat '$tmp/kept.ini')\" = previous ] && grep -q previous '$tmp/kept.json'"
ok "... and says why" grep -q '0 winners written (no configuration ran ok)' "$tmp/out11"
export SLOW_SUM_MARK=$tmp/started
printf '[experiment]\nwarmup = 0\nmin_time = 30\nmax_reps = 100000\n[data]\ndtype = i32\n[run slow]\nplugin = slow-sum\nn = 1K\nfault = yes\n' \
  >"$tmp/slow.ini"
"$rb" tune -q -p "$crashers" -c "$tmp/slow.ini" -o "$tmp/kept.ini" >"$tmp/out12" 2>&1 &
pid=$!
for _ in $(seq 1200); do [ -e "$SLOW_SUM_MARK" ] && break; sleep 0.05; done
kill -INT "$pid"
wait "$pid"; is "$?" 130 "a tune interrupted before its first winner exits 130"
ok "... keeps the previous files, saying why" \
  sh -c "[ \"\$(cat '$tmp/kept.ini')\" = previous ] && grep -q 'interrupted before its first winner' '$tmp/out12'"

# control bytes of a file name
esc=$(printf '\033')
cp "$tmp/exp.ini" "$tmp/e${esc}[2J.ini"
"$rb" tune -c "$tmp/e${esc}[2J.ini" -o "$tmp/t${esc}[2J.ini" >"$tmp/out13" 2>&1
"$rb" tune --dry-run -c "$tmp/e${esc}[2J.ini" >>"$tmp/out13" 2>&1
printf '[experiment]\nbogus = 1\n' >"$tmp/bad${esc}[2J.ini"
"$rb" tune -c "$tmp/bad${esc}[2J.ini" >>"$tmp/out13" 2>&1
"$rb" tune -c "$tmp/exp.ini" "a${esc}[2J" >>"$tmp/out13" 2>&1
"$rb" dispatch "$tmp/a.json" "b${esc}[2J" >>"$tmp/out13" 2>&1
ok "tune and dispatch print no ESC of a name raw (summary, --dry-run, has errors, usage)" \
  sh -c "! grep -q \"$esc\" '$tmp/out13' && [ \$(grep -c 'x1b\\[2J' '$tmp/out13') -ge 5 ]"
done_testing
