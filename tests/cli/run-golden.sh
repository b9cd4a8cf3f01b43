#!/usr/bin/env bash
# Golden CLI test runner: runs one tests/cli/**/*.t case from the source root
# and compares exit code, stdout and stderr with the expected text.
#
# Case file format (docs/development.md):
#   # comment lines
#   args: <arguments to assay, shell-quoted; $ASSAY_SOURCE_DIR etc. expand>
#   exit: <expected exit code>
#   env: NAME=VALUE          (optional, repeatable)
#   stdin: <file>            (optional, relative to the source root)
#   setup: <arguments>       (optional, repeatable) assay runs these first, each
#                            must exit 0 (e.g. an ingest into $STORE)
#   --- stdout               exact expected stdout follows (to the next ---)
#   --- stderr               exact expected stderr follows
#   --- stdout-grep          each following line is an ERE that must match stdout
#   --- stderr-grep          the same for stderr
# $STORE in args and setup lines is a fresh store on the test's backend
# (tests/lib/store.sh: an SQLite file, or a PostgreSQL database for the
# NAME@pg variant); where the output names it, it reads $STORE.
# ASSAY_GOLDEN_UPDATE=1 rewrites the exact sections from the actual output.
set -u
assay=$1
case_file=$2
src=${ASSAY_SOURCE_DIR:?}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
# shellcheck source=../lib/store.sh
. "$here/../lib/store.sh"
trap 'store_cleanup; rm -rf "$tmp"' EXIT
store_init "$tmp"
STORE=""
if grep -Eq '^(args|setup): .*\$STORE' "$case_file"; then
  STORE=$(store_new store) || exit 1
fi
export STORE

args=$(sed -n 's/^args: //p' "$case_file" | head -n1)
want_exit=$(sed -n 's/^exit: //p' "$case_file" | head -n1)
stdin_file=$(sed -n 's/^stdin: //p' "$case_file" | head -n1)
[ -n "$want_exit" ] || { echo "$case_file: missing 'exit:' line"; exit 1; }

# Split into sections.
awk -v dir="$tmp" '
  /^--- (stdout|stderr|stdout-grep|stderr-grep)$/ { sec = $2; printf "" > (dir "/want." sec); next }
  sec != "" { print > (dir "/want." sec) }
' "$case_file"

envs=()
while IFS= read -r line; do envs+=("$line"); done < <(sed -n 's/^env: //p' "$case_file")

cd "$src" || exit 1
export ASSAY_BIN="$assay"
while IFS= read -r line; do
  eval "set -- $line"
  if ! env "${envs[@]}" "$assay" "$@" </dev/null >"$tmp/setup.out" 2>&1; then
    echo "setup failed: assay $line"; cat "$tmp/setup.out"; exit 1
  fi
done < <(sed -n 's/^setup: //p' "$case_file")
eval "set -- $args"
if [ -n "$stdin_file" ]; then
  env "${envs[@]}" "$assay" "$@" <"$stdin_file" >"$tmp/out" 2>"$tmp/err"
else
  env "${envs[@]}" "$assay" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
fi
got_exit=$?
# The store's path or URL reads $STORE (the same text on both backends).
if [ -n "$STORE" ]; then
  for f in "$tmp/out" "$tmp/err"; do
    STORE=$STORE perl -pi -e 's/\Q$ENV{STORE}\E/\$STORE/g' "$f"
  done
fi

if [ "${ASSAY_GOLDEN_UPDATE:-}" = 1 ]; then
  awk -v out="$tmp/out" -v err="$tmp/err" -v code="$got_exit" '
    function dump(f,   l) { while ((getline l < f) > 0) print l; close(f) }
    /^exit: / { print "exit: " code; next }
    /^--- stdout$/ { print; dump(out); skip = 1; next }
    /^--- stderr$/ { print; dump(err); skip = 1; next }
    /^--- / { skip = 0 }
    !skip { print }
  ' "$case_file" >"$tmp/new" && cp "$tmp/new" "$case_file"
  echo "updated $case_file"
  exit 0
fi

fail=0
if [ "$got_exit" != "$want_exit" ]; then
  echo "exit code: want $want_exit, got $got_exit"
  fail=1
fi
for s in stdout stderr; do
  f=out; [ $s = stderr ] && f=err
  if [ -e "$tmp/want.$s" ] && ! diff -u "$tmp/want.$s" "$tmp/$f" >"$tmp/diff"; then
    echo "$s differs (want vs got):"; cat "$tmp/diff"; fail=1
  fi
  if [ -e "$tmp/want.$s-grep" ]; then
    while IFS= read -r re; do
      [ -n "$re" ] || continue
      if ! grep -Eq -- "$re" "$tmp/$f"; then
        echo "$s has no line matching: $re"; fail=1
      fi
    done <"$tmp/want.$s-grep"
  fi
done
if [ ! -e "$tmp/want.stdout" ] && [ ! -e "$tmp/want.stdout-grep" ] && [ ! -e "$tmp/want.stderr" ] && [ ! -e "$tmp/want.stderr-grep" ]; then
  echo "$case_file: no expected output section"; fail=1
fi
if [ $fail = 1 ]; then
  echo "--- stdout was:"; head -c 4000 "$tmp/out"
  echo "--- stderr was:"; head -c 4000 "$tmp/err"
fi
exit $fail
