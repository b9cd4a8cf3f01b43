#!/usr/bin/env bash
# Doc meta-test: the runnable examples of README.md and docs/*.md produce what
# the page says (as jq's manual is its test suite). A runnable example is a
# fenced block with the info string `console`: each `$ ` line is a command
# (a trailing `\` continues it on the next line), the lines after it are its
# expected stdout and stderr, and a last line `[exit N]` is its exit code
# (0 when absent). Commands run with the built `assay` first on PATH, in a
# scratch folder that sees the repository's files, so they cannot change the
# tree. Other fenced blocks are illustrations and are not run.
set -u
assay=${ASSAY_BIN:?}
src=${ASSAY_SOURCE_DIR:?}
bindir=$(cd "$(dirname "$assay")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"
for f in "$src"/*; do ln -s "$f" "$tmp/work/$(basename "$f")"; done
fail=0 n=0
check() { # file line command expected-file
  local file=$1 line=$2 cmd=$3 want=$4 code=0 got_code
  if tail -n1 "$want" | grep -Eq '^\[exit [0-9]+\]$'; then
    code=$(tail -n1 "$want" | tr -dc 0-9)
    sed -i '$d' "$want"
  fi
  (cd "$tmp/work" && PATH="$bindir:$PATH" bash -c "$cmd") >"$tmp/got" 2>&1
  got_code=$?
  n=$((n + 1))
  if ! diff -u "$want" "$tmp/got" >"$tmp/diff" || [ "$got_code" != "$code" ]; then
    echo "FAIL: $file:$line: \$ $cmd"
    [ "$got_code" = "$code" ] || echo "  exit $got_code, the page says $code"
    cat "$tmp/diff"
    fail=1
  fi
}
for file in "$src"/README.md "$src"/docs/*.md; do
  rel=${file#"$src"/}
  inblock=0 cmd="" start=0 lineno=0 cont=0
  : >"$tmp/want"
  while IFS= read -r l || [ -n "$l" ]; do
    lineno=$((lineno + 1))
    if [ $inblock = 0 ]; then
      [ "$l" = '```console' ] && inblock=1
      continue
    fi
    if [ $cont = 1 ]; then
      cmd="${cmd%\\}${l}"
      case $l in *\\) ;; *) cont=0 ;; esac
      continue
    fi
    if [ "$l" = '```' ] || [ "${l#\$ }" != "$l" ]; then
      [ -n "$cmd" ] && check "$rel" "$start" "$cmd" "$tmp/want"
      cmd="" ; : >"$tmp/want"
      if [ "$l" = '```' ]; then inblock=0; continue; fi
      cmd=${l#\$ } start=$lineno
      case $l in *\\) cont=1 ;; esac
      continue
    fi
    printf '%s\n' "$l" >>"$tmp/want"
  done <"$file"
done
[ $n -gt 0 ] || { echo "FAIL: no runnable examples found"; exit 1; }
[ $fail = 0 ] && echo "ok: $n runnable examples produce what their pages say"
exit $fail
