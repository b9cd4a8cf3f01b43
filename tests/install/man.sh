#!/usr/bin/env bash
# Every generated man page renders with no warning: `groff -ww` (all
# warnings) and `man -l` (as a reader sees it). And the pages are complete:
# one for each program, one per command of assay's command table (new
# commands get theirs without anyone listing them), and the file formats.
#   man.sh BUILD_DIR
set -u
build=$1
man=$build/share/man
fail=0
export ASAN_OPTIONS=detect_leaks=0 MANWIDTH=80 LC_ALL=C.UTF-8
want="assay.1 assay-suite.5 assay-thresholds.5"
for c in $("$build/bin/assay" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
  want="$want assay-$c.1"
done
for p in assay-ep assay-coll; do [ -x "$build/bin/$p" ] && want="$want $p.1"; done
n=0
for page in $want; do
  f=$man/man${page##*.}/$page
  [ -s "$f" ] || { echo "FAIL: no page $f"; fail=1; continue; }
  n=$((n + 1))
  w=$(groff -ww -man -Tutf8 -z "$f" 2>&1)
  [ -z "$w" ] || { echo "FAIL: groff -ww $page:"; echo "$w"; fail=1; }
  out=$(man --warnings=w -l "$f" 2>"$build/man-err.txt")
  [ -s "$build/man-err.txt" ] && { echo "FAIL: man -l $page:"; cat "$build/man-err.txt"; fail=1; }
  grep -q "^NAME" <<<"$out" || { echo "FAIL: man -l $page has no NAME section"; fail=1; }
done
rm -f "$build/man-err.txt"
# Every page in the folder is one that should be there (no stale page).
for f in "$man"/man[15]/*.[15]; do
  case " $want " in *" $(basename "$f") "*) ;; *) echo "FAIL: unexpected page $f"; fail=1 ;; esac
done
[ $fail = 0 ] && echo "ok: $n pages render with no warning"
exit $fail
