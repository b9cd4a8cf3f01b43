#!/usr/bin/env bash
# `assay run` and its report: written into the run folder at the end and
# announced in the summary; --no-report writes none; a report that cannot be
# written (a workload deletes the store, so the report cannot read it; or a
# folder stands where report.html goes) is an infrastructure error that turns
# a passed run into exit 5 but leaves a failed run's exit code (3) alone, and
# the store keeps the run's own outcome.
#   run-report.sh ASSAY
set -euo pipefail
assay=$1
T=$(mktemp -d /tmp/assay-run-report.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# suite NAME ARGV_JSON: a command suite of one case.
suite() {
  cat >"$1.json" <<JSON
{"kind": "command", "name": "$1", "cluster": "t", "combos": {"only": {}},
 "argv": $2, "parser": "none"}
JSON
}
runs() { sqlite3 -batch -noheader "$1" "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1"; }

suite ok '["true"]'
"$assay" run --quiet --store ok.db --out out ok.json >out.txt 2>err.txt || fail "the passing run failed"
run=$(runs ok.db)
for f in report.html junit.xml summary.md; do [ -s "out/$run/$f" ] || fail "no $f"; done
grep -qx "report:  out/$run/report.html (and junit.xml, summary.md)" out.txt || fail "the summary does not name the report"

"$assay" run --quiet --no-report --store ok.db --out out ok.json >out.txt 2>err.txt || fail "--no-report run failed"
run=$(runs ok.db)
[ ! -e "out/$run/report.html" ] && [ ! -e "out/$run/junit.xml" ] && [ ! -e "out/$run/summary.md" ] ||
  fail "--no-report wrote a report"
! grep -q '^report:' out.txt || fail "--no-report announced a report"

# The workload deletes the store: the run still ends (SQLite keeps the open
# file), the report cannot be written.
suite gone '["sh", "-c", "rm -f gone.db gone.db-wal gone.db-shm"]'
set +e
"$assay" run --quiet --store gone.db --out out gone.json >out.txt 2>err.txt
rc=$?
set -e
[ $rc = 5 ] || { cat out.txt err.txt >&2; fail "a passed run whose report failed exited $rc, expected 5"; }
grep -q '^assay run: the report was not written: gone.db: no such store$' err.txt ||
  { cat err.txt >&2; fail "no report error on stderr"; }
grep -q '^exit 5 (infrastructure)$' out.txt || fail "the summary does not say exit 5"
grep -q '"exit_code": 0' out/*/summary.json || fail "summary.json does not keep the run's own outcome"

suite gone2 '["sh", "-c", "rm -f gone2.db gone2.db-wal gone2.db-shm; exit 7"]'
set +e
"$assay" run --quiet --store gone2.db --out out2 gone2.json >out.txt 2>err.txt
rc=$?
set -e
# With the rollback journal (docs/store.md) SQLite refuses to write a store
# whose file was deleted ("attempt to write a readonly database"), so the
# case cannot be recorded: infrastructure, exit 5 (in WAL mode it wrote on
# into the deleted file and the run kept its own exit 3).
[ $rc = 5 ] || { cat out.txt err.txt >&2; fail "a failed run whose store was deleted exited $rc, expected 5"; }
grep -q 'the report was not written' err.txt || fail "no report error on stderr (failed run)"

# A failed run whose report alone cannot be written (a folder stands where
# report.html goes) keeps its own exit code, 3.
suite noreport '["sh", "-c", "for d in out3/*/; do mkdir \"$d/report.html\"; done; exit 7"]'
set +e
"$assay" run --quiet --store noreport.db --out out3 noreport.json >out.txt 2>err.txt
rc=$?
set -e
[ $rc = 3 ] || { cat out.txt err.txt >&2; fail "a failed run whose report failed exited $rc, expected 3"; }
grep -q 'the report was not written' err.txt || { cat err.txt >&2; fail "no report error on stderr (failed run)"; }
echo ok
