#!/usr/bin/env bash
# Store scenario runner: runs the shell commands of one tests/store/*.scn
# file in order against fresh stores and compares the transcript with the
# .out file next to it. Each "$ " line runs with `assay` being the binary
# under test, $DB, $DB2 and $DB3 fresh stores of the test's backend
# (tests/lib/store.sh: SQLite files, or PostgreSQL databases in the NAME@pg
# variant), `store_sql STORE SQL` and `store_exists STORE` to look inside
# them, and $TMP a scratch folder; the transcript has the command, its
# stdout, its stderr (lines prefixed "stderr: ") and "[exit N]". Run ids are
# replaced by RUNID, the stores' paths or URLs by $DB, $DB2, $DB3, and the
# scratch folder by $TMP, so one .out serves both backends. A scenario with
# a line "# backends: sqlite" runs on SQLite only (tests/store/CMakeLists.txt).
# ASSAY_GOLDEN_UPDATE=1 rewrites the .out file (read the diff before committing).
set -u
bin=$1
scn=$2
src=${ASSAY_SOURCE_DIR:?}
out=${scn%.scn}.out
TMP=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/store.sh
. "$here/../lib/store.sh"
trap 'store_cleanup; rm -rf "$TMP"' EXIT
store_init "$TMP"
DB=$(store_new store) && DB2=$(store_new store2) && DB3=$(store_new store3) || exit 1
export DB DB2 DB3 TMP
assay() { "$bin" "$@"; }
export -f assay store_sql store_exists
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
perl -pi -e 's/\Q$ENV{DB3}\E/\$DB3/g; s/\Q$ENV{DB2}\E/\$DB2/g; s/\Q$ENV{DB}\E/\$DB/g' "$got"
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
