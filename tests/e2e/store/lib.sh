# Shared by the tests/e2e/store/t-*.sh scripts: a scratch folder, the
# assay binary, stores of the test's backend (S=$(store_new s), tests/lib/store.sh)
# and checks that say what they expected. Source it first:
#   . "$(dirname "$0")/lib.sh" "$@"
# A script with a line "# backends: sqlite" runs on SQLite only (CMakeLists.txt).
set -euo pipefail
ASSAY=$1
SRC=${ASSAY_SOURCE_DIR:?}
FIX=$SRC/tests/fixtures/ingest
. "$SRC/tests/lib/store.sh"
T=$(mktemp -d /tmp/assay-e2e-store.XXXXXX)
cleanup() {
  if [ -n "${CLEANUP:-}" ]; then eval "$CLEANUP" || true; fi
  store_cleanup
  chmod -R u+w "$T" 2>/dev/null || true
  rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
store_init "$T"
export LC_ALL=C

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run_assay EXPECTED_EXIT args...: run assay, keep stdout/stderr in out.txt/err.txt.
run_assay() {
  local want=$1
  shift
  set +e
  "$ASSAY" "$@" >"$T/out.txt" 2>"$T/err.txt"
  local rc=$?
  set -e
  if [ "$rc" != "$want" ]; then
    echo "--- stdout" >&2
    cat "$T/out.txt" >&2
    echo "--- stderr" >&2
    cat "$T/err.txt" >&2
    fail "assay $* exited $rc, expected $want"
  fi
}

# q STORE SQL: one query against a store (sqlite3 or psql, rows |-separated).
q() {
  store_sql "$1" "$2"
}

expect_eq() {
  [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

expect_grep() {
  grep -Eq -- "$1" "$2" || { cat "$2" >&2; fail "$2 has no line matching: $1"; }
}
