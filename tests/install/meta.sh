#!/usr/bin/env bash
# Meta-test of what the build generates from the option tables: for each
# program (assay, assay-ep, assay-coll) and each command and subcommand, the
# options its --help lists (the parser's table: tests/docs/options.sh checks
# help against the table for assay) are exactly those that
#   - its man page (share/man/man1, the .TP labels) documents,
#   - bash completion offers after "PROG CMD [SUB] --" (driving the generated
#     complete function),
#   - the zsh completion (_PROG) names,
# and every option any of them names is one the parser accepts. Adding a row
# to a table without regenerating, or a generator that drops a row kind,
# fails here.
#   meta.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
share=$build/share
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
export ASAN_OPTIONS=detect_leaks=0
say() { echo "FAIL: $*"; fail=1; }

# Long option names of help text on stdin: its option label lines.
labels() { grep -oE '^  (-[A-Za-z0-9], )?--[A-Za-z0-9_-]+' | grep -oE -- '--[A-Za-z0-9_-]+' | sort -u; }
# Long option names of a roff page: the line after each .TP.
man_labels() {
  awk '/^\.TP$/ { getline; print }' "$1" | sed 's/\\-/-/g; s/\\f[BRI]//g' |
    grep -oE '^(-[A-Za-z0-9], )?--[A-Za-z0-9_-]+' | grep -oE -- '--[A-Za-z0-9_-]+' | sort -u
}
# What bash completion offers for the words "$@" (the last one is completed).
complete_bash() {
  local prog=$1; shift
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    fn=$(complete -p "$1" | sed "s/.*-F \([^ ]*\) .*/\1/")
    "$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$share/bash-completion/completions/$prog" "$prog" "$@" | sort -u
}
# Whether PROG accepts option OPT in context CTX (words): the parser reads it
# and stops at the next, unknown option; nothing runs.
accepts() {
  local bin=$1 opt=$2; shift 2
  (cd "$tmp" && "$bin" "$@" "$opt" 1 --zz-not-an-option </dev/null >/dev/null 2>"$tmp/err")
  ! grep -q "unknown option '$opt'" "$tmp/err" && [ -s "$tmp/err" ]
}

check_program() {
  local bin=$1 prog; prog=$(basename "$1")
  local contexts=() pages
  pages=$("$bin" --generate man-pages) || { say "$prog --generate man-pages"; return; }
  if "$bin" --help 2>/dev/null | grep -q '^commands:'; then
    for c in $("$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
      contexts+=("$c")
      "$bin" help "$c" >"$tmp/help" 2>/dev/null || "$bin" "$c" --help >"$tmp/help"
      # Subcommands: each "usage: PROG CMD SUB" block after the command's own.
      for s in $(sed -n "s/^usage: $prog $c \([a-z][a-z-]*\) .*/\1/p; s/^usage: $prog $c \([a-z][a-z-]*\)$/\1/p" "$tmp/help" | sort -u); do
        [ "$s" != "<subcommand>" ] && contexts+=("$c $s")
      done
    done
  else
    contexts=("")
  fi
  local all_help="$tmp/$prog.help-all"; : >"$all_help"
  for ctx in "${contexts[@]}"; do
    local words=() page=$prog
    read -ra words <<<"$ctx"
    # The help of exactly this context: its own block.
    if [ -z "$ctx" ]; then "$bin" --help; else "$bin" "${words[@]}" --help; fi 2>/dev/null |
      awk -v n=0 '/^usage: / { n++ } n <= 1' | labels >"$tmp/h"
    cat "$tmp/h" >>"$all_help"
    if grep -qx "$prog-${words[0]:-}" <<<"$pages"; then page=$prog-${words[0]}; fi
    man_labels "$share/man/man1/$page.1" >"$tmp/m"
    comm -23 "$tmp/h" "$tmp/m" | while read -r o; do echo "FAIL: $prog $ctx: $o is in --help, not in $page(1)"; done | grep . && fail=1
    complete_bash "$prog" "${words[@]}" -- | grep -- '^--' >"$tmp/b"
    { cat "$tmp/h"; echo --help; } | sort -u >"$tmp/hb"
    if ! diff "$tmp/hb" "$tmp/b" >"$tmp/d"; then
      say "$prog $ctx: bash completion of '--' differs from --help (< help, > completion):"; cat "$tmp/d"
    fi
    for o in $(sort -u "$tmp/h" "$tmp/b"); do
      [ "$o" = --help ] && continue
      accepts "$bin" "$o" "${words[@]}" || say "$prog $ctx: $o (help or completion) is not accepted: $(cat "$tmp/err")"
    done
  done
  sort -u "$all_help" -o "$all_help"
  # What the pages document beyond --help (deprecated spellings): accepted
  # by some command.
  for page in $pages; do man_labels "$share/man/man1/$page.1"; done | sort -u >"$tmp/m-all"
  for o in $(comm -13 "$all_help" "$tmp/m-all"); do
    ok=0
    for ctx in "${contexts[@]}"; do
      read -ra words <<<"$ctx"
      accepts "$bin" "$o" "${words[@]}" && ok=1 && break
    done
    [ $ok = 1 ] || say "$prog: $o is in a man page but no command accepts it"
  done
  grep -oE -- "--[A-Za-z0-9_-]+\[" "$share/zsh/_$prog" | tr -d '[' | sort -u >"$tmp/z"
  grep -oE -- ",--[A-Za-z0-9_-]+\}" "$share/zsh/_$prog" | tr -d ',}' | sort -u >>"$tmp/z"
  sort -u "$tmp/z" -o "$tmp/z"
  if ! diff "$all_help" "$tmp/z" >"$tmp/d"; then
    say "$prog: zsh completion options differ from --help (< help, > zsh):"; cat "$tmp/d"
  fi
  echo "$prog: ${#contexts[@]} contexts, $(wc -l <"$all_help") options checked"
}

for p in assay assay-ep assay-coll; do
  if [ -x "$build/bin/$p" ]; then check_program "$build/bin/$p"
  elif [ "$p" = assay ]; then say "no $build/bin/assay"
  else echo "note: $p not built (no MPI): skipped"; fi
done
[ $fail = 0 ] && echo "ok: help, man pages, bash and zsh completion name the same options"
exit $fail
