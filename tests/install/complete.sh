#!/usr/bin/env bash
# The generated bash completion, driven the way bash drives it: COMP_WORDS
# and COMP_CWORD set to a partial command line, the function `complete -p`
# names called, COMPREPLY read. And zsh's: each parses (zsh -n) and asks the
# completion system for what it should (below).
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
  expect "avg max min mulsum prod sum" assay-coll -o ""
fi
# zsh: each script parses, and its function, called with words and CURRENT
# set as the completion system sets them, asks for what it should (the
# completion system's functions are stubs that print their arguments).
cat >"$build/zsh-stubs.zsh" <<'ZSH'
_describe() { print -r -- "describe ${(j: :)${(P)${@[-1]}}}" }
_arguments() { print -r -- "arguments $*" }
_values() { print -r -- "values $*" }
_files() { print files }
source "$1" >/dev/null; shift
words=("$@"); CURRENT=$#
_${${words[1]}//-/_}
ZSH
zexpect() { # zexpect TEXT PROG WORD...: the output contains TEXT
  local want=$1 prog=$2 out
  out=$(zsh -f "$build/zsh-stubs.zsh" "$build/share/zsh/_$prog" "${@:2}" 2>&1)
  grep -qF -- "$want" <<<"$out" || { echo "FAIL: zsh '${*:2}<TAB>': no '$want' in: ${out:0:300}"; fail=1; }
}
if command -v zsh >/dev/null; then
  for f in "$build"/share/zsh/_*; do
    zsh -n "$f" || { echo "FAIL: zsh -n $f"; fail=1; }
  done
  zexpect "describe detect:" assay ""
  zexpect "values subcommand ingest export" assay store ""
  zexpect " --replace[" assay store ingest --re
  zexpect "--format[what is printed" assay matrix --format ""
  zexpect " --platforms[" assay matrix --pl
  if [ -f "$build/share/zsh/_assay-ep" ]; then
    zexpect "--backend[the backend]:B:(mpi shm nccl rccl)" assay-ep run --backend ""
    zexpect "--tokens-per-rank[" assay-ep routing --to
  fi
  if [ -f "$build/share/zsh/_assay-coll" ]; then
    zexpect "(-O --collective)--collective[" assay-coll -O ""
  fi
  rm -f "$build/zsh-stubs.zsh"
else
  echo "note: zsh not installed: the zsh scripts are not parsed"
fi
[ $fail = 0 ] && echo "ok: bash and zsh completion complete every partial line as expected"
exit $fail
