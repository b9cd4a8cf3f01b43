#!/usr/bin/env bash
# The generated bash completion, driven the way bash drives it: COMP_WORDS
# and COMP_CWORD set to a partial command line, the function `complete -p`
# names called, COMPREPLY read. And the zsh scripts parse (zsh -n).
#   complete.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
cd "$2" || exit 1 # file completion below completes paths of the source tree
dir=$build/share/bash-completion/completions
fail=0
# expect "WANTED WORDS" PROG WORD... : COMPREPLY (sorted, space-separated)
# for the command line PROG WORD... (the last word is being completed).
expect() {
  local want=$1; shift
  got=$(bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    fn=$(complete -p "$1" | sed "s/.*-F \([^ ]*\) .*/\1/")
    "$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$dir/$1" "$@" | sort | xargs)
  if [ "$got" != "$want" ]; then
    echo "FAIL: '$*<TAB>': got '$got', want '$want'"; fail=1
  fi
}
expect "report run" assay r
expect "help" assay hel
expect "--help --version" assay --
expect "manifest matrix" assay help ma
expect "--dry-run" assay run --dry
expect "annotate" assay store ann
expect "--replace" assay store ingest --rep
expect "json text" assay matrix --format ""
# A value is skipped when the option before it takes one: --platforms
# configs/platforms.json is not the command's argument, --format's value is.
expect "--platforms" assay matrix --platforms configs/platforms.json --platf
expect "configs" assay matrix --platforms conf
expect "configs/platforms.json" assay matrix --platforms configs/platf
expect "configs/quickstart.json" assay run --resume last configs/quick
expect "ingest ingests" assay store --store x.db ing
if [ -f "$dir/assay-ep" ]; then
  expect "mpi nccl rccl shm" assay-ep run --backend ""
  expect "nt" assay-ep run --copy n
  expect "--tokens" assay-ep probe --shape --tok
  expect "--tokens-per-rank" assay-ep routing --tok
  expect "probe" assay-ep p
fi
if [ -f "$dir/assay-coll" ]; then
  expect "all_gather all_reduce" assay-coll -O all_
  expect "all_gather all_reduce" assay-coll --collective all_
  expect "--maxbytes --minbytes" assay-coll -n 5 --m
  expect "avg max min prod sum" assay-coll -o ""
fi
if command -v zsh >/dev/null; then
  for f in "$build"/share/zsh/_*; do
    zsh -n "$f" || { echo "FAIL: zsh -n $f"; fail=1; }
  done
else
  echo "note: zsh not installed: the zsh scripts are not parsed"
fi
[ $fail = 0 ] && echo "ok: bash completion completes every partial line as expected"
exit $fail
