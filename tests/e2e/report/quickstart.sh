#!/usr/bin/env bash
# The quickstart suite (configs/quickstart.json: assay-ep mpi and shm, BF16
# and FP8, decode and prefill at EP 2) in small shapes (hidden 256, decode
# 1/8/64 tokens, one prefill point of 128: this is the sanitized build on a
# loaded 2-core CI machine; the full-size cases are `make quickstart` and
# bench/), run twice with a temporary store and output folder and revisions
# rev-1 and rev-2, then `assay report` on the
# second run: every case is in report.html and junit.xml, junit.xml is valid
# against tests/report/junit.xsd with the counts of summary.json, the second
# run's history holds both revisions, and a canary secret (named by the
# suite, put in the revision label) is in no file under the output folder,
# the store or what assay printed. Leaves WORK for quickstart-render.
#   quickstart.sh ASSAY ASSAY_EP WORK
set -euo pipefail
assay=$1
assay_ep=$2
work=$3
src=${ASSAY_SOURCE_DIR:?}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
export ASSAY_E2E_REPORT_CANARY="c4n4ry-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
echo "$ASSAY_E2E_REPORT_CANARY" >"$work/canary"
# The quickstart suite in small shapes, plus the secret's name, and sanitized
# assay-ep ranks without leak checks (Open MPI's components leak at exit;
# see tests/e2e/ep/run-ep.sh). Relative paths stay relative to the source.
python3 - "$src/configs/quickstart.json" "$work/quickstart.json" <<'PY'
import json, sys
suite = json.load(open(sys.argv[1]))
suite["secrets"] = ["ASSAY_E2E_REPORT_CANARY"]
w = suite["sweep"]["workload"]
w["hidden"] = 256
w["token_ladders"] = {"decode": [1, 8, 64], "prefill": [128]}
suite["env"] = {"ASAN_OPTIONS": "detect_leaks=0"}
json.dump(suite, open(sys.argv[2], "w"), indent=1)
PY
cd "$src"
for rev in rev-1 "rev-2-$ASSAY_E2E_REPORT_CANARY"; do
  "$assay" run --quiet --store "$work/assay.db" --out "$work/out" --assay-ep "$assay_ep" \
    --revision "$rev" "$work/quickstart.json" >"$work/run.out" 2>"$work/run.err" ||
    { cat "$work/run.out" "$work/run.err" >&2; fail "assay run ($rev) failed"; }
done
run=$(sqlite3 -batch -noheader "$work/assay.db" "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1")
dir=$work/out/$run
# assay run wrote the report at the end.
for f in report.html junit.xml summary.md; do
  [ -s "$dir/$f" ] || fail "assay run did not write $f"
done
grep -q "^report:  $dir/report.html" "$work/run.out" || fail "the summary does not say where the report is"

# assay report builds it again, elsewhere.
"$assay" report --store "$work/assay.db" --out "$work/report" >"$work/report.out" 2>&1 ||
  { cat "$work/report.out" >&2; fail "assay report failed"; }
rep=$work/report
python3 - "$dir" "$rep" <<'PY' || fail "a case is missing"
import json, sys
d, rep = sys.argv[1], sys.argv[2]
ids = [c["case_id"] for c in json.load(open(d + "/summary.json"))["cases"]]
html, junit = open(rep + "/report.html").read(), open(rep + "/junit.xml").read()
missing = [i for i in ids if f"<code>{i}</code>" not in html or f'name="{i}"' not in junit]
assert len(ids) == 8 and not missing, (len(ids), missing)
PY
xmllint --noout --schema "$src/tests/report/junit.xsd" "$rep/junit.xml" 2>"$work/xsd.txt" ||
  { cat "$work/xsd.txt" >&2; fail "junit.xml is not valid against junit.xsd"; }
attr() { xmllint --xpath "string(/testsuites/testsuite/@$1)" "$rep/junit.xml"; }
want=$("$src/tests/report/junit-counts.py" "$dir/summary.json")
got="$(attr tests) $(attr failures) $(attr errors) $(attr skipped)"
[ "$got" = "$want" ] || fail "junit counts (tests failures errors skipped): got $got, want $want"
"$src/tests/report/junit-names.py" "$rep/junit.xml" || fail "junit testcase names repeat"

# History: the second run's series have both revisions, this run's ringed.
grep -q '<section id="history"><h2>History <small>64 series' "$rep/report.html" ||
  fail "no history of 64 series (roundtrip p50, p99, bandwidth, max_relative_error of 16 points)"
grep -q '>rev-1</text>' "$rep/report.html" || fail "the history charts do not show rev-1"
grep -q '>rev-2-\*\*\*</text>' "$rep/report.html" || fail "the history charts do not show rev-2 (redacted)"
grep -q 'History: 64 series' "$rep/summary.md" || fail "summary.md does not count the history"
# EP charts for both phases.
grep -q '>decode roundtrip latency</text>' "$rep/report.html" || fail "no decode latency chart"
grep -q '>prefill roundtrip bandwidth per rank</text>' "$rep/report.html" || fail "no prefill bandwidth chart"

# The canary is nowhere.
if grep -rlF -- "$ASSAY_E2E_REPORT_CANARY" "$work/out" "$rep" "$work"/assay.db* "$work"/run.* "$work/report.out"; then
  fail "the canary was written to the files above"
fi
echo "ok: $run, report in $rep"
