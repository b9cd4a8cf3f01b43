#!/usr/bin/env bash
# `assay report` on a synthetic store (tests/report/report_store: 40 cases
# with every outcome, EP ladders and training rows made by the real parsers,
# three revisions): what it prints, summary.md against the golden
# store-report.md (run id and end time masked), every case in report.html
# and junit.xml, junit.xml valid against junit.xsd with the right counts, a
# canary secret the store holds redacted in all three files, links that
# resolve when the report is written elsewhere, and the warning when a secret
# is not set.
# On PostgreSQL (store-report@pg) the generated file is moved into a
# database with `assay store copy` and reported from there: the same
# golden files hold.
#   store-report.sh ASSAY REPORT_STORE
set -euo pipefail
assay=$1
gen=$2
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-store-report.XXXXXX)
. "$src/tests/lib/store.sh"
trap 'store_cleanup; rm -rf "$T"' EXIT
cd "$T"
store_init "$T"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

canary="c4n4ry-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
run=$("$gen" --cases 40 --runs 3 --secret "$canary" s.db out)
S=s.db
if [ "$(store_backend)" != sqlite ]; then
  S=$(store_new report)
  "$assay" store copy s.db "$S" >/dev/null || fail "store copy into $S failed"
fi
dir=out/$run
REPORT_STORE_SECRET=$canary "$assay" report --store "$S" >stdout.txt 2>stderr.txt ||
  { cat stderr.txt >&2; fail "assay report failed"; }
printf 'report of run %s (suite synthetic, exit 3 workload-failed): 40 cases\n  %s/report.html\n  %s/junit.xml\n  %s/summary.md\n' \
  "$run" "$dir" "$dir" "$dir" >want.txt
diff -u want.txt stdout.txt || fail "stdout differs"
[ ! -s stderr.txt ] || { cat stderr.txt >&2; fail "stderr is not empty"; }

# summary.md: the golden file, with the run id and the end time masked.
sed -e "s/$run/RUN/g" -e 's/ended [0-9TZ:-]*\./ended END./' "$dir/summary.md" >summary.md
diff -u "$src/tests/report/store-report.md" summary.md || fail "summary.md differs from the golden file"

# Every case, by the ids summary.json lists.
python3 - "$dir" <<'PY' || fail "a case is missing"
import json, sys
d = sys.argv[1]
ids = [c["case_id"] for c in json.load(open(d + "/summary.json"))["cases"]]
html, junit = open(d + "/report.html").read(), open(d + "/junit.xml").read()
missing = [i for i in ids if f'<code>{i}</code>' not in html or f'name="{i}"' not in junit]
assert len(ids) == 40 and not missing, missing
PY

# JUnit: valid, and the counts of the outcomes.
xmllint --noout --schema "$src/tests/report/junit.xsd" "$dir/junit.xml" 2>xsd.txt ||
  { cat xsd.txt >&2; fail "junit.xml is not valid against junit.xsd"; }
attr() { xmllint --xpath "string(/testsuites/testsuite/@$1)" "$dir/junit.xml"; }
want=$("$src/tests/report/junit-counts.py" "$dir/summary.json")
got="$(attr tests) $(attr failures) $(attr errors) $(attr skipped)"
[ "$got" = "$want" ] || fail "junit counts (tests failures errors skipped): got $got, want $want"
"$src/tests/report/junit-names.py" "$dir/junit.xml" || fail "junit testcase names repeat"

# The canary the store holds is redacted everywhere, and the redaction shows.
if grep -l -- "$canary" "$dir"/report.html "$dir"/junit.xml "$dir"/summary.md; then
  fail "the canary reached the files above"
fi
grep -q 'timed out; token \*\*\*' "$dir/report.html" || fail "no redacted reason in report.html"

# Written elsewhere: links climb back to the run folder and resolve.
"$assay" report --store "$S" --out elsewhere/r "$run" >/dev/null 2>stderr.txt
grep -q "assay report: secret REPORT_STORE_SECRET is not set here" stderr.txt ||
  fail "no warning about the unset secret"
href=$(grep -o 'href="[^"#]*stdout.log"' elsewhere/r/report.html | head -1 | sed 's/href="//; s/"$//')
case $href in ../../out/"$run"/*) ;; *) fail "link $href is not relative to elsewhere/r" ;; esac
[ -f "elsewhere/r/$href" ] || fail "link $href does not resolve"
echo ok
