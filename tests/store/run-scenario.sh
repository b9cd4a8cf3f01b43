#!/usr/bin/env bash
# Store scenario runner: runs the shell commands of one tests/store/*.scn
# file in order against fresh stores and compares the transcript with the
# .out file next to it. Each "$ " line runs with `assay` being the binary
# under test, $DB and $DB2 fresh store paths and $TMP a scratch folder; the
# transcript has the command, its stdout, its stderr (lines prefixed
# "stderr: ") and "[exit N]". Run ids are replaced by RUNID and the scratch
# folder by $TMP.
# ASSAY_GOLDEN_UPDATE=1 rewrites the .out file (read the diff before committing).
set -u
bin=$1
scn=$2
src=${ASSAY_SOURCE_DIR:?}
out=${scn%.scn}.out
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export DB=$TMP/store.db DB2=$TMP/store2.db TMP
assay() { "$bin" "$@"; }
export -f assay
export bin
cd "$src" || exit 1
got=$TMP/transcript
: >"$got"
while IFS= read -r line; do
  case $line in
    '$ '*) ;;
    *) continue ;;
  esac
  cmd=${line#\$ }
  printf '$ %s\n' "$cmd" >>"$got"
  bash -c "$cmd" >"$TMP/o" 2>"$TMP/e"
  rc=$?
  cat "$TMP/o" >>"$got"
  sed 's/^/stderr: /' "$TMP/e" >>"$got"
  printf '[exit %d]\n' "$rc" >>"$got"
done <"$scn"
sed -E -i -e 's/[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}/RUNID/g' -e "s|$TMP|\$TMP|g" "$got"
if [ "${ASSAY_GOLDEN_UPDATE:-}" = 1 ]; then
  cp "$got" "$out"
  echo "updated $out"
  exit 0
fi
if ! diff -u "$out" "$got"; then
  echo "$scn: transcript differs from $out (want vs got)"
  exit 1
fi
